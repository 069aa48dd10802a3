/* Deal form enhancements: the other team's points as you type, what belote / capot /
   declarations hold shown on their folded buttons, declarations by quick buttons, top card and
   suit only for sequences, Save kept for the Save button. Without this script the form still
   enters every deal but declarations (their empty slot is a template this script clones); no
   rule of the game is here (the engine on the server judges every entry).
   `window.beloteDealForm(form)` sets a form up; the table's outbox calls it again after it
   puts a fresh form in the page. */
(function () {
  "use strict";

  function setUp(form) {
    if (!form || form.getAttribute("data-ready") === "1") return;
    form.setAttribute("data-ready", "1");
    var refreshers = []; // each part redraws itself after the form is cleared for the next deal
    var dealValue = parseInt(form.getAttribute("data-deal-value"), 10);

    // The other team's card points: the deal's value (from the server) minus what was typed.
    var cards = form.querySelector("input[name=cards]");
    var other = form.querySelector("[data-other-points]");
    // The other side, as the page's language writes it (NS/EO in French, NZ/OW in Dutch).
    function teamOf(code) {
      return code === "NS" ? form.getAttribute("data-side-ew") || "EW" : form.getAttribute("data-side-ns") || "NS";
    }
    function showOther() {
      if (!cards || !other) return;
      var typed = cards.value.trim();
      var checked = form.querySelector("input[name=points_team]:checked");
      var n = parseInt(typed, 10);
      if (typed === "" || isNaN(n) || String(n) !== typed) { other.hidden = true; return; }
      other.hidden = false;
      other.textContent = teamOf(checked ? checked.value : "NS") + " " + (dealValue - n);
    }
    if (cards) {
      cards.addEventListener("input", showOther);
      form.querySelectorAll("input[name=points_team]").forEach(function (r) {
        r.addEventListener("change", showOther);
      });
      showOther();
      refreshers.push(showOther);
    }

    // A folded belote / capot button says what it holds ("Belote NS"), so nothing is hidden.
    form.querySelectorAll("[data-extra]").forEach(function (extra) {
      var value = extra.querySelector("[data-extra-value]");
      function show() {
        if (!value) return;
        var checked = extra.querySelector("input[type=radio]:checked");
        var kinds = extra.querySelectorAll("select[name$=_kind]");
        if (kinds.length) {
          var n = 0;
          kinds.forEach(function (k) { if (k.value) n += 1; });
          value.textContent = n ? "(" + n + ")" : "";
          return;
        }
        var label = checked && checked.value ? checked.closest("label") : null;
        value.textContent = label ? label.getAttribute("data-short") || "" : "";
        extra.classList.toggle("extra-set", !!(checked && checked.value));
      }
      extra.addEventListener("change", show);
      extra.addEventListener("click", function () { setTimeout(show, 0); });
      show();
      refreshers.push(show);
    });

    // Declarations: the page sends the slots in use and one empty slot as a template; a quick
    // button clones it for its team (under the next free slot number), ✕ takes a slot away.
    var template = form.querySelector("template[data-slot-template]");
    function kindOf(slot) { return slot.querySelector("select[name$=_kind]"); }
    function refresh(slot) {
      var detail = slot.querySelector("[data-detail]");
      // A four has no top card or suit to ask for.
      if (detail) detail.hidden = kindOf(slot).value.indexOf("seq") !== 0;
    }
    function wire(slot, team) {
      var kind = kindOf(slot);
      kind.addEventListener("change", function () { refresh(slot); });
      refresh(slot);
      var remove = slot.querySelector("[data-remove]");
      if (remove) {
        remove.addEventListener("click", function () {
          slot.remove();
          team.querySelectorAll("[data-add]").forEach(function (b) { b.removeAttribute("aria-disabled"); });
          team.dispatchEvent(new Event("change", { bubbles: true }));
          var first = team.querySelector("[data-quick] button");
          if (first) first.focus();
        });
      }
    }
    function addSlot(team) {
      var code = team.getAttribute("data-decl-team");
      var most = parseInt(team.getAttribute("data-slots"), 10) || 4;
      var used = Array.prototype.map.call(team.querySelectorAll("[data-slot] select[name$=_kind]"), function (k) {
        return k.name.split("_")[2];
      });
      var n = 0;
      while (n < most && used.indexOf(String(n)) >= 0) n += 1;
      if (n >= most || !template) return null;
      var slot = template.content.firstElementChild.cloneNode(true);
      slot.querySelectorAll("[name], [id], [for]").forEach(function (node) {
        ["name", "id", "for"].forEach(function (attr) {
          var value = node.getAttribute(attr);
          if (value) node.setAttribute(attr, value.replace("{team}", code).replace("{slot}", String(n)));
        });
      });
      team.appendChild(slot);
      wire(slot, team);
      return slot;
    }
    form.querySelectorAll("[data-decl-team]").forEach(function (team) {
      var quick = team.querySelector("[data-quick]");
      if (quick) quick.hidden = false;
      team.querySelectorAll("[data-slot]").forEach(function (slot) { wire(slot, team); });
      refreshers.push(function () {
        // After the form is cleared for the next deal, the slots left empty go.
        team.querySelectorAll("[data-slot]").forEach(function (slot) { if (!kindOf(slot).value) slot.remove(); });
      });
      if (!quick) return;
      quick.querySelectorAll("[data-add]").forEach(function (button) {
        button.addEventListener("click", function () {
          var slot = addSlot(team);
          if (!slot) { button.setAttribute("aria-disabled", "true"); return; }
          var kind = kindOf(slot);
          kind.value = button.getAttribute("data-add");
          refresh(slot);
          kind.dispatchEvent(new Event("change", { bubbles: true }));
          if (!kind.value) kind.focus();
        });
      });
    });

    // A capot says the card points (162 to one side): the box for them closes, emptied, and
    // opens again when the capot is taken back.
    var pointsBox = form.querySelector("fieldset.points");
    function showPoints() {
      if (!pointsBox) return;
      var capot = form.querySelector("input[name=capot]:checked");
      var isCapot = !!(capot && capot.value) && !pointsBox.classList.contains("field-error");
      if (isCapot && cards) { cards.value = ""; showOther(); }
      pointsBox.hidden = isCapot;
    }
    form.querySelectorAll("input[name=capot]").forEach(function (r) {
      r.addEventListener("change", showPoints);
    });
    showPoints();
    refreshers.push(showPoints);

    // The keyboard's Enter (or "done") in a box closes the keyboard; it does not save the deal
    // before belote or a declaration could be added. Save is the button's alone.
    form.addEventListener("keydown", function (event) {
      var target = event.target;
      if (event.key !== "Enter" || !target.matches("input:not([type=radio]):not([type=checkbox])")) return;
      event.preventDefault();
      target.blur();
    });

    // Trump, card points, capot, belote and declarations mean nothing when all passed: hidden,
    // they are not sent either (a disabled field is not), and come back as they were when a
    // seat is tapped again.
    var taken = form.querySelector("[data-when-taken]");
    function showTaken() {
      var checked = form.querySelector("input[name=taker]:checked");
      var hasErrors = taken && taken.querySelector(".field-error");
      if (!taken) return;
      taken.hidden = !!(checked && checked.value === "pass" && !hasErrors);
      taken.querySelectorAll("input, select, textarea").forEach(function (field) {
        field.disabled = taken.hidden;
      });
    }
    form.querySelectorAll("input[name=taker]").forEach(function (r) {
      r.addEventListener("change", showTaken);
    });

    // A seat or a trump tapped again is unchosen: every choice is undone where it was made.
    ["taker", "trump"].forEach(function (name) {
      var chosen = form.querySelector("input[name=" + name + "]:checked");
      var last = chosen ? chosen.value : "";
      form.querySelectorAll("input[name=" + name + "]").forEach(function (radio) {
        radio.addEventListener("click", function () {
          if (radio.value === last) {
            radio.checked = false;
            last = "";
            radio.dispatchEvent(new Event("change", { bubbles: true }));
          } else {
            last = radio.value;
          }
        });
      });
      form.addEventListener("reset", function () {
        setTimeout(function () {
          var checked = form.querySelector("input[name=" + name + "]:checked");
          last = checked ? checked.value : "";
        }, 0);
      });
    });

    // The card points are the taker's side's unless the referee picks the other side by hand
    // in this deal: East or West taking turns the toggle to East–West.
    var sideByHand = false;
    form.querySelectorAll("input[name=points_team]").forEach(function (radio) {
      radio.addEventListener("click", function (event) { if (event.isTrusted) sideByHand = true; });
    });
    form.querySelectorAll("input[name=taker]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        var taker = form.querySelector("input[name=taker]:checked");
        if (sideByHand || !taker || "NESW".indexOf(taker.value) < 0 || taker.value.length !== 1) return;
        var side = taker.value === "N" || taker.value === "S" ? "NS" : "EW";
        var toggle = form.querySelector("input[name=points_team][value=" + side + "]");
        if (toggle && !toggle.checked) {
          toggle.checked = true;
          toggle.dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
    });
    form.addEventListener("reset", function () { sideByHand = false; });
    showTaken();
    refreshers.push(showTaken);
    form.addEventListener("reset", function () {
      setTimeout(function () { refreshers.forEach(function (redraw) { redraw(); }); }, 0);
    });

    // Without the table's outbox (the correction page), a double tap still sends once; the
    // submission key covers what slips through.
    if (!document.getElementById("outbox")) {
      form.addEventListener("submit", function () {
        var button = form.querySelector("button[type=submit]");
        if (button) setTimeout(function () { button.disabled = true; }, 0);
      });
    }

    // A refused entry: its first marked field is brought into view and focused.
    var firstError = form.querySelector(".field-error");
    if (firstError) {
      var details = firstError.closest("details");
      if (details) details.open = true;
      var input = firstError.querySelector("input:not([type=hidden]), select");
      if (input) input.focus({ preventScroll: true });
      var box = firstError.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) firstError.scrollIntoView({ block: "center" });
    }
  }

  window.beloteDealForm = setUp;
  setUp(document.getElementById("deal-form"));
})();
