"""Template tags of the series pages: the chart of ranks over the evenings (no query) and an
evening's short date."""

from __future__ import annotations

import datetime
import re

from django import template
from django.utils import dateformat, formats
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from club.templatetags.charts import line_chart
from tournaments.templatetags.tournament_tags import RANK_CHART_COLOURS

register = template.Library()


@register.simple_tag
def series_chart(series: list[tuple[str, list[tuple[float, float]]]]) -> SafeString:
    """Each player's rank in a series after each evening; rank 1 on top."""
    return line_chart(
        series,
        title=_("Rank of each player after each evening"),
        x_label=_("Evening"),
        y_label=_("Rank"),
        invert_y=True,
        height=320,
        highlight=RANK_CHART_COLOURS if len(series) > RANK_CHART_COLOURS else None,
    )


# The year at either end of a short date format, with its separator ("m/d/Y", "Y-m-d").
_YEAR = re.compile(r"^[Yy][^A-Za-z]*|[^A-Za-z]*[Yy]$")


def without_year(pattern: str) -> str:
    """A short date format without its year: "m/d/Y" → "m/d", "j.n.Y" → "j.n." (a dotted
    date keeps the dot after the month, as Finnish writes 3.9.)."""
    short = _YEAR.sub("", pattern)
    if pattern.rstrip("Yy").endswith(".") and not short.endswith("."):
        short += "."
    return short


@register.filter
def day_month(day: datetime.date) -> str:
    """The day and month of `day` as the reader's language writes a short date (the series'
    evening columns: the year is the season's)."""
    return dateformat.format(day, without_year(formats.get_format("SHORT_DATE_FORMAT")))
