// After a save (docs/design/table.md, "After a save"): the page shows the game's body from
// its top (the saved line, the new totals, the next hand's first choice), focus moves to the
// saved line, and its text (an elimination too) is read out by the #announce live region.
// Without JavaScript the save redirects and the page opens at the top: nothing here is needed.
(function () {
  "use strict";

  function show(line) {
    if (!line || line.dataset.shown) { return; }
    line.dataset.shown = "1";
    var body = document.getElementById("game-body");
    if (body) {
      var top = body.getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top: Math.max(0, top - 8), behavior: "instant" });
    }
    line.focus({ preventScroll: true });
    var announce = document.getElementById("announce");
    var text = line.querySelector("p");
    if (announce && text) {
      announce.textContent = "";
      // A change after the region is in the page is what screen readers read out.
      window.setTimeout(function () { announce.textContent = text.textContent; }, 50);
    }
  }

  document.addEventListener("htmx:afterSettle", function () {
    show(document.getElementById("saved-line"));
  });
  document.addEventListener("DOMContentLoaded", function () {
    var line = document.getElementById("saved-line");
    if (line) { line.dataset.shown = "1"; }  // a page load opens at the top already
    var announce = document.getElementById("announce");
    var text = line && line.querySelector("p");
    if (announce && text) { window.setTimeout(function () { announce.textContent = text.textContent; }, 50); }
  });
})();
