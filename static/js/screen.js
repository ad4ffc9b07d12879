// The projector (tournaments:screen): every few seconds it asks the same address with the tag
// of what it shows (If-None-Match); "304 Not Modified" while nothing changed, else the new
// page, whose #screen replaces the old one in place (no reload, no flash, the scroll kept).
// Nothing is asked while the page is hidden. Without JavaScript a <noscript> refresh reloads.
(function () {
  "use strict";

  var screen = document.getElementById("screen");
  if (!screen || !window.fetch || !window.DOMParser) { return; }
  var every = (parseInt(screen.dataset.every, 10) || 4) * 1000;
  var etag = screen.dataset.etag || "";  // the tag of the page as drawn
  var busy = false;

  function poll() {
    if (busy || document.hidden) { return; }
    busy = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(window.location.href, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        var tag = response.headers.get("ETag");
        if (window.rummyClock) { window.rummyClock.sync(response.headers.get("Date")); }  // clock.js
        if (response.status === 304) { return null; }
        if (!response.ok) { return null; }
        return response.text().then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("screen");
          if (fresh) {
            document.getElementById("screen").replaceWith(fresh);
            if (tag) { etag = tag; }
          }
        });
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }

  window.setInterval(poll, every);
  document.addEventListener("visibilitychange", poll);
})();
