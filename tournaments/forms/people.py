"""Forms of the people of an event: pasted lists of players and teams, a team, members, referees."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Player

from ..models import Match, Team, Tournament


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
