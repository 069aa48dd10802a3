"""URLs of the prize list: the director's printed sheet (the public list is a panel)."""

from django.urls import path

from . import views

app_name = "prizes"

urlpatterns = [
    path("direct/<slug:club_slug>/<slug:slug>/print/prizes/", views.print_prizes, name="print"),
    path(
        "direct/<slug:club_slug>/series/<int:pk>/prizes/",
        views.series_prizes_edit,
        name="series_edit",
    ),
]
