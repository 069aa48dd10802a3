"""Director forms of a club's seasons and series: they convert, the services check (a bad rule
comes back from the service with its field, and the form shows it there)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from club.errors import FieldsRefused
from tournaments.models import Tournament

from .models import Season, Series
from .services import save_season, save_series
from .services.seasons import RULE_FIELDS


class RefusalsOnFields(forms.Form):
    def show(self, refused: FieldsRefused) -> None:
        """Put each of the service's problems on its field (or on the form)."""
        for name, messages in refused.errors().items():
            for message in messages:
                self.add_error(name if name in self.fields else None, message)


class SeasonForm(RefusalsOnFields):
    name = forms.CharField(label=_("Name"), max_length=80, help_text=_("e.g. 2026–27"))
    starts_on = forms.DateField(
        label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(label=_("Ends on"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, season: Season | None = None, **kwargs: Any) -> None:
        self.season = season
        if season is not None:
            kwargs.setdefault(
                "initial",
                {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on},
            )
        super().__init__(*args, **kwargs)

    def save(self, *, club: Any, by: Any) -> Season | None:
        try:
            return save_season(club=club, by=by, season=self.season, **self.cleaned_data)
        except FieldsRefused as refused:
            self.show(refused)
            return None


class PlacePointsField(forms.CharField):
    """Points per place as typed: whole numbers separated by commas or spaces."""

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = super().to_python(value) or ""
        words = text.replace(",", " ").replace(";", " ").split()
        try:
            return [int(word) for word in words]
        except ValueError:
            raise forms.ValidationError(
                _("Type whole numbers separated by commas, e.g. 25, 20, 16.")
            ) from None


class SeriesForm(RefusalsOnFields):
    name = forms.CharField(label=_("Name"), max_length=80, help_text=_("e.g. Thursday mêlée"))
    points = forms.ChoiceField(
        label=_("An evening counts by"), choices=Series.Points.choices, initial="place"
    )
    place_points = PlacePointsField(
        label=_("Points per place"),
        required=False,
        help_text=_("From the first place down, each less than the one before: 25, 20, 16, 13…"),
    )
    participation_points = forms.IntegerField(
        label=_("Points for a place beyond the list"), initial=0, min_value=0
    )
    best_of = forms.IntegerField(
        label=_("Best evenings that count"),
        required=False,
        help_text=_("Empty: every evening counts."),
    )
    absent_points = forms.IntegerField(label=_("Points for a missed evening"), initial=0)
    min_evenings = forms.IntegerField(
        label=_("Evenings needed to be ranked"), initial=0, min_value=0
    )
    handicap = forms.ChoiceField(
        label=_("Handicap table"), choices=Series.Handicap.choices, initial="none"
    )
    tournaments = forms.ModelMultipleChoiceField(
        label=_("Evenings"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The club's tournaments in the season's dates."),
    )

    def __init__(
        self, *args: Any, season: Season, series: Series | None = None, **kwargs: Any
    ) -> None:
        self.season = season
        self.series = series
        if series is not None:
            initial = {name: getattr(series, name) for name in self.rule_names()}
            initial["name"] = series.name
            initial["place_points"] = ", ".join(str(v) for v in series.place_points or [])
            initial["tournaments"] = list(series.tournaments.values_list("pk", flat=True))  # type: ignore[attr-defined]
            kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        self.fields["tournaments"].queryset = Tournament.objects.filter(  # type: ignore[attr-defined]
            club_id=season.club_id,
            starts_on__gte=season.starts_on,
            starts_on__lte=season.ends_on,
        ).order_by("starts_on", "pk")
        self.fields["tournaments"].label_from_instance = (  # type: ignore[attr-defined]
            lambda t: f"{t.starts_on:%Y-%m-%d} {t.name}"
        )

    @staticmethod
    def rule_names() -> tuple[str, ...]:
        return RULE_FIELDS

    def save(self, *, by: Any) -> Series | None:
        data = self.cleaned_data
        rules = {name: data[name] for name in self.rule_names()}
        try:
            return save_series(
                season=self.season,
                series=self.series,
                name=data["name"],
                rules=rules,
                tournaments=data["tournaments"],
                by=by,
            )
        except FieldsRefused as refused:
            self.show(refused)
            return None
