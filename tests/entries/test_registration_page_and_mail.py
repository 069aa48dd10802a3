"""Online registration reaches people: not offered while the tournament is a draft (nobody but
its directors could open the page), and an entry with an e-mail is confirmed by mail."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from club.models import Membership
from entries import selectors as evening
from entries.models import Registration
from entries.services.online import cancel_registration, register_online
from tests.factories import ClubFactory, TournamentFactory, make_staff
from tournaments.errors import RegistrationClosed
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():  # type: ignore[no-untyped-def]
    return ClubFactory(slug="lyon")


@pytest.fixture
def director(club):  # type: ignore[no-untyped-def]
    return make_staff(club, Membership.Role.DIRECTOR, "director")


def tournament_of(club, **kwargs):  # type: ignore[no-untyped-def]
    kwargs.setdefault("registration", Tournament.RegistrationMode.OPEN)
    kwargs.setdefault("status", Tournament.Status.OPEN)
    kwargs.setdefault("slug", "jeudi")
    return TournamentFactory(club=club, name="Jeudi", **kwargs)


# --- a draft takes no registration ---------------------------------------------------------


def test_a_draft_with_registration_open_refuses_and_says_to_publish_it(club):
    draft = tournament_of(club, status=Tournament.Status.DRAFT)
    refusal = evening.registration_refusal(draft)
    assert isinstance(refusal, RegistrationClosed)
    assert "draft" in refusal.message and "open for registration" in refusal.message
    with pytest.raises(RegistrationClosed):
        register_online(draft, by=None, players=["Marie Dupont", "Luc Martin"])
    assert not Registration.objects.exists()


def test_the_directors_page_of_a_draft_says_so_instead_of_the_link(client, club, director):
    draft = tournament_of(club, status=Tournament.Status.DRAFT)
    client.force_login(director)
    page = client.get(f"/direct/{club.slug}/{draft.slug}/registrations/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "seen by its directors only" in html
    assert "anyone registers from the tournament" not in html
    assert f"http://testserver/clubs/{club.slug}/{draft.slug}/register/" not in html


def test_once_open_for_registration_the_director_gets_the_link_and_anyone_registers(
    client, club, director
):
    tournament = tournament_of(club, status=Tournament.Status.OPEN)
    client.force_login(director)
    html = client.get(f"/direct/{club.slug}/{tournament.slug}/registrations/").content.decode()
    assert "anyone registers from the tournament" in html
    client.logout()
    assert client.get(f"/clubs/{club.slug}/{tournament.slug}/register/").status_code == 200


# --- the e-mail ----------------------------------------------------------------------------


def test_an_entry_with_an_e_mail_gets_its_link_and_status_after_commit(
    club, django_capture_on_commit_callbacks, settings
):
    settings.DEFAULT_FROM_EMAIL = "club@example.org"
    tournament = tournament_of(club)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        entry = register_online(
            tournament,
            by=None,
            players=["Marie Dupont", "Luc Martin"],
            email="marie@example.org",
            link=lambda path: f"https://belote.example{path}",
        )
    assert mail.outbox == []  # nothing before the entry is stored
    for callback in callbacks:
        callback()
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["marie@example.org"]
    assert sent.from_email == "club@example.org"
    assert "Jeudi" in sent.subject
    assert f"https://belote.example/clubs/lyon/jeudi/register/{entry.key}/" in sent.body
    assert "registered" in sent.body and "waiting list" not in sent.body


def test_a_waiting_entry_is_told_its_number_in_the_list(club, django_capture_on_commit_callbacks):
    tournament = tournament_of(club, capacity=1)
    register_online(tournament, by=None, players=["Anne Roux", "Paul Roux"])
    with django_capture_on_commit_callbacks(execute=True):
        entry = register_online(
            tournament, by=None, players=["Jean Petit", "Eva Petit"], email="jean@example.org"
        )
    assert entry.status == Registration.Status.WAITING
    [sent] = mail.outbox
    assert "waiting list" in sent.body and "number 1" in sent.body
    assert f"/clubs/lyon/jeudi/register/{entry.key}/" in sent.body


def test_no_e_mail_no_mail_and_a_refused_entry_sends_nothing(
    club, director, django_capture_on_commit_callbacks
):
    tournament = tournament_of(club)
    with django_capture_on_commit_callbacks(execute=True):
        entry = register_online(tournament, by=None, players=["Anne Roux", "Paul Roux"])
        with pytest.raises(RegistrationClosed):
            register_online(
                tournament_of(club, registration=Tournament.RegistrationMode.CLOSED, slug="x"),
                by=None,
                players=["Jean Petit", "Eva Petit"],
                email="jean@example.org",
            )
        cancel_registration(entry, by=director)
    assert mail.outbox == []


def test_the_mail_speaks_the_registrants_language(club, django_capture_on_commit_callbacks):
    tournament = tournament_of(club)
    with translation.override("fr"), django_capture_on_commit_callbacks(execute=True):
        register_online(
            tournament, by=None, players=["Marie Dupont", "Luc Martin"], email="m@example.org"
        )
    [sent] = mail.outbox
    # Worded while the registrant's language was active (the catalogue may lack the new
    # message: then English, but the date is French either way).
    assert "novembre" in sent.body


def test_a_mail_server_that_fails_does_not_undo_the_entry(
    club, django_capture_on_commit_callbacks, settings
):
    settings.EMAIL_BACKEND = "tests.entries.test_registration_page_and_mail.FailingBackend"
    tournament = tournament_of(club)
    with django_capture_on_commit_callbacks(execute=True):
        entry = register_online(
            tournament, by=None, players=["Marie Dupont", "Luc Martin"], email="m@example.org"
        )
    assert Registration.objects.get(pk=entry.pk).status == Registration.Status.REGISTERED


class FailingBackend:
    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        pass

    def send_messages(self, messages):  # type: ignore[no-untyped-def]
        raise OSError("connection refused")


def test_the_page_and_the_api_mail_the_entrys_whole_address(
    club, client, django_capture_on_commit_callbacks
):
    tournament = tournament_of(club)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            f"/api/v1/tournaments/{tournament.pk}/registrations/",
            {"players": ["Marie Dupont", "Luc Martin"], "email": "marie@example.org"},
            content_type="application/json",
        )
    assert answer.status_code == 201, answer.content
    [sent] = mail.outbox
    key = answer.json()["key"]
    assert f"http://testserver/clubs/lyon/jeudi/register/{key}/" in sent.body


# --- a place freed: the waiting entry is told ------------------------------------------------


def _waiting(tournament, names, email, language):  # type: ignore[no-untyped-def]
    with translation.override(language):
        return register_online(tournament, by=None, players=names, email=email)


def test_a_cancellation_mails_the_first_waiter_in_their_language_with_their_link(
    club, director, django_capture_on_commit_callbacks, settings
):
    settings.BELOTE_SITE_URL = "https://belote.example"
    tournament = tournament_of(club, capacity=1)
    first = register_online(tournament, by=None, players=["Anne Roux", "Paul Roux"])
    waiter = _waiting(tournament, ["Jean Petit", "Eva Petit"], "jean@example.org", "fr")
    _waiting(tournament, ["Léa Blanc", "Marc Blanc"], "lea@example.org", "nl")
    assert waiter.language == "fr"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        cancel_registration(first, by=director)
    assert mail.outbox == []  # nothing before the cancellation is stored
    for callback in callbacks:
        callback()
    [sent] = mail.outbox
    assert sent.to == ["jean@example.org"]
    assert sent.subject == "Une place pour vous à Jeudi"
    assert "une place s’est libérée" in sent.body
    assert f"https://belote.example/clubs/lyon/jeudi/register/{waiter.key}/" in sent.body


def test_raising_the_capacity_by_two_moves_two_up_and_mails_both(
    club, director, django_capture_on_commit_callbacks
):
    from tournaments.services.settings import update_tournament

    tournament = tournament_of(club, capacity=1)
    register_online(tournament, by=None, players=["Anne Roux", "Paul Roux"])
    jean = _waiting(tournament, ["Jean Petit", "Eva Petit"], "jean@example.org", "fi")
    lea = _waiting(tournament, ["Léa Blanc", "Marc Blanc"], "lea@example.org", "nl")
    _waiting(tournament, ["Tom Noir", "Ida Noir"], "tom@example.org", "en")
    with django_capture_on_commit_callbacks(execute=True):
        update_tournament(tournament, by=director, capacity=3)
    assert [r.status for r in Registration.objects.order_by("pk")] == [
        "registered",
        "registered",
        "registered",
        "waiting",
    ]
    by_address = {sent.to[0]: sent for sent in mail.outbox}
    assert sorted(by_address) == ["jean@example.org", "lea@example.org"]
    assert by_address["jean@example.org"].subject == "Paikka sinulle: Jeudi"
    assert by_address["lea@example.org"].subject == "Een plaats voor u bij Jeudi"
    assert f"http://localhost:8000/clubs/lyon/jeudi/register/{jean.key}/" in (
        by_address["jean@example.org"].body
    )
    assert f"/clubs/lyon/jeudi/register/{lea.key}/" in by_address["lea@example.org"].body


def test_a_waiter_without_an_e_mail_moves_up_without_a_mail(
    club, director, django_capture_on_commit_callbacks
):
    tournament = tournament_of(club, capacity=1)
    first = register_online(tournament, by=None, players=["Anne Roux", "Paul Roux"])
    waiter = register_online(tournament, by=None, players=["Jean Petit", "Eva Petit"])
    with django_capture_on_commit_callbacks(execute=True):
        moved = cancel_registration(first, by=director)
    assert moved == [waiter]
    assert mail.outbox == []


def test_the_entrys_page_cancelling_mails_the_waiter_the_whole_address(
    club, client, django_capture_on_commit_callbacks
):
    tournament = tournament_of(club, capacity=1)
    first = register_online(tournament, by=None, players=["Anne Roux", "Paul Roux"])
    waiter = _waiting(tournament, ["Jean Petit", "Eva Petit"], "jean@example.org", "en")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/clubs/lyon/jeudi/register/{first.key}/")
    [sent] = mail.outbox
    assert sent.subject == "A place for you at Jeudi"
    assert f"http://testserver/clubs/lyon/jeudi/register/{waiter.key}/" in sent.body
