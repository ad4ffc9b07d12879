// The card picker: tap cards or tiles to fill a player's "cards left" field.
// Without JavaScript the field is typed instead (e.g. "KH 5S JK"), so nothing here is required.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("[data-picker-for]").forEach(function (button) { button.hidden = false; });
  }

  function picker() { return document.getElementById("picker"); }

  function target() {
    var p = picker();
    return p && p.dataset.target ? document.getElementById(p.dataset.target) : null;
  }

  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function close() {
    var p = picker();
    if (!p) { return; }
    p.hidden = true;
    document.querySelectorAll("[data-picker-for]").forEach(function (b) { b.setAttribute("aria-expanded", "false"); });
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest("button");
    if (!el) { return; }
    var p = picker();
    if (el.dataset.pickerFor) {
      var open = !p.hidden && p.dataset.target === el.dataset.pickerFor;
      close();
      if (!open) {
        p.dataset.target = el.dataset.pickerFor;
        el.insertAdjacentElement("afterend", p);
        p.hidden = false;
        el.setAttribute("aria-expanded", "true");
      }
      return;
    }
    var input = target();
    if (!input || !p.contains(el)) { return; }
    if (el.dataset.card) {
      input.value = (input.value.trim() + " " + el.dataset.card).trim();
      changed(input);
    } else if (el.hasAttribute("data-picker-undo")) {
      input.value = input.value.trim().split(/[\s,]+/).slice(0, -1).join(" ");
      changed(input);
    } else if (el.hasAttribute("data-picker-clear")) {
      input.value = "";
      changed(input);
    } else if (el.hasAttribute("data-picker-close")) {
      close();
    }
  });

  // A save that never reached the server (flaky Wi-Fi): say so; the form keeps what was typed,
  // and its request id makes the retry record the hand once.
  function offline(event, show) {
    var form = event.target.closest && event.target.closest("form");
    var note = form && form.querySelector(".offline");
    if (note) { note.hidden = !show; }
  }
  document.addEventListener("htmx:sendError", function (event) { offline(event, true); });
  document.addEventListener("htmx:timeout", function (event) { offline(event, true); });
  document.addEventListener("htmx:beforeRequest", function (event) { offline(event, false); });

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSettle", function (event) { reveal(event.target); });
})();
