"""The evening's pages: registering online, an entry's private page, self check-in; the
director's online entries, check-in, door poster and cash, for the three personas."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from club.models import Membership
from entries.models import Registration
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, TournamentFactory, make_staff
from tournaments.models import Team, Tournament

pytestmark = pytest.mark.django_db
ARGS = ["les-atouts", "winter-cup"]
DIRECTOR_PAGES = [
    "director_registrations",
    "director_check_in",
    "director_check_in_poster",
    "director_cash",
    "director_export_cash",
]


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="les-atouts")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "dora")


@pytest.fixture
def tournament(club):  # type: ignore[no-untyped-def]
    tournament = TournamentFactory(
        club=club,
        slug="winter-cup",
        status="open",
        registration="open",
        capacity=2,
        check_in="on",
        entry_fee=Decimal("5.00"),
    )
    for n in (1, 2):
        TeamFactory(
            tournament=tournament,
            name=f"Team {n}",
            seed=n,
            first_player=PlayerFactory(first_name=f"Anne{n}", last_name="Martin"),
            second_player=PlayerFactory(first_name=f"Bruno{n}", last_name="Petit"),
        )
    Tournament.objects.filter(pk=tournament.pk).update(capacity=4)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize("name", DIRECTOR_PAGES)
def test_an_anonymous_visitor_is_sent_to_sign_in(client, tournament, name):
    response = client.get(reverse(f"entries:{name}", args=ARGS))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("name", DIRECTOR_PAGES)
def test_a_referee_or_another_clubs_director_is_refused(client, club, tournament, name):
    for user in (
        make_staff(club, Membership.Role.REFEREE),
        make_staff(ClubFactory(), Membership.Role.DIRECTOR),
    ):
        client.force_login(user)
        assert client.get(reverse(f"entries:{name}", args=ARGS)).status_code == 403


@pytest.mark.parametrize("name", DIRECTOR_PAGES)
def test_the_director_opens_every_page(client, director, tournament, name):
    client.force_login(director)
    assert client.get(reverse(f"entries:{name}", args=ARGS)).status_code == 200


def test_the_director_pages_are_in_the_directors_navigation(client, director, tournament):
    client.force_login(director)
    page = client.get(reverse("tournaments:director", args=ARGS)).content.decode()
    for name in ("director_registrations", "director_check_in", "director_cash"):
        assert reverse(f"entries:{name}", args=ARGS) in page


REGISTER = {"player": "Marie Dupont", "partner": "Luc Martin", "email": "", "phone": ""}


def test_anyone_registers_and_lands_on_the_entrys_private_page(client, tournament):
    page = client.get(reverse("entries:register", args=ARGS)).content.decode()
    assert "2 of 4 places left." in page
    response = client.post(reverse("entries:register", args=ARGS), REGISTER)
    entry = Registration.objects.get()
    assert response["Location"] == reverse("entries:entry", args=[*ARGS, entry.key])
    page = client.get(response["Location"]).content.decode()
    assert "Marie Dupont &amp; Luc Martin" in page
    # Its address, to keep: copied or shared in one tap.
    address = f"http://testserver{response['Location']}"
    assert f'data-copy="{address}"' in page and f'data-share="{address}"' in page
    client.post(response["Location"])
    entry.refresh_from_db()
    assert entry.status == Registration.Status.CANCELLED


def test_a_wrong_key_finds_no_entry(client, tournament):
    assert client.get(reverse("entries:entry", args=[*ARGS, "nope"])).status_code == 404


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({**REGISTER, "website": "spam"}, "website"),
        ({**REGISTER, "partner": ""}, "partner"),
        ({**REGISTER, "partner": "Luc 4"}, "partner"),
        ({**REGISTER, "email": "nope"}, "email"),
    ],
)
def test_bad_input_is_shown_beside_its_field_and_stores_nothing(client, tournament, data, field):
    response = client.post(reverse("entries:register", args=ARGS), data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Registration.objects.exists()


def test_a_missing_partner_is_told_beside_it_to_name_them_or_tick_i_come_alone(client, tournament):
    with translation.override("en"):
        response = client.post(reverse("entries:register", args=ARGS), {**REGISTER, "partner": ""})
        french = client.post(
            reverse("entries:register", args=ARGS),
            {**REGISTER, "partner": " "},
            HTTP_ACCEPT_LANGUAGE="fr",
        )
    assert response.context["form"].errors["partner"] == [
        "Give your partner's name, or tick “I come alone: find me a partner”."
    ]
    assert list(response.context["form"].errors) == ["partner"]
    assert french.context["form"].errors["partner"] == [
        "Donnez le nom de votre partenaire, ou cochez « Je viens seul : trouvez-moi un partenaire »."
    ]
    # Ticked, no partner's name is needed.
    client.post(
        reverse("entries:register", args=ARGS),
        {**REGISTER, "partner": "", "partner_wanted": "on"},
    )
    assert Registration.objects.get().partner_wanted


def test_a_full_tournament_puts_the_entry_on_the_waiting_list(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(capacity=2)
    page = client.get(reverse("entries:register", args=ARGS)).content.decode()
    assert "Every place is taken" in page
    response = client.post(reverse("entries:register", args=ARGS), REGISTER)
    page = client.get(response["Location"]).content.decode()
    assert "Number 1 on the waiting list" in page


def test_a_closed_registration_says_so_and_stores_nothing(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(registration="closed")
    response = client.post(reverse("entries:register", args=ARGS), REGISTER)
    assert "Registration is closed for this tournament." in response.content.decode()
    assert not Registration.objects.exists()


def test_registrations_are_throttled_per_address(client, tournament, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "registration": "1/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    client.post(reverse("entries:register", args=ARGS), REGISTER)
    again = {"player": "Eva Roux", "partner": "Jean Roux", "email": "", "phone": ""}
    response = client.post(reverse("entries:register", args=ARGS), again)
    assert "Too many registrations" in response.content.decode()
    assert Registration.objects.count() == 1


def test_the_director_accepts_an_entry_after_confirming_new_members(client, director, tournament):
    client.post(reverse("entries:register", args=ARGS), REGISTER)
    entry = Registration.objects.get()
    client.force_login(director)
    url = reverse("entries:director_registration", args=[*ARGS, entry.pk, "accept"])
    # Neither name is a member, none close to one: created at once (as when pasting).
    client.post(url)
    entry.refresh_from_db()
    assert entry.status == Registration.Status.ACCEPTED
    assert entry.team.name == "Dupont – Martin"


def test_the_director_pairs_two_players_then_accepts_them(client, director, tournament):
    for name in ("Marie Dupont", "Luc Martin"):
        client.post(
            reverse("entries:register", args=ARGS),
            {"player": name, "partner": "", "partner_wanted": "on", "email": "", "phone": ""},
        )
    a, b = Registration.objects.order_by("pk")
    client.force_login(director)
    page = client.get(reverse("entries:director_registrations", args=ARGS)).content.decode()
    assert "Players looking for a partner" in page
    client.post(reverse("entries:director_pair", args=ARGS), {"first": a.pk, "second": b.pk})
    client.post(reverse("entries:director_registration", args=[*ARGS, a.pk, "accept"]))
    assert Team.objects.filter(name="Dupont – Martin").exists()


def test_one_tap_checks_an_entry_in_and_htmx_gets_the_row_back(client, director, tournament):
    client.force_login(director)
    team = tournament.teams.get(seed=1)
    url = reverse("entries:director_check_in_mark", args=[*ARGS, team.pk])
    response = client.post(url, {"paid": "cash"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="entry-{team.pk}"' in body and "1 present · 1 expected · 0 absent" in body
    team.refresh_from_db()
    assert team.is_present and team.paid == "cash"
    client.post(url, {"present": "undo"})
    team.refresh_from_db()
    assert team.attendance == "expected" and team.paid == ""


def test_an_absent_entry_is_withdrawn_from_the_check_in(client, director, tournament):
    client.force_login(director)
    team = tournament.teams.get(seed=2)
    client.post(reverse("entries:director_check_in_mark", args=[*ARGS, team.pk]), {"present": "no"})
    client.post(reverse("entries:director_check_in_withdraw", args=[*ARGS, team.pk]))
    team.refresh_from_db()
    assert team.withdrawn


def test_self_check_in_finds_a_name_with_a_typo(client, tournament):
    door = {"door": tournament.door_key}
    url = reverse("entries:self_check_in", args=ARGS)
    page = client.get(url, {"q": "anne1 martn", **door})
    found = page.context["found"]
    player, entry = found[0]
    assert (str(player), entry.name) == ("Anne1 Martin", "Team 1")
    assert f'name="door" value="{tournament.door_key}"' in page.content.decode()
    team = tournament.teams.get(seed=1)
    response = client.post(url, {"entry": team.pk, **door})
    assert "Team 1 is checked in" in response.content.decode()
    team.refresh_from_db()
    assert team.is_present


@pytest.mark.parametrize("entry", ["x", "99999", ""])
def test_self_check_in_of_no_such_entry_is_404(client, tournament, entry):
    response = client.post(
        reverse("entries:self_check_in", args=ARGS),
        {"entry": entry, "door": tournament.door_key},
    )
    assert response.status_code == 404


def test_self_check_in_turned_off_says_so(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(self_check_in=False)
    page = client.get(
        reverse("entries:self_check_in", args=ARGS), {"q": "anne", "door": tournament.door_key}
    )
    assert "self check-in is turned off" in page.content.decode()
    assert not page.context["found"]


def test_the_poster_and_the_big_screen_carry_the_qr_code(client, director, tournament):
    client.force_login(director)
    url = "http://testserver" + reverse("entries:self_check_in", args=ARGS)
    url += f"?door={tournament.door_key}"
    poster = client.get(reverse("entries:director_check_in_poster", args=ARGS)).content.decode()
    assert "<svg" in poster and url in poster
    screen = client.get(reverse("tournaments:screen", args=ARGS)).content.decode()
    assert "slide-check-in" in screen and url in screen


def test_the_cash_page_and_csv(client, director, tournament):
    client.force_login(director)
    teams = list(tournament.teams.order_by("seed"))
    mark = "entries:director_check_in_mark"
    client.post(reverse(mark, args=[*ARGS, teams[0].pk]), {"paid": "card"})
    client.post(reverse(mark, args=[*ARGS, teams[1].pk]), {"present": "yes"})
    page = client.get(reverse("entries:director_cash", args=ARGS)).content.decode()
    assert "Still due: €5.00" in page
    assert '<td class="num">€5.00</td>' in page  # received by card
    csv = client.get(reverse("entries:director_export_cash", args=ARGS)).content.decode()
    lines = csv.lstrip("\ufeff").splitlines()
    assert lines[0] == "entry,players,attendance,paid,amount,due"
    assert lines[1].startswith("Team 1,") and lines[1].endswith(",present,card,5.00,")
    assert lines[2].endswith(",present,,,5.00")
    assert lines[-1] == "total,,,,5.00,5.00"


def test_the_draw_preview_says_who_is_left_out(client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(format="swiss", round_count=3)
    TeamFactory(tournament=tournament, name="Team 3", seed=3)
    client.force_login(director)
    for seed in (1, 2):
        team = tournament.teams.get(seed=seed)
        client.post(
            reverse("entries:director_check_in_mark", args=[*ARGS, team.pk]), {"present": "yes"}
        )
    page = client.get(reverse("tournaments:director_draw", args=ARGS)).content.decode()
    assert "1 entry is left out of this draw:" in page and "Team 3" in page


def test_a_round_robin_asks_before_leaving_teams_out(client, director, tournament):
    client.force_login(director)
    team = tournament.teams.get(seed=1)
    client.post(
        reverse("entries:director_check_in_mark", args=[*ARGS, team.pk]), {"present": "yes"}
    )
    TeamFactory(tournament=tournament, name="Team 3", seed=3, attendance="present")
    response = client.post(reverse("tournaments:director_generate", args=ARGS))
    assert response.status_code == 200 and "Team 2" in response.content.decode()
    assert not tournament.rounds.exists()
    client.post(reverse("tournaments:director_generate", args=ARGS), {"leave_out_expected": "1"})
    assert tournament.rounds.exists()


# --- the director's online entries: accept all, no Accept for a waiting one, dates ------------


def _entries_page(client, **headers):  # type: ignore[no-untyped-def]
    return client.get(reverse("entries:director_registrations", args=ARGS), **headers)


def test_accept_all_accepts_and_lists_what_it_left_with_why(client, director, tournament):
    client.post(reverse("entries:register", args=ARGS), REGISTER)
    client.post(
        reverse("entries:register", args=ARGS),
        {"player": "Tom Noir", "partner": "", "partner_wanted": "on", "email": "", "phone": ""},
    )
    client.force_login(director)
    assert "Accept all" in _entries_page(client).content.decode()
    page = client.post(reverse("entries:director_accept_all", args=ARGS), follow=True)
    html = page.content.decode()
    assert "1 entry accepted." in html
    assert "Tom Noir not accepted: Tom Noir is looking for a partner" in html
    statuses = dict(Registration.objects.values_list("player", "status"))
    assert statuses == {"Marie Dupont": "accepted", "Tom Noir": "registered"}


def test_accept_all_is_for_directors_only(client, tournament):
    client.post(reverse("entries:register", args=ARGS), REGISTER)
    client.force_login(make_staff(tournament.club, Membership.Role.REFEREE, "rita"))
    client.post(reverse("entries:director_accept_all", args=ARGS))
    client.logout()
    client.post(reverse("entries:director_accept_all", args=ARGS))
    assert Registration.objects.get().status == "registered"


def test_a_waiting_entry_has_no_accept_button_and_nothing_to_accept_hides_accept_all(
    client, director, tournament
):
    Tournament.objects.filter(pk=tournament.pk).update(capacity=2)  # full with its two teams
    client.post(reverse("entries:register", args=ARGS), REGISTER)
    waiting = Registration.objects.get()
    assert waiting.status == "waiting"
    client.force_login(director)
    html = _entries_page(client).content.decode()
    accept = reverse("entries:director_registration", args=[*ARGS, waiting.pk, "accept"])
    cancel = reverse("entries:director_registration", args=[*ARGS, waiting.pk, "cancel"])
    assert accept not in html and cancel in html
    assert "Accept all" not in html


def test_the_entries_are_dated_in_the_readers_language(client, director, tournament):
    import datetime

    client.post(reverse("entries:register", args=ARGS), REGISTER)
    at = datetime.datetime(2026, 6, 12, 10, 29, tzinfo=datetime.UTC)  # 12:29 in Paris
    Registration.objects.update(created_at=at)
    client.force_login(director)
    # The language a request activates stays with the thread: given back after the test.
    with translation.override("en"):
        english = _entries_page(client, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        french = _entries_page(client, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        finnish = _entries_page(client, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "June 12, 2026, 12:29" in english
    assert "06/12/2026" not in english and "p.m." not in english
    assert "12 juin 2026, 12:29" in french
    assert "12. kesäkuuta 2026, 12:29" in finnish


# --- check-in: the amount due, with the currency's sign --------------------------------------


def test_an_unpaid_row_shows_the_amount_due_with_the_currency_sign(client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee_per="player")
    teams = list(tournament.teams.order_by("seed"))
    client.force_login(director)
    mark = reverse("entries:director_check_in_mark", args=[*ARGS, teams[0].pk])
    client.post(mark, {"paid": "cash"})
    with translation.override("en"):
        english = client.get(reverse("entries:director_check_in", args=ARGS)).content.decode()
        french = client.get(
            reverse("entries:director_check_in", args=ARGS), HTTP_ACCEPT_LANGUAGE="fr"
        ).content.decode()
        row = client.post(
            reverse("entries:director_check_in_mark", args=[*ARGS, teams[1].pk]),
            {"present": "yes"},
            HTTP_HX_REQUEST="true",
        ).content.decode()
    # Per player: a team owes twice the fee of 5.00; the team that paid owes nothing.
    assert english.count("€10.00 due") == 1
    assert 'badge-paid">cash €10.00<' in english
    assert "10,00\xa0€ à payer" in french
    assert "€10.00 due" in row


def test_no_fee_no_amount_due(client, director, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee=None)
    client.force_login(director)
    html = client.get(reverse("entries:director_check_in", args=ARGS)).content.decode()
    assert " due</span>" not in html
