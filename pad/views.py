"""The score pad's pages: a new game, a saved game continued by its private key, and read-only."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.models import Club
from club.permissions import member_club_ids
from scoring.engine import DRAW
from scoring.rules_text import describe_value, rule_specs, rules_in_words

from . import services
from .models import Pad
from .services import PadRefused

# The number of players is chosen with the names, not behind ⚙.
_CHOSEN_WITH_THE_NAMES = frozenset({"players"})
# Rules that do not apply with two or three players (docs/rules.md §10): no litige, and the
# highest total always wins.
FOUR_ONLY_RULES = frozenset({"litige", "both_reach_target", "draws"})


def _settings() -> list[Any]:
    specs = [s for s in rule_specs(pad=True) if s.name not in _CHOSEN_WITH_THE_NAMES]
    return [
        {
            "spec": spec,
            "choices": [(code, describe_value(spec, code)) for code in spec.choices],
        }
        for spec in specs
    ]


def _page(request: HttpRequest, pad: Pad | None) -> HttpResponse:
    clubs = []
    if pad is not None and request.user.is_authenticated:
        clubs = list(Club.objects.filter(pk__in=member_club_ids(request.user)).order_by("name"))
    view_url = request.build_absolute_uri(reverse("pad:view", args=[pad.view_key])) if pad else ""
    return render(
        request,
        "pad/pad.html",
        {
            "pad": pad,
            "settings": _settings(),
            "seats": ["N", "E", "S", "W"],
            "private_url": request.build_absolute_uri(reverse("pad:game", args=[pad.key]))
            if pad
            else "",
            "view_url": view_url,
            "clubs": clubs,
            "four_only": FOUR_ONLY_RULES,
            "pad_expiry_days": settings.PAD_EXPIRY_DAYS,
        },
    )


def new_game(request: HttpRequest) -> HttpResponse:
    return _page(request, None)


def saved_game(request: HttpRequest, key: str) -> HttpResponse:
    pad = get_object_or_404(Pad.objects.kept(), key=key)
    services.mark_opened(pad)
    return _page(request, pad)


def read_only(request: HttpRequest, view_key: str) -> HttpResponse:
    pad = get_object_or_404(Pad.objects.kept(), view_key=view_key)
    services.mark_opened(pad)
    game = services.pad_game(pad)
    return render(
        request,
        "pad/read_only.html",
        {"pad": pad, "pad_expiry_days": settings.PAD_EXPIRY_DAYS, **game_in_words(pad, game)},
    )


def game_in_words(pad: Pad, game: dict[str, Any]) -> dict[str, Any]:
    """Sides with their names, totals and each deal's scores in the sides' order."""
    names = list(pad.players)
    if len(names) == 4:
        sides = [("NS", f"{names[0]} & {names[2]}"), ("EW", f"{names[1]} & {names[3]}")]
    else:
        seats = ["N", "E", "S"] if len(names) == 3 else ["N", "S"]
        sides = list(zip(seats, names, strict=True))
    rows = [
        {
            "number": played["number"],
            "outcome": played["result"]["outcome"],
            "scores": [played["result"]["score"][code] for code, _name in sides],
            "totals": [played["totals"][code] for code, _name in sides],
        }
        for played in game["deals"]
    ]
    winner = dict(sides).get(game["winner"]) if game["winner"] not in (None, DRAW) else None
    return {
        "sides": [
            {"code": code, "name": name, "total": game["totals"][code]} for code, name in sides
        ],
        "rows": rows,
        "over": game["over"],
        "winner": winner,
        "draw": game["winner"] == DRAW,
        "rules": rules_in_words(pad.rules, pad=True),
    }


@login_required
@require_POST
def attach(request: HttpRequest, key: str) -> HttpResponse:
    pad = get_object_or_404(Pad.objects.kept(), key=key)
    club = Club.objects.filter(pk=request.POST.get("club") or 0).first()
    if club is None:
        messages.error(request, _("Choose one of your clubs."))
        return redirect("pad:game", pad.key)
    try:
        services.attach_to_club(key=pad.key, club=club, by=request.user)
    except PadRefused as refused:
        for problems in refused.errors.values():
            for message in problems:
                messages.error(request, message)
        return redirect("pad:game", pad.key)
    messages.success(
        request, _("Added to %(club)s as a friendly game (not rated).") % {"club": club.name}
    )
    return redirect("pad:game", pad.key)
