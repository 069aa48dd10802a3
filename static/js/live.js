// Live regions (hx-get polling a versioned fragment): say so when the connection is lost,
// and stop saying it once a poll gets through again. Where the site has a stream host
// (<meta name="live-stream">), a region marked data-stream takes each new version from a
// server-sent events stream instead, and polls only while the stream is down.
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

  var meta = document.querySelector('meta[name="live-stream"]');
  if (!meta || !window.EventSource) return;
  var base = meta.getAttribute("content");
  var streams = {}; // region id -> {source, open}

  // While a region's stream is open its polls are not sent: the stream brings every version.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var region = e.detail && e.detail.elt;
    var stream = region && region.id ? streams[region.id] : null;
    if (stream && stream.open) e.preventDefault();
  });

  function streamUrl(region) {
    var polled = new URL(region.getAttribute("hx-get"), window.location.href);
    var url = new URL(base + polled.pathname, window.location.href);
    polled.searchParams.forEach(function (value, name) {
      if (name !== "v") url.searchParams.set(name, value);
    });
    url.searchParams.set("v", region.dataset.version || "");
    url.searchParams.set("lang", document.documentElement.lang || "en");
    return url.toString();
  }

  function swap(id, html) {
    var region = document.getElementById(id);
    if (!region) return;
    if (window.htmx && htmx.swap) {
      htmx.swap(region, html, { swapStyle: "outerHTML" });
    } else {
      region.outerHTML = html;
    }
  }

  function follow(region) {
    var id = region.id;
    if (!id || streams[id]) return;
    var stream = { source: new EventSource(streamUrl(region)), open: false };
    streams[id] = stream;
    stream.source.addEventListener("open", function () { stream.open = true; });
    stream.source.addEventListener(region.dataset.stream, function (event) {
      stream.open = true;
      swap(id, event.data);
    });
    stream.source.addEventListener("error", function () {
      // Reconnecting (the browser retries by itself) or refused for good (a private
      // tournament, a full host): either way the region polls meanwhile.
      stream.open = false;
      if (stream.source.readyState === EventSource.CLOSED) {
        streams[id] = { source: stream.source, open: false, closed: true };
      }
    });
  }

  function start() {
    document.querySelectorAll("[data-stream][hx-get][id]").forEach(follow);
  }
  document.addEventListener("DOMContentLoaded", start);
})();
