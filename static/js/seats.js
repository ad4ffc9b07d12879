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
  // The first-dealer choice names each seat by the name typed there (an empty seat keeps its
  // number, as the server drew it).
  var dealer = document.querySelector("select[name='first_dealer']");
  function relabel() {
    if (!dealer) { return; }
    Array.prototype.forEach.call(dealer.options, function (option, index) {
      var input = seats[index];
      var name = input ? input.value.trim().replace(/\s+/g, " ") : "";
      option.textContent = name || dealer.dataset.seatLabel.replace("%s", String(index + 1));
    });
  }
  seats.forEach(function (input) {
    input.addEventListener("input", refresh);
    input.addEventListener("input", relabel);
  });
  buttons.forEach(function (button) { button.addEventListener("click", relabel); });
  refresh();
  relabel();
  // The house rules' summary: what differs from the defaults, kept up to date as they change.
  var diff = document.querySelector(".house-rules .rules-diff");
  var rules = document.querySelectorAll(".house-rules [data-default]");
  function summarize() {
    var changed = [];
    rules.forEach(function (input) {
      var label = document.querySelector("label[for='" + input.id + "']");
      var text = label ? label.textContent.trim() : input.name;
      if (input.type === "checkbox") {
        if ((input.checked ? "1" : "0") !== input.dataset.default) {
          changed.push(text + ": " + (input.checked ? diff.dataset.yes : diff.dataset.no));
        }
      } else if (input.value.trim() !== input.dataset.default) {
        var shown = input.tagName === "SELECT" ? input.options[input.selectedIndex].textContent : input.value.trim();
        changed.push(text + ": " + shown);
      }
    });
    diff.textContent = changed.length ? changed.join("; ") : diff.dataset.standard;
  }
  if (diff) {
    rules.forEach(function (input) {
      input.addEventListener("input", summarize);
      input.addEventListener("change", summarize);
    });
  }
  // Choosing the club shows its players at once (without JavaScript, a button does it).
  var club = document.getElementById("club-choice");
  if (club) { club.addEventListener("change", function () { club.form.submit(); }); }
})();
