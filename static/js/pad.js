/* The score pad: a friendly game kept on the phone (localStorage). No rule of the game is here:
   every change is scored by the engine, scoring/engine/ itself, running on this phone
   (static/js/engine.js, docs/offline.md) once it has started, with or without network; until
   then by the server (the pad's replay, or the saved game's deals). Either answers the whole
   game replayed, or the fields that are wrong. A saved game's changes are also sent to the
   server, which replays the game: its answer wins, and a difference is shown, never hidden.
   Without network and without the engine a change is kept on the phone, shown as not scored
   yet, and scored when either comes; the site's service worker keeps the page and the engine,
   so that the game reopens and scores without network. */
(function () {
  "use strict";
  var root = document.getElementById("pad");
  if (!root || !window.fetch || !window.localStorage) return;

  var SEATS = { 2: ["N", "S"], 3: ["N", "E", "S"], 4: ["N", "E", "S", "W"] };
  var key = root.getAttribute("data-key");
  var storeKey = "belote.pad." + (key || "current");
  var setup = document.getElementById("pad-setup");
  var gameBox = document.getElementById("pad-game");
  var form = document.getElementById("pad-form");
  var state = load();
  var editing = null; // the number of the deal being corrected, or null for a new one

  function text(name, values) {
    var t = root.getAttribute("data-text-" + name) || "";
    Object.keys(values || {}).forEach(function (k) { t = t.replace("%(" + k + ")s", values[k]); });
    return t;
  }
  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey)) || null; } catch (e) { return null; }
  }
  function store() {
    if (state) localStorage.setItem(storeKey, JSON.stringify(state));
    else localStorage.removeItem(storeKey);
  }
  // Players' names are typed by anyone who holds the game: never HTML.
  function escape(t) {
    return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }
  function $(sel, el) { return (el || root).querySelector(sel); }
  function $$(sel, el) { return Array.prototype.slice.call((el || root).querySelectorAll(sel)); }
  function seats() { return SEATS[state.players.length]; }
  function four() { return state.players.length === 4; }
  function sides() { return four() ? ["NS", "EW"] : seats(); }
  function nameOf(side) {
    if (side === "NS") return state.players[0] + " " + text("and") + " " + state.players[2];
    if (side === "EW") return state.players[1] + " " + text("and") + " " + state.players[3];
    return state.players[seats().indexOf(side)] || side;
  }
  // A seat or side as the page's language writes it (P/I/E/L in Finnish, NS/EO in French).
  function label(code) {
    var el = code.length === 1 ? $("#pad-form label.seat-" + code + " .seat")
      : $("#pad-form input[name=points_team][value=" + code + "] + span");
    return el ? el.textContent : code;
  }
  function seatName(seat) {
    if (four()) return state.players[SEATS[4].indexOf(seat)];
    return state.players[seats().indexOf(seat)];
  }

  // --- scoring: the engine on this phone, else the server --------------------------------------
  // The engine runs here once it has started (static/js/engine.js: scoring/engine/ itself, in
  // Pyodide): every change is scored on the phone, with or without network. Until then the
  // server scores, as it always could. A saved game's changes also go to the server, which
  // replays the game; its answer wins, and a different one is said on the page, never hidden.
  var engine = window.beloteEngine;
  function onPhone() { return !!(engine && engine.ready()); }
  function gameBody(deals) { return { rules: state.rules, first_dealer: state.first_dealer, deals: deals }; }
  function scoreOnPhone(deals) { return engine.match(gameBody(deals)); }

  function call(method, url, body) {
    var headers = { "Content-Type": "application/json", "X-CSRFToken": root.getAttribute("data-csrf") };
    return fetch(url, { method: method, headers: headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (response) {
        return response.json().then(function (data) { return { status: response.status, data: data }; });
      });
  }
  function gameUrl() { return root.getAttribute("data-api") + state.key + "/"; }

  // Two answers for the same deals are the same game when every figure is (keys in any order).
  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ":" + canonical(value[k]); }).join(",") + "}";
    }
    return JSON.stringify(value === undefined ? null : value);
  }
  function sameGame(a, b) {
    return ["deals", "totals", "pot", "over", "winner", "next_dealer"].every(function (k) {
      return canonical(a[k]) === canonical(b[k]);
    });
  }

  // The server's game replaces the phone's: it is compared first when the phone scored the same
  // deals, and a difference is kept in view until a later change agrees again.
  function settle(server) {
    var entries = server.entries || state.deals;
    if (state.by === "phone" && state.game && !state.stale) {
      var agree = canonical(entries) === canonical(state.deals) && sameGame(state.game, server);
      state.disagreement = !agree;
      if (!agree && window.console) console.error("the phone's engine and the server disagree", state.game, server);
    }
    state.game = server;
    state.deals = entries;
    state.scored = entries;
    state.stale = false;
    state.by = "server";
  }

  // A change: `deals` is the list it makes, `op` how a saved game's API is told of it.
  function change(deals, op, index) {
    clearErrors();
    if (onPhone()) {
      return scoreOnPhone(deals).then(function (answer) {
        if (answer.status !== 0) { showErrors(answer.answer.errors || {}, index, false); return false; }
        state.deals = deals;
        state.scored = deals;
        state.game = answer.answer;
        state.stale = false;
        state.by = "phone";
        state.outbox = state.key ? (state.outbox || []).concat([op]) : [];
        store();
        render();
        if (state.key) flush();
        return true;
      }, function () { return changeOnServer(deals, op, index); });
    }
    return changeOnServer(deals, op, index);
  }

  function changeOnServer(deals, op, index) {
    if (state.key && (state.outbox || []).length) {
      // Changes still waiting go first: the saved game numbers its deals in their order.
      waitOnPhone(deals, op);
      flush();
      return Promise.resolve(true);
    }
    var request;
    if (state.key) {
      var url = gameUrl() + "deals/";
      if (op.method === "POST") request = call("POST", url, op.entry);
      else request = call(op.method, url + op.number + "/", op.method === "PUT" ? op.entry : undefined);
    } else {
      var body = gameBody(deals);
      body.players = state.players;
      request = call("POST", root.getAttribute("data-replay"), body);
    }
    return request.then(function (answer) {
      if (answer.status >= 400) { showErrors(answer.data.errors || {}, index, !!state.key); return false; }
      state.deals = answer.data.entries || deals;
      state.scored = state.deals;
      state.game = answer.data;
      state.stale = false;
      state.by = "server";
      state.outbox = [];
      store();
      render();
      return true;
    }, function () {
      waitOnPhone(deals, op);
      return true;
    });
  }

  // No network and no engine yet: the change is kept here, shown as not scored yet, and scored
  // as soon as the engine starts or the network returns. A saved game sends its changes one by
  // one; a game on the phone alone is replayed whole, so its outbox only counts the changes.
  function waitOnPhone(deals, op) {
    state.deals = deals;
    state.stale = true;
    state.outbox = (state.outbox || []).concat([op]);
    store();
    render();
  }

  // The deals kept unscored, scored on the phone now that the engine is here.
  function scoreWaiting() {
    if (!state || !state.stale || !onPhone()) return;
    var deals = state.deals;
    scoreOnPhone(deals).then(function (answer) {
      if (state.deals !== deals) return; // changed meanwhile: that change scored it
      if (answer.status !== 0) { showErrors(answer.answer.errors || {}, null, false); return; }
      state.game = answer.answer;
      state.scored = deals;
      state.stale = false;
      state.by = "phone";
      if (!state.key) state.outbox = [];
      store();
      render();
      flush();
    }, function () {});
  }

  var flushing = false;
  function flush() {
    var outbox = (state && state.outbox) || [];
    if (!state || flushing || !(state.stale || (state.key && outbox.length))) return;
    if (!state.key && onPhone()) { scoreWaiting(); return; }
    flushing = true;
    function done() { flushing = false; }
    if (state.key && outbox.length) {
      var op = outbox[0];
      var url = gameUrl() + "deals/" + (op.method === "POST" ? "" : op.number + "/");
      call(op.method, url, op.method === "DELETE" ? undefined : op.entry).then(function (answer) {
        done();
        // Changes made while this one was on its way stay after it.
        state.outbox = (state.outbox || []).slice(1);
        if (answer.status >= 400) showErrors(answer.data.errors || {}, null, true);
        var server = answer.status < 500 && answer.data && answer.data.entries ? answer.data : null;
        if (!state.outbox.length) {
          // Every change is sent: the server's game is the game (refused or not, it is read).
          if (server) settle(server);
          else { store(); render(); return readBack(); }
        } else if (server && state.stale) {
          state.game = server;
          state.scored = server.entries;
        }
        store(); render(); flush();
      }, done);
      return;
    }
    if (state.key) { done(); readBack(); return; }
    var body = gameBody(state.deals);
    body.players = state.players;
    call("POST", root.getAttribute("data-replay"), body).then(function (answer) {
      done();
      if (answer.status < 400) {
        state.game = answer.data; state.stale = false; state.outbox = [];
        state.scored = body.deals; state.by = "server";
      } else showErrors(answer.data.errors || {}, null, false);
      store(); render();
    }, done);
  }

  // The saved game as the server has it, in place of the phone's.
  function readBack() {
    return call("GET", gameUrl()).then(function (answer) {
      if (answer.status >= 400) return;
      settle(answer.data);
      store(); render();
    }, function () {});
  }
  window.addEventListener("online", flush);
  // Some networks come back without an "online" event: try again now and then.
  window.setInterval(function () {
    if (state && (state.stale || (state.key && (state.outbox || []).length)) && navigator.onLine) flush();
  }, 15000);
  if (engine) engine.onReady(function () { scoreWaiting(); });

  // The pad as an app: the site's service worker keeps this page and its assets, so that the
  // game opens again without network (tournaments/views/offline.py). On the first visit the
  // page is not the worker's yet: the worker is asked to keep it now.
  function registerWorker() {
    var worker = root.getAttribute("data-service-worker");
    if (!worker || !navigator.serviceWorker || !window.caches) return;
    navigator.serviceWorker.register(worker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (registration.active && navigator.onLine) registration.active.postMessage({ keep: window.location.pathname });
    }).catch(function () {});
  }

  // --- setting a game up ---------------------------------------------------------------------
  function showSetup() {
    setup.hidden = false;
    gameBox.hidden = true;
    var setupForm = document.getElementById("setup-form");
    function count() { return parseInt(($("input[name=players]:checked", setupForm) || {}).value || "4", 10); }
    function refresh() {
      var n = count();
      $$("[data-name-seat]", setupForm).forEach(function (box) {
        box.hidden = SEATS[n].indexOf(box.getAttribute("data-name-seat")) < 0;
      });
      $$("#first-dealer option").forEach(function (option) {
        var seat = option.value;
        option.hidden = option.disabled = SEATS[n].indexOf(seat) < 0;
        var typed = $("#name-" + seat).value.trim();
        option.textContent = typed || seat;
      });
      var dealer = $("#first-dealer");
      if (dealer.selectedOptions[0] && dealer.selectedOptions[0].disabled) dealer.value = "N";
      $$("[data-four-only]", setupForm).forEach(function (box) { box.hidden = n !== 4; });
      $("[data-four-help]", setupForm).hidden = n !== 4;
      $("[data-solo-help]", setupForm).hidden = n === 4;
    }
    setupForm.addEventListener("change", refresh);
    setupForm.addEventListener("input", refresh);
    refresh();
    setupForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var n = count();
      var players = SEATS[n].map(function (seat, i) {
        return $("#name-" + seat).value.trim() || text("player", { n: i + 1 });
      });
      var rules = { players: n };
      $$("[data-rule]", setupForm).forEach(function (box) {
        var name = box.getAttribute("data-rule");
        var input = box.querySelector("select, input");
        var kind = box.getAttribute("data-kind");
        if (kind === "bool") rules[name] = input.value === "true";
        else if (kind === "int") rules[name] = input.value.trim() === "" ? null : parseInt(input.value, 10);
        else rules[name] = input.value;
      });
      var body = { players: players, rules: rules, first_dealer: $("#first-dealer").value, deals: [] };
      var errors = $("[data-setup-errors]", setupForm);
      errors.textContent = "";
      function start(game) {
        state = { players: players, rules: game ? game.rules : rules, first_dealer: body.first_dealer,
          deals: [], scored: [], game: game, stale: !game, key: null, outbox: [] };
        store();
        showGame();
      }
      function refused(found) {
        Object.keys(found || {}).forEach(function (path) {
          found[path].forEach(function (message) {
            var li = document.createElement("li");
            li.textContent = message;
            errors.appendChild(li);
          });
        });
        $("#pad-rules").open = true;
      }
      call("POST", root.getAttribute("data-replay"), body).then(function (answer) {
        if (answer.status >= 400) { refused(answer.data.errors); return; }
        start(answer.data);
      }, function () {
        // No network: the house rules are the engine's to check, on the phone when it is here.
        if (!onPhone()) { start(null); return; }
        engine.match({ rules: rules, first_dealer: body.first_dealer, deals: [] }).then(function (answer) {
          if (answer.status !== 0) refused(answer.answer.errors); else start(null);
        }, function () { start(null); });
      });
    });
  }

  // --- the game --------------------------------------------------------------------------------
  function showGame() {
    setup.hidden = true;
    gameBox.hidden = false;
    window.scrollTo(0, 0);
    setUpForm();
    render();
    flush();
  }

  function sideChips(name) {
    var box = $("[data-sides=" + name + "]");
    box.textContent = "";
    [""].concat(sides()).forEach(function (side) {
      var chip = document.createElement("label");
      chip.className = "chip";
      var input = document.createElement("input");
      input.type = "radio"; input.name = name; input.value = side;
      if (!side) input.checked = true;
      var span = document.createElement("span");
      span.textContent = side ? label(side) + " · " + nameOf(side) : text("none");
      chip.setAttribute("data-short", side);
      chip.appendChild(input); chip.appendChild(span);
      box.appendChild(chip);
    });
  }

  function declarationBoxes() {
    var box = $("[data-declarations]");
    box.textContent = "";
    var kinds = document.getElementById("declaration-kinds").innerHTML;
    sides().forEach(function (side) {
      var team = document.createElement("div");
      team.className = "decl-team";
      team.setAttribute("data-decl-side", side);
      var title = document.createElement("h3");
      title.textContent = label(side) + " · " + nameOf(side);
      team.appendChild(title);
      for (var i = 0; i < 3; i++) {
        var row = document.createElement("div");
        row.className = "decl-slot pad-decl";
        row.innerHTML = '<select data-kind aria-label="' + escape(title.textContent) + '">' + kinds + "</select>" +
          '<select data-top aria-label="' + escape(text("top")) + '"><option value="">' + escape(text("top")) + "</option>" +
          ["A", "K", "Q", "J", "T", "9"].map(function (r) { return '<option value="' + r + '">' + r + "</option>"; }).join("") +
          '</select><select data-suit aria-label="' + escape(text("suit")) + '"><option value="">' + escape(text("suit")) + "</option>" +
          [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]].map(function (s) { return '<option value="' + s[0] + '">' + s[1] + "</option>"; }).join("") +
          "</select>";
        team.appendChild(row);
      }
      box.appendChild(team);
    });
  }

  function setUpForm() {
    var inGame = seats();
    $$("[data-seat]", form).forEach(function (el) { el.hidden = inGame.indexOf(el.getAttribute("data-seat")) < 0; });
    $$("[data-seat-name]", form).forEach(function (el) { el.textContent = seatName(el.getAttribute("data-seat-name")) || ""; });
    form.classList.toggle("pad-three", inGame.length === 3);
    $("[data-points-four]", form).hidden = !four();
    $("[data-points-solo]", form).hidden = four();
    $("[data-points-help]", form).textContent = four() ? text("cards-help-four") : text("cards-help-solo");
    $("[data-declarations-box]", form).hidden = state.rules.declarations === false;
    sideChips("belote");
    sideChips("capot");
    declarationBoxes();
    form.addEventListener("change", refreshForm);
    form.addEventListener("input", refreshForm);
    form.addEventListener("submit", submit);
    $("[data-cancel]", form).addEventListener("click", function () { resetForm(); render(); });
    $("[data-undo]").addEventListener("click", undo);
    $("[data-new-game]").addEventListener("click", function () {
      if (!window.confirm(text("new-confirm"))) return;
      if (!key) { state = null; store(); }
      window.location.href = root.getAttribute("data-new-page");
    });
    var save = $("[data-save-game]");
    if (save) save.addEventListener("click", saveGame);
    refreshForm();
  }

  function refreshForm() {
    var taker = $("input[name=taker]:checked", form);
    $("[data-when-taken]", form).hidden = !!(taker && taker.value === "");
    var cards = $("input[name=cards]", form);
    var other = $("[data-other-points]", form);
    var n = parseInt(cards.value, 10);
    var team = ($("input[name=points_team]:checked", form) || {}).value || "NS";
    other.textContent = isNaN(n) ? "" : label(team === "NS" ? "EW" : "NS") + " " + (162 - n);
    $$("[data-extra]", form).forEach(function (extra) {
      var value = $("[data-extra-value]", extra);
      var checked = extra.querySelector("input[type=radio]:checked");
      if (extra.getAttribute("data-extra") === "declarations") {
        var count = $$("select[data-kind]", extra).filter(function (s) { return s.value; }).length;
        value.textContent = count ? "(" + count + ")" : "";
      } else {
        value.textContent = checked && checked.value ? label(checked.value) : "";
        extra.classList.toggle("extra-set", !!(checked && checked.value));
      }
    });
  }

  function number(input) {
    var v = input.value.trim();
    return v === "" ? null : (/^-?\d+$/.test(v) ? parseInt(v, 10) : v);
  }

  // The entry exactly as docs/rules.md §8 (four players) or §10 (two or three) spells it.
  function entry() {
    var taker = ($("input[name=taker]:checked", form) || {}).value;
    if (taker === undefined) return { taker: undefined };
    if (taker === "") return { taker: null };
    var deal = { taker: taker, trump: ($("input[name=trump]:checked", form) || {}).value || null };
    var capot = ($("input[name=capot]:checked", form) || {}).value || null;
    var belote = ($("input[name=belote]:checked", form) || {}).value || null;
    if (!capot) {
      if (four()) {
        var cards = number($("input[name=cards]", form));
        if (cards !== null) deal.points = { team: $("input[name=points_team]:checked", form).value, cards: cards };
      } else {
        var points = {};
        seats().forEach(function (seat) {
          var v = number($("input[name=cards_" + seat + "]", form));
          if (v !== null) points[seat] = v;
        });
        if (Object.keys(points).length) deal.points = { cards: points };
      }
    }
    deal.capot = capot;
    deal.belote = belote;
    var declarations = {};
    $$("[data-decl-side]", form).forEach(function (box) {
      var list = [];
      $$(".pad-decl", box).forEach(function (row) {
        var kind = $("[data-kind]", row).value;
        if (!kind) return;
        if (kind.indexOf("seq") === 0) {
          list.push({ type: "sequence", length: parseInt(kind.slice(3), 10),
            top: $("[data-top]", row).value || null, suit: $("[data-suit]", row).value || null });
        } else list.push({ type: "four", rank: kind.slice(4) });
      });
      if (list.length) declarations[box.getAttribute("data-decl-side")] = list;
    });
    deal.declarations = declarations;
    return deal;
  }

  function fill(deal) {
    form.reset();
    $$("input[name=belote], input[name=capot]", form).forEach(function (r) { r.checked = r.value === ""; });
    $$("input[name=taker]", form).forEach(function (r) { r.checked = r.value === (deal.taker || ""); });
    $$("input[name=trump]", form).forEach(function (r) { r.checked = r.value === deal.trump; });
    ["belote", "capot"].forEach(function (name) {
      $$("input[name=" + name + "]", form).forEach(function (r) { r.checked = r.value === (deal[name] || ""); });
      $("[data-extra=" + name + "]", form).open = !!deal[name];
    });
    var points = deal.points || {};
    if (four()) {
      if (points.team) $("input[name=points_team][value=" + points.team + "]", form).checked = true;
      $("input[name=cards]", form).value = points.cards === undefined ? "" : points.cards;
    } else {
      seats().forEach(function (seat) {
        var v = (points.cards || {})[seat];
        $("input[name=cards_" + seat + "]", form).value = v === undefined ? "" : v;
      });
    }
    var any = false;
    $$("[data-decl-side]", form).forEach(function (box) {
      var list = (deal.declarations || {})[box.getAttribute("data-decl-side")] || [];
      $$(".pad-decl", box).forEach(function (row, i) {
        var d = list[i];
        $("[data-kind]", row).value = d ? (d.type === "four" ? "four" + d.rank : "seq" + d.length) : "";
        $("[data-top]", row).value = d && d.top ? d.top : "";
        $("[data-suit]", row).value = d && d.suit ? d.suit : "";
        any = any || !!d;
      });
    });
    $("[data-declarations-box]", form).open = any;
    refreshForm();
  }

  function resetForm() {
    editing = null;
    fill({ taker: undefined });
    $$("input[name=taker]", form).forEach(function (r) { r.checked = false; });
    clearErrors();
    refreshForm();
  }

  function clearErrors() {
    $$("[data-errors]").forEach(function (list) { list.textContent = ""; });
    $$(".field-error", form).forEach(function (el) { el.classList.remove("field-error"); });
  }

  // The engine names the field; each message goes beside the part of the form it is about.
  function showErrors(errors, index, oneDeal) {
    var prefix = index === null || oneDeal ? null : "deals." + index;
    Object.keys(errors).forEach(function (path) {
      var field = path;
      if (prefix && path.indexOf(prefix) === 0) field = path.slice(prefix.length + 1) || "deal";
      var head = field.split(".")[0];
      var list = $("[data-errors=" + head + "]", form) || $("[data-errors=deal]", form);
      if (head === "declarations") list = $("[data-errors=deal]", form);
      var part = $("[data-field=" + head + "]", form) || $("[data-extra=" + head + "]", form);
      if (part) part.classList.add("field-error");
      if (part && part.tagName === "DETAILS") part.open = true;
      errors[path].forEach(function (message) {
        var li = document.createElement("li");
        li.textContent = message;
        list.appendChild(li);
      });
    });
    var saveErrors = $("[data-errors=save]");
    if (saveErrors && index === null && !oneDeal) {
      Object.keys(errors).forEach(function (path) {
        errors[path].forEach(function (m) { var li = document.createElement("li"); li.textContent = path + ": " + m; saveErrors.appendChild(li); });
      });
    }
  }

  function submit(event) {
    event.preventDefault();
    var deal = entry();
    if (deal.taker === undefined) {
      clearErrors();
      showErrors({ taker: [$("[data-field=taker] legend", form).textContent + " ?"] }, null, true);
      return;
    }
    var deals = state.deals.slice();
    var op, index;
    if (editing) {
      index = editing - 1;
      deals[index] = deal;
      op = { method: "PUT", number: editing, entry: deal };
    } else {
      index = deals.length;
      deals.push(deal);
      op = { method: "POST", entry: deal };
    }
    change(deals, op, index).then(function (done) { if (done) { resetForm(); render(); } });
  }

  function remove(numberOf) {
    if (!window.confirm(text("remove-confirm", { n: numberOf }))) return;
    var deals = state.deals.slice();
    deals.splice(numberOf - 1, 1);
    change(deals, { method: "DELETE", number: numberOf }, null).then(function () { resetForm(); render(); });
  }
  function undo() { if (state.deals.length) remove(state.deals.length); }
  function edit(numberOf) {
    editing = numberOf;
    fill(state.deals[numberOf - 1]);
    render();
    $("[data-form-title]", form).focus();
    form.scrollIntoView({ block: "start" });
  }

  function saveGame() {
    var body = { players: state.players, rules: state.rules, first_dealer: state.first_dealer, deals: state.deals };
    call("POST", root.getAttribute("data-api"), body).then(function (answer) {
      if (answer.status >= 400) { showErrors(answer.data.errors || {}, null, false); return; }
      // The server replays the game it saves: its figures win over the phone's, which must agree.
      settle(answer.data);
      var saved = { players: state.players, rules: answer.data.rules, first_dealer: state.first_dealer,
        deals: answer.data.entries, scored: answer.data.entries, game: answer.data, stale: false,
        key: answer.data.key, outbox: [], by: "server", disagreement: !!state.disagreement };
      localStorage.setItem("belote.pad." + answer.data.key, JSON.stringify(saved));
      state = null; store();
      window.location.href = root.getAttribute("data-new-page") + answer.data.key + "/";
    }, function () {});
  }

  function cell(row, content, className) {
    var td = document.createElement("td");
    if (className) td.className = className;
    if (content instanceof Node) td.appendChild(content); else td.textContent = content;
    row.appendChild(td);
    return td;
  }

  function summary(deal) {
    if (!deal.taker) return text("all-passed");
    var suits = { S: "♠", H: "♥", D: "♦", C: "♣" };
    return label(deal.taker) + " " + (suits[deal.trump] || "");
  }

  // While changes wait, a deal still shows its score if neither it nor any deal before it
  // changed since the engine last scored the game (a deal's score depends on those alone).
  function scoredSoFar(played) {
    var before = state.scored || [];
    var n = 0;
    while (n < state.deals.length && n < before.length && n < played.length &&
      JSON.stringify(state.deals[n]) === JSON.stringify(before[n])) n++;
    return n;
  }

  function render() {
    var game = state.game;
    var played = game ? game.deals : [];
    var scored = state.stale ? scoredSoFar(played) : played.length;
    var totals = $("[data-totals]");
    totals.textContent = "";
    totals.classList.toggle("pad-totals-3", sides().length === 3);
    sides().forEach(function (side) {
      var box = document.createElement("div");
      box.className = "total";
      box.setAttribute("data-side", side);
      var strong = document.createElement("strong");
      strong.setAttribute("data-total", side);
      strong.textContent = game ? game.totals[side] : 0;
      var name = document.createElement("span");
      name.className = "team-name";
      name.textContent = nameOf(side);
      box.appendChild(strong); box.appendChild(name);
      totals.appendChild(box);
    });
    var winner = $("[data-winner]");
    winner.hidden = !(game && game.over && !state.stale);
    if (!winner.hidden) winner.textContent = game.winner === "draw" ? text("draw") : text("wins", { name: nameOf(game.winner) });
    var waiting = $("[data-waiting]");
    var unsent = state.key ? (state.outbox || []).length : 0;
    waiting.hidden = !state.stale && !unsent;
    if (state.stale) waiting.textContent = text("waiting", { n: (state.outbox || []).length || 1 });
    else if (unsent) waiting.textContent = text("unsent", { n: unsent });
    $("[data-disagreement]").hidden = !state.disagreement;
    root.setAttribute("data-scored-by", state.stale ? "" : state.by || "server");
    var numberNext = state.deals.length + 1;
    $("[data-form-title]", form).textContent = editing ? text("correct", { n: editing }) : text("deal", { n: numberNext });
    $("[data-cancel]", form).hidden = !editing;
    var dealer = game && game.next_dealer;
    $("[data-dealer]", form).textContent = dealer && !editing && !state.stale ? text("dealer") + " " + label(dealer) + " · " + seatName(dealer) : "";
    form.hidden = !!(game && game.over && !editing && !state.stale);
    $("[data-undo]").disabled = !state.deals.length;

    var head = $("[data-deals-head]");
    head.textContent = "";
    var hr = document.createElement("tr");
    ["#", ""].concat(sides().map(label)).concat([""]).forEach(function (heading) {
      var th = document.createElement("th"); th.scope = "col"; th.textContent = heading; hr.appendChild(th);
    });
    head.appendChild(hr);
    var body = $("[data-deals]");
    body.textContent = "";
    state.deals.forEach(function (deal, i) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-deal", i + 1);
      var th = document.createElement("th"); th.scope = "row"; th.textContent = i + 1; tr.appendChild(th);
      var result = i < scored ? played[i].result : null;
      var what = summary(deal) + (result ? " · " + text(result.outcome) : " · " + text("not-scored"));
      cell(tr, what);
      sides().forEach(function (side) { cell(tr, result ? String(result.score[side]) : "–", "num"); });
      var actions = document.createElement("span");
      actions.className = "pad-actions";
      var e = document.createElement("button");
      e.type = "button"; e.className = "small-button"; e.textContent = "✎";
      e.setAttribute("aria-label", text("edit") + " " + (i + 1));
      e.addEventListener("click", function () { edit(i + 1); });
      var r = document.createElement("button");
      r.type = "button"; r.className = "small-button"; r.textContent = "✕";
      r.setAttribute("aria-label", text("remove") + " " + (i + 1));
      r.addEventListener("click", function () { remove(i + 1); });
      actions.appendChild(e); actions.appendChild(r);
      cell(tr, actions);
      if (editing === i + 1) tr.className = "pad-editing";
      body.appendChild(tr);
    });
  }

  // --- start ---------------------------------------------------------------------------------
  registerWorker();
  if (key && !state) {
    call("GET", root.getAttribute("data-api") + key + "/").then(function (answer) {
      if (answer.status >= 400) return;
      var g = answer.data;
      state = { players: g.players, rules: g.rules, first_dealer: g.first_dealer, deals: g.entries,
        scored: g.entries, game: g, stale: false, key: key, outbox: [] };
      store();
      showGame();
    });
  } else if (state) {
    showGame();
  } else {
    showSetup();
  }
})();
