/* The table's service worker (tournaments/views/offline.py serves it from the root, so that its
   scope covers every table page). A table page and "My tables" come from the network when there
   is one, and their last copy is kept; without network the kept copy is shown, and the deals
   entered wait in the page's outbox (static/js/table-outbox.js). The page's assets likewise,
   kept from the install on. Nothing else is touched: every other request goes to the network. */
"use strict";
var CACHE = "{{ cache_name|escapejs }}";
var ASSETS = [{% for asset in assets %}"{{ asset|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
var MY_TABLES = "{{ my_tables|escapejs }}";
var TABLE_PAGE = /^\/matches\/\d+\/table\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("belote-table-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(request) {
  var url = new URL(request.url);
  return request.method === "GET" && request.mode === "navigate" && url.origin === self.location.origin &&
    (TABLE_PAGE.test(url.pathname) || url.pathname === MY_TABLES);
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (kept(request)) {
    var key = url.origin + url.pathname;
    event.respondWith(fetch(request).then(function (response) {
      // A sign-in page (a redirect) or an error is not kept in place of the table.
      if (response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(key, copy); });
      }
      return response;
    }, function () {
      return caches.match(key).then(function (copy) { return copy || Response.error(); });
    }));
    return;
  }
  if (ASSETS.indexOf(url.pathname) >= 0) {
    // The network's copy when there is one (a new stylesheet shows at once), else the kept one.
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
      }
      return response;
    }, function () {
      return caches.match(url.pathname).then(function (copy) { return copy || Response.error(); });
    }));
  }
});
