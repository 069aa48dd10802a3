"""Times the members' heavy actions: an import of 2,000 rows, a merge of a player with 200
matches, the player's page of a player with 500 matches (docs/members.md).

    .venv/bin/python bench/members_bench.py                          # SQLite (a temp file)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/members_bench.py                      # PostgreSQL

In a throwaway database:

- a club with 500 members imports a CSV of `--rows` rows (a fifth of them members already,
  one in twenty close to a member's name, the rest new): the preview (read the file, match
  every row) and the import confirmed (preview again inside the transaction, store), each
  with the number of queries;
- a player who sat at `--merge-matches` matches (in 20 evenings; each match with both sides'
  line-ups and the player's rating after it, both records rated in the club) is merged into
  another record of the same person: the whole service, in its transaction (then rolled
  back; the ratings' and series' recompute it asks for runs after commit, as a task);
- the player's page of a player with `--page-matches` matches (in 50 evenings, standings
  stored) is fetched by a visitor: time and queries.

Each figure is the best of `--runs` runs (the machine is shared); the median is shown too.
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.timing import timed

FIRST = [
    "Anne",
    "Luc",
    "Marie",
    "Paul",
    "Chloé",
    "Jean",
    "Eva",
    "Marc",
    "Lea",
    "Hugo",
    "Nina",
    "Tom",
]
LAST = [
    "Martin",
    "Dupont",
    "Lefèvre",
    "Roux",
    "Petit",
    "Noir",
    "Blanc",
    "Moreau",
    "Girard",
    "Faure",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--merge-matches", type=int, default=200)
    parser.add_argument("--page-matches", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    import django

    django.setup()
    import logging

    from django.db import connection

    logging.getLogger("tournaments").setLevel(logging.WARNING)
    test = connection.settings_dict.setdefault("TEST", {})
    if connection.vendor == "sqlite":
        test["NAME"] = str(Path(tempfile.gettempdir()) / "bench_members.sqlite3")
    else:
        test["NAME"] = "bench_members"
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args, connection.vendor)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


class Rollback(Exception):
    pass


def in_rollback(action):  # type: ignore[no-untyped-def]
    """`action` inside a transaction rolled back afterwards: each run does the same work."""
    from django.db import transaction

    def wrapped() -> None:
        try:
            with transaction.atomic():
                action()
                raise Rollback
        except Rollback:
            pass

    return wrapped


def queries_of(action) -> int:  # type: ignore[no-untyped-def]
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured.captured_queries)


def letters(n: int) -> str:
    """n in letters ("b", "ba", …): names are letters only, as the site checks them."""
    word = ""
    while True:
        n, digit = divmod(n, 26)
        word = "abcdefghijklmnopqrstuvwxyz"[digit] + word
        if not n:
            return word.capitalize()


def name(n: int) -> tuple[str, str]:
    """The n-th name: "Anne Martin-Bcd"."""
    return FIRST[n % len(FIRST)], f"{LAST[(n // len(FIRST)) % len(LAST)]}-{letters(n + 1000)}"


def run(args: argparse.Namespace, vendor: str) -> None:
    from club.importing import import_members, parse, preview, summary
    from club.merging import merge_members
    from club.models import Club, MemberEvent, Membership, Player
    from club.permissions import SYSTEM

    rng = random.Random(37)
    club = Club.objects.create(name="Bench club", slug="bench")
    members = Player.objects.bulk_create(
        Player(first_name=first, last_name=last) for first, last in map(name, range(500))
    )
    Membership.objects.bulk_create(Membership(club=club, player=p) for p in members)

    # --- the import --------------------------------------------------------------------------
    out = io.StringIO()
    out.write("Prénom;Nom;Courriel;Téléphone;Licence\r\n")
    for row in range(args.rows):
        if row % 5 == 0:
            first, last = name(rng.randrange(500))  # a member already
        elif row % 20 == 1:
            first, last = name(rng.randrange(500))
            last = last[:-1]  # a typo: close to a member's name
        else:
            first, last = name(10_000 + row)  # nobody's yet
        out.write(f"{first};{last};m{row}@example.org;06 {row:08d};L-{row}\r\n")
    data = out.getvalue().encode("utf-8-sig")
    best, median = timed(lambda: preview(club, parse(data, "members.csv")), args.runs)
    count = queries_of(lambda: preview(club, parse(data, "members.csv")))
    statuses = summary(preview(club, parse(data, "members.csv")))
    print(
        f"import preview of {args.rows} rows ({vendor}): best {best:.2f} s, median {median:.2f} s, {count} queries; {statuses}"
    )
    rows = parse(data, "members.csv")
    confirm = in_rollback(lambda: import_members(club, rows, by=SYSTEM))
    best, median = timed(confirm, args.runs)
    count = queries_of(confirm)
    print(
        f"import confirmed, {args.rows} rows ({vendor}): best {best:.2f} s, median {median:.2f} s, {count} queries"
    )

    # --- the merge ---------------------------------------------------------------------------
    kept, typo = members[0], members[1]
    from django.utils import timezone

    from club.models import Rating

    # Both records rated in the club: the second's rating collides with the first's.
    Rating.objects.create(
        club=club, player=kept, mu=25, sigma=8, rating=2, computed_at=timezone.now()
    )
    played = build_matches(club, typo, args.merge_matches, evenings=20, rng=rng, others=members[2:])
    moved: dict[str, Any] = {}

    def merge_once() -> None:
        merge_members(club, typo, into=kept, by=SYSTEM)
        moved.update(MemberEvent.objects.filter(action="merged").latest("pk").details["rows"])

    merge = in_rollback(merge_once)
    best, median = timed(merge, args.runs)
    count = queries_of(merge)
    rows = sum(sum(counts.values()) for counts in moved.values())
    print(f"  the merge moved or dropped {rows} rows: {moved}")
    print(
        f"merge of a player with {played} matches ({vendor}): best {best:.2f} s, median {median:.2f} s, {count} queries"
    )

    # --- the player's page -------------------------------------------------------------------
    from django.test import Client

    regular = members[3]
    played = build_matches(
        club, regular, args.page_matches, evenings=50, rng=rng, others=members[4:]
    )
    client = Client()
    url = regular.get_absolute_url()
    assert client.get(url).status_code == 200
    best, median = timed(lambda: client.get(url), args.runs)
    count = queries_of(lambda: client.get(url))
    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(client.get, url)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
    print(
        f"player's page, {played} matches ({vendor}): best {best * 1000:.0f} ms, median {median * 1000:.0f} ms, {count} queries"
    )


def build_matches(club, player, matches, *, evenings, rng, others):  # type: ignore[no-untyped-def]
    """`matches` matches of `player` in `evenings` public evenings (finished, standings
    stored), each against a new team of two members drawn from `others`."""
    from django.utils import timezone

    from club.models import Rating, RatingChange
    from tournaments.models import Match, MatchSeat, Round, Standing, Team, Tournament

    Rating.objects.get_or_create(
        club=club,
        player=player,
        defaults={"mu": 25, "sigma": 8, "rating": 1, "computed_at": timezone.now()},
    )

    per_evening = matches // evenings
    start = datetime.date(2025, 1, 1)
    for evening in range(evenings):
        tournament = Tournament.objects.create(
            club=club,
            name=f"Evening {player.pk}-{evening}",
            slug=f"evening-{player.pk}-{evening}",
            starts_on=start + datetime.timedelta(days=7 * evening),
            status=Tournament.Status.FINISHED,
            is_public=True,
            rules={},
        )
        partner = rng.choice(others)
        ours = Team.objects.create(
            tournament=tournament,
            name=f"{player.last_name} – {partner.last_name}",
            first_player=player,
            second_player=partner,
            seed=1,
        )
        teams = []
        for seat in range(per_evening):
            a, b = rng.sample([p for p in others[:200] if p.pk != partner.pk], 2)
            teams.append(
                Team(
                    tournament=tournament,
                    name=f"T{seat}",
                    first_player=a,
                    second_player=b,
                    seed=seat + 2,
                )
            )
        teams = Team.objects.bulk_create(teams)
        rounds = Round.objects.bulk_create(
            Round(tournament=tournament, number=n + 1) for n in range(per_evening)
        )
        made = Match.objects.bulk_create(
            Match(
                round=rounds[n],
                tournament=tournament,
                table=1,
                ns_team=ours,
                ew_team=teams[n],
                status=Match.Status.FINISHED,
                ns_total=rng.randrange(400, 1200),
                ew_total=rng.randrange(400, 1200),
                winner=rng.choice(["NS", "EW"]),
            )
            for n in range(per_evening)
        )
        # Each side's line-up, as the deal services store it, and the player's rating history.
        MatchSeat.objects.bulk_create(
            MatchSeat(
                match=match,
                round=rounds[n],
                team=team,
                side=side,
                first_player_id=team.first_player_id,
                second_player_id=team.second_player_id,
            )
            for n, match in enumerate(made)
            for team, side in ((ours, "NS"), (teams[n], "EW"))
        )
        RatingChange.objects.bulk_create(
            RatingChange(
                club=club,
                player=player,
                match_id=match.pk,
                played_at=timezone.now(),
                mu=25,
                sigma=8,
                rating=1,
                won=True,
            )
            for match in made
        )
        Standing.objects.create(
            tournament=tournament,
            team=ours,
            round_number=per_evening,
            rank=rng.randrange(1, 9),
            points_for=5000,
        )
    return per_evening * evenings


if __name__ == "__main__":
    main()
