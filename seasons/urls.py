"""URLs of a club's seasons and series: the public tables (permanent addresses) and the
director's forms. Wired in config/urls.py before the tournaments' (a tournament's slug
could otherwise read `seasons`)."""

from django.urls import path

from . import views

app_name = "seasons"

S = "clubs/<slug:club_slug>/"

urlpatterns = [
    path(S + "seasons/", views.seasons, name="seasons"),
    path(S + "seasons/<int:pk>/", views.season, name="season"),
    path(S + "series/<int:pk>/", views.series, name="series"),
    path(S + "series/<int:pk>/series.csv", views.series_csv, name="series_csv"),
    path("direct/<slug:club_slug>/seasons/new/", views.season_edit, name="director_season_new"),
    path(
        "direct/<slug:club_slug>/seasons/<int:pk>/",
        views.season_edit,
        name="director_season",
    ),
    path(
        "direct/<slug:club_slug>/seasons/<int:season_pk>/series/new/",
        views.series_edit,
        name="director_series_new",
    ),
    path(
        "direct/<slug:club_slug>/series/<int:pk>/",
        views.series_edit,
        name="director_series",
    ),
]
