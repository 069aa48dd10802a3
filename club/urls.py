"""URLs of clubs' public pages."""

from django.urls import path

from . import views

app_name = "club"
urlpatterns = [
    path("clubs/<slug:club_slug>/", views.club_detail, name="detail"),
    path("clubs/<slug:club_slug>/ranking/", views.club_ranking, name="ranking"),
]
