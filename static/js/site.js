// Behaviour every page may use, without inline scripts (the Content Security Policy allows
// none): <button data-print>, <form data-confirm="question">, <select data-autosubmit>.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) {
      window.print();
    }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
  // <time datetime data-local-time>: said in the reader's own time zone and way of writing.
  function localTimes() {
    if (!window.Intl || !Intl.DateTimeFormat) return;
    // The page's language, written the reader's way where the browser speaks it (en-GB on an
    // English page gives "1 Dec 2026, 22:27"; a French page read from an en-GB browser, French).
    var lang = document.documentElement.lang || "";
    var own = navigator.language || "";
    var locale = own && lang && own.toLowerCase().indexOf(lang.toLowerCase()) === 0 ? own : lang;
    var format = new Intl.DateTimeFormat(locale || undefined, {
      dateStyle: "medium",
      timeStyle: "short"
    });
    document.querySelectorAll("time[data-local-time]").forEach(function (node) {
      var when = new Date(node.getAttribute("datetime"));
      if (!isNaN(when.getTime())) node.textContent = format.format(when);
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", localTimes);
  } else {
    localTimes();
  }
  document.addEventListener("change", function (event) {
    var select = event.target.closest("select[data-autosubmit]");
    if (select && select.form) {
      select.form.submit();
    }
  });
})();
