"""URLs of clubs' public pages."""

from django.urls import path

from . import views

app_name = "club"
urlpatterns = [
    path("clubs/<slug:club_slug>/", views.club_detail, name="detail"),
    path("clubs/<slug:club_slug>/ranking/", views.club_ranking, name="ranking"),
    path("clubs/<slug:club_slug>/members/", views.members_page, name="members"),
    path("clubs/<slug:club_slug>/members/import/", views.members_import, name="members_import"),
    path("clubs/<slug:club_slug>/members/<int:pk>/", views.member_page, name="member"),
    path(
        "clubs/<slug:club_slug>/members/<int:pk>/export.json",
        views.member_export,
        name="member_export",
    ),
]
