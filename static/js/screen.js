// The projector (tournaments:screen): every few seconds it asks for the page it shows with the
// tag of what it shows (If-None-Match); "304 Not Modified" while nothing changed, else the new
// page, whose #screen replaces the old one in place (no reload, no flash, the scroll kept).
// A big tournament does not fit one screen: the page says how many screens it has, and every
// few seconds the next one is asked for instead, from the first again after the last.
// Nothing is asked while the page is hidden. Without JavaScript a <noscript> refresh reloads.
(function () {
  "use strict";

  var screen = document.getElementById("screen");
  if (!screen || !window.fetch || !window.DOMParser || !window.URL) { return; }
  var every = (parseInt(screen.dataset.every, 10) || 4) * 1000;
  var etag = screen.dataset.etag || "";  // the tag of the page as drawn
  var busy = false;
  var turned = Date.now();

  function address(page) {
    var url = new URL(window.location.href);
    url.searchParams.set("page", String(page));
    return url.toString();
  }

  function poll() {
    if (busy || document.hidden) { return; }
    var shown = document.getElementById("screen");
    var page = parseInt(shown.dataset.page, 10) || 1;
    var pages = parseInt(shown.dataset.pages, 10) || 1;
    var turn = (parseInt(shown.dataset.turn, 10) || 15) * 1000;
    var next = pages > 1 && Date.now() - turned >= turn;
    busy = true;
    var headers = etag && !next ? { "If-None-Match": etag } : {};
    fetch(address(next ? page % pages + 1 : page), { headers: headers, cache: "no-store", credentials: "same-origin" })
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
            if (next) { turned = Date.now(); }
          }
        });
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }

  window.setInterval(poll, every);
  document.addEventListener("visibilitychange", poll);
})();
