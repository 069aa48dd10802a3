"""Django forms that adapt the scoring engine: the referee's deal form."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine import Problem, Rank, Rules, Seat, Suit, Team, parse_rules, validate_deal
from scoring.engine.cards import DEAL_VALUE
from scoring.engine.declarations import FOUR_POINTS, SEQUENCE_POINTS
from scoring.translation import (
    SUIT_NAMES,
    problem_message,
    seat_abbreviation,
    side_abbreviation,
)

ALL_PASSED = "pass"  # the taker choice of a thrown-in deal; the entry says `taker: null`
DECLARATION_SLOTS = 4  # per team: more than four declarations of one team cannot fit in 16 cards
TEAMS = (Team.NS, Team.EW)

RANK_NAMES = {
    Rank.SEVEN: _("7"),
    Rank.EIGHT: _("8"),
    Rank.NINE: _("9"),
    Rank.TEN: _("10"),
    Rank.JACK: _("jack"),
    Rank.QUEEN: _("queen"),
    Rank.KING: _("king"),
    Rank.ACE: _("ace"),
}
# The letter on the card, as each language prints it (V/D/R in French, B/V/H in Dutch).
RANK_SHORT = {
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.JACK: pgettext_lazy("card letter of the jack", "J"),
    Rank.QUEEN: pgettext_lazy("card letter of the queen", "Q"),
    Rank.KING: pgettext_lazy("card letter of the king", "K"),
    Rank.ACE: pgettext_lazy("card letter of the ace", "A"),
}
SEQUENCE_NAMES = {3: _("tierce"), 4: _("fifty"), 5: _("hundred")}
FOUR_NAMES = {
    Rank.JACK: _("four jacks"),
    Rank.NINE: _("four nines"),
    Rank.ACE: _("four aces"),
    Rank.TEN: _("four tens"),
    Rank.KING: _("four kings"),
    Rank.QUEEN: _("four queens"),
}


def _sequence_label(length: int) -> str:
    name = SEQUENCE_NAMES.get(length)
    if name:
        return gettext("%(name)s (sequence of %(length)s)") % {"name": name, "length": length}
    return gettext("sequence of %(length)s") % {"length": length}


def declaration_kinds() -> list[tuple[str, Any]]:
    """`seq3`…`seq8` and `four<rank>`, straight from the engine's declaration tables."""
    kinds: list[tuple[str, Any]] = [("", _("—"))]
    kinds += [(f"seq{n}", _sequence_label(n)) for n in SEQUENCE_POINTS]
    kinds += [(f"four{r.value}", FOUR_NAMES.get(r, r.value)) for r in FOUR_POINTS]
    return kinds


# Where each engine path is shown. Declaration paths `declarations.<team>.<i>[.<part>]` go
# to the slot that produced entry i; see `_field_of`.
FIELD_OF_PATH = {
    "taker": "taker",
    "trump": "trump",
    "points": "cards",
    "points.team": "points_team",
    "points.cards": "cards",
    "capot": "capot",
    "belote": "belote",
}
DECLARATION_PART_FIELD = {"top": "top", "suit": "suit"}  # anything else: the kind select
_DECLARATION_PATH = re.compile(r"^declarations\.(NS|EW)\.(\d+)(?:\.(\w+))?$")


def _team_choices(team_names: Mapping[str, str] | None) -> list[tuple[str, str]]:
    names = team_names or {}
    return [
        (
            t.value,
            f"{side_abbreviation(t)} · {names[t.value]}"
            if t.value in names
            else side_abbreviation(t),
        )
        for t in TEAMS
    ]


def _slot_in_use(row: Mapping[str, Any]) -> bool:
    return bool(
        row["kind"].value() or row["kind"].errors or row["top"].errors or row["suit"].errors
    )


class DealForm(forms.Form):
    """One deal as the referee types it; `clean()` builds the §8 entry and lets the engine judge it.

    `seats` maps each seat code to the player's name; `team_names` maps NS/EW to team names.
    """

    # Required so that a forgotten taker is not read as "all passed": that must be chosen.
    taker = forms.ChoiceField(
        label=_("Taker"),
        widget=forms.RadioSelect,
        choices=(),
        error_messages={"required": _("Choose the taker, or “All passed”.")},
    )
    trump = forms.ChoiceField(
        label=_("Trump"),
        required=False,
        widget=forms.RadioSelect,
        choices=[(s.value, SUIT_NAMES[s]) for s in Suit],
    )
    points_team = forms.ChoiceField(
        label=_("Card points of"),
        required=False,
        widget=forms.RadioSelect,
        initial=Team.NS.value,
        choices=(),
    )
    cards = forms.IntegerField(
        label=_("Card points"),
        required=False,
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "enterkeyhint": "done"}
        ),
    )
    capot = forms.ChoiceField(
        label=_("Capot"), required=False, widget=forms.RadioSelect, choices=()
    )
    belote = forms.ChoiceField(
        label=_("Belote-rebelote"), required=False, widget=forms.RadioSelect, choices=()
    )
    submission_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=100)
    # The deal this entry is meant to be: an entry kept on a phone while it was offline must
    # not land one deal later because another deal was entered meanwhile.
    number = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=32767
    )

    def __init__(
        self,
        *args: Any,
        rules: Rules | Mapping[str, Any] | None = None,
        seats: Mapping[str, str] | None = None,
        team_names: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules if isinstance(rules, Rules) else parse_rules(rules or None)
        self.entry: dict[str, Any] | None = None
        self.problems: list[Problem] = []
        seats = seats or {}
        self.seat_names = {s.value: seats.get(s.value, "") for s in Seat}
        self.team_names = dict(team_names or {})
        # Set here, not in the class, so the hint reads in the language of each request.
        self.fields["cards"].help_text = gettext(
            "The other team's points are %(total)s minus these."
        ) % {"total": DEAL_VALUE}
        choice = self._choice_field
        choice("taker").choices = [
            *[(s.value, f"{seats.get(s.value, s.value)} ({seat_abbreviation(s)})") for s in Seat],
            (ALL_PASSED, _("All passed: thrown in")),
        ]
        teams = _team_choices(team_names)
        choice("points_team").choices = teams
        choice("capot").choices = [("", _("No capot")), *teams]
        choice("belote").choices = [("", _("No belote")), *teams]
        ranks = [("", _("top card?"))] + [(r.value, RANK_NAMES[r]) for r in reversed(Rank)]
        suits = [("", _("suit?"))] + [(s.value, SUIT_NAMES[s]) for s in Suit]
        for team in TEAMS:
            for slot in range(DECLARATION_SLOTS):
                prefix = f"decl_{team.value}_{slot}"
                self.fields[f"{prefix}_kind"] = forms.ChoiceField(
                    label=_("Declaration %(n)s of %(team)s")
                    % {"n": slot + 1, "team": side_abbreviation(team)},
                    required=False,
                    choices=declaration_kinds(),
                )
                self.fields[f"{prefix}_top"] = forms.ChoiceField(
                    label=_("Top card"), required=False, choices=ranks
                )
                self.fields[f"{prefix}_suit"] = forms.ChoiceField(
                    label=_("Suit"), required=False, choices=suits
                )
        # Which slot produced each entry of a team's declaration list, for problem paths.
        self._slot_of: dict[tuple[str, int], int] = {}

    def _choice_field(self, name: str) -> forms.ChoiceField:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        return field

    # --- for the template -----------------------------------------------------------------

    @property
    def taker_radios(self) -> dict[str, Any]:
        """The taker's radio buttons by value (N, E, S, W, pass), to lay them out as at the table."""
        return {radio.data["value"]: radio for radio in self["taker"]}

    def declaration_rows(self, team: str) -> list[dict[str, Any]]:
        return [
            {
                "kind": self[f"decl_{team}_{slot}_kind"],
                "top": self[f"decl_{team}_{slot}_top"],
                "suit": self[f"decl_{team}_{slot}_suit"],
            }
            for slot in range(DECLARATION_SLOTS)
        ]

    @property
    def declaration_teams(self) -> list[tuple[str, str, list[dict[str, Any]]]]:
        """Each team's slots in use (a declaration typed, or refused): the page sends the empty
        slot once, as `declaration_template`, which its script clones."""
        return [
            (
                t.value,
                self.team_names.get(t.value, t.value),
                [row for row in self.declaration_rows(t.value) if _slot_in_use(row)],
            )
            for t in TEAMS
        ]

    @property
    def engine_fields(self) -> str:
        """Where an engine's problem goes on this form (JSON), for the table page's check of a
        deal kept on the phone: a path's field, and a declaration's part's field."""
        return json.dumps({"paths": FIELD_OF_PATH, "declaration_parts": DECLARATION_PART_FIELD})

    @property
    def declarations_in_use(self) -> bool:
        return any(rows for _team, _name, rows in self.declaration_teams)

    @property
    def declaration_slots(self) -> int:
        return DECLARATION_SLOTS

    @property
    def declaration_template(self) -> dict[str, Any]:
        """One empty slot, its names and ids holding `{team}` and `{slot}` for the script."""
        prefix = "decl_{team}_{slot}"
        template: dict[str, Any] = {"prefix": prefix}
        for part in ("kind", "top", "suit"):
            field = self.fields[f"decl_NS_0_{part}"]
            name = f"{prefix}_{part}"
            template[part] = field.widget.render(name, "", attrs={"id": f"id_{name}"})
            template[f"{part}_id"] = f"id_{name}"
            template[f"{part}_label"] = field.label
        template["kind_label"] = _("Declaration")
        return template

    @property
    def quick_declarations(self) -> list[tuple[str, Any, Any]]:
        """Buttons adding a declaration in one tap: tierce, fifty, hundred, each four (short
        label, full label for screen readers)."""
        kinds = dict(declaration_kinds())
        quick: list[tuple[str, Any, Any]] = [
            (f"seq{n}", SEQUENCE_NAMES[n], kinds[f"seq{n}"]) for n in SEQUENCE_NAMES
        ]
        quick += [
            (f"four{r.value}", f"4×{RANK_SHORT[r]}", kinds[f"four{r.value}"]) for r in FOUR_POINTS
        ]
        return quick

    @staticmethod
    def initial_from_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
        """Form initial data from a stored §8 entry (for a correction)."""
        initial: dict[str, Any] = {
            "taker": entry.get("taker") or ALL_PASSED,
            "trump": entry.get("trump") or "",
            "capot": entry.get("capot") or "",
            "belote": entry.get("belote") or "",
        }
        points = entry.get("points")
        if points:
            initial["points_team"] = points.get("team")
            initial["cards"] = points.get("cards")
        for team, items in (entry.get("declarations") or {}).items():
            for slot, item in enumerate(items[:DECLARATION_SLOTS]):
                prefix = f"decl_{team}_{slot}"
                if item.get("type") == "four":
                    initial[f"{prefix}_kind"] = f"four{item.get('rank')}"
                else:
                    initial[f"{prefix}_kind"] = f"seq{item.get('length')}"
                    initial[f"{prefix}_top"] = item.get("top") or ""
                    initial[f"{prefix}_suit"] = item.get("suit") or ""
        return initial

    # --- building the entry and asking the engine -----------------------------------------

    def _declarations(self, data: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
        declarations: dict[str, list[dict[str, Any]]] = {}
        for team in TEAMS:
            items: list[dict[str, Any]] = []
            for slot in range(DECLARATION_SLOTS):
                prefix = f"decl_{team.value}_{slot}"
                kind = data.get(f"{prefix}_kind") or ""
                if kind.startswith("four"):
                    item: dict[str, Any] = {"type": "four", "rank": kind[4:]}
                elif kind.startswith("seq"):
                    item = {
                        "type": "sequence",
                        "length": int(kind[3:]),
                        "top": data.get(f"{prefix}_top") or None,
                        "suit": data.get(f"{prefix}_suit") or None,
                    }
                else:
                    continue
                self._slot_of[(team.value, len(items))] = slot
                items.append(item)
            if items:
                declarations[team.value] = items
        return declarations

    def build_entry(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The §8 entry of what was typed: every field typed is passed on, for the engine to judge."""
        taker = data.get("taker")
        entry: dict[str, Any] = {"taker": None if taker in (None, "", ALL_PASSED) else taker}
        for name in ("trump", "capot", "belote"):
            if data.get(name):
                entry[name] = data[name]
        if data.get("cards") is not None:
            entry["points"] = {"team": data.get("points_team") or None, "cards": data["cards"]}
        declarations = self._declarations(data)
        if declarations:
            entry["declarations"] = declarations
        return entry

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "taker" in self.errors:  # without a taker every other answer would be misread
            return data
        unreadable = set(self.errors)  # letters for points, say: that error is enough there
        entry = self.build_entry(data)
        problems = validate_deal(entry, self.rules)
        self.attach(p for p in problems if self._field_of(p.path) not in unreadable)
        if not self.errors:
            self.entry = entry
        return data

    def attach(self, problems: Iterable[Problem]) -> None:
        """Show each problem at its field; a path without a field becomes a form error naming it."""
        for problem in problems:
            self.problems.append(problem)
            field = self._field_of(problem.path)
            message = problem_message(problem)
            if field is None:
                label = f"{problem.path}: {message}" if problem.path else message
                self.add_error(None, label)
            else:
                self.add_error(field, message)

    def _field_of(self, path: str) -> str | None:
        if path in FIELD_OF_PATH:
            return FIELD_OF_PATH[path]
        found = _DECLARATION_PATH.match(path)
        if found is None:
            return None
        team, index, part = found.group(1), int(found.group(2)), found.group(3)
        slot = self._slot_of.get((team, index))
        if slot is None:
            return None
        return f"decl_{team}_{slot}_{DECLARATION_PART_FIELD.get(part or '', 'kind')}"
