"""Times drawing a round end to end through the service, on the database: a Swiss, a concours, a mêlée.

    .venv/bin/python bench/draw_bench.py                                   # SQLite (a temp file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/draw_bench.py                               # PostgreSQL

In a throwaway database, each field is drawn round by round by the service itself
(`draw_next_round`), its results filled in between (12 random deals a match, scored by the
engine and written to the match as the deal services do; the deal rows are not stored: the
draw reads match results, never deals), then the next round's draw is timed:

- a 256-team Swiss after 7 rounds (its round 8);
- a 200-team concours after 4 parties, drawn at random and by ranking (its round 5);
- a 200-player individual tournament (mêlée) after 6 rounds (its round 7): 50 tables of
  four, the partnerships (100 Team rows of the round) stored with it.

What is timed is the director's "Draw round k": `draw_next_round`, from reading the rounds,
the matches and the standings (computed afresh from the results) to the stored round, its
128, 100 or 50 matches and their seats (and a mêlée's partnerships), committed. The debounced standings recompute that
follows a change runs in a worker in production; it is timed on its own
(`recompute_standings`). Also timed: the preview (`next_round`, the same draw, nothing
stored). Each draw figure is the best of three (the round is deleted and drawn again), the
median beside it; the aim is under 2 s. `--only individual` (or swiss, concours) times one
format alone; `BENCH_DB_NAME` names the throwaway database (default bench_draws).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.timing import timed

RUNS = 3
DEALS_PER_MATCH = 12
# The rules the played rounds' deals are scored by: every match ends after its 12 deals.
PLAY_RULES = {"target": None, "max_deals": DEALS_PER_MATCH}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument(
        "--only", choices=["swiss", "concours", "individual"], help="time one format alone"
    )
    args = parser.parse_args()

    import logging

    import django

    django.setup()
    from django.db import connection

    logging.getLogger("tournaments").setLevel(logging.WARNING)
    logging.getLogger("celery").setLevel(logging.WARNING)
    # Never the test database of anyone else: a name of our own, dropped at the end.
    test = connection.settings_dict.setdefault("TEST", {})
    if connection.vendor == "sqlite":
        test["NAME"] = str(Path(tempfile.gettempdir()) / "bench_draws.sqlite3")
    else:
        test["NAME"] = os.environ.get("BENCH_DB_NAME", "bench_draws")
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args, connection)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def field(name: str, teams: int, rounds_played: int, **settings: Any):  # type: ignore[no-untyped-def]
    """A tournament of `teams` with `rounds_played` rounds drawn by the service and played."""
    import datetime

    from club.models import Club, Player
    from tournaments.models import Team
    from tournaments.permissions import SYSTEM
    from tournaments.services.draws import draw_next_round
    from tournaments.services.settings import create_tournament

    club = Club.objects.create(name=f"Bench {name}", slug=f"bench-{name}")
    tournament = create_tournament(
        club,
        by=SYSTEM,
        name=name,
        starts_on=datetime.date(2027, 1, 9),
        draw_seed=20240901,
        **settings,
    )
    players = Player.objects.bulk_create(
        [Player(first_name=f"P{i}", last_name=name) for i in range(2 * teams)]
    )
    Team.objects.bulk_create(
        [
            Team(
                tournament=tournament,
                name=f"Team {i}",
                first_player=players[2 * i - 2],
                second_player=players[2 * i - 1],
                seed=i,
            )
            for i in range(1, teams + 1)
        ]
    )
    rng = random.Random(7)
    for _round in range(rounds_played):
        play(draw_next_round(tournament, by=SYSTEM), rng)
    return tournament


def melee(name: str, players: int, rounds_played: int, **settings: Any):  # type: ignore[no-untyped-def]
    """An individual tournament of `players` with `rounds_played` rounds drawn by the service
    and played."""
    import datetime

    from club.models import Club, Player
    from tournaments.models import Entrant
    from tournaments.permissions import SYSTEM
    from tournaments.services.draws import draw_next_round
    from tournaments.services.settings import create_tournament

    club = Club.objects.create(name=f"Bench {name}", slug=f"bench-{name}")
    tournament = create_tournament(
        club,
        by=SYSTEM,
        name=name,
        starts_on=datetime.date(2027, 1, 9),
        draw_seed=20240901,
        **settings,
    )
    people = Player.objects.bulk_create(
        [Player(first_name=f"P{i}", last_name=name) for i in range(players)]
    )
    Entrant.objects.bulk_create(
        [
            Entrant(tournament=tournament, player=player, seed=seed)
            for seed, player in enumerate(people, start=1)
        ]
    )
    rng = random.Random(7)
    for _round in range(rounds_played):
        play(draw_next_round(tournament, by=SYSTEM), rng)
    return tournament


def play(round_: Any, rng: random.Random) -> None:
    """Finish every match of the round with random deals scored by the engine (not stored)."""
    from bench.bigtournament import play_random_deals
    from tournaments.models import Match

    matches = list(round_.matches.filter(ew_team__isnull=False))
    for match in matches:
        play_random_deals(match, PLAY_RULES, DEALS_PER_MATCH, rng)
    Match.objects.bulk_update(matches, Match.REPLAY_FIELDS)


def run(args: argparse.Namespace, connection) -> None:  # type: ignore[no-untyped-def]
    import tournaments.tasks
    from tournaments.models import Tournament
    from tournaments.permissions import SYSTEM
    from tournaments.services.draws import delete_last_round, draw_next_round, next_round
    from tournaments.services.standings import recompute_standings

    # The recompute a change asks for runs in a worker; it is timed on its own below.
    tournaments.tasks.schedule_recompute = lambda tournament_id: None  # type: ignore[assignment]

    swiss_format = {"format": Tournament.Format.SWISS, "round_count": 8}
    concours = {"format": Tournament.Format.CONCOURS, "round_count": 5}
    individual = {"format": Tournament.Format.INDIVIDUAL, "round_count": 7}
    fields = []
    if args.only in (None, "swiss"):
        fields.append(("Swiss, 256 teams, round 8", field("swiss", 256, 7, **swiss_format)))
    if args.only in (None, "concours"):
        fields += [
            (
                "concours at random, 200 teams, round 5",
                field("concours-random", 200, 4, draw=Tournament.Draw.RANDOM, **concours),
            ),
            (
                "concours by ranking, 200 teams, round 5",
                field("concours-ranking", 200, 4, draw=Tournament.Draw.RANKING, **concours),
            ),
        ]
    if args.only in (None, "individual"):
        fields.append(("individual, 200 players, round 7", melee("melee", 200, 6, **individual)))
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    print(f"{'':48}{'best':>9}{'median':>9}")

    def line(label: str, figures: tuple[float, float]) -> None:
        best, median = figures
        print(f"{label:48}{best:8.3f}s{median:8.3f}s")

    for label, tournament in fields:
        drawn: list[Any] = []

        def draw(tournament: Tournament = tournament, drawn: list[Any] = drawn) -> None:
            drawn.append(draw_next_round(tournament, by=SYSTEM))

        def undo(drawn: list[Any] = drawn) -> None:
            delete_last_round(drawn.pop(), by=SYSTEM)

        print(label)
        line("  draw_next_round (stored, committed)", timed(draw, args.runs, after=undo))
        line(
            "  next_round (the preview, nothing stored)",
            timed(lambda t=tournament: next_round(t), args.runs),
        )
        round_ = draw_next_round(tournament, by=SYSTEM)
        matches = round_.matches.filter(ew_team__isnull=False).count()
        # A bye of a team format, a player sitting out of a mêlée.
        byes = round_.matches.filter(ew_team__isnull=True).count() + round_.sit_outs.count()
        line(
            "  recompute_standings afterwards (a worker)",
            timed(lambda t=tournament: recompute_standings(t.pk, force=True), args.runs),
        )
        print(f"    round {round_.number}: {matches} matches, {byes} bye(s)")


if __name__ == "__main__":
    main()
