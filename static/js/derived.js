// Ratings and standings catching up: while a page says they are updating (#derived-status,
// templates/seasons/_updating.html), it asks the club's freshness (data-derived-url, the API's
// /clubs/<slug>/derived/) every few seconds with the tag of the last answer (If-None-Match:
// "304 Not Modified" while nothing changed), and reloads once nothing is pending. Nothing is
// asked while the page is hidden; failures wait longer each time. Without JavaScript a reload
// shows the new numbers.
(function () {
  "use strict";

  var status = document.getElementById("derived-status");
  if (!status || !status.dataset.derivedUrl || !window.fetch) { return; }

  var URL_ = status.dataset.derivedUrl;
  var EVERY = 3000;
  var MOST = 60000;
  var wait = EVERY;
  var etag = "";

  function later() { setTimeout(poll, wait); }

  function poll() {
    if (document.hidden) { later(); return; }
    var headers = { "Accept": "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(URL_, { headers: headers, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (!response.ok) { throw new Error(String(response.status)); }
        etag = response.headers.get("ETag") || "";
        return response.json();
      })
      .then(function (body) {
        if (body && body.pending === false) { window.location.reload(); return; }
        wait = EVERY;
        later();
      })
      .catch(function () {
        wait = Math.min(wait * 2, MOST);
        later();
      });
  }

  later();
})();
