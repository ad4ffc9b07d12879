// The service worker: served at /sw.js by rummy_site/pwa.py, which puts self.SW_SETTINGS first
// (version, static prefix, files to keep, offline pages per language, paths never kept).
// Static files: cache first (the cache's name changes with every deploy that changes a file).
// Pages: network first, the last copy kept for when the phone is offline; a page never seen
// gets the offline page. Writes (POST) always go to the network: offline.js queues hands.
// Design: docs/design/offline.md.
"use strict";

var S = self.SW_SETTINGS;
var STATIC = "rummy-static-" + S.version;
var PAGES = "rummy-pages-" + S.version;
var MAX_PAGES = 40;

// Fetches of the worker's own, in the background: the server sets no cookie in their answers
// (rummy_site/pwa.py), since they may come back after the page logged in or out.
function background(url) {
  return new Request(url, { credentials: "same-origin", headers: { "X-Background-Copy": "1" } });
}

function offlineUrls() {
  return Object.keys(S.offline).map(function (code) { return S.offline[code]; });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) {
    // One missing file must not leave the phone without the rest.
    return Promise.all(S.precache.concat(offlineUrls()).map(function (url) {
      return cache.add(background(url)).catch(function () { return null; });
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("rummy-") === 0 && name !== STATIC && name !== PAGES;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(url) {
  if (url.origin !== self.location.origin) { return false; }
  var path = url.pathname;
  var first = path.split("/")[1];
  if (first && Object.prototype.hasOwnProperty.call(S.offline, first)) {
    path = path.slice(first.length + 1);  // the language prefix: /cs/g/... reads as /g/...
  }
  if (path.indexOf(S.static) === 0) { return false; }
  return !S.notKept.some(function (prefix) { return path.indexOf(prefix) === 0; });
}

function offlinePage(url) {
  var first = url.pathname.split("/")[1];
  var code = Object.prototype.hasOwnProperty.call(S.offline, first) ? first : S.defaultLanguage;
  return caches.match(S.offline[code] || S.offline[S.defaultLanguage]);
}

function isPage(response) {
  return response.status === 200 && response.type === "basic" &&
    (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
}

function trim(cache) {
  return cache.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map(function (key) {
      return cache.delete(key);
    }));
  });
}

// Keep a copy of a page. Pages for editors are sent with "no-store" (they hold the edit
// link): that keeps them out of shared and HTTP caches, but this copy is the phone's own,
// and the table phone needs the score sheet to record hands offline.
// put replaces the copy kept before in one step (and moves it last, for trim): a delete first
// left a moment with no copy at all, and a reload offline in that moment got the offline page.
function keep(url, response) {
  return caches.open(PAGES).then(function (cache) {
    return cache.put(url, response).then(function () { return trim(cache); });
  });
}

function page(event, url) {
  var key = url.href.split("#")[0];
  event.respondWith(fetch(event.request).then(function (response) {
    if (isPage(response)) { event.waitUntil(keep(key, response.clone())); }
    return response;
  }, function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(key, { ignoreVary: true });
    }).then(function (copy) {
      return copy || offlinePage(url).then(function (fallback) { return fallback || Response.error(); });
    });
  }));
}

function asset(event) {
  event.respondWith(caches.open(STATIC).then(function (cache) {
    return cache.match(event.request, { ignoreVary: true }).then(function (hit) {
      return hit || fetch(event.request).then(function (response) {
        if (response.status === 200 && response.type === "basic") { cache.put(event.request, response.clone()); }
        return response;
      });
    });
  }));
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method !== "GET") {
    // Logging out forgets the pages kept on this phone (they may hold edit links). Choosing
    // another language does too: an address without a language prefix answers in the reader's
    // language, and its copy is kept under the address alone.
    if (request.method === "POST" && /\/(accounts\/logout|i18n\/setlang)\/$/.test(url.pathname)) {
      event.waitUntil(caches.delete(PAGES));
    }
    return;
  }
  if (url.pathname.indexOf(S.static) === 0) {
    asset(event);
  } else if (request.mode === "navigate" && kept(url)) {
    page(event, url);
  }
});

// A page asks to be kept as it is now (offline.js after a hand was saved, pwa.js on the first
// visit, before this worker controlled the page).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || typeof data.url !== "string") { return; }
  var url = new URL(data.url, self.location.href);
  if (!kept(url)) { return; }
  event.waitUntil(fetch(background(url.href)).then(function (response) {
    return isPage(response) ? keep(url.href.split("#")[0], response) : null;
  }).catch(function () { return null; }));
});
