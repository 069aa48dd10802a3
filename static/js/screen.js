// The big screen: show one slide at a time and turn to the next every few seconds. The
// slides are replaced when a new version arrives (htmx); the slide shown stays the same.
(function () {
  "use strict";
  var index = 0;
  function show() {
    var screen = document.getElementById("screen");
    if (!screen) return;
    var slides = screen.querySelectorAll("[data-slide]");
    if (!slides.length) return;
    index = index % slides.length;
    slides.forEach(function (slide, i) { slide.hidden = i !== index; });
    var dots = screen.querySelector(".slide-dots");
    if (dots) {
      dots.innerHTML = "";
      slides.forEach(function (_slide, i) {
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
  document.addEventListener("DOMContentLoaded", function () { show(); start(); });
  // A presenter's clicker (or the arrow keys) turns the slides by hand; the timer starts again.
  document.addEventListener("keydown", function (event) {
    var forward = ["ArrowRight", "PageDown", " "].indexOf(event.key) >= 0;
    var back = ["ArrowLeft", "PageUp"].indexOf(event.key) >= 0;
    if (!forward && !back) return;
    event.preventDefault();
    turn(forward ? 1 : -1);
    start();
  });
  document.addEventListener("htmx:afterSwap", show);
})();
