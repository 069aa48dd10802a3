"""A tournament's settings — house rules, match points, tie-breaks, format, status — checked once here.

Every way in maps to this module and from its problems: the director's form, the API's
serializer, the model's `clean` (and so the Django admin). A problem has a path: a model
field name, or the engine's `rules.<name>` for a house rule.

What may change when (docs/formats.md, rules.md): match points, tie-breaks, visibility and
status change at any time and only re-rank the standings; the house rules are fixed once
a deal has been scored with them (a site admin may change them all the same: every match
is then re-scored from its deals, and refused if one no longer reads under the new rules);
the format is fixed once rounds exist.

The round-by-round formats (docs/formats.md): a Swiss, a concours or an individual tournament
needs its number of rounds (`round_count`, the API's `rounds`), from 1 and never fewer than
the rounds already drawn, fixed once a knockout final has started; `bye_points` is for those
formats only (empty: the default of `Tournament.bye_points_in_use`); `draw` (random or
ranking) for a concours only, random when not given; the `draw_seed` is a whole number,
fixed once a round is drawn. A change of format takes along what only the old format had:
its number of rounds, its draw, and its default tie-break list if it still had it. An
individual tournament registers players, the others teams: the format cannot cross that
line while any is registered.
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings as django_settings
from django.db.models import Exists, OuterRef
from django.utils.text import slugify
from django.utils.translation import gettext as _

from club.text import hidden_character_problem
from scoring.engine import InvalidMatch, parse_rules, play_match
from scoring.engine.rules import rules_problems
from scoring.translation import problem_message

from ..errors import Conflict, ResultsFinal, ServiceError
from ..models import Bracket, Deal, Entrant, Match, Round, Tournament
from ..models.tournament import DRAW_SEED_LIMIT
from ..standings.criteria import CRITERIA

SETTINGS = (
    "name",
    "slug",
    "starts_on",
    "format",
    "round_count",
    "bye_points",
    "draw",
    "draw_seed",
    "rules",
    "points_win",
    "points_draw",
    "points_loss",
    "tie_breaks",
    "is_public",
    "status",
    "language",
    "correction_minutes",
    "registration",
    "capacity",
    "registration_closes_at",
    "check_in",
    "self_check_in",
    "entry_fee",
    "entry_fee_per",
    "prizes",
)
# What final results (Tournament.results_state) fix: every setting that could change a
# result, a ranking, its place in a season (the date) or the window itself. A director
# reopens the results to change them.
FIXED_WHEN_FINAL = (
    "status",
    "starts_on",
    "format",
    "round_count",
    "bye_points",
    "rules",
    "points_win",
    "points_draw",
    "points_loss",
    "tie_breaks",
    "correction_minutes",
)
# A week: the longest a club would leave results open to corrections.
CORRECTION_MINUTES_MAX = 7 * 24 * 60
MATCH_POINTS_MAX = 100
# A club evening plays a handful of rounds; more than this is a typo.
ROUNDS_MAX = 30
BYE_POINTS_MAX = 100_000
# A club room seats a few hundred at most; a bigger number is a typo.
CAPACITY_MAX = 1000
ENTRY_FEE_MAX = decimal.Decimal("10000")
_SLUG = Tournament._meta.get_field("slug")
SLUG_MAX_LENGTH: int = _SLUG.max_length  # type: ignore[assignment]
_NAME = Tournament._meta.get_field("name")


@dataclass(frozen=True, slots=True)
class SettingProblem:
    """What is wrong with one setting; `locked`: the value is fine, but not now (409)."""

    path: str
    message: str
    locked: bool = False
    # Refused because the results are final (answered 409 `results_final`).
    final: bool = False


class SettingsRefused(ServiceError):
    """Settings with problems; nothing was saved. `problems` name each field."""

    code = "invalid_settings"

    def __init__(self, problems: list[SettingProblem]) -> None:
        self.problems = tuple(problems)
        first = self.problems[0]
        super().__init__("; ".join(p.message for p in self.problems), field=first.path)
        if all(p.locked for p in self.problems):
            self.status, self.code = Conflict.status, "settings_locked"
        if all(p.final for p in self.problems):
            self.code = ResultsFinal.code

    def errors(self) -> dict[str, list[str]]:
        errors: dict[str, list[str]] = {}
        for problem in self.problems:
            errors.setdefault(problem.path, []).append(problem.message)
        return errors

    def renamed(self, names: Mapping[str, str]) -> SettingsRefused:
        """The same problems, each path's first part as a caller names it (`round_count` → `rounds`)."""

        def path(old: str) -> str:
            head, dot, rest = old.partition(".")
            return names.get(head, head) + dot + rest

        return SettingsRefused(
            [SettingProblem(path(p.path), p.message, p.locked, p.final) for p in self.problems]
        )


# Checks of a setting whose reading an app above owns (`prizes`: the prizes app reads its
# table): it registers them from its AppConfig.ready, as tournaments may not import it, and
# they run here with the others, so every way in (form, API, admin) checks the setting once.
# A check returns (path, message) pairs.
SettingCheck = Callable[[Tournament], Iterable[tuple[str, str]]]
_REGISTERED_CHECKS: dict[str, SettingCheck] = {}


def register_setting_check(name: str, check: SettingCheck) -> None:
    """Have `check` run with every settings check (registered again under `name`: replaced)."""
    _REGISTERED_CHECKS[name] = check


def normalise(values: Mapping[str, Any]) -> dict[str, Any]:
    """Values as stored: names trimmed, house rules in the engine's full form where they read."""
    clean = dict(values)
    if isinstance(clean.get("name"), str):
        clean["name"] = " ".join(clean["name"].split())
    if "rules" in clean:
        rules, found = rules_problems(clean["rules"])
        if not found:
            clean["rules"] = rules.to_json()
    return clean


def settings_problems(tournament: Tournament, *, rescore: bool = False) -> list[SettingProblem]:
    """Every problem of the settings as they stand on `tournament` (saved or not).

    `rescore`: a change of house rules after deals is checked by replaying every match
    (a site admin's change) instead of being refused as locked.
    """
    found: list[SettingProblem] = []

    def refuse(path: str, message: str, *, locked: bool = False, final: bool = False) -> None:
        found.append(SettingProblem(path, message, locked or final, final))

    name = tournament.name
    if not isinstance(name, str) or not name.strip():
        refuse("name", _("Give the tournament a name."))
    elif len(name) > _NAME.max_length:  # type: ignore[operator]
        refuse("name", _("A name has at most %(n)d characters.") % {"n": _NAME.max_length})
    elif hidden := hidden_character_problem(name, label=_("The tournament's name")):
        refuse("name", hidden)
    slug = tournament.slug
    if not isinstance(slug, str) or not slug or slugify(slug) != slug:
        refuse("slug", _("An address is made of lowercase letters, digits and hyphens."))
    elif len(slug) > _SLUG.max_length:  # type: ignore[operator]
        refuse("slug", _("An address has at most %(n)d characters.") % {"n": _SLUG.max_length})
    elif (
        tournament.club_id
        and Tournament.objects.filter(club_id=tournament.club_id, slug=slug)
        .exclude(pk=tournament.pk)
        .exists()
    ):
        refuse("slug", _("This club already has a tournament at this address."))
    if not isinstance(tournament.starts_on, datetime.date):
        refuse("starts_on", _("Give the date of the tournament."))
    if tournament.format not in Tournament.Format.values:
        refuse("format", _choice_message(tournament.format, Tournament.Format.values))
    if tournament.status not in Tournament.Status.values:
        refuse("status", _choice_message(tournament.status, Tournament.Status.values))
    if not isinstance(tournament.is_public, bool):
        refuse("is_public", _("Expected true or false."))
    languages = [code for code, _name in django_settings.LANGUAGES]
    if tournament.language not in ("", *languages):
        refuse("language", _choice_message(tournament.language, languages))
    minutes = tournament.correction_minutes
    if not _is_whole(minutes) or not 0 <= minutes <= CORRECTION_MINUTES_MAX:
        refuse(
            "correction_minutes",
            _("The correction window is a whole number of minutes from 0 to %(max)d.")
            % {"max": CORRECTION_MINUTES_MAX},
        )
    rules, rule_problems = rules_problems(tournament.rules)
    for problem in rule_problems:
        refuse(problem.path, problem_message(problem))
    if rules.players != 4:
        refuse("rules.players", _("A tournament match is played by four, in two partnerships."))
    _check_match_points(tournament, refuse)
    _check_tie_breaks(tournament.tie_breaks, refuse)
    _check_round_settings(tournament, refuse)
    _check_evening_settings(tournament, refuse)
    for check in _REGISTERED_CHECKS.values():
        for path, message in check(tournament):
            refuse(path, message)
    if tournament.pk and not found:
        _check_changes_allowed(tournament, rescore, refuse)
    return found


def _choice_message(value: Any, choices: list[str]) -> str:
    return _("“%(value)s” is not a choice: use %(choices)s.") % {
        "value": value,
        "choices": ", ".join(choices),
    }


def _check_match_points(tournament: Tournament, refuse: Any) -> None:
    points = {
        "points_win": tournament.points_win,
        "points_draw": tournament.points_draw,
        "points_loss": tournament.points_loss,
    }
    bad = False
    for path, value in points.items():
        if isinstance(value, bool) or not isinstance(value, int):
            refuse(path, _("Expected a whole number."))
            bad = True
        elif not 0 <= value <= MATCH_POINTS_MAX:
            refuse(path, _("Match points go from 0 to %(n)d.") % {"n": MATCH_POINTS_MAX})
            bad = True
    if not bad and not points["points_win"] >= points["points_draw"] >= points["points_loss"]:
        refuse("points_draw", _("A draw gives at most a win's points and at least a loss's."))


def _check_tie_breaks(tie_breaks: Any, refuse: Any) -> None:
    if not isinstance(tie_breaks, list) or not tie_breaks:
        refuse("tie_breaks", _("Choose at least one tie-break."))
        return
    unknown = [(i, name) for i, name in enumerate(tie_breaks) if name not in CRITERIA]
    for i, name in unknown:
        refuse(
            f"tie_breaks.{i}",
            _("Unknown tie-break “%(name)s”; choose from %(choices)s.")
            % {"name": name, "choices": ", ".join(CRITERIA)},
        )
    if not unknown and len(set(tie_breaks)) != len(tie_breaks):
        refuse("tie_breaks", _("A tie-break may appear only once."))


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_round_settings(tournament: Tournament, refuse: Any) -> None:
    round_by_round = tournament.format in Tournament.ROUND_BY_ROUND
    rounds = tournament.round_count
    if not round_by_round:
        if rounds is not None:
            refuse(
                "round_count",
                _(
                    "Only a Swiss, a concours or an individual tournament is given a number of rounds; a round robin has one round per opponent."
                ),
            )
    elif rounds is None:
        refuse(
            "round_count",
            _("Say how many rounds a Swiss, a concours or an individual tournament plays."),
        )
    elif not _is_whole(rounds):
        refuse("round_count", _("Expected a whole number."))
    elif not 1 <= rounds <= ROUNDS_MAX:
        refuse("round_count", _("A tournament plays from 1 to %(n)d rounds.") % {"n": ROUNDS_MAX})
    bye_points = tournament.bye_points
    if bye_points is not None:
        if not round_by_round:
            refuse(
                "bye_points",
                _(
                    "Only a Swiss, a concours or an individual tournament scores a bye; in a round robin a bye counts nothing."
                ),
            )
        elif not _is_whole(bye_points):
            refuse("bye_points", _("Expected a whole number."))
        elif not 0 <= bye_points <= BYE_POINTS_MAX:
            refuse(
                "bye_points",
                _("A bye scores from 0 to %(n)d points.") % {"n": BYE_POINTS_MAX},
            )
    draw = tournament.draw
    if tournament.format == Tournament.Format.CONCOURS:
        if draw not in Tournament.Draw.values:
            refuse("draw", _choice_message(draw, Tournament.Draw.values))
    elif draw:
        refuse("draw", _("Only a concours is drawn at random or by ranking."))
    seed = tournament.draw_seed
    if not _is_whole(seed) or not 0 <= seed < DRAW_SEED_LIMIT:
        refuse(
            "draw_seed",
            _("A draw seed is a whole number from 0 to %(n)d.") % {"n": DRAW_SEED_LIMIT - 1},
        )


def _check_evening_settings(tournament: Tournament, refuse: Any) -> None:
    """Online registration, check-in and the entry fee (docs/director.md)."""
    for name, choices in (
        ("registration", Tournament.RegistrationMode.values),
        ("check_in", Tournament.CheckIn.values),
        ("entry_fee_per", Tournament.FeePer.values),
    ):
        if getattr(tournament, name) not in choices:
            refuse(name, _choice_message(getattr(tournament, name), choices))
    if not isinstance(tournament.self_check_in, bool):
        refuse("self_check_in", _("Expected true or false."))
    capacity = tournament.capacity
    if capacity is not None:
        if not _is_whole(capacity):
            refuse("capacity", _("Expected a whole number."))
        elif not 2 <= capacity <= CAPACITY_MAX:
            refuse(
                "capacity",
                _("A capacity goes from 2 to %(n)d (empty: no limit).") % {"n": CAPACITY_MAX},
            )
    closes_at = tournament.registration_closes_at
    if closes_at is not None and (
        not isinstance(closes_at, datetime.datetime) or closes_at.tzinfo is None
    ):
        refuse("registration_closes_at", _("Give a date and a time."))
    fee = tournament.entry_fee
    if fee is not None:
        if isinstance(fee, bool) or not isinstance(fee, int | decimal.Decimal):
            refuse("entry_fee", _("Expected an amount, such as 5 or 7.50."))
        elif not 0 <= fee <= ENTRY_FEE_MAX or decimal.Decimal(fee) != round(
            decimal.Decimal(fee), 2
        ):
            refuse(
                "entry_fee",
                _("An entry fee goes from 0 to %(n)s, in cents at most.") % {"n": ENTRY_FEE_MAX},
            )


def _check_changes_allowed(tournament: Tournament, rescore: bool, refuse: Any) -> None:
    row = Tournament.objects.filter(pk=tournament.pk).first()
    if row is None:
        return
    if row.results_are_final():
        changed = [
            name for name in FIXED_WHEN_FINAL if getattr(row, name) != getattr(tournament, name)
        ]
        for name in changed:
            refuse(
                name,
                _(
                    "The results of this tournament are final: a director reopens them "
                    "(with a reason) before this can change."
                ),
                final=True,
            )
        if changed:
            return
    stored = {
        "rules": row.rules,
        "format": row.format,
        "round_count": row.round_count,
        "draw_seed": row.draw_seed,
    }
    if stored["format"] != tournament.format and tournament.rounds.exists():
        refuse(
            "format",
            _("Rounds have been drawn: the format can no longer change."),
            locked=True,
        )
    elif stored["format"] != tournament.format:
        _check_entrants_fit_format(tournament, stored["format"], refuse)
    if stored["draw_seed"] != tournament.draw_seed and tournament.rounds.exists():
        refuse(
            "draw_seed",
            _("Rounds have been drawn: the draw seed can no longer change."),
            locked=True,
        )
    if stored["round_count"] != tournament.round_count and tournament.round_count is not None:
        _check_round_count_change(tournament, refuse)
    if parse_rules(stored["rules"] or None) == parse_rules(tournament.rules or None):
        return
    if not tournament.has_deals():
        return
    if not rescore:
        refuse(
            "rules",
            _("Deals have been entered: the house rules can no longer change."),
            locked=True,
        )
        return
    for match, problem in _replay_problems(tournament):
        refuse(
            "rules",
            _("Under these rules, table %(table)s of round %(round)s no longer reads: %(problem)s")
            % {"table": match.table, "round": match.round.number, "problem": problem},
        )


def _check_entrants_fit_format(tournament: Tournament, old_format: str, refuse: Any) -> None:
    """Players registered alone stay in an individual tournament, teams in the others."""
    individual = Tournament.Format.INDIVIDUAL
    to_individual = old_format != individual and tournament.format == individual
    from_individual = old_format == individual and tournament.format != individual
    if to_individual and tournament.teams.exists():
        refuse(
            "format",
            _(
                "Teams are registered: an individual tournament registers players alone. Delete the teams first."
            ),
            locked=True,
        )
    if from_individual and Entrant.objects.filter(tournament_id=tournament.pk).exists():
        refuse(
            "format",
            _(
                "Players are registered alone: this format registers teams. Delete the players first."
            ),
            locked=True,
        )


def _check_round_count_change(tournament: Tournament, refuse: Any) -> None:
    if Bracket.objects.filter(tournament_id=tournament.pk).exists():
        refuse(
            "round_count",
            _("The knockout final has started: the number of rounds can no longer change."),
            locked=True,
        )
        return
    drawn = tournament.rounds.filter(stage=Round.Stage.QUALIFYING).count()
    if tournament.round_count < drawn:  # type: ignore[operator]
        refuse(
            "round_count",
            _("%(n)d rounds have been drawn: the tournament plays at least as many.")
            % {"n": drawn},
            locked=True,
        )


def matches_with_deals(tournament: Tournament) -> Any:
    has_deals = Exists(Deal.objects.filter(match=OuterRef("pk")))
    return Match.objects.filter(tournament_id=tournament.pk).filter(has_deals)


def _replay_problems(tournament: Tournament) -> list[tuple[Match, str]]:
    """Each match that cannot be replayed under the tournament's (new) rules, and why."""
    found = []
    for match in matches_with_deals(tournament).select_related("round"):
        entries = list(match.deals.order_by("number").values_list("entry", flat=True))
        try:
            # A knockout match replays under its own rules (draws: play_on) over the new ones.
            rules = parse_rules(tournament.match_rules(match.round) or None)
            play_match(rules, match.first_dealer, entries)
        except InvalidMatch as invalid:
            found.append((match, problem_message(invalid.problems[0])))
    return found


def settings_errors(tournament: Tournament) -> dict[str, list[str]]:
    """The problems keyed by model field (`rules.target` under `rules`), for the model's clean.

    The model is cleaned by the Django admin, a site admin's tool: rules changed after deals
    are checked by replaying the matches, and the save re-scores them (admin.py).
    """
    errors: dict[str, list[str]] = {}
    for problem in settings_problems(tournament, rescore=True):
        field, _dot, rule = problem.path.partition(".")
        message = f"{rule}: {problem.message}" if field == "rules" and rule else problem.message
        errors.setdefault(field, []).append(message)
    return errors
