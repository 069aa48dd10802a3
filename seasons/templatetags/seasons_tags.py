"""Template tags of the series pages: the chart of ranks over the evenings (no query)."""

from __future__ import annotations

from django import template
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
