/* The page's handle on the engine running on the phone (static/js/engine-worker.js). The page
   carries {% engine_script %} (scoring/templatetags/engine_tags.py): where the worker, Pyodide,
   the engine's zip and the engine's messages in the page's language are. No rule of the game
   is here: this only carries requests to the engine and its answers back.

   window.beloteEngine.match(body) → a promise of {status, answer}: status 0 and the game
   replayed in the `python -m scoring match` shape, or 2 and {errors: {path: [message]}}.
   It is refused (rejected) while the engine is not ready, so that the page asks the server;
   ready() says whether it is, and onReady(callback) calls back once it is. */
(function () {
  "use strict";
  var tag = document.getElementById("belote-engine");
  var config = {};
  try { config = JSON.parse(tag.textContent); } catch (e) { config = {}; }
  var usable = !!(config.worker && window.Worker && window.WebAssembly);
  var worker = null;
  var isReady = false;
  var failed = !usable;
  var listeners = [];
  var pending = {};
  var sequence = 0;
  var startedAt = 0;

  function start() {
    if (worker || !usable) return;
    startedAt = window.performance ? performance.now() : 0;
    worker = new Worker(config.worker);
    worker.onmessage = function (event) {
      var m = event.data || {};
      if (m.ready) {
        isReady = true;
        engine.startMs = window.performance ? Math.round(performance.now() - startedAt) : null;
        engine.readyAt = window.performance ? Math.round(performance.now()) : null;
        document.documentElement.setAttribute("data-engine", "ready");
        listeners.splice(0).forEach(function (callback) { callback(); });
        keep();
        return;
      }
      if (m.failed) {
        failed = true;
        document.documentElement.setAttribute("data-engine", "failed");
        if (window.console) console.warn("engine on the phone:", m.failed);
        return;
      }
      var done = pending[m.id];
      delete pending[m.id];
      if (!done) return;
      if (m.status === 0 || m.status === 2) done.resolve({ status: m.status, answer: m.answer });
      else done.reject(new Error(m.error || "engine"));
    };
    worker.onerror = function () { failed = true; document.documentElement.setAttribute("data-engine", "failed"); };
    worker.postMessage({ start: { pyodide: config.pyodide, bundle: config.bundle,
      messages: config.messages ? new URL(config.messages, window.location.href).href : null } });
    document.documentElement.setAttribute("data-engine", "loading");
  }

  // The first visit's page is not the service worker's yet, so the engine's files came from
  // the network: the service worker is asked to keep them (from the browser's cache, mostly).
  function keep() {
    if (!navigator.serviceWorker || !navigator.onLine) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ keepEngine: true, messages: config.messages });
    }).catch(function () {});
  }

  function request(command, body) {
    if (!isReady) return Promise.reject(new Error("engine not ready"));
    return new Promise(function (resolve, reject) {
      sequence += 1;
      pending[sequence] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: sequence, command: command, text: JSON.stringify(body) });
    });
  }

  var engine = {
    available: usable,
    ready: function () { return isReady; },
    failed: function () { return failed; },
    onReady: function (callback) { if (isReady) callback(); else listeners.push(callback); },
    match: function (body) { return request("match", body); },
    deal: function (body) { return request("deal", body); },
    version: config.version || null,
    startMs: null, // from the worker's start to the engine's answer, in ms (bench/engine_start.py)
    readyAt: null, // since the page's navigation began
    start: start
  };
  window.beloteEngine = engine;
  // After the page's own files: on a slow network the engine's download must not hold them up.
  if (document.readyState === "complete") start(); else window.addEventListener("load", start);
})();
