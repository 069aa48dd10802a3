"""Director forms: a tournament with its house rules, pasted lists of players and teams, referees."""

from __future__ import annotations

import json
import re
from typing import Any, Protocol

from django import forms
from django.conf import settings as django_settings
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from club.models import Player
from scoring.engine import parse_rules
from scoring.rules_text import choice_label, rule_specs

from .models import Match, Team, Tournament
from .models.tournament import DEFAULT_CORRECTION_MINUTES
from .services.settings import (
    SettingsRefused,
    create_tournament,
    update_tournament,
)
from .standings.criteria import default_tie_breaks_for, labels

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


def prize_editor_words() -> dict[str, Any]:
    """The words of the prize table editor (static/js/prize-table.js), for every form that
    carries a prize table (a tournament's, a series')."""
    return {
        "line": _("Line %(n)s"),
        "which": _("Which places"),
        "place": _("a place"),
        "places": _("places from … to"),
        "every": _("every … place"),
        "last": _("the last"),
        "from": _("from"),
        "to": _("to"),
        "step": _("every"),
        "category": _("category"),
        "amount": _("amount"),
        "percent": _("percent of the pool"),
        "kind": _("in kind"),
        "remove": _("Remove line %(n)s"),
        "add": _("Add a line"),
        "pool_percent": _("Share of the entry fees in the pool (%)"),
        "pool_added": _("Money added by the club"),
        "rounding": _("Round percentages down to"),
        "cumulative": _("A category prize may go to an entry holding a place prize"),
        "presets": _("Start from"),
        "preset_share": _("a share of the fees over the first places"),
        "preset_van4": _("the formule van 4"),
        "preset_every_team": _("a prize for every team"),
        "a_prize": _("A prize"),
        "none": _("No prizes"),
        "json": _("The table as JSON"),
    }


_PRIZE_LINE = re.compile(r"^prizes\.lines\[(\d+)\](?:\.(\w+))?")


def prize_path_words(path: str) -> str:
    """Where a prize table problem is, as the editor shows it: "Line 3, percent"."""
    words = {
        "place": _("place"),
        "places": _("places"),
        "every": _("every"),
        "from": _("from"),
        "to": _("to"),
        "last": _("the last"),
        "category": _("category"),
        "amount": _("amount"),
        "percent": _("percent of the pool"),
        "kind": _("in kind"),
        "prizes.pool.percent_of_fees": _("Share of the entry fees in the pool (%)"),
        "prizes.pool.added": _("Money added by the club"),
        "prizes.rounding": _("Round percentages down to"),
        "prizes.lines": _("The prize lines"),
    }
    line = _PRIZE_LINE.match(path)
    if line is None:
        return str(words.get(path, path))
    where = _("Line %(n)s") % {"n": int(line.group(1)) + 1}
    key = line.group(2)
    return f"{where}, {words.get(key, key)}" if key else str(where)


class PasteForm(forms.Form):
    """A list pasted from a spreadsheet or a message: one line per entry."""

    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}))
    # Set by the confirmation step: the director has seen the new members and creates them.
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, label: Any = "", help_text: Any = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["text"].label = label
        self.fields["text"].help_text = help_text

    def clean_text(self) -> str:
        text = self.cleaned_data["text"]
        if not any(line.strip() for line in text.splitlines()):
            raise forms.ValidationError(_("Paste at least one line."))
        return text


def players_form(*args: Any, **kwargs: Any) -> PasteForm:
    return PasteForm(
        *args,
        label=_("Players"),
        help_text=_("One player per line: first name and last name."),
        **kwargs,
    )


def teams_form(*args: Any, **kwargs: Any) -> PasteForm:
    return PasteForm(
        *args,
        label=_("Teams"),
        help_text=_(
            "One team per line: “Team name: First Player & Second Player”, or just the two players."
        ),
        **kwargs,
    )


def referees_form(*args: Any, **kwargs: Any) -> PasteForm:
    return PasteForm(
        *args,
        label=_("New referees"),
        help_text=_(
            "One name per line. Each becomes a referee of the club and gets a private link "
            "to this tournament's tables."
        ),
        **kwargs,
    )


class TeamForm(forms.Form):
    """A team's name and players; the players only while the team has not played."""

    name = forms.CharField(label=_("Name"), max_length=120)
    first_player = forms.ModelChoiceField(label=_("First player"), queryset=Player.objects.none())
    second_player = forms.ModelChoiceField(label=_("Second player"), queryset=Player.objects.none())
    category = forms.CharField(
        label=_("Category"),
        max_length=100,
        required=False,
        help_text=_(
            "A tag such as Ladies, Youth or Seniors, which a category prize names. Empty: none."
        ),
    )

    def __init__(self, data: Any = None, *, team: Team, players_locked: bool) -> None:
        super().__init__(
            data,
            initial={
                "name": team.name,
                "first_player": team.first_player_id,
                "second_player": team.second_player_id,
                "category": team.category,
            },
        )
        self.team = team
        members = Player.objects.filter(memberships__club_id=team.tournament.club_id).order_by(
            "last_name", "first_name"
        )
        for name in ("first_player", "second_player"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = members.distinct()
            field.disabled = players_locked
            if players_locked:
                field.help_text = _("The team has played: its players are fixed.")

    def changes(self) -> dict[str, Any]:
        """What the edit service takes: the name, and the players unless they are fixed."""
        values: dict[str, Any] = {"name": self.cleaned_data["name"]}
        if not self.fields["first_player"].disabled:
            values["first_player"] = self.cleaned_data["first_player"]
            values["second_player"] = self.cleaned_data["second_player"]
        return values


class MembersForm(forms.Form):
    """Club members chosen to play an individual tournament (those not registered yet)."""

    players = forms.ModelMultipleChoiceField(
        label=_("Club members"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tick the members who play tonight."),
    )

    def __init__(self, data: Any = None, *, tournament: Tournament) -> None:
        super().__init__(data)
        field = self.fields["players"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = (
            Player.objects.filter(memberships__club_id=tournament.club_id)
            .exclude(entries__tournament=tournament)
            .order_by("last_name", "first_name")
            .distinct()
        )


NOBODY = "none"  # the "every round" choice that takes a table's referee away


def referee_choices(referees: list[Any]) -> list[tuple[str, str]]:
    return [
        (str(user.pk), getattr(getattr(user, "player", None), "full_name", "") or user.username)
        for user in referees
    ]


class RefereesForm(forms.Form):
    """Who referees each table: one select per table of the round shown, and one per table
    number for every open round at once (which wins over the round's select when set)."""

    def __init__(
        self,
        *args: Any,
        matches: list[Match],
        tables: list[int],
        referees: list[Any],
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.matches = matches
        self.tables = tables
        choices = referee_choices(referees)
        self.referees = {str(user.pk): user for user in referees}
        for match in matches:
            self.fields[f"match_{match.pk}"] = forms.ChoiceField(
                label=_("Table %(table)s: %(match)s") % {"table": match.table, "match": match},
                choices=[("", _("— nobody —")), *choices],
                required=False,
                initial=str(match.referee_id or ""),
            )
        for table in tables:
            self.fields[f"table_{table}"] = forms.ChoiceField(
                label=_("Table %(table)s") % {"table": table},
                choices=[("", _("— as set round by round —")), (NOBODY, _("— nobody —")), *choices],
                required=False,
                initial="",
            )

    @property
    def round_fields(self) -> list[Any]:
        return [self[f"match_{match.pk}"] for match in self.matches]

    @property
    def table_fields(self) -> list[Any]:
        return [self[f"table_{table}"] for table in self.tables]

    def table_changes(self) -> list[tuple[int, Any]]:
        """The table numbers given one referee (None: nobody) for every open round."""
        changed = []
        for table in self.tables:
            value = self.cleaned_data.get(f"table_{table}") or ""
            if value:
                changed.append((table, None if value == NOBODY else self.referees.get(value)))
        return changed

    def changes(self) -> list[tuple[Match, Any]]:
        """The matches of the round shown whose referee changed, with the new referee (None to
        clear); a table given a referee for every round is left to that."""
        every_round = {table for table, _referee in self.table_changes()}
        changed = []
        for match in self.matches:
            if match.table in every_round:
                continue
            value = self.cleaned_data.get(f"match_{match.pk}") or ""
            if value != str(match.referee_id or ""):
                changed.append((match, self.referees.get(value)))
        return changed
