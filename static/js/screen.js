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
  function turn() { index += 1; show(); }
  document.addEventListener("DOMContentLoaded", function () {
    var screen = document.getElementById("screen");
    var seconds = Number(screen && screen.dataset.slideSeconds) || 12;
    show();
    setInterval(turn, seconds * 1000);
  });
  document.addEventListener("htmx:afterSwap", show);
})();
