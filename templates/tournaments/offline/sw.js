/* The site's one service worker (tournaments/views/offline.py serves it from the root, so that
   its scope covers every table page and the score pad). A table page, "My tables" and the score
   pad's pages come from the network when there is one, and their last copy is kept; without
   network the kept copy is shown, and the deals entered wait on the phone (the table's outbox in
   static/js/table-outbox.js, the pad's game in static/js/pad.js). The pages' assets likewise,
   kept from the install on. The engine on the phone (Pyodide and the engine's zip, static/js/
   engine.js) is kept in a cache of its own, named by its versions: its files never change
   under one address, so they come from the cache first, and a new engine is a new cache.
   Nothing else is touched: every other request goes to the network. */
"use strict";
var CACHE = "{{ cache_name|escapejs }}";
var ASSETS = [{% for asset in assets %}"{{ asset|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
var ENGINE_CACHE = "{{ engine_cache|escapejs }}";
var ENGINE = [{% for file in engine_files %}"{{ file|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
// The engine's messages in one language: /engine/messages.<language>.json.
var ENGINE_MESSAGES = "{{ engine_messages|escapejs }}";
var MY_TABLES = "{{ my_tables|escapejs }}";
var TABLE_PAGE = /^\/matches\/\d+\/table\/$/;
var PAD = "{{ pad_page|escapejs }}";
// The new game and a saved one continued by its key: one path segment after the pad's (the
// read-only page has two, and is not kept: it is the server's copy, to share).
var PAD_GAME = /^[A-Za-z0-9_-]+\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return (name.indexOf("belote-table-") === 0 && name !== CACHE) ||
        (name.indexOf("belote-engine-") === 0 && name !== ENGINE_CACHE);
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function isMessages(path) {
  return path.indexOf(ENGINE_MESSAGES) === 0 && /^[a-z-]+\.json$/.test(path.slice(ENGINE_MESSAGES.length));
}

function keptPath(path) {
  return TABLE_PAGE.test(path) || path === MY_TABLES ||
    path === PAD || (path.indexOf(PAD) === 0 && PAD_GAME.test(path.slice(PAD.length)));
}

function kept(request) {
  var url = new URL(request.url);
  return request.method === "GET" && request.mode === "navigate" && url.origin === self.location.origin &&
    keptPath(url.pathname);
}

function keep(key, response) {
  // A sign-in page (a redirect) or an error is not kept in place of the page.
  if (!response.ok || response.redirected) return Promise.resolve();
  return caches.open(CACHE).then(function (cache) { return cache.put(key, response); });
}

// The engine's files the cache lacks (a first visit's page fetched them itself), fetched now:
// mostly from the browser's own cache, as the page has just loaded them.
function keepEngine(messages) {
  if (!ENGINE_CACHE) return Promise.resolve();
  var kept = typeof messages === "string" && isMessages(messages) ? caches.open(CACHE).then(function (cache) {
    return cache.match(messages).then(function (copy) {
      if (copy) return;
      return fetch(messages).then(function (response) { if (response.ok) return cache.put(messages, response); });
    });
  }) : Promise.resolve();
  return kept.then(function () { return caches.open(ENGINE_CACHE); }).then(function (cache) {
    return Promise.all(ENGINE.map(function (file) {
      return cache.match(file).then(function (copy) {
        if (copy) return;
        return fetch(file).then(function (response) { if (response.ok) return cache.put(file, response); });
      });
    }));
  }).catch(function () {});
}

// A page opened before the worker was its own (the first visit) asks to be kept: {keep: path};
// a page whose engine has started asks for the engine's files: {keepEngine: true}.
self.addEventListener("message", function (event) {
  if (event.data && event.data.keepEngine) { event.waitUntil(keepEngine(event.data.messages)); return; }
  var path = event.data && event.data.keep;
  if (typeof path !== "string" || !keptPath(path)) return;
  var key = self.location.origin + path;
  event.waitUntil(caches.match(key).then(function (copy) {
    if (copy) return;
    return fetch(key, { credentials: "same-origin" }).then(function (response) { return keep(key, response); });
  }).catch(function () {}));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (kept(request)) {
    var key = url.origin + url.pathname;
    event.respondWith(fetch(request).then(function (response) {
      keep(key, response.clone());
      return response;
    }, function () {
      return caches.match(key).then(function (copy) { return copy || Response.error(); });
    }));
    return;
  }
  if (ENGINE.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.open(ENGINE_CACHE).then(function (cache) {
      return cache.match(url.pathname).then(function (copy) {
        return copy || fetch(request).then(function (response) {
          if (response.ok) cache.put(url.pathname, response.clone());
          return response;
        });
      });
    }));
    return;
  }
  if (ASSETS.indexOf(url.pathname) >= 0 || isMessages(url.pathname)) {
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
