"""Director forms: a tournament with its house rules, pasted lists of players and teams, referees."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy, slugify
from django.utils.translation import gettext_lazy as _

from scoring.engine import InvalidDeal, parse_rules

from .models import TIE_BREAKS, Deal, Match, Tournament
from .rules_text import choice_label, rule_specs

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


class TournamentForm(forms.ModelForm):
    """A tournament and its house rules, each rule one field explained in a line."""

    tie_breaks = forms.CharField(
        label=_("Tie-break order"),
        # Lazy all the way, so the help reads in the visitor's language, not the server's.
        help_text=format_lazy(
            _("Comma-separated, first decides first. Choices: {choices}."),
            choices=", ".join(TIE_BREAKS),
        ),
        required=False,
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "starts_on",
            "format",
            "points_win",
            "points_draw",
            "points_loss",
            "is_public",
        ]
        widgets = {"starts_on": forms.DateInput(attrs={"type": "date"})}
        help_texts = {
            "slug": _("The tournament's address; left empty, it is made from the name."),
            "is_public": _("Anyone may follow the schedule and the standings."),
        }

    def __init__(self, *args: Any, club: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club if club is not None else getattr(self.instance, "club", None)
        self.fields["slug"].required = False
        current = parse_rules(self.instance.rules or {}) if self.instance.pk else None
        # Every deal was scored with these rules: once one is entered they stay as they are.
        self.rules_locked = bool(self.instance.pk) and (
            Deal.objects.filter(match__tournament=self.instance).exists()
        )
        for spec in rule_specs():
            field = _rule_field(spec)
            if current is not None:
                value = getattr(current, spec.name)
                field.initial = getattr(value, "value", value)
            field.disabled = self.rules_locked
            self.fields[RULE_PREFIX + spec.name] = field
        self.fields["tie_breaks"].initial = ", ".join(
            self.instance.tie_breaks or [] if self.instance.pk else Tournament().tie_breaks
        )

    @property
    def rule_fields(self) -> list[Any]:
        return [self[name] for name in self.fields if name.startswith(RULE_PREFIX)]

    @property
    def main_fields(self) -> list[Any]:
        return [self[name] for name in self.fields if not name.startswith(RULE_PREFIX)]

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.data.get("name", ""))[:80]
        if not slug:
            raise forms.ValidationError(_("Give the tournament a name or an address."))
        others = Tournament.objects.filter(club=self.club, slug=slug).exclude(pk=self.instance.pk)
        if others.exists():
            raise forms.ValidationError(_("This club already has a tournament at this address."))
        return slug

    def clean_tie_breaks(self) -> list[str]:
        text = self.cleaned_data.get("tie_breaks") or ""
        names = [name.strip() for name in text.split(",") if name.strip()]
        if not names:
            return list(Tournament().tie_breaks)
        unknown = [name for name in names if name not in TIE_BREAKS]
        if unknown:
            raise forms.ValidationError(
                _("Unknown tie-break %(names)s; choose from %(choices)s.")
                % {"names": ", ".join(unknown), "choices": ", ".join(TIE_BREAKS)}
            )
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("A tie-break may appear only once."))
        return names

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        rules = {}
        for spec in rule_specs():
            key = RULE_PREFIX + spec.name
            if key in cleaned:
                rules[spec.name] = cleaned[key]
        if len(rules) == len(rule_specs()):
            try:
                self.rules_json = parse_rules(rules).to_json()
            except InvalidDeal as invalid:
                for problem in invalid.problems:
                    name = problem.path.removeprefix("rules.")
                    field = RULE_PREFIX + name if RULE_PREFIX + name in self.fields else None
                    self.add_error(field, problem.message)
        win, draw, loss = (cleaned.get(k) for k in ("points_win", "points_draw", "points_loss"))
        if None not in (win, draw, loss) and not (win >= draw >= loss):  # type: ignore[operator]
            self.add_error(
                "points_draw", _("A draw gives at most a win's points and at least a loss's.")
            )
        return cleaned

    def save(self, commit: bool = True) -> Tournament:
        tournament = super().save(commit=False)
        if self.club is not None:
            tournament.club = self.club
        tournament.rules = self.rules_json
        tournament.tie_breaks = self.cleaned_data["tie_breaks"]
        if commit:
            tournament.save()
        return tournament


class PasteForm(forms.Form):
    """A list pasted from a spreadsheet or a message: one line per entry."""

    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}))

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


class RefereesForm(forms.Form):
    """One select per table of a round: who enters that table's deals."""

    def __init__(self, *args: Any, matches: list[Match], referees: list[Any], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.matches = matches
        choices = [("", _("— nobody —"))] + [
            (str(user.pk), getattr(getattr(user, "player", None), "full_name", "") or user.username)
            for user in referees
        ]
        self.referees = {str(user.pk): user for user in referees}
        for match in matches:
            self.fields[f"match_{match.pk}"] = forms.ChoiceField(
                label=_("Table %(table)s: %(match)s") % {"table": match.table, "match": match},
                choices=choices,
                required=False,
                initial=str(match.referee_id or ""),
            )

    def changes(self) -> list[tuple[Match, Any]]:
        """The matches whose referee changed, with the new referee (None to clear)."""
        changed = []
        for match in self.matches:
            value = self.cleaned_data.get(f"match_{match.pk}") or ""
            if value != str(match.referee_id or ""):
                changed.append((match, self.referees.get(value)))
        return changed
