// Behaviour every page may use, without inline scripts (the Content Security Policy allows
// none): <button data-print>, <form data-confirm="question">, <form data-busy>, <select data-autosubmit>,
// <button data-copy="text" data-copied="said after"> and <button data-share="url"> (shown only
// where the phone can share; their [data-link-actions] box shows where the page can copy).
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
  // <form data-busy> with a hidden [data-busy-status] inside: shown once the form is sent,
  // while the server works on it (a long file to read).
  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-busy]");
    if (!form || event.defaultPrevented) return;
    var status = form.querySelector("[data-busy-status]");
    if (status) status.hidden = false;
    form.setAttribute("aria-busy", "true");
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
  document.addEventListener("click", function (event) {
    var copy = event.target.closest("[data-copy]");
    if (copy && navigator.clipboard) {
      navigator.clipboard.writeText(copy.dataset.copy).then(function () {
        if (copy.dataset.copied) copy.textContent = copy.dataset.copied;
      });
    }
    var share = event.target.closest("[data-share]");
    if (share && navigator.share) {
      navigator.share({ title: share.dataset.shareTitle || document.title, url: share.dataset.share }).catch(function () {});
    }
  });
  // A table wider than its box: a line above it says it scrolls sideways.
  function hintWideTables() {
    var text = document.body.getAttribute("data-text-scroll-hint");
    document.querySelectorAll(".table-wrap, .chart-wrap, .rulebook-body table").forEach(function (wrap) {
      var wide = wrap.scrollWidth > wrap.clientWidth + 2;
      // A box that scrolls is reached by the keyboard too (its arrows scroll it).
      if (wide) {
        wrap.tabIndex = 0;
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", text);
      } else if (wrap.getAttribute("role") === "region") {
        wrap.removeAttribute("tabindex");
        wrap.removeAttribute("role");
        wrap.removeAttribute("aria-label");
      }
      var hint = wrap.previousElementSibling;
      var has = hint && hint.classList.contains("scroll-hint");
      if (wide && !has && text && !wrap.matches(".chart-wrap")) {
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        hint.setAttribute("data-scroll-hint", "");
        hint.textContent = "↔ " + text;
        wrap.parentNode.insertBefore(hint, wrap);
      } else if (!wide && has) {
        hint.remove();
      }
    });
  }
  window.addEventListener("resize", hintWideTables);
  document.addEventListener("htmx:afterSettle", hintWideTables);
  // A row of pills scrolled sideways (a phone) shows the current one.
  function showCurrentPills() {
    document.querySelectorAll(".tabs, .pills").forEach(function (row) {
      var current = row.querySelector("[aria-current]");
      if (!current || row.scrollWidth <= row.clientWidth) return;
      row.scrollLeft = current.offsetLeft - row.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    hintWideTables();
    showCurrentPills();
    if (navigator.clipboard) {
      document.querySelectorAll("[data-link-actions]").forEach(function (box) { box.hidden = false; });
    }
    if (navigator.share) {
      document.querySelectorAll("[data-share]").forEach(function (button) {
        button.hidden = false;
        button.closest("[data-link-actions]").hidden = false;
      });
    }
  });
  document.addEventListener("change", function (event) {
    var select = event.target.closest("select[data-autosubmit]");
    if (select && select.form) {
      select.form.submit();
    }
  });
})();
