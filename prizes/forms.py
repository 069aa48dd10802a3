"""A series' prize table, edited as the tournament's is (the same rows, static/js/prize-table.js)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import prize_editor_words, prize_path_words
from tournaments.services.setting_checks import SettingsRefused


class SeriesPrizesForm(forms.Form):
    prizes = forms.JSONField(
        label=_("prizes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "data-prize-json": ""}),
        help_text=_(
            "The prize table over the series table's ranks: money added, the rounding and one "
            "line per prize (docs: Prizes). Empty: no prizes."
        ),
    )

    @property
    def prize_editor_words(self) -> dict[str, Any]:
        return prize_editor_words()

    def show(self, refused: SettingsRefused) -> None:
        """Each problem on the field, named by its line and field ("Line 3, amount: …")."""
        for problem in refused.problems:
            self.add_error("prizes", f"{prize_path_words(problem.path)}: {problem.message}")
