"""The pages that keep themselves up to date: fragments answer "nothing new" from the cache
alone, send the region after a change, survive a broken cache; the big screen; a player's table."""

from __future__ import annotations

import gzip
from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from live.fragments import fragment_key
from live.versions import live_state, publish_live
from tests.tournaments.pages.pages_world import MADE_BY_NS, build_world
from tournaments import selectors
from tournaments.changes import changing
from tournaments.models import Match, Round, Tournament
from tournaments.services.deals import enter_deal

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world():
    return build_world()


def fragments(world):
    """Each live fragment's URL and the version its page shows now."""
    tournament = Tournament.objects.get(pk=world.tournament.pk)
    team = world.match.ns_team
    both = selectors.state_of(tournament).both
    changes = str(tournament.change_seq)
    return {
        reverse("tournaments:standings_live", args=ARGS): selectors.standings_version(tournament),
        reverse("tournaments:schedule_live", args=ARGS): changes,
        reverse("tournaments:team_live", args=[*ARGS, team.pk]): both,
        reverse("tournaments:match_live", args=[*ARGS, world.other_match.pk]): changes,
        reverse("tournaments:screen_live", args=ARGS): both,
        reverse("tournaments:player_live", args=[*ARGS, team.first_player_id]): changes,
    }


def test_every_fragment_answers_an_unchanged_version_without_a_query(
    client, world, django_assert_num_queries
):
    urls = fragments(world)
    for url, version in urls.items():
        client.get(url, {"v": version})  # the first read of the versions fills the cache
    for url, version in urls.items():
        with django_assert_num_queries(0):
            response = client.get(url, {"v": version})
        assert response.status_code == 204, url


def test_every_fragment_sends_its_region_after_a_deal(
    client, world, django_capture_on_commit_callbacks
):
    urls = fragments(world)
    for url, version in urls.items():
        client.get(url, {"v": version})
    with django_capture_on_commit_callbacks(execute=True):
        enter_deal(world.other_match, MADE_BY_NS, by=world.director)
    for url, version in urls.items():
        response = client.get(url, {"v": version})
        assert response.status_code == 200, url
        assert b"hx-get" in response.content and b"data-version" in response.content


def test_a_change_reaches_the_cache_when_it_commits(world, django_capture_on_commit_callbacks):
    before = live_state(*ARGS)
    with django_capture_on_commit_callbacks(execute=True):
        enter_deal(world.other_match, MADE_BY_NS, by=world.director)
    after = live_state(*ARGS)
    assert int(after.changes) == int(before.changes) + 1
    assert after.standings != before.standings  # the recompute ran in process and published


def test_a_broken_cache_never_breaks_a_page(client, world):
    url, version = next(iter(fragments(world).items()))
    with (
        mock.patch.object(cache, "get", side_effect=ConnectionError("redis down")),
        mock.patch.object(cache, "add", side_effect=ConnectionError("redis down")),
        mock.patch.object(cache, "set", side_effect=ConnectionError("redis down")),
    ):
        assert client.get(url, {"v": version}).status_code == 204
        assert client.get(url, {"v": "old"}).status_code == 200
        publish_live(world.tournament.pk)  # logs, raises nothing
        assert client.get(reverse("tournaments:standings", args=ARGS)).status_code == 200


def test_a_private_tournament_is_checked_the_long_way(client, world):
    Tournament.objects.filter(pk=world.tournament.pk).update(is_public=False)
    url = reverse("tournaments:standings_live", args=ARGS)
    assert client.get(url, {"v": "anything"}).status_code == 404
    client.force_login(world.director)
    version = selectors.standings_version(Tournament.objects.get(pk=world.tournament.pk))
    assert client.get(url, {"v": version}).status_code == 204


class TestARegionEveryPageWatches:
    """The standings and the schedule: a new version is rendered once per language and kept."""

    def test_other_pages_get_the_same_bytes_without_a_render_or_a_query(
        self, client, world, django_assert_num_queries, monkeypatch
    ):
        url = reverse("tournaments:standings_live", args=ARGS)
        first = client.get(url, {"v": "old"}).content
        renders = []
        monkeypatch.setattr(
            "tournaments.views.live.render_to_string", lambda *a, **kw: renders.append(a) or ""
        )
        with django_assert_num_queries(0):
            second = client.get(url, {"v": "older"})
        assert second.content == first and b'id="standings"' in first and renders == []
        in_french = client.get(url, {"v": "old"}, HTTP_ACCEPT_LANGUAGE="fr")
        assert in_french.status_code == 200 and len(renders) == 1

    def test_the_schedule_is_kept_per_round_shown(self, client, world, monkeypatch):
        url = reverse("tournaments:schedule_live", args=ARGS)
        current = client.get(url, {"v": "old"}).content
        renders = []
        monkeypatch.setattr(
            "tournaments.views.live.render_to_string", lambda *a, **kw: renders.append(a) or ""
        )
        assert client.get(url, {"v": "old"}).content == current and renders == []
        client.get(url, {"v": "old", "round": "2"})
        assert len(renders) == 1

    def test_a_new_version_is_rendered_afresh(
        self, client, world, django_capture_on_commit_callbacks
    ):
        url = reverse("tournaments:standings_live", args=ARGS)
        before = client.get(url, {"v": "old"}).content
        with django_capture_on_commit_callbacks(execute=True):
            enter_deal(world.other_match, MADE_BY_NS, by=world.director)
        after = client.get(url, {"v": "old"}).content
        version = live_state(*ARGS).standings
        assert f'data-version="{version}"'.encode() in after
        assert f'data-version="{version}"'.encode() not in before

    def test_while_one_request_renders_a_version_the_others_get_the_newest_kept(
        self, client, world, django_capture_on_commit_callbacks
    ):
        url = reverse("tournaments:standings_live", args=ARGS)
        first = live_state(*ARGS).standings
        client.get(url, {"v": "old"})  # rendered and kept: the newest
        with django_capture_on_commit_callbacks(execute=True):
            enter_deal(world.other_match, MADE_BY_NS, by=world.director)
        second = live_state(*ARGS).standings
        with translation.override("en"):
            rendering = fragment_key(world.tournament.pk, "standings", second, "") + ":rendering"
        cache.add(rendering, 1)  # another request is rendering the second version

        meanwhile = client.get(url, {"v": "old"})
        assert f'data-version="{first}"'.encode() in meanwhile.content
        assert client.get(url, {"v": first}).status_code == 204  # nothing newer yet

        cache.delete(rendering)
        assert f'data-version="{second}"'.encode() in client.get(url, {"v": first}).content

    def test_a_browser_gets_it_compressed_and_a_plain_client_as_it_is(self, client, world):
        url = reverse("tournaments:standings_live", args=ARGS)
        plain = client.get(url, {"v": "old"})
        packed = client.get(url, {"v": "old"}, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.content) == plain.content
        assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]

    def test_a_private_tournament_kept_in_the_cache_is_still_not_found_by_others(
        self, client, world
    ):
        Tournament.objects.filter(pk=world.tournament.pk).update(is_public=False)
        url = reverse("tournaments:standings_live", args=ARGS)
        client.force_login(world.director)
        assert client.get(url, {"v": "old"}).status_code == 200
        client.logout()
        assert client.get(url, {"v": "old"}).status_code == 404


def test_the_pages_say_when_they_were_last_updated(client, world):
    for url in (
        reverse("tournaments:schedule", args=ARGS),
        world.match.get_absolute_url(),
        reverse("tournaments:team", args=[*ARGS, world.match.ns_team_id]),
    ):
        page = client.get(url).content.decode()
        assert "Live · last updated" in page and "js/live.js" in page, url


def test_the_schedule_of_every_round_at_once_does_not_poll(client, world):
    """2,000 rows on a big evening, re-sent after every deal to everyone looking back: no."""
    one = client.get(reverse("tournaments:schedule", args=ARGS)).content.decode()
    every = client.get(reverse("tournaments:schedule", args=ARGS), {"round": "all"}).content
    assert 'id="schedule-live" hx-get' in one and b"hx-get" not in every


def test_the_match_sheet_keeps_its_totals_in_the_narrow_view(client, world):
    """On a phone the columns marked wide are hidden; the running totals never are."""
    page = client.get(world.match.get_absolute_url()).content.decode()
    assert '<th scope="col" class="num">NS total</th>' in page
    assert '<th scope="col" class="num">EW total</th>' in page
    assert '<th scope="col" class="wide">Dealer</th>' in page


class TestTheBigScreen:
    def test_it_shows_the_rounds_tables_and_the_standings_without_controls(self, client, world):
        page = client.get(reverse("tournaments:screen", args=ARGS)).content.decode()
        assert page.count("data-slide>") == 2  # the round's tables, the standings
        assert "<form" not in page and "<nav" not in page and "<button" not in page
        assert "js/screen.js" in page and "Find your table:" in page

    def test_it_speaks_the_tournaments_language(self, client, world, compiled_catalogues):
        Tournament.objects.filter(pk=world.tournament.pk).update(language="nl")
        page = client.get(reverse("tournaments:screen", args=ARGS)).content.decode()
        assert '<html lang="nl">' in page and "Ronde 1: de tafels" in page
        # The other pages keep the visitor's language.
        assert (
            'lang="en"' in client.get(reverse("tournaments:standings", args=ARGS)).content.decode()
        )

    def test_the_tables_come_whole_for_the_page_to_cut_to_its_screen(self, client, db):
        build_world(18)  # 9 tables a round
        response = client.get(reverse("tournaments:screen", args=ARGS))
        assert [len(slide) for slide in response.context["table_slides"]] == [9]
        assert [len(slide) for slide in response.context["line_slides"]] == [18]

    def test_the_screen_shows_the_deciding_columns_and_says_what_ranks(self, client, db):
        world = build_world(4)
        world.tournament.tie_breaks = ["points_for", "wins", "point_difference"]
        world.tournament.save(update_fields=["tie_breaks"])
        page = client.get(reverse("tournaments:screen", args=ARGS)).content.decode()
        head = page.split('class="slide slide-standings"')[1].split("</thead>")[0]
        assert [cell.split("<")[0] for cell in head.split('<th scope="col" class="num">')[1:]] == [
            "Rank",
            "Played",
            "Points for",
            "Matches won",
            "Point difference",
        ]
        assert "Ranked by points for, then matches won, then point difference." in page


class TestAPlayersTable:
    def test_a_player_finds_their_name_without_its_accents_or_case(self, world):
        player = world.match.ns_team.first_player
        player.first_name, player.last_name = "Élodie", "Roux"
        player.save()
        found = selectors.find_players(world.tournament, "elodie ROUX")
        assert [p.pk for p, _team in found] == [player.pk]
        # A typo still finds the closest names.
        assert player.pk in [
            p.pk for p, _team in selectors.find_players(world.tournament, "Elodi Rouxx")
        ]

    def test_the_page_gives_the_next_table_and_the_seat(self, client, world):
        team = world.other_match.ns_team
        url = reverse("tournaments:player_table", args=[*ARGS, team.second_player_id])
        response = client.get(url)
        assert response.context["next"]["match"].pk == world.other_match.pk
        assert response.context["next"]["seat"] == "S"  # the partner of North
        assert f"Table {world.other_match.table}" in response.content.decode()

    def test_a_player_of_another_tournament_is_not_found(self, client, world):
        from tests.factories import PlayerFactory

        url = reverse("tournaments:player_table", args=[*ARGS, PlayerFactory().pk])
        assert client.get(url).status_code == 404

    def test_the_search_page_lists_the_names_found(self, client, world):
        name = world.match.ns_team.first_player.last_name
        page = client.get(reverse("tournaments:find_player", args=ARGS), {"q": name})
        assert world.match.ns_team.name in page.content.decode()

    def test_the_page_moves_on_when_the_next_round_is_drawn(
        self, client, world, django_capture_on_commit_callbacks
    ):
        """Drawing a round (Swiss, concours) is a change: the fragment sends the new table."""
        tournament, team = world.tournament, world.match.ns_team
        with django_capture_on_commit_callbacks(execute=True):
            Round.objects.filter(tournament=tournament, number__gt=1).delete()
        url = reverse("tournaments:player_live", args=[*ARGS, team.first_player_id])
        drawn_so_far = str(Tournament.objects.get(pk=tournament.pk).change_seq)
        assert client.get(url, {"v": drawn_so_far}).status_code == 204
        opponent = tournament.teams.exclude(pk__in=[team.pk, world.match.ew_team_id]).first()
        with django_capture_on_commit_callbacks(execute=True), changing(tournament.pk):
            round_two = Round.objects.create(tournament=tournament, number=2)
            Match.objects.create(round=round_two, table=5, ns_team=opponent, ew_team=team)
        response = client.get(url, {"v": drawn_so_far})
        assert response.status_code == 200
        page = response.content.decode()
        assert "Table 5" in page and "You sit East" in page
