"""Names as the viewer may read them (club.privacy), in templates: `{% shown_name player %}`,
`{% team_name team %}`. The viewer is the request's user (no query: the clubs they belong to
are read once per request)."""

from __future__ import annotations

from typing import Any

from django import template

from ..privacy import public_name as _public_name
from ..privacy import shown_name as _shown_name
from ..privacy import team_shown_name

register = template.Library()


def _viewer(context: Any) -> Any:
    request = context.get("request")
    return getattr(request, "user", None)


@register.simple_tag(takes_context=True)
def shown_name(context: Any, player: Any) -> str:
    return _shown_name(player, _viewer(context))


@register.simple_tag(takes_context=True)
def team_name(context: Any, team: Any) -> str:
    return team_shown_name(team, _viewer(context))


# For what is rendered once for every visitor (a live fragment, the big screen): the public
# form, whoever asked first.


@register.filter
def public_name(player: Any) -> str:
    return _public_name(player) if player is not None else ""


@register.filter
def public_team(team: Any) -> str:
    """The team's name as every visitor may read it (its players joined, no query of its own
    when they are: the pages that show one team read them with it)."""
    return team_shown_name(team, None) if team is not None else ""
