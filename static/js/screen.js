// The big screen: each table comes whole from the server and is cut here into as many slides
// as the room's screen needs, so every row is wholly visible on one (a 1080p projector, a 720p
// TV, a portrait screen: the heights are measured, not assumed). One slide shows at a time and
// the next comes every few seconds. A new version (htmx) is cut again; the slide shown stays.
(function () {
  "use strict";
  var index = 0;
  var pages = []; // [{slide, rows: [first, end) or null, number, count}]

  function rowsOf(slide) {
    return Array.prototype.slice.call(slide.querySelectorAll("tbody > tr"));
  }

  function outerHeight(element) {
    var style = window.getComputedStyle(element);
    return element.getBoundingClientRect().height +
      parseFloat(style.marginTop) + parseFloat(style.marginBottom);
  }

  // The runs of rows that fit the slide's height, the notes of every page (what ranks the
  // table) on each, the notes of the last (who sits out) on the last alone.
  function runs(slide) {
    var rows = rowsOf(slide);
    if (rows.length < 2) return [null];
    var room = slide.clientHeight - 2;
    var above = rows[0].getBoundingClientRect().top - slide.getBoundingClientRect().top;
    var every = 0, last = 0;
    slide.querySelectorAll(":scope > p").forEach(function (note) {
      if (note.hasAttribute("data-every-page")) every += outerHeight(note);
      else last += outerHeight(note);
    });
    var heights = rows.map(function (row) { return row.getBoundingClientRect().height; });
    var found = [], first = 0, used = above + every;
    heights.forEach(function (height, i) {
      if (i > first && used + height > room) {
        found.push([first, i]);
        first = i;
        used = above + every;
      }
      used += height;
    });
    // The last run also holds the notes of the last page: rows move to a run of their own
    // until they fit.
    var end = heights.length;
    while (end - first > 1 && used + last > room) {
      end -= 1;
      used -= heights[end];
    }
    found.push([first, end]);
    if (end < heights.length) found.push([end, heights.length]);
    return found.length > 1 ? found : [null];
  }

  function layout() {
    var screen = document.getElementById("screen");
    if (!screen) return;
    pages = [];
    var slides = screen.querySelectorAll("[data-slide]");
    slides.forEach(function (slide) {
      // Measured shown, alone, with every row and note in place.
      slides.forEach(function (other) { other.hidden = other !== slide; });
      rowsOf(slide).forEach(function (row) { row.hidden = false; });
      slide.querySelectorAll(":scope > p").forEach(function (note) { note.hidden = false; });
      var found = runs(slide);
      found.forEach(function (rows, i) {
        pages.push({ slide: slide, rows: rows, number: i + 1, count: found.length });
      });
    });
    show();
  }

  function show() {
    var screen = document.getElementById("screen");
    if (!screen || !pages.length) return;
    index = index % pages.length;
    var page = pages[index];
    screen.querySelectorAll("[data-slide]").forEach(function (slide) {
      slide.hidden = slide !== page.slide;
    });
    if (page.rows) {
      rowsOf(page.slide).forEach(function (row, i) {
        row.hidden = i < page.rows[0] || i >= page.rows[1];
      });
      page.slide.querySelectorAll(":scope > p:not([data-every-page])").forEach(function (note) {
        note.hidden = page.number !== page.count;
      });
    }
    page.slide.querySelectorAll("[data-page-count]").forEach(function (counter) {
      counter.textContent = page.count > 1 ? page.number + "/" + page.count : "";
    });
    var dots = screen.querySelector(".slide-dots");
    if (dots) {
      dots.innerHTML = "";
      pages.forEach(function (_page, i) {
        var dot = document.createElement("li");
        if (i === index) dot.className = "current";
        dots.appendChild(dot);
      });
    }
  }

  var timer = null;
  function turn(step) { index += step; if (index < 0) index = 0; show(); }
  function start() {
    // The page always says how long a slide stays (SCREEN_SLIDE_SECONDS).
    var seconds = Number(document.getElementById("screen").dataset.slideSeconds);
    clearInterval(timer);
    timer = setInterval(function () { turn(1); }, seconds * 1000);
  }
  document.addEventListener("DOMContentLoaded", function () { layout(); start(); });
  // A presenter's clicker (or the arrow keys) turns the slides by hand; the timer starts again.
  document.addEventListener("keydown", function (event) {
    var forward = ["ArrowRight", "PageDown", " "].indexOf(event.key) >= 0;
    var back = ["ArrowLeft", "PageUp"].indexOf(event.key) >= 0;
    if (!forward && !back) return;
    event.preventDefault();
    turn(forward ? 1 : -1);
    start();
  });
  document.addEventListener("htmx:afterSwap", layout);
  var resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(layout, 200);
  });
  // Tests (and a curious director) read how the tables were cut.
  window.beloteScreenPages = function () {
    return pages.map(function (page) {
      return { slide: Array.prototype.indexOf.call(
        document.querySelectorAll("#screen [data-slide]"), page.slide),
        rows: page.rows, number: page.number, count: page.count };
    });
  };
})();
