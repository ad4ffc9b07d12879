// Behaviour every page shares, kept out of the HTML so the Content Security Policy can forbid
// inline script. Both are conveniences: without JavaScript the buttons next to them do the same.
(function () {
  "use strict";
  // A select that applies itself when changed (the language switcher).
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) { el.form.submit(); }
  });
  // A read-only field holding a link: one tap selects all of it, ready to copy.
  document.addEventListener("click", function (event) {
    var el = event.target;
    if (el.matches && el.matches("input[data-select-all]")) { el.select(); }
  });
})();
