// New game: tapping a roster name seats that player in the first empty seat (or takes him out
// if he is seated already). The names can always be typed instead; this only saves typing.
(function () {
  "use strict";
  var buttons = document.querySelectorAll("[data-seat-name]");
  var seats = document.querySelectorAll("input[name^='player_']");
  function refresh() {
    var taken = {};
    seats.forEach(function (input) { taken[input.value.trim().toLowerCase()] = true; });
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed", taken[button.dataset.seatName.toLowerCase()] ? "true" : "false");
    });
  }
  buttons.forEach(function (button) {
    button.addEventListener("click", function () {
      var name = button.dataset.seatName;
      var seated = Array.prototype.find.call(seats, function (input) {
        return input.value.trim().toLowerCase() === name.toLowerCase();
      });
      if (seated) {
        seated.value = "";
      } else {
        var empty = Array.prototype.find.call(seats, function (input) { return !input.value.trim(); });
        if (empty) { empty.value = name; }
      }
      refresh();
    });
  });
  seats.forEach(function (input) { input.addEventListener("input", refresh); });
  refresh();
  // Choosing the club shows its players at once (without JavaScript, a button does it).
  var club = document.getElementById("club-choice");
  if (club) { club.addEventListener("change", function () { club.form.submit(); }); }
})();
