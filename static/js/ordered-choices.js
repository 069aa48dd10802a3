// Ordered choices (the tie-break order): buttons that move a line up or down. The form sends
// the ticked boxes in the order they stand on the page; without this script, in their order.
// A tie-break list still as the chosen format's default follows the format when it changes
// (each format's default is in the form's data-tie-break-defaults): what is shown is saved.
(function () {
  "use strict";
  function button(label, text, move) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "chip-button order-move";
    b.dataset.move = move;
    b.setAttribute("aria-label", label + ": " + text);
    b.textContent = move === "up" ? "▲" : "▼";
    return b;
  }
  // The ticked codes, in their order on the page.
  function ticked(list) {
    return Array.prototype.map.call(list.querySelectorAll("input:checked"), function (i) { return i.value; });
  }
  function show(list, codes) {
    var items = Array.prototype.slice.call(list.querySelectorAll("li"));
    items.forEach(function (item) {
      item.querySelector("input").checked = codes.indexOf(item.dataset.choice) >= 0;
    });
    items.sort(function (a, b) {
      var i = codes.indexOf(a.dataset.choice), j = codes.indexOf(b.dataset.choice);
      return (i < 0 ? 1000 : i) - (j < 0 ? 1000 : j);
    });
    items.forEach(function (item) { list.appendChild(item); });
  }
  function followFormat(list) {
    var form = list.closest("form");
    var format = form.querySelector("select[name=format]");
    var defaults;
    try { defaults = JSON.parse(form.dataset.tieBreakDefaults || "null"); } catch (e) { defaults = null; }
    if (!format || !defaults) return;
    var shown = format.value;
    format.addEventListener("change", function () {
      var before = defaults[shown] || [];
      if (ticked(list).join(" ") === before.join(" ") && defaults[format.value]) {
        show(list, defaults[format.value]);
      }
      shown = format.value;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-ordered]").forEach(function (list) {
      var up = list.closest("form").dataset.moveUp || "Move up";
      var down = list.closest("form").dataset.moveDown || "Move down";
      list.querySelectorAll("li").forEach(function (item) {
        var text = item.textContent.trim();
        var span = document.createElement("span");
        span.className = "order-buttons";
        span.appendChild(button(up, text, "up"));
        span.appendChild(button(down, text, "down"));
        item.appendChild(span);
      });
      list.addEventListener("click", function (event) {
        var b = event.target.closest(".order-move");
        if (!b) return;
        var item = b.closest("li");
        if (b.dataset.move === "up" && item.previousElementSibling) {
          list.insertBefore(item, item.previousElementSibling);
        } else if (b.dataset.move === "down" && item.nextElementSibling) {
          list.insertBefore(item.nextElementSibling, item);
        }
        b.focus();
      });
      followFormat(list);
    });
  });
})();
