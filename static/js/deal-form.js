/* Deal form enhancements: the other team's points as you type, declarations by quick buttons,
   top card and suit only for sequences. The form works the same without this script. */
(function () {
  "use strict";
  var form = document.getElementById("deal-form");
  if (!form) return;
  var dealValue = parseInt(form.getAttribute("data-deal-value"), 10);

  // The other team's card points: the deal's value (from the engine) minus what was typed.
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
  }

  // Declarations: show only the slots in use; quick buttons fill the next free slot.
  form.querySelectorAll("[data-decl-team]").forEach(function (team) {
    var slots = Array.prototype.slice.call(team.querySelectorAll("[data-slot]"));
    var quick = team.querySelector("[data-quick]");
    if (quick) quick.hidden = false;
    function kindOf(slot) { return slot.querySelector("select[name$=_kind]"); }
    function refresh(slot) {
      var kind = kindOf(slot).value;
      var detail = slot.querySelector("[data-detail]");
      // A four has no top card or suit to ask for.
      if (detail) detail.hidden = kind.indexOf("seq") !== 0;
    }
    slots.forEach(function (slot) {
      var kind = kindOf(slot);
      var inError = slot.classList.contains("field-error");
      slot.hidden = !kind.value && !inError;
      var remove = slot.querySelector("[data-remove]");
      if (remove) {
        remove.hidden = false;
        remove.addEventListener("click", function () {
          kind.value = "";
          slot.querySelectorAll("select").forEach(function (s) { s.value = ""; });
          slot.hidden = true;
          var first = quick && quick.querySelector("button");
          if (first) first.focus();
        });
      }
      kind.addEventListener("change", function () { refresh(slot); });
      refresh(slot);
    });
    if (!quick) return;
    quick.querySelectorAll("[data-add]").forEach(function (button) {
      button.addEventListener("click", function () {
        var free = slots.filter(function (s) { return s.hidden && !kindOf(s).value; })[0];
        if (!free) { button.setAttribute("aria-disabled", "true"); return; }
        var kind = kindOf(free);
        kind.value = button.getAttribute("data-add");
        free.hidden = false;
        refresh(free);
        if (!kind.value) kind.focus();
      });
    });
  });

  // Trump, card points, capot, belote and declarations mean nothing when all passed.
  var taken = form.querySelector("[data-when-taken]");
  function showTaken() {
    var checked = form.querySelector("input[name=taker]:checked");
    var hasErrors = taken && taken.querySelector(".field-error");
    if (taken) taken.hidden = !!(checked && checked.value === "pass" && !hasErrors);
  }
  form.querySelectorAll("input[name=taker]").forEach(function (r) {
    r.addEventListener("change", showTaken);
  });
  showTaken();

  // A double tap sends the form once; the submission key covers what slips through.
  form.addEventListener("submit", function () {
    var button = form.querySelector("button[type=submit]");
    if (button) setTimeout(function () { button.disabled = true; }, 0);
  });
})();
