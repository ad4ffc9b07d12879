// Hands saved without a connection (docs/design/offline.md).
// A hand saved while the phone is offline, or whose save never reached the server, is kept on
// the phone (IndexedDB) with its request id and sent when the connection is back, in order:
// the request id makes the server record it exactly once, however often it is sent. The form
// is made ready for the next hand (a new request id, the next hand number), and the page says
// how many hands are waiting (#offline-queue, its texts come translated from the template).
// When the queue is empty again, the score sheet is drawn from the server's last answer; if the
// server answers with something else than a saved hand (another phone recorded that hand,
// a count it refuses), that answer is shown and the hands after it keep waiting.
// Without IndexedDB nothing is queued and table.js says the hand was not saved.
(function () {
  "use strict";
  var DB_NAME = "rummy-offline";
  var STORE = "hands";
  var RETRY_MS = 15000;
  var status = document.getElementById("offline-queue");
  var usable = !!(window.indexedDB && window.Promise && window.fetch && status);
  var pending = 0;   // hands of this game waiting, as last counted
  var draining = false;
  var refused = false;
  var lastPlace = null;  // the highest for_hand waiting (null: none, or the form has no such field)
  var serverPlace = null;  // the for_hand of the last new-hand form the server drew
  var held = false;  // a hand's answer (conflict screen, errors) is shown: wait for the user
  var again = false;  // asked to send while sending

  // -------------------------------------------------------------------- IndexedDB

  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = window.indexedDB.open(DB_NAME, 1);
        request.addEventListener("upgradeneeded", function () {
          var store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
          store.createIndex("game", "game");
        });
        request.addEventListener("success", function () { resolve(request.result); });
        request.addEventListener("error", function () { reject(request.error); });
      });
    }
    return opened;
  }

  function run(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var tx = database.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.addEventListener("complete", function () { resolve(result.value); });
        tx.addEventListener("error", function () { reject(tx.error); });
        tx.addEventListener("abort", function () { reject(tx.error); });
      });
    });
  }

  // The game a form address belongs to (/cs/g/<id>/hands/ and /g/<id>/hands/ alike).
  function gameOf(url) {
    var match = /\/g\/([^/]+)\/hands\/$/.exec(new URL(url, window.location.href).pathname);
    return match ? match[1] : url;
  }

  // The hands waiting for one game (its form's address), oldest first.
  function waiting(url) {
    return run("readonly", function (store) {
      var out = { value: [] };
      store.index("game").openCursor(window.IDBKeyRange.only(gameOf(url))).addEventListener("success", function (event) {
        var cursor = event.target.result;
        if (cursor) { out.value.push(cursor.value); cursor.continue(); }
      });
      return out;
    }).then(function (items) {
      // A hand settled by the user after the server refused it goes before the rest.
      return items.sort(function (a, b) { return (b.first ? 1 : 0) - (a.first ? 1 : 0) || a.id - b.id; });
    });
  }

  function add(item) { return run("readwrite", function (store) { store.add(item); return { value: null }; }); }
  function remove(id) { return run("readwrite", function (store) { store.delete(id); return { value: null }; }); }
  function putAll(items) {
    return run("readwrite", function (store) { items.forEach(function (item) { store.put(item); }); return { value: null }; });
  }

  // -------------------------------------------------------------------- the page

  function handForm() { return document.querySelector("#game-body form.hand-form"); }
  function formUrl(form) { return new URL(form.getAttribute("action"), window.location.href).href; }

  // The address whose queue this page shows: the new-hand form's, or the one remembered from
  // it (the form is gone while the conflict screen is shown).
  var queueUrl = null;
  function currentUrl() {
    var form = handForm();
    if (form) { queueUrl = formUrl(form); }
    return queueUrl;
  }

  // A UUID4 from crypto.getRandomValues (crypto.randomUUID needs HTTPS; the club's LAN is http).
  function uuid4() {
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function field(form, name) { return form.querySelector("input[name='" + name + "']"); }

  function show() {
    if (!status) { return; }
    if (refused) {
      status.textContent = status.dataset.refused;
      status.hidden = false;
    } else if (pending > 0) {
      var category = "other";
      try { category = new Intl.PluralRules(document.documentElement.lang || undefined).select(pending); } catch (e) { category = pending === 1 ? "one" : "other"; }
      var text = status.getAttribute("data-" + category) || status.dataset.other;
      status.textContent = text.replace("{n}", String(pending));
      status.hidden = false;
    } else {
      status.textContent = "";
      status.hidden = true;
    }
  }

  // The hand's number in the form's title ("Hand 4") moves on by `by`; the dealer named there
  // is not known offline, so it is hidden until the server draws the form again.
  function titleForward(by) {
    var title = document.getElementById("new-hand-title");
    if (!title || by <= 0) { return; }
    var walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var match = /\d+/.exec(node.nodeValue);
      if (match) {
        node.nodeValue = node.nodeValue.replace(/\d+/, String(parseInt(match[0], 10) + by));
        break;
      }
    }
    title.querySelectorAll(".dealer").forEach(function (el) { el.hidden = true; });
  }

  // Ready for the next hand: empty, a new request id, the place after the hand just queued.
  // A form the server drew again with what was typed and its errors is emptied by hand
  // (reset() would bring back what the server drew).
  function nextHand(form, forHand) {
    var refusedForm = form.querySelector(".errors, .error:not(.offline)") !== null;
    form.reset();
    if (refusedForm) {
      Array.prototype.forEach.call(form.elements, function (el) {
        if (el.type === "radio" || el.type === "checkbox") {
          el.checked = false;
        } else if (el.tagName === "INPUT" && ["hidden", "submit", "button"].indexOf(el.type) < 0) {
          el.value = "";
        }
        el.removeAttribute("aria-invalid");
      });
      form.querySelectorAll(".errors, .error:not(.offline)").forEach(function (el) { el.remove(); });
      form.querySelectorAll(".invalid").forEach(function (el) { el.classList.remove("invalid"); });
    }
    field(form, "request_id").value = uuid4();
    var place = field(form, "for_hand");
    if (place && forHand !== null) { place.value = String(forHand + 1); }
    form.querySelectorAll(".count").forEach(function (el) { el.replaceChildren(); });
    form.querySelectorAll(".offline").forEach(function (el) { el.hidden = true; });
    form.querySelectorAll("button[type=submit]").forEach(function (el) { el.disabled = false; });
    form.removeAttribute("data-dirty");
    titleForward(1);
  }

  function queue(form) {
    var place = field(form, "for_hand");
    // The hand the server refused, as the user corrected it (the form drawn again with its
    // errors): it goes first, in its own place. Any other waits behind the hands queued.
    var first = held;
    if (!first && place && lastPlace !== null && /^\d+$/.test(place.value) && parseInt(place.value, 10) <= lastPlace) {
      place.value = String(lastPlace + 1);
    }
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") { pairs.push([name, value]); }
    });
    var id = field(form, "request_id");
    var forHand = place && /^\d+$/.test(place.value) ? parseInt(place.value, 10) : null;
    var token = field(form, "csrfmiddlewaretoken");
    var item = {
      game: gameOf(formUrl(form)),
      url: formUrl(form),
      fields: pairs,
      request_id: id ? id.value : null,
      for_hand: forHand,
      csrf: token ? token.value : null,
      first: first,
      queued: Date.now()
    };
    return add(item).then(function () {
      held = false;
      pending += 1;
      if (forHand !== null) { lastPlace = Math.max(lastPlace || 0, forHand); }
      refused = false;
      nextHand(form, forHand);
      show();
    });
  }

  // --------------------------------------------------------------------- sending

  function pageToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : null;
  }

  function post(item, token) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && token ? token : pair[1]);
    });
    var headers = { "HX-Request": "true", "HX-Current-URL": window.location.href };
    if (token) { headers["X-CSRFToken"] = token; }
    return fetch(item.url, { method: "POST", body: body, headers: headers, credentials: "same-origin" });
  }

  // Send with this page's CSRF token (the newest); if refused, once more with the stored one.
  function send(item) {
    var token = pageToken() || item.csrf;
    return post(item, token).then(function (response) {
      if (response.status === 403 && item.csrf && item.csrf !== token) { return post(item, item.csrf); }
      return response;
    });
  }

  function parseBody(text) {
    var doc = new DOMParser().parseFromString(text, "text/html");
    return doc.getElementById("game-body");
  }

  // The hand was recorded: the server drew a fresh form (another request id) or none (the
  // game is over). Otherwise it answered with the conflict screen or the form shown again.
  function recorded(body, item) {
    if (body.querySelector("[data-conflict]")) { return false; }
    var again = body.querySelector("form.hand-form input[name=request_id]");
    return !(again && item.request_id && again.value === item.request_id);
  }

  // Draw #game-body from the server's answer, as htmx draws a save's answer (so the page's
  // other scripts hear of it: live.js, after_save.js). A form the user has started typing into
  // is kept in place of the fresh one (it already has a new request id and the next place).
  function swapBody(body, keepTyped) {
    var current = document.getElementById("game-body");
    if (!current) { return; }
    var typed = handForm();
    var keep = keepTyped && typed && typed.hasAttribute("data-dirty") ? typed : null;
    var drawnPlace = placeOf(body);
    if (drawnPlace !== null) { serverPlace = drawnPlace; }
    if (window.htmx && window.htmx.swap) {
      window.htmx.swap(current, body.outerHTML, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 }, {});
    } else {
      current.replaceWith(document.adoptNode(body));
    }
    var fresh = handForm();
    if (keep && fresh && fresh !== keep) { fresh.replaceWith(keep); }
    // The conflict screen waits for a choice: marked in use, so the live view leaves it alone.
    var drawn = document.getElementById("game-body");
    if (drawn) {
      drawn.querySelectorAll("[data-conflict] form").forEach(function (form) { form.setAttribute("data-dirty", ""); });
    }
  }

  // Ask the service worker (static/js/sw.js) to keep a copy of the page as it is now, so that a
  // reload offline shows the latest sheet. The page need not be controlled by it yet.
  // A second later: the page is being drawn now, the copy can wait.
  function keepPage(url) {
    if (!navigator.serviceWorker || !window.isSecureContext) { return; }
    // Once a worker is active (on a first visit it may still be installing): a slow phone
    // would otherwise never keep the pages asked for on that load.
    window.setTimeout(function () {
      navigator.serviceWorker.ready.then(function (registration) {
        registration.active.postMessage({ type: "keep", url: url || window.location.href });
      }).catch(function () { return null; });
    }, 1000);
  }

  function placeOf(root) {
    var input = root && root.querySelector("form.hand-form input[name=for_hand]");
    return input && /^\d+$/.test(input.value) ? parseInt(input.value, 10) : null;
  }

  function setField(item, name, value) {
    item.fields.forEach(function (pair) { if (pair[0] === name) { pair[1] = value; } });
  }

  // After the user settled a hand the server did not take (the conflict screen, a refused
  // count), the hands behind it follow the sheet as it is now: their places are counted on
  // from the form the server drew since, so only a hand another phone records later is a
  // conflict, not the one this phone just settled.
  function rebase(items) {
    if (!items.some(function (item) { return item.rebase; })) { return Promise.resolve(items); }
    var renumber = false;
    var previous = null;
    items.forEach(function (item, i) {
      renumber = renumber || !!item.rebase;
      item.rebase = false;
      if (renumber && item.for_hand !== null) {
        var place = i === 0 ? serverPlace : (previous === null ? null : previous + 1);
        if (place !== null) {
          item.for_hand = place;
          setField(item, "for_hand", String(place));
        }
      }
      previous = item.for_hand;
    });
    lastPlace = previous;
    var input = field(handForm() || document.createElement("form"), "for_hand");
    if (input && lastPlace !== null) { input.value = String(lastPlace + 1); }
    return putAll(items).then(function () { return items; });
  }

  function drain() {
    var url = currentUrl();
    if (draining) { again = true; return Promise.resolve(); }
    if (!usable || held || !url || navigator.onLine === false) { return Promise.resolve(); }
    draining = true;
    var last = null;
    function step(items) {
      pending = items.length;
      if (!pending) { lastPlace = null; }
      show();
      if (!items.length) {
        if (last) { swapBody(last, true); keepPage(); }
        return null;
      }
      var item = items[0];
      return send(item).then(function (response) {
        return response.text().then(function (text) {
          var body = parseBody(text);
          if (!body) {
            refused = true;  // not an answer about the hand (refused, server error): later
            show();
            return null;
          }
          refused = false;
          return remove(item.id).then(function () {
            if (recorded(body, item)) {
              last = body;
              return step(items.slice(1));
            }
            // The conflict screen, or the hand's form with what the server says about it:
            // shown, and nothing more is sent until the user has settled it. The hand now
            // lives in that screen; the ones after it wait, to be counted on from the sheet.
            var rest = items.slice(1);
            rest.forEach(function (other) { other.rebase = true; });
            pending = rest.length;
            held = true;
            show();
            swapBody(body, false);
            return putAll(rest);
          });
        });
      }, function () {
        // No connection after all: keep everything; draw what was recorded so far.
        if (last) { swapBody(last, true); }
        return null;
      });
    }
    return waiting(url).then(rebase).then(step).catch(function () { return null; }).then(function () {
      draining = false;
      if (again) { again = false; drain(); }
    });
  }

  // ------------------------------------------------------------------------ events

  if (!usable) { return; }

  function isHandForm(el) { return !!(el && el.matches && el.matches("#game-body form.hand-form")); }

  // Saving while offline, or while earlier hands still wait (they go first): queue it.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!isHandForm(form)) { return; }
    if (navigator.onLine !== false && ((pending === 0 && !draining) || held)) { return; }
    event.preventDefault();
    event.stopPropagation();
    queue(form).then(drain).catch(function () {
      var note = form.querySelector(".offline");
      if (note) { note.hidden = false; }
    });
  }, true);

  // The save was sent but no answer came (the Wi-Fi dropped on the way): queue it with the
  // same request id, so that if it did arrive, sending it again records nothing twice.
  // A count or notice the form asks for while offline: nothing is lost, so table.js's
  // "not saved" note (shown for any failed request in the form) is taken back.
  function failed(event) {
    var elt = event.detail && event.detail.elt;
    if (isHandForm(elt)) {
      queue(elt).catch(function () { return null; });
      return;
    }
    var form = elt && elt.closest && elt.closest("form.hand-form");
    var note = form && form.querySelector(".offline");
    if (note) { note.hidden = true; }
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form.hand-form");
    if (form) { form.setAttribute("data-dirty", ""); }
  });

  // A hand saved online (htmx): the server answered, so send anything still waiting (once the
  // hand shown for the user to settle was saved), and let the service worker keep the page as
  // it is now.
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    // The form that sent it: after the swap it is out of the page, so htmx fires this event
    // again from an ancestor still in it (then detail.elt is that ancestor).
    var source = detail.requestConfig && detail.requestConfig.elt;
    if (!detail.successful || !source || !source.matches || !source.matches("form.hand-form")) { return; }
    if (detail.requestConfig.verb !== "post") { return; }
    var body = document.getElementById("game-body");
    var settled = body && !body.querySelector("[data-conflict], form.hand-form .errors, form.hand-form .error:not([hidden])");
    if (settled) {
      held = false;
      var drawn = placeOf(body);
      if (drawn !== null) { serverPlace = drawn; }
    }
    keepPage();
    drain();
  });

  window.addEventListener("online", function () { drain(); });
  window.addEventListener("offline", show);
  window.setInterval(function () { if (pending > 0) { drain(); } }, RETRY_MS);

  // On load: a fresh request id (this copy of the page may be the service worker's, whose form
  // was already used), the place after the hands waiting, their count, then send them.
  function start() {
    var form = handForm();
    var url = currentUrl();
    if (!form || !url) { return; }
    var id = field(form, "request_id");
    if (id) { id.value = uuid4(); }
    // The turn timer's page too: the table has it offline without having opened it.
    var timer = document.querySelector("a[data-keep]");
    if (timer) { keepPage(timer.href); }
    serverPlace = placeOf(document.getElementById("game-body"));
    waiting(url).then(function (items) {
      pending = items.length;
      show();
      var place = field(form, "for_hand");
      items.forEach(function (item) {
        if (item.for_hand !== null) { lastPlace = Math.max(lastPlace || 0, item.for_hand); }
      });
      if (place && lastPlace !== null && /^\d+$/.test(place.value) && parseInt(place.value, 10) <= lastPlace) {
        place.value = String(lastPlace + 1);
      }
      titleForward(items.length);
      return drain();
    }).catch(function () { return null; });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
