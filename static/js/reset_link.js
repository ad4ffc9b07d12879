// The reset link carries its token after "#", which browsers never send to the server (so it is
// in no access log). Put it in the form, which posts it with the new password; without JavaScript
// the page asks for the link to be pasted instead.
(function () {
  "use strict";
  var field = document.getElementById("reset-link-token");
  var token = window.location.hash.slice(1);
  if (!field || !token) { return; }
  // Out of the address bar and the history, so it is not shared by mistake with the page address.
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  try { token = decodeURIComponent(token); } catch (e) { /* keep it as it is */ }
  field.value = token;
  var paste = document.getElementById("reset-link-paste");
  if (paste) { paste.hidden = true; }
})();
