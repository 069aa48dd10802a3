// Ordered choices (the tie-break order): buttons that move a line up or down. The form sends
// the ticked boxes in the order they stand on the page; without this script, in their order.
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
    });
  });
})();
