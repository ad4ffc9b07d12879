// The table's turn timer (templates/games/timer.html, docs/design/table.md "The turn timer").
// It runs in the phone alone: the server sends the family's times, the players in seat order and
// who starts (#timer-setup); the state lives in localStorage per game, so a reload, the score
// sheet and back, or a phone gone offline keep the clocks where they were. Times are kept as
// "time left at `since`" and read from Date.now(), never by counting ticks: a phone that slept
// shows the right time when it wakes.
// "turn": every turn has the same time, passing starts the next one afresh.
// "chess": every player has his own clock for the hand; passing stops his and adds the increment.
(function () {
  "use strict";

  var root = document.getElementById("timer");
  var setupNode = document.getElementById("timer-setup");
  if (!root || !setupNode) { return; }
  var setup = JSON.parse(setupNode.textContent);
  var players = setup.players;
  if (!players.length) { return; }
  var chess = setup.style === "chess";
  var key = "rummy-timer:" + root.dataset.game;
  var el = function (id) { return document.getElementById(id); };
  var tapButton = el("timer-tap");
  var pauseButton = el("timer-pause");
  var form = el("timer-form");
  var state = null;
  var ticker = null;
  var wakeLock = null;
  var audio = null;
  var DOUBLE_TAP_MS = 500;

  function store() {
    try { window.localStorage.setItem(key, JSON.stringify(state)); } catch (e) { /* private mode: this page only */ }
  }

  function usualFirst() {
    var index = players.indexOf(setup.first);
    return index < 0 ? 0 : index;
  }

  // A hand not started yet: every clock full, the first player's turn.
  function fresh(times, first) {
    var seconds = times && times.seconds > 0 ? times.seconds : setup.seconds;
    var increment = times && times.increment >= 0 ? times.increment : setup.increment;
    return {
      times: times || null, seconds: seconds, increment: increment, hand: setup.hand,
      first: first, turn: first, started: false, running: false, since: 0, rang: false,
      left: players.map(function () { return seconds * 1000; })
    };
  }

  function load() {
    var kept = null;
    try { kept = JSON.parse(window.localStorage.getItem(key) || "null"); } catch (e) { kept = null; }
    if (!kept || !Array.isArray(kept.left) || kept.left.length !== players.length) {
      return fresh(kept && kept.times, usualFirst());
    }
    // A hand was recorded since (or players dropped out): the next hand starts afresh, with the
    // times the players chose.
    if (kept.hand !== setup.hand) { return fresh(kept.times, usualFirst()); }
    return kept;
  }

  function left() {
    var ms = state.left[state.turn] - (state.running ? Date.now() - state.since : 0);
    return Math.max(0, ms);
  }

  function shown(ms) {
    var s = Math.ceil(ms / 1000);
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s % 60);
  }

  function named(text, name) { return text.replace("{name}", name); }

  function next(turn) { return (turn + 1) % players.length; }

  function draw() {
    var now = left();
    var over = state.started && now === 0;
    el("timer-who").textContent = players[state.turn];
    el("timer-left").textContent = shown(now);
    var said = el("timer-said");
    var text = over ? setup.at_zero : (state.started && !state.running ? root.dataset.paused : "");
    if (said.textContent !== text) { said.textContent = text; }
    el("timer-face").classList.toggle("over", over);
    el("timer-face").classList.toggle("paused", state.started && !state.running);
    if (!state.started) {
      tapButton.textContent = named(root.dataset.start, players[state.turn]);
    } else if (!state.running) {
      tapButton.textContent = named(root.dataset.resumeName, players[state.turn]);
    } else {
      tapButton.textContent = named(root.dataset.pass, players[next(state.turn)]);
    }
    pauseButton.disabled = !state.started;
    pauseButton.textContent = state.started && !state.running ? root.dataset.resume : root.dataset.pause;
    var clocks = el("timer-clocks");
    if (clocks) {
      Array.prototype.forEach.call(clocks.children, function (item, i) {
        var ms = i === state.turn ? now : state.left[i];
        item.querySelector(".timer-clock").textContent = shown(ms);
        item.classList.toggle("over", state.started && ms === 0);
        if (i === state.turn) { item.setAttribute("aria-current", "true"); } else { item.removeAttribute("aria-current"); }
      });
    }
  }

  // Sound and vibration where the phone has them; the screen says it in any case.
  function ring() {
    if (navigator.vibrate) { try { navigator.vibrate([300, 150, 300]); } catch (e) { /* not allowed */ } }
    if (!audio) { return; }
    try {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.3;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.6);
    } catch (e) { /* no sound */ }
  }

  // Audio may start only from a tap.
  function sound() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) { try { audio = new Context(); } catch (e) { audio = null; } }
    if (audio && audio.state === "suspended") { audio.resume().catch(function () { return null; }); }
  }

  // The screen stays on while the timer runs (where the phone allows it).
  function awake() {
    if (navigator.wakeLock && !wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
      }).catch(function () { return null; });
    }
  }

  function woken() { sound(); awake(); }

  function asleep() {
    if (wakeLock) { wakeLock.release().catch(function () { return null; }); }
  }

  function tick() {
    if (state.running && !state.rang && left() === 0) {
      state.rang = true;
      store();
      ring();
    }
    draw();
  }

  function run() {
    if (state.running && ticker === null) { ticker = window.setInterval(tick, 250); }
    if (!state.running && ticker !== null) { window.clearInterval(ticker); ticker = null; }
    tick();
  }

  function pass() {
    var now = Date.now();
    var mine = left();
    if (chess) {
      state.left[state.turn] = mine > 0 ? mine + state.increment * 1000 : 0;  // a fallen flag stays down
    }
    state.turn = next(state.turn);
    if (!chess) { state.left[state.turn] = state.seconds * 1000; }
    state.since = now;
    state.rang = state.left[state.turn] === 0;  // said already for this player
  }

  tapButton.addEventListener("click", function () {
    woken();
    if (!state.started) {
      state.started = true;
      state.running = true;
      state.since = Date.now();
    } else if (!state.running) {
      state.running = true;
      state.since = Date.now();
    } else if (Date.now() - state.since < DOUBLE_TAP_MS) {
      return;  // one turn, tapped twice: the next player's turn is not passed on at once
    } else {
      pass();
    }
    store();
    run();
  });

  pauseButton.addEventListener("click", function () {
    if (!state.started) { return; }
    if (state.running) {
      state.left[state.turn] = left();
      state.running = false;
      asleep();
    } else {
      woken();
      state.running = true;
      state.since = Date.now();
    }
    store();
    run();
  });

  function restart(times, first) {
    asleep();
    state = fresh(times, first);
    store();
    fill();
    run();
  }

  // A new hand: the deal passes, so the player after this hand's first starts.
  el("timer-new").addEventListener("click", function () { restart(state.times, next(state.first)); });

  function fill() {
    var seconds = el("timer-seconds");
    seconds.value = String(Math.round(state.seconds / parseInt(seconds.dataset.scale, 10)));
    if (chess) { el("timer-increment").value = String(state.increment); }
    el("timer-first").value = String(state.first);
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!form.reportValidity()) { return; }
    var seconds = el("timer-seconds");
    var times = { seconds: parseInt(seconds.value, 10) * parseInt(seconds.dataset.scale, 10) };
    times.increment = chess ? parseInt(el("timer-increment").value, 10) : 0;
    restart(times, parseInt(el("timer-first").value, 10) || 0);
  });

  el("timer-usual").addEventListener("click", function () {
    restart(null, parseInt(el("timer-first").value, 10) || 0);
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && state.running) { awake(); }
    tick();
  });

  state = load();
  root.hidden = false;
  fill();
  run();
})();
