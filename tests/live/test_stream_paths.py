"""The stream host's paths come from the URL configuration: a request is streamed when its
path resolves to a view marked a region (live.regions), with that mark's event name,
version and variants, and the live key its URL arguments name."""

from __future__ import annotations

from django.http import HttpResponse
from django.test import override_settings
from django.urls import path, reverse

from live.regions import LiveRegion, region_of, streamed
from live.stream.paths import PREFIX, topic_of
from tests.live.test_stream_hub import scope
from tournaments.views import live as live_views

ARGS = ["les-atouts", "winter-cup"]


def test_the_standings_and_the_schedule_are_the_streamed_regions_of_a_tournament():
    standings, _ = topic_of(scope(PREFIX + reverse("tournaments:standings_live", args=ARGS)))
    schedule, _ = topic_of(scope(PREFIX + reverse("tournaments:schedule_live", args=ARGS)))
    assert (standings.region, standings.follows) == ("standings", "standings")
    assert (schedule.region, schedule.follows) == ("schedule", "changes")
    assert standings.channel == schedule.channel == "belote:live:les-atouts/winter-cup"


def test_a_polled_fragment_that_is_not_marked_is_not_streamed():
    for name in ("team_live", "match_live", "player_live"):
        fragment = reverse(f"tournaments:{name}", args=[*ARGS, 3])
        assert region_of(live_views.__dict__[name]) is None
        assert topic_of(scope(PREFIX + fragment)) is None, name
    assert topic_of(scope(PREFIX + reverse("tournaments:screen_live", args=ARGS))) is None


def test_the_schedules_variant_is_its_round_and_nothing_else():
    fragment = PREFIX + reverse("tournaments:schedule_live", args=ARGS)
    topic, _ = topic_of(scope(fragment, query="round=2&after=5&lang=fi"))
    assert topic.query == {"round": "2"} and topic.language == "fi"
    assert topic_of(scope(fragment, query="round=all")) is None  # every round does not poll


ELSEWHERE = LiveRegion("board", version="changes", address=("club", "event"))


@streamed(ELSEWHERE)
def board(request, club: str, event: str) -> HttpResponse:  # type: ignore[no-untyped-def]
    return HttpResponse()


urlpatterns = [path("elsewhere/<slug:club>/<slug:event>/board/", board)]


@override_settings(ROOT_URLCONF=__name__)
def test_a_region_marked_anywhere_in_the_urls_is_streamed_under_its_own_path():
    """The host keeps no copy of the paths: moving a region's URL moves its stream."""
    topic, _ = topic_of(scope("/stream/elsewhere/a/b/board/"))
    assert (topic.region, topic.follows, topic.channel) == ("board", "changes", "belote:live:a/b")
    assert topic_of(scope(PREFIX + "/clubs/a/b/standings/live/")) is None
