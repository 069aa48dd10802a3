"""The deals of a match through the API: entry, correction, removal, refusals, idempotency."""

from __future__ import annotations

import pytest

from scoring.engine import codec, validate_deal
from tournaments.models import DealAudit

from .conftest import DEDANS, MADE, client_for, deals_url

pytestmark = pytest.mark.django_db


def test_the_matchs_referee_enters_a_deal_and_gets_entry_and_result(referee_client, match):
    response = referee_client.post(deals_url(match), MADE, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 1
    assert body["dealer"] == "N"
    assert body["entry"]["taker"] == "N"
    assert body["result"]["outcome"] == "made"
    assert body["result"]["score"] == {"NS": 98, "EW": 64}
    assert body["entered_by"] == "referee"
    match.refresh_from_db()
    assert (match.deal_count, match.ns_total, match.ew_total) == (1, 98, 64)


def test_everyone_reads_the_deals_of_a_public_match(
    referee_client, anonymous_client, other_referee_client, match
):
    referee_client.post(deals_url(match), MADE, format="json")
    for client in (anonymous_client, other_referee_client, referee_client):
        listing = client.get(deals_url(match))
        assert listing.status_code == 200
        assert [d["number"] for d in listing.json()["results"]] == [1]
        assert client.get(deals_url(match, 1)).json()["result"]["outcome"] == "made"
    assert anonymous_client.get(deals_url(match, 2)).status_code == 404


def test_it_rejects_a_deal_from_another_tables_referee(other_referee_client, match):
    response = other_referee_client.post(deals_url(match), MADE, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert response.json()["errors"]["detail"]
    assert match.deals.count() == 0


def test_it_rejects_an_invalid_deal_from_another_tables_referee_with_403_not_400(
    other_referee_client, match
):
    response = other_referee_client.post(deals_url(match), {"taker": "X"}, format="json")
    assert response.status_code == 403


def test_anonymous_users_cannot_enter_deals(anonymous_client, match):
    response = anonymous_client.post(deals_url(match), MADE, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Token realm="api"'
    assert response.json()["code"] == "not_authenticated"


def test_a_director_enters_a_deal_at_any_table(director_client, match):
    assert director_client.post(deals_url(match), MADE, format="json").status_code == 201


def test_a_refused_deal_answers_the_engines_paths_and_messages(referee_client, match):
    entry = {"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 170}}
    response = referee_client.post(deals_url(match), entry, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["errors"] == codec.errors_to_json(validate_deal(entry, None))["errors"]
    assert "points.cards" in body["errors"]
    assert body["code"] == "invalid_deal"


@pytest.mark.parametrize("body", ["null", "[1, 2]", '"deal"', "3", "{}"])
def test_a_deal_that_is_not_an_object_is_refused_like_the_cli_refuses_it(
    referee_client, match, body
):
    response = referee_client.post(deals_url(match), body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"]


def test_the_same_idempotency_key_enters_the_deal_once(referee_client, match):
    first = referee_client.post(
        deals_url(match), MADE, format="json", HTTP_IDEMPOTENCY_KEY="tablet-1-deal-1"
    )
    again = referee_client.post(
        deals_url(match), MADE, format="json", HTTP_IDEMPOTENCY_KEY="tablet-1-deal-1"
    )
    assert first.status_code == 201 and again.status_code in (200, 201)
    assert again.json()["number"] == 1
    assert match.deals.count() == 1


def test_another_referees_key_on_another_match_is_their_own_first_submission(
    referee_client, other_referee_client, match, other_match
):
    mine = referee_client.post(deals_url(match), MADE, format="json", HTTP_IDEMPOTENCY_KEY="1")
    theirs = other_referee_client.post(
        deals_url(other_match), DEDANS, format="json", HTTP_IDEMPOTENCY_KEY="1"
    )
    assert (mine.status_code, theirs.status_code) == (201, 201)
    assert theirs.json()["entry"]["taker"] == "E"
    assert (match.deals.count(), other_match.deals.count()) == (1, 1)


def test_a_key_is_scoped_by_match_and_by_user(
    referee_client, director_client, match, other_match, referee
):
    other_match.referee = referee
    other_match.save(update_fields=["referee"])
    post = lambda client, m: client.post(  # noqa: E731
        deals_url(m), MADE, format="json", HTTP_IDEMPOTENCY_KEY="deal-1"
    )
    assert post(referee_client, match).status_code == 201
    assert post(referee_client, other_match).status_code == 201  # same user, another match
    assert post(director_client, match).status_code == 201  # same match, another user
    assert post(referee_client, match).json()["number"] == 1  # the referee's own retry
    assert (match.deals.count(), other_match.deals.count()) == (2, 1)


def test_a_key_used_for_an_entry_cannot_be_used_to_remove(referee_client, match):
    referee_client.post(deals_url(match), MADE, format="json", HTTP_IDEMPOTENCY_KEY="k")
    refused = referee_client.delete(deals_url(match, 1), HTTP_IDEMPOTENCY_KEY="k")
    assert refused.status_code == 409
    assert match.deals.count() == 1


def test_the_referee_corrects_a_deal_and_the_match_follows(referee_client, match):
    referee_client.post(deals_url(match), MADE, format="json")
    response = referee_client.put(deals_url(match, 1), DEDANS, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["entry"]["taker"] == "E"
    match.refresh_from_db()
    assert match.deal_count == 1
    assert DealAudit.objects.filter(match=match, action="corrected").count() == 1


def test_correcting_a_deal_that_does_not_exist_is_404(referee_client, match):
    assert referee_client.put(deals_url(match, 3), MADE, format="json").status_code == 404


def test_the_referee_removes_only_the_last_deal(referee_client, match):
    referee_client.post(deals_url(match), MADE, format="json")
    referee_client.post(deals_url(match), DEDANS, format="json")
    refused = referee_client.delete(deals_url(match, 1))
    assert refused.status_code == 409
    assert "number" in refused.json()["errors"]
    assert referee_client.delete(deals_url(match, 2)).status_code == 204
    assert list(match.deals.values_list("number", flat=True)) == [1]


def test_another_referee_cannot_correct_or_remove(referee_client, other_referee_client, match):
    referee_client.post(deals_url(match), MADE, format="json")
    assert other_referee_client.put(deals_url(match, 1), DEDANS, format="json").status_code == 403
    assert other_referee_client.delete(deals_url(match, 1)).status_code == 403


def test_a_closed_match_refuses_its_referee_with_409(referee_client, director_client, match):
    referee_client.post(deals_url(match), MADE, format="json")
    assert director_client.post(f"/api/v1/matches/{match.pk}/close/").status_code == 200
    response = referee_client.post(deals_url(match), MADE, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "match_closed"
    assert director_client.post(f"/api/v1/matches/{match.pk}/reopen/").status_code == 200
    assert referee_client.post(deals_url(match), MADE, format="json").status_code == 201


def test_a_finished_match_refuses_another_deal_with_409(referee, match):
    match.tournament.rules = {"max_deals": 1}
    match.tournament.save()
    client = client_for(referee)
    assert client.post(deals_url(match), MADE, format="json").status_code == 201
    response = client.post(deals_url(match), MADE, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "match_over"


def test_deals_of_an_unknown_match_are_404(referee_client):
    assert referee_client.get("/api/v1/matches/999999/deals/").status_code == 404
    assert (
        referee_client.post("/api/v1/matches/999999/deals/", MADE, format="json").status_code == 404
    )


def test_the_deals_list_answers_304_until_a_deal_changes(referee_client, anonymous_client, match):
    referee_client.post(deals_url(match), MADE, format="json")
    first = anonymous_client.get(deals_url(match))
    etag = first["ETag"]
    assert anonymous_client.get(deals_url(match), HTTP_IF_NONE_MATCH=etag).status_code == 304
    referee_client.put(deals_url(match, 1), DEDANS, format="json")
    fresh = anonymous_client.get(deals_url(match), HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert fresh.json()["results"][0]["entry"]["taker"] == "E"
    referee_client.post(deals_url(match), MADE, format="json")
    assert anonymous_client.get(deals_url(match)).json()["count"] == 2


def test_a_repeated_removal_with_the_same_key_removes_one_deal(referee_client, match):
    referee_client.post(deals_url(match), MADE, format="json")
    referee_client.post(deals_url(match), DEDANS, format="json")
    first = referee_client.delete(deals_url(match, 2), HTTP_IDEMPOTENCY_KEY="remove-2")
    again = referee_client.delete(deals_url(match, 2), HTTP_IDEMPOTENCY_KEY="remove-2")
    assert (first.status_code, again.status_code) == (204, 204)
    assert list(match.deals.values_list("number", flat=True)) == [1]
