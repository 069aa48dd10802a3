"""Names as the viewer may read them (club.privacy), in templates: `{% shown_name player %}`,
`{% team_name team %}`. The viewer is the request's user (no query: the clubs they belong to
are read once per request)."""

from __future__ import annotations

from typing import Any

from django import template

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
