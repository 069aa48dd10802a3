// Live regions (hx-get polling a versioned fragment): say so when the connection is lost,
// and stop saying it once a poll gets through again. Where the site has a stream host
// (<meta name="live-stream">), a region marked data-stream takes each new version from a
// server-sent events stream instead: the region whole when the stream opens, then a "patch"
// event per version (runs of the lines it holds, [start, count], and the indexes of the new
// lines it lists; live/stream/events.py). It stops polling only once the stream
// proves live (a region, a patch, or "current": the page shows the newest version), not
// when it merely opens: a host that cannot fetch the region says "poll", and a proxy that
// buffers says nothing. While streaming it still checks its version once 30 s pass with no
// event (a 204 while nothing moved), so a version whose announcement was lost (Redis down,
// a reconnect) reaches the page anyway.
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
  var streams = {}; // region id -> {source, live, checked, lines, holds}
  // Tests shorten the check (window.beloteLiveCheckMs) rather than wait for it.
  function checkEvery() { return window.beloteLiveCheckMs || 30000; }

  // While a region's stream is live its polls are not sent, but for the version check.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var region = e.detail && e.detail.elt;
    var stream = region && region.id ? streams[region.id] : null;
    if (!stream || !stream.live) return;
    var now = Date.now();
    if (now - stream.checked < checkEvery()) {
      e.preventDefault();
    } else {
      stream.checked = now;
    }
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

  function patched(lines, patch) {
    var made = [], ops = patch.ops;
    for (var i = 0; i < ops.length; i++) {
      var op = ops[i];
      if (typeof op === "number") {
        made.push(patch.lines[op]);
      } else {
        for (var n = op[0]; n < op[0] + op[1]; n++) made.push(lines[n]);
      }
    }
    return made;
  }

  function follow(region) {
    var id = region.id;
    if (!id || (streams[id] && !streams[id].dropped)) return;
    var stream = { source: new EventSource(streamUrl(region)), live: false, checked: 0 };
    streams[id] = stream;
    function live() {
      stream.live = true;
      stream.checked = Date.now(); // what the stream just said is as good as a check
    }
    function show(version, lines) {
      stream.lines = lines;
      stream.holds = version;
      live();
      var shown = document.getElementById(id);
      if (shown && shown.dataset.version !== version) swap(id, lines.join("\n"));
    }
    stream.source.addEventListener(region.dataset.stream, function (event) {
      show(event.lastEventId, event.data.split("\n"));
    });
    stream.source.addEventListener("patch", function (event) {
      var patch = JSON.parse(event.data);
      if (!stream.lines || patch.from !== stream.holds) {
        // Not the version this page holds (it cannot happen on one connection, in order):
        // open the stream again, which sends the region whole.
        stream.source.close();
        stream.dropped = true;
        var shown = document.getElementById(id);
        if (shown) follow(shown);
        return;
      }
      show(event.lastEventId, patched(stream.lines, patch));
    });
    stream.source.addEventListener("current", live);
    stream.source.addEventListener("poll", function () { stream.live = false; });
    stream.source.addEventListener("error", function () {
      // Reconnecting (the browser retries by itself) or refused for good (a private
      // tournament, a full host): either way the region polls meanwhile.
      stream.live = false;
      if (stream.source.readyState === EventSource.CLOSED) {
        streams[id] = { source: stream.source, live: false, closed: true };
      }
    });
  }

  function start() {
    document.querySelectorAll("[data-stream][hx-get][id]").forEach(follow);
  }
  document.addEventListener("DOMContentLoaded", start);
})();
