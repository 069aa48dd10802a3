"""The form of online registration (the public page; the API reads the same fields)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

__all__ = ["OnlineRegistrationForm"]


class OnlineRegistrationForm(forms.Form):
    """A team (two names), a player asking for a partner, or (individual) one player.

    The service checks the names and the places; `website` is a trap for robots, hidden from
    people: an entry that fills it is refused.
    """

    player = forms.CharField(label=_("Your name"), max_length=161)
    partner = forms.CharField(label=_("Your partner's name"), max_length=161, required=False)
    partner_wanted = forms.BooleanField(label=_("I come alone: find me a partner"), required=False)
    email = forms.EmailField(
        label=_("E-mail"), required=False, help_text=_("Optional: to reach you about the entry.")
    )
    phone = forms.CharField(label=_("Phone"), max_length=30, required=False)
    website = forms.CharField(
        label=_("Leave this field empty"),
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def __init__(self, *args: Any, individual: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if individual:
            del self.fields["partner"], self.fields["partner_wanted"]

    def clean_website(self) -> str:
        if self.cleaned_data["website"]:
            raise forms.ValidationError(_("Leave this field empty."))
        return ""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # A team format: no partner named and the box unticked says what both ways are, beside
        # the partner's name (the service would only say a name is missing).
        partner = " ".join((data.get("partner") or "").split())
        missing = "partner" in self.fields and not partner and not data.get("partner_wanted")
        if missing and "partner" not in self.errors:
            self.add_error(
                "partner",
                _("Give your partner's name, or tick “%(box)s”.")
                % {"box": self.fields["partner_wanted"].label},
            )
        return data

    def players(self) -> list[str]:
        names = [self.cleaned_data["player"]]
        if not self.cleaned_data.get("partner_wanted") and "partner" in self.fields:
            names.append(self.cleaned_data.get("partner", ""))
        return names
