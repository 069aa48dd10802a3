"""URLs of clubs and players."""

from django.urls import path

from . import views

app_name = "club"
urlpatterns = [
    path("clubs/<slug:club_slug>/", views.club_detail, name="detail"),
    path("clubs/<slug:club_slug>/ranking/", views.club_ranking, name="ranking"),
    path("players/<int:pk>/", views.player_detail, name="player"),
]
