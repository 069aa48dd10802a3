"""Corrections through the API: any deal removed by a director, versions on edits, retried
removals (issue 22 item 6, issue 28 items 9 and 10)."""

from __future__ import annotations

import pytest

from tournaments.models import DealAudit
from tournaments.services import deals as deal_services
from tournaments.services.deals import enter_deal, remove_last_deal

from .conftest import DEDANS, MADE, deals_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_deals(match, referee):  # type: ignore[no-untyped-def]
    match.tournament.rules = {"target": 3000}
    match.tournament.save()
    for entry in (MADE, DEDANS, MADE):
        enter_deal(match, entry, by=referee)
    return match


def numbers_and_takers(match) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    return [(d.number, d.entry["taker"]) for d in match.deals.order_by("number")]


def test_a_director_deletes_any_deal_and_the_later_ones_move_up(director_client, three_deals):
    response = director_client.delete(deals_url(three_deals, 2))
    assert response.status_code == 204
    assert numbers_and_takers(three_deals) == [(1, "N"), (2, "N")]
    three_deals.refresh_from_db()
    assert three_deals.deal_count == 2
    assert DealAudit.objects.filter(match=three_deals, action="removed", deal_number=2).exists()
    listed = director_client.get(deals_url(three_deals)).json()
    assert [d["number"] for d in listed["results"]] == [1, 2]


def test_a_referee_deletes_only_the_last_deal(referee_client, three_deals):
    response = referee_client.delete(deals_url(three_deals, 2))
    assert response.status_code == 409
    assert "number" in response.json()["errors"]
    assert len(numbers_and_takers(three_deals)) == 3
    assert referee_client.delete(deals_url(three_deals, 3)).status_code == 204


def test_a_deal_carries_its_version_as_etag(referee_client, three_deals):
    response = referee_client.get(deals_url(three_deals, 2))
    assert response["ETag"] == f'"{response.json()["version"]}"'


def test_an_edit_based_on_a_replaced_version_answers_412_with_the_deal_as_it_stands(
    referee_client, director_client, three_deals
):
    seen = referee_client.get(deals_url(three_deals, 1))["ETag"]
    # Both read deal 1; the director's edit lands first.
    first = director_client.put(
        deals_url(three_deals, 1), DEDANS, format="json", HTTP_IF_MATCH=seen
    )
    assert first.status_code == 200
    late = {**MADE, "points": {"team": "NS", "cards": 120}}
    second = referee_client.put(deals_url(three_deals, 1), late, format="json", HTTP_IF_MATCH=seen)
    assert second.status_code == 412
    body = second.json()
    assert body["code"] == "deal_changed"
    assert "If-Match" in body["errors"]
    assert body["current"]["entry"]["taker"] == "E"
    assert second["ETag"] == f'"{body["current"]["version"]}"'
    assert three_deals.deals.get(number=1).entry["taker"] == "E"
    # Based on what stands now, the edit goes through.
    again = referee_client.put(
        deals_url(three_deals, 1), late, format="json", HTTP_IF_MATCH=second["ETag"]
    )
    assert again.status_code == 200


def test_a_bare_version_in_if_match_counts_too(referee_client, director_client, three_deals):
    seen = referee_client.get(deals_url(three_deals, 2)).json()["version"]
    director_client.put(deals_url(three_deals, 2), MADE, format="json")
    response = referee_client.put(
        deals_url(three_deals, 2), DEDANS, format="json", HTTP_IF_MATCH=seen
    )
    assert response.status_code == 412


def test_a_removal_based_on_a_replaced_version_answers_412(
    referee_client, director_client, three_deals
):
    seen = referee_client.get(deals_url(three_deals, 3))["ETag"]
    director_client.put(deals_url(three_deals, 3), DEDANS, format="json")
    response = referee_client.delete(deals_url(three_deals, 3), HTTP_IF_MATCH=seen)
    assert response.status_code == 412
    assert len(numbers_and_takers(three_deals)) == 3


def test_a_retried_delete_gets_the_first_answer(referee_client, three_deals):
    first = referee_client.delete(deals_url(three_deals, 3), HTTP_IDEMPOTENCY_KEY="undo-3")
    again = referee_client.delete(deals_url(three_deals, 3), HTTP_IDEMPOTENCY_KEY="undo-3")
    assert (first.status_code, again.status_code) == (204, 204)
    assert len(numbers_and_takers(three_deals)) == 2


def test_a_retried_delete_never_404s_when_the_first_commits_while_it_is_read(
    monkeypatch, referee_client, referee, three_deals
):
    """Issue 28 item 10: the retry looked for the first removal's key before that one
    committed, then for the deal after it had: 404. The first removal is made to commit
    just before the retry's first read (the view's key look-up before the fix, the
    service call after it, which decides everything under the match's lock)."""

    def first_commits(match, key):  # type: ignore[no-untyped-def]
        remove_last_deal(match, by=referee, submission_key=key, expected_number=3)

    def key_read_after_the_first_commits(match, user, key):  # type: ignore[no-untyped-def]
        first_commits(match, key)

    def service_called_after_the_first_commits(match, number, **kwargs):  # type: ignore[no-untyped-def]
        first_commits(match, kwargs["submission_key"])
        return deal_services.remove_deal(match, number, **kwargs)

    monkeypatch.setattr(
        "tournaments.api.deals.submission_of", key_read_after_the_first_commits, raising=False
    )
    monkeypatch.setattr(
        "tournaments.api.deals.remove_deal", service_called_after_the_first_commits, raising=False
    )
    response = referee_client.delete(deals_url(three_deals, 3), HTTP_IDEMPOTENCY_KEY="undo-3")
    assert response.status_code == 204
    assert len(numbers_and_takers(three_deals)) == 2
