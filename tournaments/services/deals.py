"""Entering, correcting and removing a match's deals, and closing a match: the engine decides, we store."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import (
    InvalidDeal,
    InvalidMatch,
    MatchReplay,
    codec,
    parse_rules,
    play_match,
    validate_deal,
)

from ..changes import changing
from ..errors import Conflict, DealChanged, DealNumberTaken, DealRefused, MatchOver
from ..models import Deal, DealAudit, Match, MatchEvent, Submission
from ..permissions import (
    actor_user,
    deal_removal_refusal,
    require_deal_writer,
    require_director,
    results_final_refusal,
)
from .confirmations import forget_confirmations

__all__ = [
    "close_match",
    "correct_deal",
    "enter_deal",
    "remove_deal",
    "remove_last_deal",
    "reopen_match",
    "replay",
    "replay_and_store",
    "store_replay",
    "submission_of",
]

MAX_KEY_LENGTH = 100


def replay(match: Match) -> MatchReplay:
    """The engine's replay of the stored deals (read-only), under the match's own rules."""
    entries = list(match.deals.order_by("number").values_list("entry", flat=True))
    return play_match(match.rules or None, match.first_dealer, entries)


def enter_deal(
    match: Match,
    entry: Mapping[str, Any],
    *,
    by: Any,
    submission_key: str | None = None,
    expected_number: int | None = None,
) -> Deal:
    """Add the next deal of `match`; the same `submission_key` returns the same deal.

    `expected_number` is the deal the referee meant to enter (a phone sending entries kept
    while it was offline): if another deal took that number meanwhile, the entry is refused
    as a conflict instead of being stored one deal later.
    """

    def act(locked: Match, deals: list[Deal]) -> int:
        rules = _rules(locked)
        canonical = _canonical(entry, rules)
        entries = [d.entry for d in deals]
        number = len(deals) + 1
        if expected_number is not None and expected_number != number:
            raise DealNumberTaken(
                ngettext(
                    "This entry was meant as deal %(expected)s, but the match has %(count)s "
                    "deal now (entered meanwhile by %(by)s): check it before sending it again.",
                    "This entry was meant as deal %(expected)s, but the match has %(count)s "
                    "deals now (entered meanwhile by %(by)s): check it before sending it again.",
                    len(deals),
                )
                % {
                    "expected": expected_number,
                    "count": len(deals),
                    "by": _last_writer(deals),
                },
                field="number",
            )
        if _replay(locked, entries).over:
            raise MatchOver(_("This match is over: no deal can be added."))
        played = _replay(locked, [*entries, canonical])
        new = Deal(match=locked, number=number, entry=canonical, entered_by=actor_user(by))
        # Inserted with its derived columns: store_replay finds nothing more to write in it.
        new.apply_replay(played.deals[-1])
        new.save(force_insert=True)
        deals.append(new)
        store_replay(locked, deals, played)
        _audit(locked, number, DealAudit.Action.ENTERED, None, canonical, by)
        made.append(new)
        return number

    made: list[Deal] = []  # the deal this call stored; none when the key was used before
    number = _run(match, by, submission_key, "enter", act)
    return made[0] if made else _deal(match, number)


def correct_deal(
    match: Match,
    number: int,
    entry: Mapping[str, Any],
    *,
    by: Any,
    submission_key: str | None = None,
    expected_version: str | None = None,
) -> Deal:
    """Replace deal `number`'s entry and replay the match, so everything after it follows.

    `expected_version` is the `Deal.version` the edit was based on (the API's `If-Match`,
    the page's hidden field): checked under the match's lock, so of two edits of the same
    deal made at once the later is refused (`DealChanged`, with the deal as it stands)
    instead of silently replacing the first.
    """

    def act(locked: Match, deals: list[Deal]) -> int:
        rules = _rules(locked)
        canonical = _canonical(entry, rules)
        target = next((d for d in deals if d.number == number), None)
        if target is None:
            raise Conflict(_("This match has no deal %(number)s.") % {"number": number})
        _check_version(target, expected_version)
        before = target.entry
        entries = [canonical if d.number == number else d.entry for d in deals]
        new_replay = _replay(locked, entries)
        target.entry = canonical
        target.entered_by = actor_user(by)
        target.save(update_fields=["entry", "entered_by", "updated_at"])
        store_replay(locked, deals, new_replay)
        _audit(locked, number, DealAudit.Action.CORRECTED, before, canonical, by)
        made.append(target)
        return number

    made: list[Deal] = []  # the deal this call stored; none when the key was used before
    number = _run(match, by, submission_key, "correct", act)
    return made[0] if made else _deal(match, number)


def remove_last_deal(
    match: Match,
    *,
    by: Any,
    submission_key: str | None = None,
    expected_number: int | None = None,
    expected_version: str | None = None,
) -> int:
    """Remove the match's last deal; returns its number.

    `expected_number` is the deal the caller means to remove (the pages' form and the API
    say which): checked under the match's lock, so two removals sent at once cannot take
    away the deal before it too, nor a page left open remove a deal nobody saw.
    """
    return remove_deal(
        match,
        expected_number,
        by=by,
        submission_key=submission_key,
        last_only=True,
        expected_version=expected_version,
    )


def remove_deal(
    match: Match,
    number: int | None,
    *,
    by: Any,
    submission_key: str | None = None,
    last_only: bool = False,
    expected_version: str | None = None,
) -> int:
    """Remove deal `number` (None: the last); the deals after it move up one number.

    A director removes any deal of any match (a closed round, a finished tournament); the
    match's referee only the last one, as does everyone with `last_only`. The match is
    replayed from the deals left, and the change record makes the standings, ratings and
    season tables follow. `expected_version` as for :func:`correct_deal`.
    """

    def act(locked: Match, deals: list[Deal]) -> int:
        wanted = number if number is not None else (deals[-1].number if deals else 0)
        refusal = deal_removal_refusal(by, locked, wanted, len(deals), last_only=last_only)
        if refusal is not None:
            raise refusal
        target = deals[wanted - 1]
        _check_version(target, expected_version)
        target.delete()
        later = deals[wanted:]
        del deals[wanted - 1]
        # Upwards, one at a time: each number is free when its deal moves into it.
        for deal in later:
            deal.number -= 1
            deal.save(update_fields=["number", "updated_at"])
        store_replay(locked, deals, _replay(locked, [d.entry for d in deals]))
        _audit(locked, wanted, DealAudit.Action.REMOVED, target.entry, None, by)
        return wanted

    return _run(match, by, submission_key, "remove", act)


def _check_version(deal: Deal, expected: str | None) -> None:
    if expected is not None and expected != deal.version:
        raise DealChanged(
            _(
                "Deal %(number)s was changed meanwhile by %(by)s: here it is as it stands now. "
                "Check it before you send your change again."
            )
            % {"number": deal.number, "by": _writer(deal)},
            current=deal,
        )


def _writer(deal: Deal) -> str:
    user = deal.entered_by
    return user.get_username() if user is not None else _("someone else")


def close_match(match: Match, *, by: Any) -> Match:
    """A director closes the match: read-only for its referee until reopened."""
    return _set_closed(match, True, by)


def reopen_match(match: Match, *, by: Any) -> Match:
    return _set_closed(match, False, by)


# --- the shared path of every action --------------------------------------------------------


def _run(
    match: Match,
    by: Any,
    key: str | None,
    action: str,
    act: Callable[[Match, list[Deal]], int],
) -> int:
    if key is not None and (not isinstance(key, str) or not 0 < len(key) <= MAX_KEY_LENGTH):
        raise Conflict(_("The submission key must be 1 to 100 characters."), field="submission_key")
    with changing(match.tournament_id):
        # The lock serialises every writer of this match (referee, director, retries), so
        # deal numbers stay contiguous and a repeated key finds the first one's Submission.
        locked = (
            Match.objects.select_for_update(of=("self",))
            .select_related("tournament", "round")
            .get(pk=match.pk)
        )
        if key:
            done = submission_of(locked, by, key)
            if done is not None:
                if done.action != action:
                    raise Conflict(
                        _("This submission key was already used for another action."),
                        field="submission_key",
                    )
                _refresh(match, locked)
                return int(done.deal_number or 0)
        require_deal_writer(by, locked)
        if locked.is_bye:
            raise Conflict(_("A bye has no deals."))
        deals = list(locked.deals.order_by("number"))
        number = act(locked, deals)
        # The teams confirmed the sheet as it was: any change of its deals asks them again.
        forget_confirmations(locked, by=by, cause=_cause(action, number))
        if key:
            Submission.objects.create(
                key=key, match=locked, user=actor_user(by), action=action, deal_number=number
            )
    _refresh(match, locked)
    return number


def _cause(action: str, number: int) -> str:
    causes = {
        "enter": _("deal %(number)s entered"),
        "correct": _("deal %(number)s corrected"),
        "remove": _("deal %(number)s removed"),
    }
    return causes[action] % {"number": number}


def _last_writer(deals: list[Deal]) -> str:
    user = deals[-1].entered_by if deals else None
    return user.get_username() if user is not None else _("someone else")


def submission_of(match: Match, by: Any, key: str) -> Submission | None:
    """The submission `by` made with `key` on `match`: keys are scoped by match and user."""
    return Submission.objects.filter(match=match, user=actor_user(by), key=key).first()


def _deal(match: Match, number: int) -> Deal:
    deal = Deal.objects.filter(match_id=match.pk, number=number).first()
    if deal is None:
        # A repeated key whose deal was removed since: nothing to show, nothing to redo.
        raise Conflict(_("Deal %(number)s has been removed since.") % {"number": number})
    return deal


def _rules(match: Match) -> Any:
    """The tournament's house rules, with `draws: play_on` in a knockout round (Match.rules)."""
    try:
        return parse_rules(match.rules or None)
    except InvalidDeal as invalid:
        raise DealRefused(invalid.problems) from None


def _canonical(entry: Mapping[str, Any], rules: Any) -> dict[str, Any]:
    """The entry as the engine reads it back: what we store never depends on how it was typed."""
    problems = validate_deal(entry, rules)
    if problems:
        raise DealRefused(problems)
    return codec.deal_to_json(codec.parse_deal(entry, rules))


def _replay(match: Match, entries: list[Any]) -> MatchReplay:
    try:
        return play_match(_rules(match), match.first_dealer, entries)
    except InvalidMatch as invalid:
        # Typically a correction that ends the match earlier, leaving deals after its end.
        raise DealRefused(invalid.problems) from None


def replay_and_store(match: Match) -> MatchReplay:
    """Replay a match (locked by the caller) from its deals and store every derived column."""
    deals = list(match.deals.order_by("number"))
    played = _replay(match, [deal.entry for deal in deals])
    store_replay(match, deals, played)
    return played


def store_replay(match: Match, deals: list[Deal], played: MatchReplay) -> None:
    """Write each deal's columns where the replay changed them, then the match's.

    The match's totals and its per-side deal counts (what the standings read) come from
    the same replay, in the same transaction, so they never disagree with the deals.
    """
    for deal, outcome in zip(deals, played.deals, strict=True):
        changed = deal.apply_replay(outcome)
        if changed:
            deal.save(update_fields=[*changed, "updated_at"])
    match.apply_replay(played, deals)
    match.save(update_fields=[*Match.REPLAY_FIELDS, "updated_at"])


def _refresh(match: Match, locked: Match) -> None:
    """Let the caller's match object show what was stored."""
    for name in (*Match.REPLAY_FIELDS, "is_closed"):
        setattr(match, name, getattr(locked, name))


def _audit(match: Match, number: int, action: str, before: Any, after: Any, by: Any) -> None:
    DealAudit.objects.create(
        match=match,
        deal_number=number,
        action=action,
        before=before,
        after=after,
        by=actor_user(by),
    )


def _set_closed(match: Match, closed: bool, by: Any) -> Match:
    require_director(by, match.tournament.club_id)
    with changing(match.tournament_id):
        locked = (
            Match.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .get(pk=match.pk)
        )
        # Closing counts an unfinished match as over (the final, the round): fixed when final.
        if (final := results_final_refusal(locked.tournament)) is not None:
            raise final
        if locked.is_closed != closed:
            locked.is_closed = closed
            locked.save(update_fields=["is_closed", "updated_at"])
            MatchEvent.record(
                tournament=locked.tournament_id,
                match=locked,
                action=MatchEvent.Action.CLOSE_MATCH if closed else MatchEvent.Action.REOPEN_MATCH,
                detail=locked,
                by=by,
            )
    match.is_closed = locked.is_closed
    return locked
