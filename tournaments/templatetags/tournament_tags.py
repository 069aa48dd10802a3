"""Template helpers of tournaments: the rank chart, a QR code, suits, a player's teams, the
standings table's rows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import segno
from django import template
from django.conf import settings
from django.utils import formats, timezone
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.privacy import public_name
from club.registration import with_member_name
from club.templatetags.charts import line_chart
from scoring.translation import seat_abbreviation, side_abbreviation, suit_symbol

from ..models import Match, Seat, Standing, Team
from ..pages import page_url as _page_url

register = template.Library()


@register.simple_tag
def page_url(name: str, tournament: Any) -> str:
    """`{% page_url "director_check_in" tournament as url %}`: a page another app adds to the
    tournament's (tournaments.pages); "" when none does, so the link is left out."""
    return _page_url(name, tournament)


# Up to this many teams every line has a colour; beyond, the leaders do and the rest are grey.
RANK_CHART_COLOURS = 8


@register.simple_tag
def standings_rows(
    lines: Iterable[Standing], link_prefix: str, points_first: bool, show_buchholz: bool
) -> SafeString:
    """The rows of the standings table (tournaments/_standings.html), built in Python: a
    400-team table through the template language took 37 ms, and 145 ms in a process that
    had not rendered its rows before (`bench/NOTES.md`, 2026-12-05); the live stream fetches
    it with every new version.

    `link_prefix`: the team pages' (`…/teams/`), or a mêlée's player pages' (`…/players/`).
    Four lines a row, the rank on a line of its own: a deal re-ranks many rows and changes
    the figures of two, and a streaming page is sent the lines that changed
    (live/stream/events.py)."""
    badges = {
        "withdrawn": format_html(' <span class="badge">{}</span>', _("withdrawn")),
        "in-play": format_html(' <span class="badge badge-playing">{}</span>', _("in play")),
    }
    # The figures are integers: their digits, as the template language shows them, unless
    # the site groups thousands.
    figure = formats.localize if settings.USE_THOUSAND_SEPARATOR else str
    wide, narrow = '<td class="num wide">{}</td>', '<td class="num">{}</td>'
    # The figure that ranks first is in bold, and the one a phone keeps on screen.
    first = "<strong>{}</strong>"
    columns = [
        ("played", narrow),
        ("won", narrow),
        ("drawn", narrow),
        ("lost", narrow),
        ("match_points", wide if points_first else narrow.format(first)),
        ("points_for", narrow.format(first) if points_first else wide),
        ("points_against", wide),
        ("point_difference", narrow),
        *([("buchholz", narrow)] if show_buchholz else []),
        ("deals", wide),
        ("contracts_made", wide),
        ("contracts_dedans", wide),
        ("capots", wide),
        ("belotes", wide),
        ("litiges", wide),
    ]
    prefix = escape(link_prefix)

    def row(line: Standing) -> str:
        owner = line.team_id if line.entrant is None else line.entrant.player_id
        marks = [
            name for name, on in (("withdrawn", line.withdrawn), ("in-play", line.in_play)) if on
        ]
        figures = "".join(
            cell.format(
                f"{figure(line.contracts_made)}/{figure(line.contracts_taken)}"
                if name == "contracts_made"
                else figure(getattr(line, name))
            )
            for name, cell in columns
        )
        return (
            f'<tr class="{" ".join(marks)}">\n<td class="num">{line.rank_label}</td>\n'
            f'<td><a href="{prefix}{owner}/">{escape(line.name)}</a>'
            f"{''.join(badges[mark] for mark in marks)}</td>{figures}\n</tr>"
        )

    # The names are escaped, the rest are numbers and this function's own markup.
    return mark_safe("\n".join(row(line) for line in lines))


@register.simple_tag
def rank_chart(series: list[tuple[str, list[tuple[float, float]]]]) -> SafeString:
    """Each team's rank round by round; rank 1 on top."""
    return line_chart(
        series,
        title=_("Rank of each team after each round"),
        x_label=_("Round"),
        y_label=_("Rank"),
        invert_y=True,
        height=320,
        highlight=RANK_CHART_COLOURS if len(series) > RANK_CHART_COLOURS else None,
    )


@register.simple_tag
def qr_svg(url: str, scale: int = 3) -> SafeString:
    """A QR code of `url` as inline SVG (segno draws it; nothing is fetched)."""
    svg = segno.make(url, error="m").svg_inline(scale=scale, title=url)
    return mark_safe(svg)  # segno escapes the title it writes


@register.filter
def suit(code: str | None) -> str:
    return suit_symbol(code)


@register.filter
def seat(code: str | None) -> Any:
    return seat_abbreviation(code)


@register.filter
def side(code: str | None) -> Any:
    return side_abbreviation(code)


@register.simple_tag
def schedule_rows(
    matches: list[Match],
    team_prefix: str,
    match_prefix: str,
    player_prefix: str = "",
    team_names: dict[int, str] | None = None,
) -> SafeString:
    """The rows of a round's schedule, built in Python: a 64-team schedule has 2,000 of them,
    and the template language spends most of the page's time on them otherwise.

    `player_prefix` (an individual tournament's, whose teams are the round's partnerships):
    each side names its two players, each linked to their page (the players joined).
    `team_names`: the public names of the teams named after a member who is not public."""
    bye = format_html("<em>{}</em>", _("bye"))
    shown = team_names or {}
    statuses = dict(Match.Status.choices)

    def team(team_id: int | None, team: Team | None) -> SafeString:
        if team is None:
            return bye
        if player_prefix:
            return format_html_join(
                " & ",
                '<a href="{}{}/">{}</a>',
                ((player_prefix, p.pk, public_name(p)) for p in team.players),
            )
        name = shown.get(team_id, team.name) if team_id is not None else team.name
        return format_html('<a href="{}{}/">{}</a>', team_prefix, team_id, name)

    def row(match: Match) -> tuple[Any, ...]:
        if match.ew_team_id is None:
            state, score = mark_safe("—"), mark_safe("")
        else:
            state = format_html(
                '<span class="badge badge-{}">{}</span>', match.status, statuses[match.status]
            )
            if match.status == Match.Status.PLAYING:
                deals = ngettext("%(deals)s deal", "%(deals)s deals", match.deal_count) % {
                    "deals": match.deal_count
                }
                state = format_html('{} <span class="muted">{}</span>', state, deals)
            label = _("Match sheet of table %(table)s") % {"table": match.table}
            score = format_html(
                '<a href="{}{}/" aria-label="{}">{} – {}</a>',
                match_prefix,
                match.pk,
                label,
                match.ns_total,
                match.ew_total,
            )
        return (
            match.table or "—",
            team(match.ns_team_id, match.ns_team),
            team(match.ew_team_id, match.ew_team),
            score,
            state,
        )

    return format_html_join(
        "\n",
        # The score before the state: on a phone the last column may scroll out of view.
        '<tr><td class="num">{}</td><td>{}</td><td>{}</td><td class="num">{}</td><td>{}</td></tr>',
        (row(match) for match in matches),
    )


@register.filter
def moment(value: Any) -> str:
    """When something changed: the time to the second today, else the date and the time."""
    if not value:
        return ""
    local = timezone.localtime(value)
    if local.date() == timezone.localdate():
        return formats.time_format(local, "H:i:s")
    return f"{formats.date_format(local, 'SHORT_DATE_FORMAT')} {formats.time_format(local, 'H:i')}"


@register.filter
def seat_name(code: str | None) -> Any:
    """A seat in full (North, East, …), in the reader's language."""
    return dict(Seat.choices).get(code or "", code or "")


@register.simple_tag
def text_with_member(text: str, typed: str, member: Any) -> str:
    """The pasted list with a flagged name replaced by the member's (one-click typo fix)."""
    return with_member_name(text or "", typed, member)


@register.filter
def figure(line: Standing, column: str) -> Any:
    """A standings line's figure by its column's name (the deciding columns of the big screen)."""
    return getattr(line, column)


@register.simple_tag
def sides(match: Match) -> SafeString:
    """A table's two sides apart ("Dupont – Martin vs Moreau – Fournier" never reads as four
    names in a row); a bye says so."""
    if match.is_bye:
        return format_html("{} <em>{}</em>", match.ns_team, _("bye"))
    return format_html(
        '<span class="side">{}</span> <span class="versus">{}</span> <span class="side">{}</span>',
        match.ns_team,
        _("vs"),
        match.ew_team,
    )
