// Live regions (hx-get polling a versioned fragment): say so when the connection is lost,
// and stop saying it once a poll gets through again. No other behaviour.
(function () {
  "use strict";
  function lost(event, isLost) {
    var region = event.target.closest ? event.target.closest("[hx-get]") : null;
    if (!region) return;
    region.classList.toggle("live-offline", isLost);
    region.querySelectorAll(".live-lost").forEach(function (note) { note.hidden = !isLost; });
  }
  document.addEventListener("htmx:sendError", function (e) { lost(e, true); });
  document.addEventListener("htmx:responseError", function (e) { lost(e, true); });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail && e.detail.successful) lost(e, false);
  });
})();
