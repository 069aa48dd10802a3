// The prize table editor of the tournament form: the pool, the rounding and one row per prize
// line, written as JSON into the form's `prizes` field on every change (docs/prizes.md).
// Without this script the field is edited as JSON; the settings check names the line and the
// field of each problem ("Line 3, percent of the pool") either way, and the rows carry the numbers.
(function () {
  "use strict";
  var words = {};
  function word(key, n) {
    var text = words[key] || key;
    return n === undefined ? text : text.replace("%(n)s", n);
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  // A number as typed, or the text itself (the settings check then names it).
  function value(text) {
    text = String(text).trim();
    if (text === "") return undefined;
    var number = Number(text.replace(",", "."));
    return isNaN(number) ? text : number;
  }
  function input(label, current, attrs) {
    var field = el("input", Object.assign({ type: "text", inputmode: "decimal", "aria-label": label }, attrs || {}));
    field.value = current === undefined || current === null ? "" : current;
    return el("label", { class: "prize-cell" }, [el("span", { text: label }), field]);
  }
  function whichOf(line) {
    if ("places" in line) return "places";
    if ("every" in line) return "every";
    if ("last" in line) return "last";
    return "place";
  }

  function Editor(root, textarea) {
    this.root = root;
    this.textarea = textarea;
    this.entries = Number(root.dataset.entries) || 0;
    // A series has no entry fees: its presets leave the pool to the money added.
    this.fees = root.dataset.fees !== "off";
    if (this.read()) this.render();
  }
  Editor.prototype.read = function () {
    var setting = null;
    try { setting = JSON.parse(this.textarea.value || "null"); } catch (e) { setting = undefined; }
    if (setting === undefined) return false;  // not JSON yet: the editor keeps what it shows
    setting = setting && typeof setting === "object" && !Array.isArray(setting) ? setting : {};
    this.setting = {
      pool: Object.assign({}, setting.pool || {}),
      rounding: setting.rounding === undefined ? 1 : setting.rounding,
      cumulative: !!setting.cumulative,
      lines: Array.isArray(setting.lines) ? setting.lines.map(function (l) { return Object.assign({}, l); }) : [],
    };
    return true;
  };
  Editor.prototype.write = function () {
    var s = this.setting, empty = !s.lines.length && s.pool.percent_of_fees === undefined && s.pool.added === undefined;
    if (empty) { this.textarea.value = ""; return; }
    var out = { pool: {}, rounding: s.rounding, lines: s.lines, cumulative: s.cumulative };
    if (s.pool.percent_of_fees !== undefined) out.pool.percent_of_fees = s.pool.percent_of_fees;
    if (s.pool.added !== undefined) out.pool.added = s.pool.added;
    this.textarea.value = JSON.stringify(out, null, 1);
  };
  Editor.prototype.preset = function (name) {
    var n = Math.max(this.entries, 4), lines;
    var pool = this.fees ? { percent_of_fees: 100 } : Object.assign({}, this.setting.pool);
    if (name === "share") {
      this.setting.pool = pool;
      lines = [{ place: 1, percent: 40 }, { place: 2, percent: 25 }, { place: 3, percent: 15 }, { place: 4, percent: 10 }];
    } else if (name === "van4") {
      this.setting.pool = pool;
      lines = [{ place: 1, percent: 25 }, { place: 2, percent: 15 }, { place: 3, percent: 10 }, { place: 4, percent: 8 }];
      var to = Math.max(8, n - n % 4), count = Math.floor((to - 8) / 4) + 1;
      lines.push({ every: 4, from: 8, to: to, percent: Math.floor(40 / count * 100) / 100 });
    } else {
      lines = [{ places: [1, n], kind: word("a_prize") }];
    }
    this.setting.lines = lines;
    this.changed();
  };
  Editor.prototype.changed = function () { this.write(); this.render(); };

  Editor.prototype.lineRow = function (line, index) {
    var self = this, n = index + 1, which = whichOf(line);
    var select = el("select", { "aria-label": word("line", n) + ": " + word("which") });
    ["place", "places", "every", "last"].forEach(function (code) {
      var option = el("option", { value: code, text: word(code) });
      if (code === which) option.selected = true;
      select.appendChild(option);
    });
    var cells = [el("label", { class: "prize-cell" }, [el("span", { text: word("which") }), select])];
    var label = function (key) { return word("line", n) + ": " + word(key); };
    if (which === "place") cells.push(input(label("place"), line.place, { "data-key": "place", inputmode: "numeric" }));
    if (which === "places") {
      var pair = Array.isArray(line.places) ? line.places : [];
      cells.push(input(label("from"), pair[0], { "data-key": "places0", inputmode: "numeric" }));
      cells.push(input(label("to"), pair[1], { "data-key": "places1", inputmode: "numeric" }));
    }
    if (which === "every") {
      cells.push(input(label("step"), line.every, { "data-key": "every", inputmode: "numeric" }));
      cells.push(input(label("from"), line.from, { "data-key": "from", inputmode: "numeric" }));
      cells.push(input(label("to"), line.to, { "data-key": "to", inputmode: "numeric" }));
    }
    if (which !== "last" && which !== "every") cells.push(input(label("category"), line.category, { "data-key": "category", inputmode: "text" }));
    cells.push(input(label("amount"), line.amount, { "data-key": "amount" }));
    cells.push(input(label("percent"), line.percent, { "data-key": "percent" }));
    cells.push(input(label("kind"), line.kind, { "data-key": "kind", inputmode: "text" }));
    var remove = el("button", { type: "button", class: "secondary small", text: "✕", "aria-label": word("remove", n) });
    remove.addEventListener("click", function () { self.setting.lines.splice(index, 1); self.changed(); });
    var row = el("li", { class: "prize-line" }, [el("fieldset", {}, [el("legend", { text: word("line", n) })].concat(cells, [remove]))]);
    select.addEventListener("change", function () {
      var kept = {};
      ["category", "amount", "percent", "kind"].forEach(function (k) { if (k in line) kept[k] = line[k]; });
      if (select.value === "place") kept.place = 1;
      if (select.value === "places") kept.places = [1, 2];
      if (select.value === "every") Object.assign(kept, { every: 4, from: 4, to: Math.max(8, self.entries) });
      if (select.value === "last") kept.last = true;
      if (select.value === "every" || select.value === "last") delete kept.category;
      self.setting.lines[index] = kept;
      self.changed();
    });
    row.addEventListener("input", function (event) {
      var key = event.target.dataset.key;
      if (!key) return;
      var typed = key === "category" || key === "kind" ? event.target.value : value(event.target.value);
      if (key === "places0" || key === "places1") {
        var pair = Array.isArray(line.places) ? line.places.slice() : [undefined, undefined];
        pair[key === "places0" ? 0 : 1] = typed;
        line.places = pair;
      } else if (typed === undefined || typed === "") {
        delete line[key];
      } else {
        line[key] = typed;
      }
      self.write();  // no re-render while typing: the focus stays in the box
    });
    return row;
  };

  Editor.prototype.render = function () {
    var self = this, s = this.setting;
    this.root.innerHTML = "";
    var presets = el("p", { class: "prize-presets" }, [el("span", { text: word("presets") + " " })]);
    [["share", "preset_share"], ["van4", "preset_van4"], ["every", "preset_every_team"]].forEach(function (p) {
      var b = el("button", { type: "button", class: "secondary small", text: word(p[1]) });
      b.addEventListener("click", function () { self.preset(p[0]); });
      presets.appendChild(b);
    });
    var rounding = el("select", { "aria-label": word("rounding") });
    ["0.01", "1", "5", "10"].forEach(function (unit) {
      var option = el("option", { value: unit, text: unit });
      if (Number(unit) === Number(s.rounding)) option.selected = true;
      rounding.appendChild(option);
    });
    rounding.addEventListener("change", function () { s.rounding = Number(rounding.value); self.write(); });
    var cumulative = el("input", { type: "checkbox" });
    cumulative.checked = s.cumulative;
    cumulative.addEventListener("change", function () { s.cumulative = cumulative.checked; self.write(); });
    var pool = el("div", { class: "prize-pool" }, [
      this.fees ? input(word("pool_percent"), s.pool.percent_of_fees, { "data-pool": "percent_of_fees" }) : null,
      input(word("pool_added"), s.pool.added, { "data-pool": "added" }),
      el("label", { class: "prize-cell" }, [el("span", { text: word("rounding") }), rounding]),
      el("label", { class: "prize-cell prize-check" }, [cumulative, el("span", { text: " " + word("cumulative") })]),
    ]);
    pool.addEventListener("input", function (event) {
      var key = event.target.dataset.pool;
      if (!key) return;
      var typed = value(event.target.value);
      if (typed === undefined) delete s.pool[key]; else s.pool[key] = typed;
      self.write();
    });
    var list = el("ol", { class: "prize-lines" });
    s.lines.forEach(function (line, index) { list.appendChild(self.lineRow(line, index)); });
    if (!s.lines.length) list.appendChild(el("li", { class: "muted", text: word("none") }));
    var add = el("button", { type: "button", class: "secondary", text: word("add") });
    add.addEventListener("click", function () {
      var next = s.lines.length + 1;
      s.lines.push({ place: next, amount: 0 });
      self.changed();
    });
    [presets, pool, list, add].forEach(function (node) { self.root.appendChild(node); });
  };

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-prize-editor]");
    var textarea = document.querySelector("[data-prize-json]");
    var source = document.getElementById("prize-words");
    if (!root || !textarea || !source) return;
    words = JSON.parse(source.textContent);
    var editor = new Editor(root, textarea);
    if (!editor.setting) return;  // the field holds text that is not JSON: left to edit as it is
    root.hidden = false;
    // The JSON stays reachable, folded: a club may paste a table from another tournament.
    var field = textarea.closest(".field");
    var fold = el("details", { class: "prize-json" }, [el("summary", { text: word("json") })]);
    field.parentNode.insertBefore(fold, field);
    fold.appendChild(field);
    // The check's problems ("Line 3, amount: …") stand above the rows, not in the fold.
    var errors = field.querySelector(".errorlist");
    if (errors) {
      var shown = errors.cloneNode(true);
      shown.removeAttribute("id");
      shown.setAttribute("role", "alert");
      root.insertBefore(shown, root.firstChild);
    }
    textarea.addEventListener("input", function () { if (editor.read()) editor.render(); });
  });
})();
