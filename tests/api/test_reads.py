"""Every resource read by the personas: director, the match's referee, another referee, anonymous."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from club.models import Rating, RatingChange
from tests.factories import MatchFactory, TeamFactory
from tournaments.models import DealAudit, Standing

from .conftest import MADE, client_for, deals_url

pytestmark = pytest.mark.django_db

PERSONAS = ["director", "referee", "other_referee", None]


@pytest.fixture(params=PERSONAS, ids=["director", "matchs-referee", "other-referee", "anonymous"])
def anyone(request):  # type: ignore[no-untyped-def]
    user = request.getfixturevalue(request.param) if request.param else None
    return client_for(user)


@pytest.fixture
def world(tournament, match, other_match, private_tournament, referee):  # type: ignore[no-untyped-def]
    client_for(referee).post(deals_url(match), MADE, format="json")
    MatchFactory(round__tournament=private_tournament, tournament=private_tournament)
    return tournament


def test_everyone_lists_clubs_and_reads_a_club(anyone, club):
    listing = anyone.get("/api/v1/clubs/")
    assert listing.status_code == 200
    assert [c["slug"] for c in listing.json()["results"]] == ["lyon"]
    assert anyone.get(f"/api/v1/clubs/{club.pk}/").json()["name"] == "Belote Club de Lyon"


def test_everyone_reads_players_with_their_ratings(anyone, club, world):
    team = world.teams.first()
    Rating.objects.create(
        club=club, player=team.first_player, mu=30, sigma=2, rating=24, computed_at=timezone.now()
    )
    response = anyone.get("/api/v1/players/", {"club": club.pk})
    assert response.status_code == 200
    player = anyone.get(f"/api/v1/players/{team.first_player.pk}/").json()
    assert player["ratings"][0]["rating"] == 24


def test_everyone_reads_a_clubs_rankings_best_first(anyone, club, world):
    first, second = world.teams.first().players
    now = timezone.now()
    Rating.objects.create(club=club, player=first, mu=25, sigma=3, rating=16, computed_at=now)
    Rating.objects.create(club=club, player=second, mu=30, sigma=2, rating=24, computed_at=now)
    response = anyone.get(f"/api/v1/clubs/{club.pk}/rankings/")
    assert response.status_code == 200
    assert [line["player"]["id"] for line in response.json()["results"]] == [second.pk, first.pk]


def test_everyone_reads_a_players_rating_history_oldest_first(anyone, club, world):
    player = world.teams.first().first_player
    start = timezone.now() - datetime.timedelta(days=1)
    for offset, rating in enumerate([10.0, 12.5]):
        RatingChange.objects.create(
            club=club,
            player=player,
            match_id=100 + offset,
            played_at=start + datetime.timedelta(hours=offset),
            mu=25,
            sigma=3,
            rating=rating,
            won=True,
        )
    response = anyone.get(f"/api/v1/players/{player.pk}/ratings/", {"club": club.pk})
    assert [step["rating"] for step in response.json()["results"]] == [10.0, 12.5]
    assert anyone.get(f"/api/v1/players/{player.pk}/ratings/", {"club": "x"}).status_code == 400


def test_public_tournaments_are_read_by_everyone_with_their_house_rules(anyone, world):
    listing = anyone.get("/api/v1/tournaments/")
    slugs = [t["slug"] for t in listing.json()["results"]]
    assert "hiver" in slugs
    detail = anyone.get(f"/api/v1/tournaments/{world.pk}/").json()
    assert detail["rules"]["target"] == 1000
    assert detail["tie_breaks"][0] == "match_points"
    assert (detail["points_win"], detail["points_draw"], detail["points_loss"]) == (2, 1, 0)


def test_a_private_tournament_is_404_to_anonymous_and_other_clubs(
    anonymous_client, director_client, private_tournament, world
):
    assert anonymous_client.get(f"/api/v1/tournaments/{private_tournament.pk}/").status_code == 404
    slugs = [t["slug"] for t in anonymous_client.get("/api/v1/tournaments/").json()["results"]]
    assert "staff" not in slugs
    private_match = private_tournament.matches.get()
    assert anonymous_client.get(f"/api/v1/matches/{private_match.pk}/").status_code == 404
    assert anonymous_client.get(deals_url(private_match)).status_code == 404
    standings = f"/api/v1/tournaments/{private_tournament.pk}/standings/"
    assert anonymous_client.get(standings).status_code == 404
    assert director_client.get(f"/api/v1/tournaments/{private_tournament.pk}/").status_code == 200
    assert director_client.get(standings).status_code == 200


def test_everyone_reads_teams_rounds_and_matches_filtered_by_tournament(anyone, world, match):
    teams = anyone.get("/api/v1/teams/", {"tournament": world.pk}).json()["results"]
    assert len(teams) == 4
    rounds = anyone.get("/api/v1/rounds/", {"tournament": world.pk}).json()["results"]
    assert len(rounds) == 2
    matches = anyone.get("/api/v1/matches/", {"tournament": world.pk, "referee": match.referee_id})
    [shown] = matches.json()["results"]
    assert shown["id"] == match.pk
    assert shown["referee"]["username"] == "referee"
    assert (shown["ns_total"], shown["ew_total"], shown["deal_count"]) == (98, 64, 1)
    assert shown["winner"] is None
    by_team = anyone.get("/api/v1/matches/", {"team": match.ns_team_id}).json()["results"]
    assert [m["id"] for m in by_team] == [match.pk]


def test_lists_are_ordered_stably_even_on_equal_keys(anyone, world):
    for _ in range(3):
        TeamFactory(tournament=world, name=f"Extra {_}")
    ids = [
        t["id"]
        for t in anyone.get(
            "/api/v1/teams/", {"ordering": "withdrawn", "tournament": world.pk}
        ).json()["results"]
    ]
    assert ids == sorted(ids)


def test_the_schedule_lists_rounds_with_their_matches_and_an_etag(anyone, world):
    response = anyone.get(f"/api/v1/tournaments/{world.pk}/schedule/")
    assert response.status_code == 200
    assert [len(r["matches"]) for r in response.json()["rounds"]] == [1, 1]
    etag = response["ETag"]
    again = anyone.get(f"/api/v1/tournaments/{world.pk}/schedule/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304


def test_the_schedule_etag_changes_when_a_deal_is_entered(
    referee_client, anonymous_client, world, match
):
    url = f"/api/v1/tournaments/{world.pk}/schedule/"
    etag = anonymous_client.get(url)["ETag"]
    referee_client.post(deals_url(match), MADE, format="json")
    assert anonymous_client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def _store_standings(tournament, seq):  # type: ignore[no-untyped-def]
    # The latest round's rows, as the store keeps them (a past round's table is computed from
    # the results: tests/api/test_settings_through_the_api.py).
    Standing.objects.filter(tournament=tournament).delete()
    for round_number in (2,):
        for rank, team in enumerate(tournament.teams.order_by("seed"), start=1):
            Standing.objects.create(
                tournament=tournament,
                round_number=round_number,
                team=team,
                rank=rank,
                match_points=2 * (5 - rank) * round_number,
            )
    tournament.standings_seq = seq
    tournament.standings_computed_at = timezone.now()
    tournament.save(update_fields=["standings_seq", "standings_computed_at"])


def test_standings_latest_or_after_a_round_with_when_they_were_computed(anyone, world):
    _store_standings(world, seq=world.change_seq + 5)
    url = f"/api/v1/tournaments/{world.pk}/standings/"
    latest = anyone.get(url).json()
    assert latest["after_round"] == 2
    assert latest["rounds"] == [1, 2]
    assert latest["computed_at"] is not None
    assert latest["change"] == world.change_seq + 5
    assert [line["rank"] for line in latest["results"]] == [1, 2, 3, 4]
    assert latest["results"][0]["match_points"] == 16
    assert anyone.get(url, {"after_round": "two"}).status_code == 400


def test_standings_answer_304_until_they_are_recomputed(anyone, world):
    url = f"/api/v1/tournaments/{world.pk}/standings/"
    _store_standings(world, seq=1)
    etag = anyone.get(url)["ETag"]
    assert anyone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    world.refresh_from_db()
    _store_standings(world, seq=2)
    fresh = anyone.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag


def test_the_audit_trail_is_for_directors_only(director_client, anyone, world, match):
    response = director_client.get(f"/api/v1/matches/{match.pk}/audit/")
    assert response.status_code == 200
    [entry] = response.json()["deals"]
    assert (entry["deal_number"], entry["action"], entry["by"]) == (
        1,
        DealAudit.Action.ENTERED,
        "referee",
    )
    assert entry["after"]["taker"] == "N"


@pytest.mark.parametrize("user", ["referee", "other_referee"])
def test_the_audit_trail_is_refused_to_everyone_else(request, user, world, match):
    client = client_for(request.getfixturevalue(user))
    assert client.get(f"/api/v1/matches/{match.pk}/audit/").status_code == 403


def test_the_audit_trail_asks_an_anonymous_reader_to_sign_in(world, match):
    response = client_for(None).get(f"/api/v1/matches/{match.pk}/audit/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Token realm="api"'
    assert response.json()["code"] == "not_authenticated"


def test_the_fast_standings_lines_equal_the_serializers(world):
    from tournaments.api.standing_serializers import StandingSerializer, standing_lines

    _store_standings(world, seq=3)
    Standing.objects.filter(tournament=world, rank=2).update(shared_rank=True)
    lines = Standing.objects.filter(tournament=world, round_number=2).order_by("rank", "pk")
    assert standing_lines(lines) == StandingSerializer(lines, many=True).data


def test_everyone_reads_a_clubs_season_table(anyone, club, world):
    from club.models import YearRanking

    first, second = world.teams.first().players
    now = timezone.now()
    YearRanking.objects.create(
        club=club, year=2026, player=first, average_place=2.5, computed_at=now
    )
    YearRanking.objects.create(
        club=club, year=2026, player=second, average_place=1.0, computed_at=now
    )
    YearRanking.objects.create(
        club=club, year=2025, player=first, average_place=1.0, computed_at=now
    )
    latest = anyone.get(f"/api/v1/clubs/{club.pk}/season/").json()["results"]
    assert [(e["season"], e["player"]["id"]) for e in latest] == [
        (2026, second.pk),
        (2026, first.pk),
    ]
    older = anyone.get(f"/api/v1/clubs/{club.pk}/season/", {"season": 2025}).json()["results"]
    assert [e["player"]["id"] for e in older] == [first.pk]
    assert anyone.get(f"/api/v1/clubs/{club.pk}/season/", {"season": "last"}).status_code == 400


def test_the_referee_of_a_private_tournaments_match_sees_it_and_others_do_not(
    private_tournament, referee, other_referee
):
    match = MatchFactory(
        round__tournament=private_tournament, tournament=private_tournament, referee=referee
    )
    assert client_for(referee).post(deals_url(match), MADE, format="json").status_code == 201
    assert (
        client_for(referee).get(f"/api/v1/tournaments/{private_tournament.pk}/").status_code == 200
    )
    assert client_for(other_referee).get(deals_url(match)).status_code == 404
    assert client_for(other_referee).post(deals_url(match), MADE, format="json").status_code == 404


def test_the_schedule_shows_a_new_referee_at_once(
    director_client, anonymous_client, world, match, other_referee
):
    url = f"/api/v1/tournaments/{world.pk}/schedule/"
    etag = anonymous_client.get(url)["ETag"]
    director_client.post(
        f"/api/v1/matches/{match.pk}/referee/", {"referee": other_referee.pk}, format="json"
    )
    fresh = anonymous_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    referees = [
        m["referee"] for r in fresh.json()["rounds"] for m in r["matches"] if m["id"] == match.pk
    ]
    assert referees == [{"id": other_referee.pk, "username": "other"}]
