"""The members pages' forms: a member's fields, the file to import, the record to keep in a
merge. Small and plain: the services check the fields and name each problem (club.members)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .errors import ServiceError
from .models import Player


class MemberForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=80)
    last_name = forms.CharField(label=_("Last name"), max_length=80, required=False)
    email = forms.CharField(label=_("E-mail"), max_length=254, required=False)
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    licence = forms.CharField(
        label=_("Licence"),
        max_length=40,
        required=False,
        help_text=_("The federation number; unique within the club."),
    )
    profile = forms.ChoiceField(
        label=_("Name shown"),
        choices=[
            (Player.Profile.PUBLIC, _("to everyone (public)")),
            (Player.Profile.MEMBERS, _("to the club's members; initials to others")),
            (Player.Profile.HIDDEN, _("initials everywhere public")),
        ],
        initial=Player.Profile.PUBLIC,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].widget.input_type = "email"
        self.fields["phone"].widget.input_type = "tel"
        for name in ("first_name", "last_name"):
            self.fields[name].widget.attrs["autocomplete"] = "off"

    def refused(self, error: ServiceError) -> None:
        """The service's problems on their fields."""
        for field, messages in error.errors().items():
            for message in messages:
                self.add_error(field if field in self.fields else None, message)


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("The club's list"),
        help_text=_(
            "A .csv or .xlsx file whose first row names the columns: first name and last "
            "name (or one name column), e-mail, phone, licence."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".csv,.xlsx,text/csv"


class MergeForm(forms.Form):
    into = forms.TypedChoiceField(label=_("The record to keep"), coerce=int)

    def __init__(self, *args: Any, candidates: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["into"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "—")] + [(p.pk, f"{p.full_name} (#{p.pk})") for p in candidates]
