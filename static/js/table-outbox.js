/* The table's outbox: a deal saved without network is kept on the phone (localStorage) with its
   submission key and sent, in order, when the network returns. The server stores each key
   once, and refuses an entry whose deal number was taken meanwhile (a director's entry): that
   refusal is shown here, with the choice to send it anyway or discard it — never dropped.
   Deals are sent as the form would send them and the server's page is shown in place, so the
   page keeps its scroll position and the score bar its place. The totals count the deals
   waiting, marked as waiting, as the engine running on the phone scores them (static/js/
   engine.js: scoring/engine/ itself), until the server's score replaces them; a deal the
   engine refuses is refused here, beside its field, before it is kept. */
(function () {
  "use strict";
  var screen = document.getElementById("table-screen");
  var box = document.getElementById("outbox");
  if (!screen || !box || !window.fetch || !window.localStorage || !window.DOMParser) return;

  var tableUrl = screen.getAttribute("data-table-url");
  var storeKey = "belote.outbox." + screen.getAttribute("data-outbox");
  var stateLine = box.querySelector("[data-outbox-state]");
  var list = box.querySelector("[data-outbox-list]");
  var sendNow = box.querySelector("[data-outbox-send]");
  var busy = false; // a deal is on its way: a second tap waits for it
  // "signed-out", "forbidden" or "final" (the results are final): nothing is sent, the deals
  // stay kept, until the page is reopened.
  var blocked = screen.getAttribute("data-refusal") === "results_final" ? "final" : "";

  function text(name) { return box.getAttribute("data-text-" + name) || ""; }
  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey)) || []; } catch (e) { return []; }
  }
  function store(items) { localStorage.setItem(storeKey, JSON.stringify(items)); }
  function dealCount() { return parseInt(screen.getAttribute("data-deal-count"), 10) || 0; }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function setField(item, name, value) {
    item.fields = item.fields.filter(function (pair) { return pair[0] !== name; });
    item.fields.push([name, String(value)]);
    item.number = name === "number" ? value : item.number;
  }

  // What the referee chose, in the page's own words: "E ♥ · NS 98 · Belote NS".
  function summary(form) {
    function chosen(name, part) {
      var input = form.querySelector("input[name=" + name + "]:checked");
      var label = input && input.value ? input.closest("label") : null;
      var bit = label && (part ? label.querySelector(part) : label);
      return bit ? bit.textContent.trim() : "";
    }
    var parts = [chosen("taker", ".seat") || chosen("taker", ".name")];
    if (chosen("taker", ".seat")) {
      parts.push(chosen("trump", ".symbol"));
      var cards = form.querySelector("input[name=cards]");
      if (cards && cards.value.trim()) parts.push(chosen("points_team", "span") + " " + cards.value.trim());
      form.querySelectorAll("[data-extra]").forEach(function (extra) {
        var value = extra.querySelector("[data-extra-value]");
        if (value && value.textContent.trim()) {
          parts.push(extra.querySelector("summary").firstChild.textContent.trim() + " " + value.textContent.trim());
        }
      });
    }
    return parts.filter(Boolean).join(" · ");
  }

  function snapshot(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    return {
      key: form.querySelector("input[name=submission_key]").value,
      number: parseInt(form.querySelector("input[name=number]").value, 10),
      fields: fields,
      summary: summary(form),
      conflict: null
    };
  }

  function isDirty(form) {
    var cards = form.querySelector("input[name=cards]");
    return !!(form.querySelector("input[name=taker]:checked") || (cards && cards.value.trim()));
  }

  // The deal the form is for: its number, its title and its dealer (named ahead by the server).
  function numberForm(form, number) {
    var field = form && form.querySelector("input[name=number]");
    if (!field) return;
    field.value = field.defaultValue = String(number);
    var title = form.querySelector("[data-deal-title]");
    if (title) title.textContent = title.textContent.replace(/\d+/, String(number));
    var list = document.querySelector("[data-upcoming-dealers]");
    var dealer = form.querySelector("[data-dealer] strong");
    // The list names the dealers of the deals after the ones its page knew of.
    var after = list ? parseInt(list.getAttribute("data-after"), 10) || 0 : 0;
    var upcoming = list ? list.querySelectorAll("li")[number - after - 1] : null;
    if (dealer && upcoming) dealer.textContent = upcoming.textContent;
  }

  // The form, ready for the next deal: cleared, a new key, the next number and its dealer.
  function advance(form, number) {
    form.reset();
    var key = form.querySelector("input[name=submission_key]");
    key.value = key.defaultValue = newKey();
    numberForm(form, number);
    form.querySelectorAll("details[open]").forEach(function (d) { d.open = false; });
    window.scrollTo(0, 0);
  }

  function keep(form, item) {
    var items = load();
    items.push(item);
    store(items);
    advance(form, item.number + 1);
    render();
    flush();
  }

  // Send one entry as the form would; read the page the server answers with.
  function post(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return fetch(tableUrl, { method: "POST", body: body, credentials: "same-origin" }).then(
      function (response) {
        return response.text().then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var page = doc.getElementById("table-screen");
          if (new URL(response.url).pathname !== tableUrl) return { kind: "blocked", why: "signed-out" };
          if (!page) return { kind: "blocked", why: response.status === 403 ? "forbidden" : "signed-out" };
          // Final results refuse every entry alike: stop sending, keep them, say why.
          if (page.getAttribute("data-refusal") === "results_final") return { kind: "blocked", why: "final", doc: doc };
          if (response.ok && response.redirected) { keepPage(html); return { kind: "saved", doc: doc }; }
          var form = doc.getElementById("deal-form");
          var said = [];
          doc.querySelectorAll("#deal-form .errorlist li, #deal-form p.errorlist, [data-messages] .error").forEach(
            function (node) { said.push(node.textContent.trim()); }
          );
          return {
            kind: "refused",
            doc: doc,
            message: said.join(" ") || String(response.status),
            code: form ? form.getAttribute("data-refusal") || "" : "",
            count: parseInt(page.getAttribute("data-deal-count"), 10) || 0
          };
        });
      },
      function () { return { kind: "network" }; }
    );
  }

  // The table page as the server last sent it, for the service worker to show without network.
  var cacheName = screen.getAttribute("data-cache-name");
  function keepPage(html) {
    if (!cacheName || !window.caches) return;
    var copy = new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    caches.open(cacheName).then(function (cache) { return cache.put(tableUrl, copy); }).catch(function () {});
  }

  // Put the server's score bar and sheet (and the form, when asked) in place of ours.
  function show(doc, withEntry) {
    var ids = ["scorebar", "deals"].concat(withEntry ? ["entry"] : []);
    ids.forEach(function (id) {
      var fresh = doc.getElementById(id);
      var old = document.getElementById(id);
      if (fresh && old) old.replaceWith(document.importNode(fresh, true));
    });
    var page = doc.getElementById("table-screen");
    if (page) screen.setAttribute("data-deal-count", page.getAttribute("data-deal-count"));
    if (withEntry && window.beloteDealForm) window.beloteDealForm(document.getElementById("deal-form"));
  }

  function flush() {
    if (busy) return;
    var items = load();
    if (!items.length || items[0].conflict || blocked || !navigator.onLine) { render(); return; }
    busy = true;
    render();
    post(items[0]).then(function (result) {
      busy = false;
      var items = load();
      if (result.kind === "network") { render(); return; }
      if (result.kind === "blocked") {
        blocked = result.why;
        // Final results: the server's page has no form left; show it as it is.
        if (result.doc) show(result.doc, true);
        render();
        return;
      }
      if (result.kind === "saved") {
        items.shift();
        store(items);
        var form = document.getElementById("deal-form");
        show(result.doc, !items.length && (!form || !isDirty(form)));
        flush();
        return;
      }
      items[0].conflict = { message: result.message, code: result.code, count: result.count };
      store(items);
      show(result.doc, false);
      render();
    });
  }

  // After a refusal is settled: the entries left follow the deals the server has now.
  function renumber(items, count) {
    items.forEach(function (item, i) { setField(item, "number", count + 1 + i); });
    store(items);
    numberForm(document.getElementById("deal-form"), count + items.length + 1);
  }

  function settle(action) {
    var items = load();
    var first = items[0];
    if (!first || !first.conflict) return;
    var count = first.conflict.count;
    if (action === "discard") {
      if (!window.confirm(text("discard-confirm"))) return;
      items.shift();
    } else {
      first.conflict = null;
    }
    renumber(items, count);
    flush();
  }

  // --- the engine on the phone (static/js/engine.js): no rule of the game is here ----------
  var engine = window.beloteEngine;
  function onPhone() { return !!(engine && engine.ready()); }

  // The §8 entry of a kept deal, from its fields as the form names them (DealForm.build_entry
  // reads the same fields on the server); `slots` notes which slot each declaration came from.
  function entryOf(item, slots) {
    var f = {};
    item.fields.forEach(function (pair) { f[pair[0]] = pair[1]; });
    var entry = { taker: !f.taker || f.taker === "pass" ? null : f.taker };
    ["trump", "capot", "belote"].forEach(function (name) { if (f[name]) entry[name] = f[name]; });
    var cards = (f.cards || "").trim();
    if (cards !== "") {
      entry.points = { team: f.points_team || null, cards: /^-?\d+$/.test(cards) ? parseInt(cards, 10) : cards };
    }
    var declarations = {};
    ["NS", "EW"].forEach(function (team) {
      var items = [];
      for (var slot = 0; slot < 16; slot++) {
        var prefix = "decl_" + team + "_" + slot + "_";
        if (!(prefix + "kind" in f)) continue;
        var kind = f[prefix + "kind"] || "";
        var declaration;
        if (kind.indexOf("four") === 0) declaration = { type: "four", rank: kind.slice(4) };
        else if (kind.indexOf("seq") === 0) {
          declaration = { type: "sequence", length: parseInt(kind.slice(3), 10),
            top: f[prefix + "top"] || null, suit: f[prefix + "suit"] || null };
        } else continue;
        if (slots) slots[team + "." + items.length] = slot;
        items.push(declaration);
      }
      if (items.length) declarations[team] = items;
    });
    if (Object.keys(declarations).length) entry.declarations = declarations;
    return entry;
  }

  // The match as the server last sent it (the score bar carries it), with the deals waiting.
  function matchWith(items) {
    var game;
    try { game = JSON.parse(document.getElementById("engine-game").textContent); } catch (e) { return null; }
    return { rules: game.rules, first_dealer: game.first_dealer,
      deals: game.deals.concat(items.map(function (item) { return entryOf(item); })) };
  }

  // A deal kept without network is first asked of the engine: one it refuses is refused here,
  // each message beside its field, as the server would (scoring/forms.py names the fields).
  function clearEngineErrors(form) {
    form.querySelectorAll("[data-engine-errors]").forEach(function (list) { list.remove(); });
    form.querySelectorAll(".engine-field-error").forEach(function (el) {
      el.classList.remove("engine-field-error", "field-error");
    });
  }
  function showEngineErrors(form, errors, index, slots) {
    var where;
    try { where = JSON.parse(form.getAttribute("data-engine-fields")); } catch (e) { where = { paths: {}, declaration_parts: {} }; }
    var prefix = "deals." + index + ".";
    Object.keys(errors).forEach(function (full) {
      var path = full.indexOf(prefix) === 0 ? full.slice(prefix.length) : full;
      var field = where.paths[path];
      var m = /^declarations\.(NS|EW)\.(\d+)(?:\.(\w+))?$/.exec(path);
      if (!field && m && slots[m[1] + "." + m[2]] !== undefined) {
        field = "decl_" + m[1] + "_" + slots[m[1] + "." + m[2]] + "_" + (where.declaration_parts[m[3] || ""] || "kind");
      }
      var input = field ? form.querySelector("[name=" + field + "]") : null;
      var part = input ? input.closest(".decl-slot, fieldset") : null;
      var list = document.createElement("ul");
      list.className = "errorlist";
      list.setAttribute("role", "alert");
      list.setAttribute("data-engine-errors", path);
      errors[full].forEach(function (message) {
        var li = document.createElement("li");
        li.textContent = part || full.indexOf(prefix) !== 0 ? message : path + ": " + message;
        list.appendChild(li);
      });
      if (part) {
        part.classList.add("field-error", "engine-field-error");
        var details = part.closest("details");
        if (details) details.open = true;
        part.appendChild(list);
      } else {
        var head = form.querySelector(".form-head");
        head.after(list);
      }
    });
    var first = form.querySelector("[data-engine-errors]");
    if (first) first.scrollIntoView({ block: "center" });
  }
  function checkThenKeep(form, item) {
    clearEngineErrors(form);
    var items = load();
    var body = onPhone() ? matchWith(items.concat([item])) : null;
    if (!body) { keep(form, item); return; }
    var slots = {};
    entryOf(item, slots);
    engine.match(body).then(function (answer) {
      if (answer.status === 0) keep(form, item);
      else showEngineErrors(form, answer.answer.errors || {}, body.deals.length - 1, slots);
    }, function () { keep(form, item); });
  }

  // The score bar's totals: the server's, or with deals waiting, the match replayed on the phone
  // by the engine with them, marked as waiting, until the server's score replaces them. Until
  // the engine has started, the server's totals alone.
  var totalsAsked = 0;
  function renderTotals(items) {
    var bar = document.getElementById("scorebar");
    if (!bar) return;
    var asked = ++totalsAsked;
    function show(totals, counted) {
      if (asked !== totalsAsked) return;
      bar.querySelectorAll("[data-total]").forEach(function (total) {
        if (!total.hasAttribute("data-server")) total.setAttribute("data-server", total.textContent.trim());
        var side = total.getAttribute("data-total");
        total.textContent = totals ? String(totals[side]) : total.getAttribute("data-server");
      });
      bar.classList.toggle("scorebar-waiting", counted > 0);
      var note = bar.querySelector("[data-waiting-note]");
      if (!note) {
        note = document.createElement("p");
        note.className = "waiting-note";
        note.setAttribute("data-waiting-note", "");
        bar.querySelector(".scorebar-totals").after(note);
      }
      note.hidden = !counted;
      note.textContent = counted ? text("counted").replace("%(n)s", counted) : "";
    }
    var body = items.length && onPhone() ? matchWith(items) : null;
    if (!body) { show(null, 0); return; }
    engine.match(body).then(function (answer) {
      if (answer.status === 0) show(answer.answer.totals, items.length); else show(null, 0);
    }, function () { show(null, 0); });
  }

  function render() {
    var items = load();
    renderTotals(items);
    var offline = !navigator.onLine;
    box.hidden = !items.length && !offline && !blocked;
    box.classList.toggle("outbox-offline", offline);
    var state = offline ? "offline" : blocked || (busy ? "sending" : items.length ? "waiting" : "");
    stateLine.textContent = state ? text(state) : "";
    list.textContent = "";
    items.forEach(function (item, i) {
      var li = document.createElement("li");
      li.setAttribute("data-waiting", item.key);
      var line = document.createElement("span");
      line.className = "outbox-deal";
      line.textContent = text("deal").replace("%(n)s", item.number) + " · " + item.summary;
      li.appendChild(line);
      var badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = item.conflict ? text("refused") : text("waiting-badge");
      li.appendChild(badge);
      if (item.conflict && i === 0) {
        li.className = "outbox-conflict";
        var why = document.createElement("p");
        why.className = "errorlist";
        why.setAttribute("role", "alert");
        why.textContent = item.conflict.message;
        li.appendChild(why);
        if (item.conflict.code === "deal_number_taken") {
          li.appendChild(button(text("send-anyway").replace("%(n)s", item.conflict.count + 1), "send", "primary small"));
        }
        li.appendChild(button(text("discard"), "discard", "secondary small"));
      }
      list.appendChild(li);
    });
    sendNow.hidden = !items.length || offline || busy || !!blocked || !!(items[0] && items[0].conflict);
  }

  function button(label, action, classes) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = classes;
    b.textContent = label;
    b.setAttribute("data-settle", action);
    return b;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "deal-form" || !screen.contains(form)) return;
    event.preventDefault();
    if (busy) return;
    var item = snapshot(form);
    if (load().length || !navigator.onLine) { checkThenKeep(form, item); return; }
    busy = true;
    var save = form.querySelector("button[type=submit]");
    if (save) save.disabled = true;
    post(item).then(function (result) {
      busy = false;
      if (save) save.disabled = false;
      if (result.kind === "network") { checkThenKeep(form, item); return; }
      if (result.kind === "blocked") { blocked = result.why; keep(form, item); return; }
      show(result.doc, true);
      if (result.kind === "saved") {
        window.scrollTo(0, 0);
        var title = document.getElementById("deal-form-title");
        if (title) title.focus({ preventScroll: true });
      }
      render();
    });
  });

  box.addEventListener("click", function (event) {
    var target = event.target.closest("[data-settle]");
    if (target) settle(target.getAttribute("data-settle"));
  });
  sendNow.addEventListener("click", flush);
  window.addEventListener("online", flush);
  window.addEventListener("offline", render);
  // Some networks come back without an "online" event: try again now and then.
  window.setInterval(function () { if (load().length) flush(); }, 15000);
  // The table as an app: a service worker keeps this page and its assets, so that it opens
  // again without network (tournaments/views/offline.py). On the first visit the page is not
  // the worker's yet: it is kept now.
  var worker = screen.getAttribute("data-service-worker");
  if (worker && navigator.serviceWorker && window.caches) {
    var first = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register(worker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      if (first && navigator.onLine) {
        return caches.open(cacheName).then(function (cache) { return cache.add(tableUrl); });
      }
    }).catch(function () {});
  }
  if (engine) engine.onReady(render);
  // Deals still waiting from before (the page was reloaded): the form comes after them.
  var waiting = load();
  if (waiting.length) numberForm(document.getElementById("deal-form"), dealCount() + waiting.length + 1);
  render();
  flush();
})();
