"""A tournament's Rules tab: its house rules in words, match points and tie-breaks, linked into the rule book."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from scoring.rules_text import rules_in_words

from .. import selectors
from ..permissions import is_director
from .public import get_tournament


@require_GET
def tournament_rules(request: HttpRequest, club_slug: str, slug: str) -> HttpResponse:
    tournament = get_tournament(request, club_slug, slug)
    return render(
        request,
        "tournaments/rules.html",
        {
            "tournament": tournament,
            # Each house rule's section in the rule book is anchored by the rule's own name.
            "rulebook_url": reverse("scoring:rulebook"),
            "rules": rules_in_words(tournament.rules),
            "tie_breaks": selectors.tie_break_labels(tournament),
            "is_director": is_director(request.user, tournament.club_id),
            "tab": "rules",
        },
    )
