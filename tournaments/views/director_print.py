"""Director pages that leave the site: printed score sheets and standings, CSV exports.

Every cell a spreadsheet could read as a formula is neutralised (`spreadsheet_safe`).
"""

from __future__ import annotations

import csv
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from .. import selectors
from ..models import SEATS_PREFETCH, Match, Tournament
from ..standings.names import FIGURES
from .director import director_required
from .public import standings_context

# The lines of a score sheet when matches have a target but no number of deals.
SHEET_LINES_WITHOUT_MAX = 20


def table_url(request: HttpRequest, match: Match) -> str:
    """The absolute address of the table's entry page, for its QR code."""
    return request.build_absolute_uri(reverse("tournaments:table", kwargs={"pk": match.pk}))


@director_required
def print_sheets(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One printable score sheet per table, each with a QR code to its entry page."""
    rounds = list(tournament.rounds.all())
    wanted = request.GET.get("round", "")
    if not wanted.isdigit() and wanted != "all":
        # Sheets are printed a round at a time: by default the first round still to finish.
        open_numbers = selectors.open_round_numbers(tournament)
        wanted = str(selectors.current_round_number(rounds, open_numbers) or "all")
    matches = (
        tournament.matches.filter(ew_team__isnull=False)
        .select_related(
            "round",
            "ns_team__first_player",
            "ns_team__second_player",
            "ew_team__first_player",
            "ew_team__second_player",
            "referee__player",
        )
        .prefetch_related(SEATS_PREFETCH)
        .order_by("round__number", "table")
    )
    if wanted.isdigit():
        matches = matches.filter(round__number=int(wanted))
    sheets = [{"match": m, "url": table_url(request, m)} for m in matches]
    # A sheet has a line for every deal the match can have; with a target only, room for 20.
    lines = tournament.house_rules.max_deals or SHEET_LINES_WITHOUT_MAX
    return render(
        request,
        "tournaments/director/print_sheets.html",
        {
            "tournament": tournament,
            "sheets": sheets,
            "rounds": rounds,
            "wanted": wanted,
            "lines": range(1, lines + 1),
        },
    )


@director_required
def print_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = standings_context(tournament, request.GET.get("after"))
    return render(request, "tournaments/director/print_standings.html", context)


# A cell a spreadsheet would read as a formula (CSV injection): =, +, -, @, or a tab or
# carriage return before one of them.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: Any) -> Any:
    """A text cell that starts like a formula gets a leading apostrophe (shown as text);
    numbers are left alone (-12 is a number, not a formula). Anything else (a player, a
    lazy string) is written as its text, so it is checked as text."""
    if cell is None or isinstance(cell, int | float):
        return cell
    text = str(cell)
    return "'" + text if text.startswith(_FORMULA_START) else text


class SafeWriter:
    """csv.writer whose every row goes through `spreadsheet_safe`: the only writer exports use."""

    def __init__(self, out: Any) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Any) -> Any:
        return self._writer.writerow([spreadsheet_safe(cell) for cell in row])


def csv_response(filename: str) -> tuple[HttpResponse, SafeWriter]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # spreadsheets then read the accents right
    return response, SafeWriter(response)


@director_required
def export_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # The export lists after-round tables only: a sheet kept for the records is never provisional.
    view = selectors.standings_after(tournament, request.GET.get("after"), live=False)
    response, writer = csv_response(f"{tournament.slug}-standings.csv")
    # Every figure of the line but Sonneborn–Berger, which the export has never carried.
    columns = [f for f in FIGURES if f != "sonneborn_berger"]
    # An individual tournament's lines are players'.
    whose = tournament.entry_model.naming_columns
    writer.writerow(["after_round", "rank", *whose, *columns, "withdrawn"])
    for row in view.lines(players=True):
        writer.writerow(
            [view.after, row.rank_label, *row.ranked.naming]
            + [getattr(row, c) for c in columns]
            + [int(row.withdrawn)]
        )
    return response


@director_required
def export_results(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    response, writer = csv_response(f"{tournament.slug}-results.csv")
    writer.writerow(
        [
            "round",
            "table",
            "ns_team",
            "ew_team",
            "status",
            "deals",
            "ns_total",
            "ew_total",
            "pot",
            "winner",
            "closed",
        ]
    )
    for match in tournament.matches.select_related("round", "ns_team", "ew_team").order_by(
        "round__number", "table"
    ):
        writer.writerow(
            [
                match.round.number,
                match.table or "",
                match.ns_team.name,
                match.ew_team.name if match.ew_team else "",
                match.status if not match.is_bye else "bye",
                match.deal_count,
                match.ns_total,
                match.ew_total,
                match.pot,
                match.winner,
                int(match.is_closed),
            ]
        )
    return response
