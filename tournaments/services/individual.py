"""The draw of an individual tournament's round (mêlée), fed from the database.

The draw itself is pure (`scheduling.draw_individual_round`); here each active player's past
is read (partners, opponents, sit-outs and seats, from the partnerships of the rounds
drawn so far) and the drawn tables become planned matches of two partnerships, which
`draws.draw_next_round` stores as Team rows of the new round (`Team.round`): a partnership
exists for one round only, and every match stays a match of two teams.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..models import Entrant, Match, Round, SitOut, Team, Tournament
from ..scheduling import PlayerRecord, draw_individual_round
from ..selectors.players import entries_in_play
from .planned import PlannedMatch, PlannedRound

__all__ = ["next_individual_round", "partnership_name", "player_records"]

TABLE_SIZE = 4


def partnership_name(first: Any, second: Any) -> str:
    """ "Anne Petit & Paul Roux": a partnership is named after its players, as drawn."""
    name = f"{first.full_name} & {second.full_name}"
    limit = Team._meta.get_field("name").max_length or len(name)
    return name if len(name) <= limit else name[: limit - 1] + "…"


def active_entrants(tournament: Tournament) -> dict[int, Entrant]:
    """The players still in the tournament (and present, with check-in on), by player id,
    with their players (one query)."""
    # With check-in on, a draw takes only the players present (`entries_left_out` says who not).
    entrants = {e.player_id: e for e in entries_in_play(tournament).select_related("player")}
    if len(entrants) < TABLE_SIZE:
        if tournament.checks_in:
            message = _("A table needs four players; %(n)d are checked in.")
        else:
            message = _("A table needs four players; this tournament has %(n)d.")
        raise ServiceError(message % {"n": len(entrants)}, field="entrants")
    return entrants


@dataclass(slots=True)
class _Past:
    partners: list[int] = field(default_factory=list)
    opponents: list[int] = field(default_factory=list)
    ns: int = 0
    ew: int = 0


def player_records(
    tournament: Tournament,
    players: Iterable[int],
    schedule: list[tuple[Round, list[Match]]] | None = None,
) -> list[PlayerRecord]:
    """Each player's past as the draw reads it (two queries; one with `schedule`, whose
    matches have their teams joined)."""
    history = {player: _Past() for player in players}
    tables: Iterable[tuple[int, int, int, int]]
    if schedule is None:
        tables = Match.objects.filter(
            tournament=tournament, round__stage=Round.Stage.QUALIFYING, ew_team__isnull=False
        ).values_list(
            "ns_team__first_player_id",
            "ns_team__second_player_id",
            "ew_team__first_player_id",
            "ew_team__second_player_id",
        )
    else:
        tables = [
            (
                m.ns_team.first_player_id,
                m.ns_team.second_player_id,
                m.ew_team.first_player_id,
                m.ew_team.second_player_id,
            )
            for round_, matches in schedule
            if not round_.is_knockout
            for m in matches
            if m.ew_team is not None
        ]
    for north, south, east, west in tables:
        for pair, across, side in (
            ((north, south), (east, west), "ns"),
            ((east, west), (north, south), "ew"),
        ):
            for player, partner in (pair, pair[::-1]):
                past = history.get(player)
                if past is None:
                    continue  # withdrawn since: no longer drawn
                past.partners.append(partner)
                past.opponents.extend(across)
                setattr(past, side, getattr(past, side) + 1)
    sat_out = Counter(
        SitOut.objects.filter(round__tournament=tournament).values_list(
            "entrant__player_id", flat=True
        )
    )
    return [
        PlayerRecord(
            player=player,
            partners=tuple(past.partners),
            opponents=tuple(past.opponents),
            sit_outs=sat_out[player],
            ns=past.ns,
            ew=past.ew,
        )
        for player, past in history.items()
    ]


def next_individual_round(
    tournament: Tournament,
    number: int,
    referees: dict[int, Any],
    schedule: list[tuple[Round, list[Match]]] | None,
) -> PlannedRound:
    """Round `number` drawn but not stored: each table two new partnerships (unsaved Team
    rows, numbered 2t-1 for North–South and 2t for East–West), and who sits out."""

    entrants = active_entrants(tournament)
    drawn = draw_individual_round(
        player_records(tournament, entrants, schedule),
        round_number=number,
        seed=tournament.draw_seed,
    )

    def partnership(pair: tuple[int, int], seed: int) -> Team:
        first, second = (entrants[p].player for p in pair)
        return Team(
            tournament=tournament,
            name=partnership_name(first, second),
            first_player=first,
            second_player=second,
            seed=seed,
        )

    matches = tuple(
        PlannedMatch(
            table=t.table,
            ns=partnership(t.ns, 2 * t.table - 1),
            ew=partnership(t.ew, 2 * t.table),
            referee=referees.get(t.table),
        )
        for t in drawn.tables
    )
    return PlannedRound(
        number,
        Round.Stage.QUALIFYING,
        matches,
        repeats=drawn.repeated_partners,
        sit_outs=tuple(entrants[p] for p in drawn.sit_outs),
        repeated_opponents=drawn.repeated_opponents,
    )
