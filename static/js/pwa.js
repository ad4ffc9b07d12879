// Installing the site on a phone: register the service worker (static/js/sw.js, served at the
// site's root by rummy_site/pwa.py), which keeps pages and files for use without a connection.
// Browsers allow service workers only over HTTPS or on localhost; elsewhere nothing happens and
// the site works online as before (the hand queue in offline.js does not need the worker).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
  var url = script.getAttribute("data-service-worker");
  var first = !navigator.serviceWorker.controller;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { updateViaCache: "none" }).then(function () {
      if (!first) { return null; }
      // This page was loaded before the worker controlled it: ask it to keep a copy now.
      return navigator.serviceWorker.ready.then(function (registration) {
        if (registration.active) {
          registration.active.postMessage({ type: "keep", url: window.location.href });
        }
      });
    }).catch(function () { return null; });
  });
})();
