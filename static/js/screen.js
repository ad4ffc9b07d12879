// The projector (tournaments:screen): every few seconds it asks for the page it shows with the
// tag of what it shows (If-None-Match); "304 Not Modified" while nothing changed, else the new
// page, whose #screen replaces the old one in place (no reload, no flash, the scroll kept).
// A big tournament does not fit one screen: the page says how many screens it has, and every
// few seconds the next one is asked for instead, from the first again after the last.
// Nothing is asked while the page is hidden. Without JavaScript a <noscript> refresh reloads.
// On a projector every row shown must fit the screen with its note (nobody scrolls it): when
// the standings reach below it, the page asks for as many rows a screen as fit (?rows=), at
// least one a column; then #screen gets data-fitted.
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

  // The standings rows a screen has room for (side by side, the columns share them alike),
  // or 0 when every row shown fits.
  function roomFor(shown) {
    var hint = shown.querySelector(".screen-refresh");
    var limit = window.innerHeight - (hint ? hint.offsetHeight : 0);
    var columns = shown.querySelectorAll(".screen-standings tbody");
    var sideBySide = columns.length > 1 &&
      Math.abs(columns[0].getBoundingClientRect().top - columns[1].getBoundingClientRect().top) < 2;
    var least = Infinity;
    var total = 0;
    var over = false;
    Array.prototype.forEach.call(columns, function (body) {
      var count = 0;
      Array.prototype.forEach.call(body.rows, function (row) {
        if (row.classList.contains("note")) { return; }  // counted with the row above it
        var bottom = row.getBoundingClientRect().bottom;
        var note = row.nextElementSibling;
        if (note && note.classList.contains("note")) {
          bottom = Math.max(bottom, note.getBoundingClientRect().bottom);
        }
        if (bottom <= limit) { count += 1; } else { over = true; }
      });
      least = Math.min(least, count);
      total += count;
    });
    if (!over) { return 0; }
    return Math.max(2, sideBySide ? least * 2 : total);
  }

  // Only on a projector's screen (screen.css's wide layout): a phone opening this page scrolls.
  var projector = window.matchMedia ? window.matchMedia("(min-width: 75rem)") : { matches: true };

  function fit() {
    var shown = document.getElementById("screen");
    var rows = projector.matches ? roomFor(shown) : 0;
    var asked = parseInt(shown.dataset.rows, 10) || 0;
    if (rows && rows < asked) {
      var url = new URL(window.location.href);
      url.searchParams.set("rows", String(rows));
      url.searchParams.set("page", "1");
      window.location.replace(url.toString());
      return;
    }
    shown.dataset.fitted = "1";
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
            fit();
            if (tag) { etag = tag; }
            if (next) { turned = Date.now(); }
          }
        });
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }

  fit();
  window.setInterval(poll, every);
  document.addEventListener("visibilitychange", poll);
})();
