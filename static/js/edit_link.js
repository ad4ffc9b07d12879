// The edit link and the invite link carry their token after "#", which browsers never send to
// the server (so it is in no access log). Post it, with the page's CSRF token, and let the
// server check it; without JavaScript the page asks for the link to be pasted instead.
(function () {
  "use strict";
  var form = document.getElementById("edit-link-form");
  var field = document.getElementById("edit-link-token");
  var token = window.location.hash.slice(1);
  if (!form || !field || !token || form.querySelector("[role=alert]")) { return; }
  // Out of the address bar and the history, so it is not shared by mistake with the page address.
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  try { token = decodeURIComponent(token); } catch (e) { /* keep it as it is */ }
  field.value = token;
  form.hidden = true;
  var opening = document.getElementById("edit-link-opening");
  if (opening) { opening.hidden = false; }
  form.submit();
})();
