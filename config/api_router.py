"""The REST API's router: every resource under /api/v1/ (URL names `api:<basename>-<action>`)."""

from django.urls import path, re_path
from rest_framework.routers import DefaultRouter

from club.api import ID_PATTERN, ClubViewSet
from club.api_members import MemberViewSet
from entries.api.views import (
    CashViewSet,
    CheckInViewSet,
    RegistrationViewSet,
    TournamentRegistrationViewSet,
)
from pad.api import (
    KEY_PATTERN,
    NUMBER_PATTERN,
    PadDealsView,
    PadDealView,
    PadReplayView,
    PadsView,
    PadView,
)
from prizes.api import TournamentPrizesView
from seasons.api import (
    ClubSeasonsView,
    SeasonSeriesView,
    SeasonView,
    SeriesStandingsView,
    SeriesView,
)
from tournaments.api.accounts import (
    MeView,
    MyTokenViewSet,
    NotFoundView,
    PingView,
    RefereeTokenRevokeView,
    RefereeTokenView,
    SignInView,
)
from tournaments.api.calls import CallViewSet
from tournaments.api.deals import DealViewSet
from tournaments.api.entrants import EntrantViewSet
from tournaments.api.matches import MatchViewSet, RoundViewSet, TeamViewSet
from tournaments.api.players import PlayerViewSet
from tournaments.api.views import TournamentViewSet

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register(rf"clubs/(?P<id>{ID_PATTERN})/members", MemberViewSet, basename="member")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("teams", TeamViewSet, basename="team")
router.register("entrants", EntrantViewSet, basename="entrant")
router.register("rounds", RoundViewSet, basename="round")
router.register("matches", MatchViewSet, basename="match")
router.register("calls", CallViewSet, basename="call")
router.register(rf"matches/(?P<match_pk>{ID_PATTERN})/deals", DealViewSet, basename="deal")
T = rf"tournaments/(?P<tournament_pk>{ID_PATTERN})"
router.register(rf"{T}/registrations", TournamentRegistrationViewSet, basename="registration-list")
router.register(rf"{T}/check-ins", CheckInViewSet, basename="check-in")
router.register(rf"{T}/cash", CashViewSet, basename="cash")
router.register("registrations", RegistrationViewSet, basename="registration")
router.register("me/tokens", MyTokenViewSet, basename="my-token")

urlpatterns = [
    path("pads/", PadsView.as_view(), name="pads"),
    path("pads/replay/", PadReplayView.as_view(), name="pad-replay"),
    re_path(rf"^pads/(?P<key>{KEY_PATTERN})/$", PadView.as_view(), name="pad"),
    re_path(rf"^pads/(?P<key>{KEY_PATTERN})/deals/$", PadDealsView.as_view(), name="pad-deals"),
    re_path(
        rf"^pads/(?P<key>{KEY_PATTERN})/deals/(?P<number>{NUMBER_PATTERN})/$",
        PadDealView.as_view(),
        name="pad-deal",
    ),
    path("ping/", PingView.as_view(), name="ping"),
    path("auth/token/", SignInView.as_view(), name="sign-in"),
    path("me/", MeView.as_view(), name="me"),
    path("tokens/", RefereeTokenView.as_view(), name="token-issue"),
    re_path(
        rf"^tokens/(?P<user_id>{ID_PATTERN})/$",
        RefereeTokenRevokeView.as_view(),
        name="token-revoke",
    ),
    re_path(
        rf"^clubs/(?P<club_pk>{ID_PATTERN})/seasons/$",
        ClubSeasonsView.as_view(),
        name="club-seasons",
    ),
    re_path(rf"^seasons/(?P<pk>{ID_PATTERN})/$", SeasonView.as_view(), name="season-detail"),
    re_path(
        rf"^seasons/(?P<pk>{ID_PATTERN})/series/$",
        SeasonSeriesView.as_view(),
        name="season-series",
    ),
    re_path(rf"^series/(?P<pk>{ID_PATTERN})/$", SeriesView.as_view(), name="series-detail"),
    re_path(
        rf"^series/(?P<pk>{ID_PATTERN})/standings/$",
        SeriesStandingsView.as_view(),
        name="series-standings",
    ),
    re_path(
        rf"^tournaments/(?P<tournament_pk>{ID_PATTERN})/prizes/$",
        TournamentPrizesView.as_view(),
        name="tournament-prizes",
    ),
    *router.urls,
    # Last: any other address under /api/v1/ answers a JSON 404, whatever the method.
    re_path(r"^[\s\S]*$", NotFoundView.as_view(), name="not-found"),
]
