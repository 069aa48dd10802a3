"""The prize table editor's words and where a prize table problem is, in the reader's language."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _


def prize_editor_words() -> dict[str, Any]:
    """The words of the prize table editor (static/js/prize-table.js), for every form that
    carries a prize table (a tournament's, a series')."""
    return {
        "line": _("Line %(n)s"),
        "which": _("Which places"),
        "place": _("a place"),
        "places": _("places from … to"),
        "every": _("every … place"),
        "last": _("the last"),
        "from": _("from"),
        "to": _("to"),
        "step": _("every"),
        "category": _("category"),
        "amount": _("amount"),
        "percent": _("percent of the pool"),
        "kind": _("in kind"),
        "remove": _("Remove line %(n)s"),
        "add": _("Add a line"),
        "pool_percent": _("Share of the entry fees in the pool (%)"),
        "pool_added": _("Money added by the club"),
        "rounding": _("Round percentages down to"),
        "cumulative": _("A category prize may go to an entry holding a place prize"),
        "presets": _("Start from"),
        "preset_share": _("a share of the fees over the first places"),
        "preset_van4": _("the formule van 4"),
        "preset_every_team": _("a prize for every team"),
        "a_prize": _("A prize"),
        "none": _("No prizes"),
        "json": _("The table as JSON"),
    }


_PRIZE_LINE = re.compile(r"^prizes\.lines\[(\d+)\](?:\.(\w+))?")


def prize_path_words(path: str) -> str:
    """Where a prize table problem is, as the editor shows it: "Line 3, percent"."""
    words = {
        "place": _("place"),
        "places": _("places"),
        "every": _("every"),
        "from": _("from"),
        "to": _("to"),
        "last": _("the last"),
        "category": _("category"),
        "amount": _("amount"),
        "percent": _("percent of the pool"),
        "kind": _("in kind"),
        "prizes.pool.percent_of_fees": _("Share of the entry fees in the pool (%)"),
        "prizes.pool.added": _("Money added by the club"),
        "prizes.rounding": _("Round percentages down to"),
        "prizes.lines": _("The prize lines"),
    }
    line = _PRIZE_LINE.match(path)
    if line is None:
        return str(words.get(path, path))
    where = _("Line %(n)s") % {"n": int(line.group(1)) + 1}
    key = line.group(2)
    return f"{where}, {words.get(key, key)}" if key else str(where)
