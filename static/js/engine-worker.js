/* The scoring engine on the phone: CPython compiled to WebAssembly (Pyodide, from the site's own
   static files) runs scoring/engine/ exactly as the server has it, packaged at build time
   (scoring/bundle.py). It answers what `python -m scoring match` answers, by the very function
   the command line calls (scoring/__main__.py `run`), its messages filled from the page's
   translations. A worker, so that the page never waits on it (docs/offline.md).

   In: {start: {pyodide, bundle, messages}} once (messages: the address of the engine's message
   templates in the page's language; without them, the engine's own English), then {id, command, text} (the request as JSON).
   Out: {ready: true} or {failed: why}, then {id, status, answer} for each request. */
"use strict";

var answer = null; // the Python function, once the engine is in
var waiting = [];

function messages(url) {
  if (!url) return Promise.resolve("{}");
  return fetch(url, { credentials: "same-origin" }).then(function (response) {
    return response.ok ? response.text() : "{}";
  }, function () { return "{}"; });
}

function start(config) {
  importScripts(config.pyodide + "pyodide.js");
  var templates = messages(config.messages);
  return self.loadPyodide({ indexURL: config.pyodide }).then(function (pyodide) {
    return Promise.all([fetch(config.bundle).then(function (response) {
      if (!response.ok) throw new Error("engine bundle: " + response.status);
      return response.arrayBuffer();
    }), templates]).then(function (found) {
      pyodide.unpackArchive(found[0], "zip", { extractDir: "/engine" });
      pyodide.globals.set("MESSAGES_JSON", found[1]);
      pyodide.runPython([
        "import json, sys",
        "sys.path.insert(0, '/engine')",
        "from scoring.__main__ import run",
        "TEMPLATES = json.loads(MESSAGES_JSON)",
        "def answer(command, text):",
        "    status, body = run(command, text, TEMPLATES)",
        "    return json.dumps({'status': status, 'answer': body})",
      ].join("\n"));
      return pyodide.globals.get("answer");
    });
  });
}

function reply(request) {
  var out;
  try {
    out = JSON.parse(answer(request.command, request.text));
  } catch (error) {
    out = { status: -1, answer: null, error: String(error) };
  }
  out.id = request.id;
  self.postMessage(out);
}

self.onmessage = function (event) {
  var message = event.data || {};
  if (message.start) {
    start(message.start).then(function (found) {
      answer = found;
      self.postMessage({ ready: true });
      waiting.splice(0).forEach(reply);
    }, function (error) {
      self.postMessage({ failed: String(error && error.message || error) });
    });
    return;
  }
  if (answer) reply(message); else waiting.push(message);
};
