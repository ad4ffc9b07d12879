// The live view: a game page follows the game while other phones record hands.
//
// Every few seconds (and at once when the phone wakes, comes back online or the tab gets the
// focus) it asks the page's live address (data-live-url: the game's /live/ view) with the tag of
// what it shows (If-None-Match: #game-body's data-live-etag); "304 Not Modified" while nothing
// changed, else the new #game-body and #game-end, which replace the old ones. Nothing is asked
// while the page is hidden. A hand form in use (typed into, focused, being saved, or drawn again
// with an error) is never replaced: the rest is, and the status line says the sheet moved on.
// A #game-body without a tag (the conflict screen) is not followed at all.
// Without JavaScript the page is a plain page: a reload shows the latest.
(function () {
  "use strict";

  var status = document.getElementById("live-status");
  if (!status || !status.dataset.liveUrl || !window.fetch) { return; }

  var URL_ = status.dataset.liveUrl;
  var EVERY = 3000;      // ms between polls while all is well
  var MOST = 60000;      // the longest wait after repeated failures
  var TIMEOUT = 10000;   // a poll that takes longer is given up (a socket dead after sleep)

  var etag = "";         // the tag of what the page shows
  var timer = null;
  var inflight = null;   // {abort: AbortController|null}
  var again = false;     // asked to poll while a poll was running
  var failures = 0;
  var saving = 0;        // htmx saves under way that will redraw #game-body
  var redrawn = 0;       // how many times a save redrew #game-body
  var behind = false;    // the hand form shown is older than the sheet (kept while in use)
  var clearing = null;
  var saying = null;
  var stopped = false;

  function body() { return document.getElementById("game-body"); }

  // A #game-body drawn without a tag is a screen waiting for the user (two versions of one
  // hand: the conflict screen): it is left alone until a save draws the sheet again.
  function followed() {
    var b = body();
    return !!b && b.hasAttribute("data-live-etag");
  }

  function readTag() {
    var b = body();
    var t = b && b.getAttribute("data-live-etag");
    if (t) { etag = t; }
  }

  // --- the status line (role=status: read out politely) -------------------------------------

  function say(text, sticky) {
    if (clearing) { clearTimeout(clearing); clearing = null; }
    if (saying) { clearTimeout(saying); saying = null; }
    status.textContent = "";
    status.removeAttribute("data-kind");
    if (!text) { return; }
    // Emptied first, then set: the same words said twice are read out twice.
    saying = setTimeout(function () {
      saying = null;
      status.textContent = text;
      status.setAttribute("data-kind", sticky || "note");
    }, 50);
    if (!sticky) {
      clearing = setTimeout(function () { if (status.getAttribute("data-kind") === "note") { say(""); } }, 10000);
    }
  }

  // --- forms in use ------------------------------------------------------------------------

  // A form typed into is marked (data-dirty); the card picker fills fields with input events too.
  function markDirty(event) {
    var field = event.target;
    var form = field && (field.form || (field.closest && field.closest("form")));
    var b = body();
    if (form && b && b.contains(form)) { form.setAttribute("data-dirty", ""); }
  }
  document.addEventListener("input", markDirty, true);
  document.addEventListener("change", markDirty, true);

  function inUse(form) {
    return form.hasAttribute("data-dirty") ||
      form.contains(document.activeElement) ||
      form.classList.contains("htmx-request") ||
      form.querySelector(".htmx-request") !== null ||
      // a refused save drawn again with what was typed and its errors
      form.querySelector(".errors, .error:not([hidden])") !== null;
  }

  // The child of #game-body holding a form in use, if any.
  function keptPart(b) {
    var forms = b.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) {
      if (inUse(forms[i])) { return topChild(b, forms[i]); }
    }
    return null;
  }

  function topChild(root, node) {
    while (node && node.parentNode !== root) { node = node.parentNode; }
    return node;
  }

  function dirty(part) {
    return part.querySelector("form[data-dirty], .errors, .error:not([hidden])") !== null ||
      (part.matches && part.matches("form[data-dirty]"));
  }

  // --- putting the new parts in ------------------------------------------------------------

  function swapIn(old, fresh) {
    if (window.htmx && window.htmx.swap) {
      // As a save's answer is put in: htmx wires the new parts and fires afterSwap/afterSettle,
      // which the page's other scripts (the card picker...) listen to.
      window.htmx.swap(old, fresh.outerHTML, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 }, {});
    } else {
      old.replaceWith(fresh);
    }
  }

  // Replace everything in #game-body but the part in use, which stays where it is (moving it
  // would take the focus, and the keyboard, from the user's fingers).
  function keepAround(old, fresh, kept) {
    var nodes = Array.prototype.slice.call(fresh.childNodes);
    var form = fresh.querySelector("form");
    var twin = form ? topChild(fresh, form) : null;
    var at = twin ? nodes.indexOf(twin) : -1;
    if (at < 0) {  // no form now (the game ended, the edit right went): keep it above the sheet
      var sheet = fresh.querySelector(".sheet-wrap, table");
      var top = sheet ? topChild(fresh, sheet) : null;
      at = top ? nodes.indexOf(top) : nodes.length;
      nodes.splice(at, 0, null);
    }
    Array.prototype.slice.call(old.childNodes).forEach(function (n) { if (n !== kept) { old.removeChild(n); } });
    nodes.forEach(function (n, i) {
      if (i === at || n === null) { return; }
      if (i < at) { old.insertBefore(n, kept); } else { old.appendChild(n); }
    });
    old.setAttribute("data-live-etag", fresh.getAttribute("data-live-etag") || "");
    if (window.htmx && window.htmx.process) { window.htmx.process(old); }
  }

  function apply(html) {
    // Parsed as a document of its own: inert (nothing in it runs or loads).
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("game-body");
    var old = body();
    if (!fresh || !old || !followed()) { return false; }
    var kept = keptPart(old);
    if (kept) {
      keepAround(old, fresh, kept);
      behind = true;
      if (dirty(kept)) { say(status.dataset.liveKept, "kept"); } else { say(status.dataset.liveUpdated); }
    } else {
      swapIn(old, fresh);
      behind = false;
      say(status.dataset.liveUpdated);
    }
    var end = doc.getElementById("game-end");
    var oldEnd = document.getElementById("game-end");
    if (end && oldEnd && !oldEnd.contains(document.activeElement)) { swapIn(oldEnd, end); }
    // The forms drawn now carry the token of the current CSRF secret: htmx sends it too.
    var token = doc.querySelector("input[name=csrfmiddlewaretoken]");
    if (token && token.value) {
      document.body.setAttribute("hx-headers", JSON.stringify({ "X-CSRFToken": token.value }));
    }
    document.dispatchEvent(new CustomEvent("live:updated", { detail: { kept: !!kept } }));
    return true;
  }

  // --- polling -----------------------------------------------------------------------------

  function schedule() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (stopped || document.hidden) { return; }
    var wait = failures ? Math.min(EVERY * Math.pow(2, failures), MOST) : EVERY;
    timer = setTimeout(function () { poll(false); }, wait);
  }

  function poll(force) {
    if (stopped) { return; }
    if (inflight) { again = true; return; }
    if (timer) { clearTimeout(timer); timer = null; }
    if (document.hidden) { return; }
    if (!followed()) { schedule(); return; }
    readTag();
    var control = window.AbortController ? new AbortController() : null;
    var guard = setTimeout(function () { if (control) { control.abort(); } }, TIMEOUT);
    var mine = { abort: control, woken: false, redrawn: redrawn };
    inflight = mine;
    var headers = { "Accept": "text/html" };
    if (etag && !force) { headers["If-None-Match"] = etag; }
    fetch(URL_, {
      cache: "no-store",  // the tag is sent here, not by the browser's cache: 304 comes to us
      credentials: "same-origin",
      headers: headers,
      signal: control ? control.signal : undefined
    }).then(function (response) {
      if (window.rummyClock) { window.rummyClock.sync(response.headers.get("Date")); }  // clock.js
      if (response.status === 304) { return null; }
      if (response.status === 404) { stopped = true; return null; }  // the game is gone
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.text().then(function (text) { return { text: text, tag: response.headers.get("ETag") }; });
    }).then(function (got) {
      if (failures >= 2) { say(""); }
      failures = 0;
      // Not while a save is under way, nor if one redrew the page since this poll was sent
      // (the answer may show the game as it was before that save).
      if (got && !saving && mine.redrawn === redrawn) {
        if (apply(got.text) && got.tag) { etag = got.tag; }
      }
    }).catch(function () {
      if (mine.woken) { return; }  // given up by now(): a new poll follows at once
      failures += 1;
      if (failures === 2) { say(status.dataset.liveOffline, "offline"); }
    }).then(function () {
      clearTimeout(guard);
      inflight = null;
      if (again) { again = false; poll(false); } else { schedule(); }
    });
  }

  // Now, not in three seconds: the phone woke, came back online, or the tab was chosen again.
  function now() {
    if (inflight) {
      // Maybe a request sent before the sleep, on a socket dead since: give it up, ask anew.
      if (inflight.abort) { inflight.woken = true; inflight.abort.abort(); }
      again = true;
      return;
    }
    poll(false);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      if (timer) { clearTimeout(timer); timer = null; }
    } else {
      now();
    }
  });
  window.addEventListener("online", now);
  window.addEventListener("focus", now);
  window.addEventListener("pageshow", function (event) { if (event.persisted) { now(); } });

  // A save (htmx) redraws #game-body itself, with the new tag: no poll may put an older one in
  // meanwhile, and what it drew is not news from another phone.
  function savesBody(event) {
    var target = event.detail && event.detail.target;
    return !!target && target.id === "game-body";
  }
  document.addEventListener("htmx:beforeRequest", function (event) { if (savesBody(event)) { saving += 1; } });
  ["htmx:afterRequest", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (savesBody(event)) { saving = Math.max(0, saving - 1); }
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.id === "game-body") {
      redrawn += 1;
      behind = false;
      readTag();
      if (status.getAttribute("data-kind") === "kept") { say(""); }
    }
  });

  // A form kept while focused but never typed into: once the user leaves it, draw it anew.
  document.addEventListener("focusout", function () {
    if (!behind) { return; }
    setTimeout(function () {
      var b = body();
      if (behind && b && !keptPart(b)) { poll(true); }
    }, 0);
  });

  readTag();
  schedule();
})();
