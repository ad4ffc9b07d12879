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
    document.body.classList.remove("picker-open");
    document.querySelectorAll("[data-picker-for]").forEach(function (b) { b.setAttribute("aria-expanded", "false"); });
  }

  // The picker's head: how many cards were tapped, and the field's count (points) as the page
  // shows it under the field, so both stay in view while the sheet covers the form.
  function countBox(input) {
    var sel = input && input.getAttribute("hx-target");
    return sel ? document.querySelector(sel) : null;
  }

  function status() {
    var p = picker();
    var input = target();
    if (!p || !input) { return; }
    var tokens = input.value.split(/[\s,|]+/).filter(function (t) { return t !== ""; });
    p.querySelector(".picker-n strong").textContent = String(tokens.length);
    var box = countBox(input);
    var shown = p.querySelector(".picker-count");
    shown.replaceChildren.apply(shown, box ? Array.prototype.map.call(box.childNodes, function (node) {
      return node.cloneNode(true);
    }) : []);
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
        document.body.classList.add("picker-open");
        el.setAttribute("aria-expanded", "true");
        var field = target();
        p.querySelector("[data-picker-meld]").hidden = !(field && field.hasAttribute("data-melds"));
        status();
        // The field near the top, above the sheet that now covers the bottom of the screen.
        if (field) { window.scrollBy(0, field.getBoundingClientRect().top - 96); }
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
    } else if (el.hasAttribute("data-picker-meld")) {
      // A new meld: the separator the typed field uses (AS 2S 3S | 7H 7D 7C).
      var text = input.value.trim();
      if (text && text.slice(-1) !== "|") { input.value = text + " |"; changed(input); }
    } else if (el.hasAttribute("data-picker-close")) {
      close();
      var opener = document.querySelector("[data-picker-for='" + input.id + "']");
      if (opener) { opener.focus(); }
    }
    status();
  });

  // The count under the field was redrawn (htmx): show it in the picker's head too.
  document.addEventListener("htmx:afterSwap", function (event) {
    var p = picker();
    if (p && !p.hidden && event.target === countBox(target())) { status(); }
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
  document.addEventListener("live:updated", function () { reveal(document); });  // live.js redrew the sheet
})();
