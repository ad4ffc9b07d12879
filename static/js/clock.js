// A round's clock (templates/games/_clock.html): counts down each second to the end the server
// sent, by the server's clock, not the phone's (a phone's clock may be minutes out): the page
// carries the server's now beside the end, and each poll's Date header (live.js, screen.js call
// rummyClock.sync) sets it again. At zero it says "last hand". Without JavaScript the page
// shows the minutes left as it was drawn.
(function () {
  "use strict";

  var offset = null;  // the server's clock minus this phone's, in milliseconds

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function draw(node) {
    if (!node.dataset.clockSeen) {
      // A clock just drawn by the server (the page, or a poll's new content): its now is fresh.
      node.dataset.clockSeen = "1";
      var now = parseInt(node.dataset.clockNow, 10);
      if (!isNaN(now)) { offset = now - Date.now(); }
    }
    var ends = parseInt(node.dataset.clockEnds, 10);
    if (isNaN(ends)) { return; }
    var left = Math.ceil((ends - (Date.now() + (offset || 0))) / 1000);
    var strong = document.createElement("strong");
    node.textContent = "";
    if (left <= 0) {
      node.classList.add("over");
      strong.textContent = node.dataset.clockLast || "";
      node.appendChild(strong);
      return;
    }
    node.classList.remove("over");
    var hours = Math.floor(left / 3600);
    var minutes = Math.floor((left % 3600) / 60);
    strong.textContent = (hours ? hours + ":" + pad(minutes) : minutes) + ":" + pad(left % 60);
    node.appendChild(document.createTextNode((node.dataset.clockLeft || "") + " "));
    node.appendChild(strong);
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock-ends]");
    for (var i = 0; i < clocks.length; i++) { draw(clocks[i]); }
  }

  window.rummyClock = {
    // A poll's Date header (whole seconds, so the server's now is half a second on, on average);
    // a change under a second is the header's rounding, not the clocks drifting: kept as it was.
    sync: function (header) {
      var server = header ? Date.parse(header) : NaN;
      if (isNaN(server)) { return; }
      var fresh = server + 500 - Date.now();
      if (offset === null || Math.abs(fresh - offset) > 1000) { offset = fresh; }
    }
  };

  if (!document.querySelector("[data-clock-ends]") && !document.getElementById("screen")) { return; }
  tick();
  window.setInterval(tick, 1000);
})();
