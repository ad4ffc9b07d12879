// A tick that empties a player's hand (gin: the knocker has no deadwood; its data-empties names
// the role of that player): his count may stay empty (the server takes 0; the form says so
// under the tick). Here his points field also shows 0. Without JavaScript nothing is lost: the
// hint is on the page and the server does the rest.
(function () {
  "use strict";

  function update(form) {
    var tick = form.querySelector("input[data-empties]");
    if (!tick) { return; }
    var chosen = form.querySelector("input[name='" + tick.dataset.empties + "']:checked");
    form.querySelectorAll("fieldset.player").forEach(function (fieldset) {
      var legend = fieldset.querySelector("legend");
      var points = fieldset.querySelector("input[name^='points_']");
      if (!legend || !points) { return; }
      var implied = tick.checked && chosen && legend.textContent.trim() === chosen.value;
      if (implied) {
        points.setAttribute("placeholder", "0");
        points.setAttribute("aria-describedby", tick.id + "-hint");
      } else if (points.getAttribute("placeholder") === "0") {
        points.removeAttribute("placeholder");
        points.removeAttribute("aria-describedby");
      }
    });
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form.hand-form");
    if (form) { update(form); }
  });
  function all() { document.querySelectorAll("form.hand-form").forEach(update); }
  document.addEventListener("DOMContentLoaded", all);
  document.addEventListener("htmx:afterSettle", all);

  // The notice "this hand ends the game" (the ending preview the server sends) arrived or went: Save says so.
  document.addEventListener("htmx:afterSwap", function (event) {
    var box = event.target;
    if (!box || box.id !== "hand-ending") { return; }
    var label = box.closest("form") && box.closest("form").querySelector("#save-label");
    if (!label) { return; }
    label.textContent = box.querySelector(".ends-game") ? label.dataset.end : label.dataset.save;
  });
})();
