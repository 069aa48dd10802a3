"""The evening's cash: what was received per way of paying, who is present and has not paid,
as a page and as CSV."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from club.pages import rows, sections
from tournaments.models import Tournament
from tournaments.views.director import director_required
from tournaments.views.director_print import csv_response

from .. import selectors


@director_required
def cash(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """What the evening received per way of paying, and who is present and has not paid."""
    summary = selectors.cash_summary(tournament)
    return render(
        request,
        "entries/director/cash.html",
        {
            "tournament": tournament,
            "summary": summary,
            "tab": "director",
            # What apps above add to the evening's cash (the prizes and what is retained).
            "sections": sections(
                "entries:director_cash", tournament=tournament, summary=summary, request=request
            ),
        },
    )


@director_required
def cash_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One line per entry paid or due, then a line per way of paying and the totals."""
    summary = selectors.cash_summary(tournament)
    response, writer = csv_response(f"{tournament.slug}-cash.csv")
    writer.writerow(["entry", "players", "attendance", "paid", "amount", "due"])
    for entry in summary.paid:
        writer.writerow(
            [
                entry.name,
                selectors.entry_players(entry),
                entry.attendance,
                entry.paid,
                f"{entry.fee_paid or 0:.2f}",
                "",
            ]
        )
    for entry, due in summary.unpaid:
        writer.writerow(
            [entry.name, selectors.entry_players(entry), entry.attendance, "", "", f"{due:.2f}"]
        )
    for method, amount in summary.received.items():
        writer.writerow([f"total {method}", "", "", method, f"{amount:.2f}", ""])
    writer.writerow(["total", "", "", "", f"{summary.total:.2f}", f"{summary.unpaid_total:.2f}"])
    # What apps above add (the fees due, the prizes and what is retained, prizes/).
    for row in rows("entries:director_export_cash", tournament=tournament, summary=summary):
        writer.writerow(row)
    return response
