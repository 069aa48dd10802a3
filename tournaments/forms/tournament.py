"""A tournament's settings form: its house rules, tie-breaks and the parts apps above add."""

from __future__ import annotations

import json
from typing import Any, Protocol

from django import forms
from django.conf import settings as django_settings
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring.engine import parse_rules
from scoring.rules_text import choice_label, rule_specs

from ..models import Tournament
from ..models.tournament import DEFAULT_CORRECTION_MINUTES
from ..services.settings import (
    SettingsRefused,
    create_tournament,
    update_tournament,
)
from ..standings.criteria import default_tie_breaks_for, labels
from .prize_words import prize_editor_words, prize_path_words

RULE_PREFIX = "rule_"


def _rule_field(spec: Any) -> forms.Field:
    """A form field for one of the engine's rules; its choices come from the engine."""
    common = {"label": spec.label, "help_text": spec.explanation}
    if spec.kind == "bool":
        return forms.BooleanField(required=False, initial=spec.default, **common)
    if spec.kind == "choice":
        return forms.ChoiceField(
            choices=[(code, choice_label(spec.name, code)) for code in spec.choices],
            initial=spec.default,
            **common,
        )
    # Bounds are the engine's; it reports a value out of range on this field.
    return forms.IntegerField(required=not spec.nullable, initial=spec.default, **common)


def _label(name: str) -> Any:
    """A setting's label: the model field's name for it, as a ModelForm would say it."""
    field = Tournament._meta.get_field(name)
    return capfirst(getattr(field, "verbose_name", name))


class OrderedCheckboxes(forms.CheckboxSelectMultiple):
    """A list of choices to tick and put in order: the ticked ones first, in their order.

    The order sent is the order on the page (a browser sends checkboxes in document order);
    static/js/ordered-choices.js adds the buttons that move a line up or down.
    """

    input_type = "ordered"  # a list of checkboxes with its own labels, not one checkbox

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        chosen = [str(v) for v in value or []]
        choices = dict((str(code), label) for code, label in self.choices)
        order = [code for code in chosen if code in choices]
        order += [code for code in choices if code not in order]
        base_id = (attrs or {}).get("id") or self.attrs.get("id") or f"id_{name}"
        items = format_html_join(
            "\n",
            '<li data-choice="{}"><label for="{}_{}"><input type="checkbox" name="{}" value="{}"'
            ' id="{}_{}"{}> {}</label></li>',
            (
                (
                    code,
                    base_id,
                    code,
                    name,
                    code,
                    base_id,
                    code,
                    mark_safe(" checked") if code in chosen else "",
                    choices[code],
                )
                for code in order
            ),
        )
        return format_html(
            '<ol class="ordered-choices" id="{}" data-ordered>{}</ol>', base_id, items
        )

    def id_for_label(self, id_: str, index: str | None = None) -> str:
        return id_


class TieBreakField(forms.MultipleChoiceField):
    """The chosen criteria in order; whether each is known is the settings service's to say."""

    def valid_value(self, value: Any) -> bool:
        return True


class TournamentFormPart(Protocol):
    """Fields an app above adds to the tournament's form, with their check and their save
    (e.g. the series the evening counts in, seasons/): registered in its AppConfig.ready
    (`add_tournament_form_part`), so this form imports nothing above tournaments/. Its fields
    are choices shown as check boxes after the tournament's own fields."""

    def add_fields(self, form: TournamentForm) -> list[str]:
        """Add the part's fields to `form` (none: the club has no use for them); their names."""
        ...

    def clean(self, form: TournamentForm, cleaned: dict[str, Any]) -> None:
        """Put what is wrong with the part's fields on them (`form.add_error`)."""
        ...

    def save(self, form: TournamentForm, tournament: Tournament, *, by: Any) -> None:
        """Store the part's fields for the saved `tournament`."""
        ...


_FORM_PARTS: list[TournamentFormPart] = []


def add_tournament_form_part(part: TournamentFormPart) -> None:
    if part not in _FORM_PARTS:
        _FORM_PARTS.append(part)


class TournamentForm(forms.Form):
    """A tournament and its house rules, each rule one field explained in a line.

    The form only converts what was typed; the settings service checks it (`save` raises
    its SettingsRefused, whose problems `show` puts beside their fields).
    """

    name = forms.CharField(label=_label("name"), max_length=150)
    slug = forms.SlugField(
        label=_label("slug"),
        max_length=80,
        required=False,
        help_text=_("The tournament's address; left empty, it is made from the name."),
    )
    starts_on = forms.DateField(
        label=_label("starts_on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    format = forms.ChoiceField(label=_label("format"), choices=Tournament.Format.choices)
    round_count = forms.IntegerField(
        label=_label("round_count"),
        required=False,
        help_text=_(
            "Swiss, concours and individual: how many rounds (a concours's parties) are played."
        ),
    )
    bye_points = forms.IntegerField(
        label=_label("bye_points"),
        required=False,
        help_text=_(
            "Swiss, concours and individual: the points a bye (or a player sitting out) scores "
            "besides a win's match points. Left empty: half the target, or 80 a deal when "
            "matches are a number of deals."
        ),
    )
    draw = forms.ChoiceField(
        label=_label("draw"),
        choices=[("", "—"), *Tournament.Draw.choices],
        required=False,
        help_text=_("Concours: after the first party, teams meet at random or by ranking."),
    )
    points_win = forms.IntegerField(label=_label("points_win"), initial=2)
    points_draw = forms.IntegerField(label=_label("points_draw"), initial=1)
    points_loss = forms.IntegerField(label=_label("points_loss"), initial=0)
    # Checked by the settings service (at least one, each once); the form only reads the order.
    tie_breaks = TieBreakField(
        label=_label("tie_breaks"),
        choices=labels,
        widget=OrderedCheckboxes,
        help_text=_(
            "Tick the criteria that separate teams level on points and put them in order: "
            "the first decides first."
        ),
        required=False,
    )
    is_public = forms.BooleanField(
        label=_label("is_public"),
        required=False,
        initial=True,
        help_text=_("Anyone may follow the schedule and the standings."),
    )
    language = forms.ChoiceField(
        label=_label("language"),
        choices=[("", _("each visitor’s own language")), *django_settings.LANGUAGES],
        required=False,
        help_text=_("The big screen in the club room is shown in this language."),
    )
    correction_minutes = forms.IntegerField(
        label=_label("correction_minutes"),
        initial=DEFAULT_CORRECTION_MINUTES,
        required=False,
        help_text=_(
            "After the finish, the tables' referees may still correct their deals this many "
            "minutes; then the results are final until a director reopens them."
        ),
    )
    registration = forms.ChoiceField(
        label=_label("registration"),
        choices=Tournament.RegistrationMode.choices,
        initial=Tournament.RegistrationMode.CLOSED,
        required=False,
        help_text=_(
            "Open: anyone registers from the tournament's public page, without an account."
        ),
    )
    capacity = forms.IntegerField(
        label=_label("capacity"),
        required=False,
        help_text=_(
            "Teams (players in an individual tournament); past it entries join a waiting list. "
            "Empty: no limit."
        ),
    )
    registration_closes_at = forms.DateTimeField(
        label=_label("registration_closes_at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    check_in = forms.ChoiceField(
        label=_label("check_in"),
        choices=Tournament.CheckIn.choices,
        initial=Tournament.CheckIn.OFF,
        required=False,
        help_text=_(
            "On: every entry is expected until checked in, and draws take only those present."
        ),
    )
    self_check_in = forms.BooleanField(
        label=_label("self_check_in"),
        required=False,
        initial=True,
        help_text=_("Players check themselves in by the QR code at the door."),
    )
    entry_fee = forms.DecimalField(
        label=_label("entry_fee"), required=False, max_digits=7, decimal_places=2, min_value=0
    )
    entry_fee_per = forms.ChoiceField(
        label=_label("entry_fee_per"),
        choices=Tournament.FeePer.choices,
        initial=Tournament.FeePer.TEAM,
        required=False,
    )
    # The prize table as JSON (docs/prizes.md): static/js/prize-table.js edits it as rows;
    # the prizes app checks it with the other settings.
    prizes = forms.JSONField(
        label=_label("prizes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "data-prize-json": ""}),
        help_text=_(
            "The prize table (docs: Prizes): the pool from the fees and added money, the "
            "rounding, and one line per prize. Empty: no prizes."
        ),
    )

    def __init__(
        self, data: Any = None, *, club: Any, tournament: Tournament | None = None
    ) -> None:
        self.club = club
        self.tournament = tournament
        initial = {}
        if tournament is not None:
            initial = {name: getattr(tournament, name) for name in self.base_fields}
            initial["tie_breaks"] = list(tournament.tie_breaks or [])
        super().__init__(data, initial=initial)
        current = parse_rules(tournament.rules or None) if tournament is not None else None
        # Every deal was scored with these rules: once one is entered they stay as they are.
        self.rules_locked = tournament is not None and tournament.has_deals()
        for spec in rule_specs():
            field = _rule_field(spec)
            if current is not None:
                value = getattr(current, spec.name)
                field.initial = getattr(value, "value", value)
            field.disabled = self.rules_locked
            self.fields[RULE_PREFIX + spec.name] = field
        if tournament is None:
            first_format = Tournament.Format.choices[0][0]
            self.fields["tie_breaks"].initial = default_tie_breaks_for(first_format)
        # What apps above add (the series the evening counts in): after the main fields.
        self.added_names = [name for part in _FORM_PARTS for name in part.add_fields(self)]

    @property
    def added_fields(self) -> list[Any]:
        return [self[name] for name in self.added_names]

    @property
    def tie_break_defaults(self) -> str:
        """Each format's default tie-break list (JSON): the list on the page follows the format
        chosen while the director has not changed it (static/js/ordered-choices.js)."""
        return json.dumps(
            {code: default_tie_breaks_for(code) for code, _label in Tournament.Format.choices}
        )

    @property
    def rule_fields(self) -> list[Any]:
        return [self[name] for name in self.fields if name.startswith(RULE_PREFIX)]

    @property
    def main_fields(self) -> list[Any]:
        return [
            self[name]
            for name in self.fields
            if not name.startswith(RULE_PREFIX)
            and name not in self.added_names
            and name != "prizes"
        ]

    @property
    def entry_count(self) -> int:
        """The entries registered (the "prize for every team" preset covers them all)."""
        if self.tournament is None:
            return 0
        if self.tournament.is_individual:
            return self.tournament.entrants.count()
        return self.tournament.teams.filter(round__isnull=True).count()

    @property
    def prize_editor_words(self) -> dict[str, Any]:
        return prize_editor_words()

    def clean_correction_minutes(self) -> int:
        """Left empty: the default window (the settings service checks the number)."""
        value = self.cleaned_data.get("correction_minutes")
        return DEFAULT_CORRECTION_MINUTES if value is None else value

    def clean_tie_breaks(self) -> list[str]:
        return list(self.cleaned_data.get("tie_breaks") or [])

    def settings(self) -> dict[str, Any]:
        """The cleaned values as the settings service takes them."""
        values = {name: self.cleaned_data[name] for name in self.base_fields}
        if not values["slug"]:
            del values["slug"]  # the service makes it from the name
        # What the chosen format has no use for is left to the service, which clears it.
        if not values["draw"] or values["format"] != Tournament.Format.CONCOURS:
            del values["draw"]
        if values["format"] not in Tournament.ROUND_BY_ROUND:
            del values["round_count"], values["bye_points"]
        for name in ("registration", "check_in", "entry_fee_per"):
            if not values[name]:
                del values[name]  # not on the page that sent it: left as it is
        if not self.rules_locked:
            values["rules"] = {
                spec.name: self.cleaned_data[RULE_PREFIX + spec.name] for spec in rule_specs()
            }
        return values

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for part in _FORM_PARTS:
            part.clean(self, cleaned)
        return cleaned

    def save(self, *, by: Any) -> Tournament:
        if self.tournament is None:
            tournament = create_tournament(self.club, by=by, **self.settings())
        else:
            tournament = update_tournament(self.tournament, by=by, **self.settings())
        for part in _FORM_PARTS:
            part.save(self, tournament, by=by)
        return tournament

    def show(self, refused: SettingsRefused) -> None:
        """Put each problem of the service beside its field (`rules.target` → rule_target)."""
        for problem in refused.problems:
            name, _dot, rule = problem.path.partition(".")
            if name == "prizes":
                self.add_error("prizes", f"{prize_path_words(problem.path)}: {problem.message}")
                continue
            field = RULE_PREFIX + rule if name == "rules" else name
            self.add_error(field if field in self.fields else None, problem.message)
