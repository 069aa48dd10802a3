// The director's check-in list: the search box narrows the list to the entries whose team or
// player names hold every word typed (accents and case aside), as one types; a tap on a row
// clears it for the next arrival.
(function () {
  "use strict";
  function folded(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  var input = document.querySelector("[data-filter]");
  if (!input) {
    return;
  }
  var list = document.querySelector(input.dataset.filter);
  var none = document.getElementById("check-in-none");
  function filter() {
    var words = folded(input.value).split(/\s+/).filter(Boolean);
    var shown = 0;
    list.querySelectorAll("[data-search]").forEach(function (row) {
      var text = folded(row.dataset.search);
      var match = words.every(function (word) { return text.indexOf(word) !== -1; });
      row.hidden = !match;
      shown += match ? 1 : 0;
    });
    if (none) {
      none.hidden = shown > 0;
    }
  }
  input.addEventListener("input", filter);
  // After a tap on a row the search is done with: it clears, the whole list comes back and
  // the box is empty for the next name (not focused: a phone keyboard would cover the list).
  list.addEventListener("submit", function () {
    if (input.value) {
      input.value = "";
      filter();
    }
  });
  // A row swapped in after a tap is filtered like the others.
  document.body.addEventListener("htmx:afterSwap", filter);
  filter();
})();
