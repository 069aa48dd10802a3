"""The score pad's pages: no account needed."""

from django.urls import path, re_path

from . import views
from .api import KEY_PATTERN

app_name = "pad"
urlpatterns = [
    path("pad/", views.new_game, name="new"),
    re_path(rf"^pad/view/(?P<view_key>{KEY_PATTERN})/$", views.read_only, name="view"),
    re_path(rf"^pad/(?P<key>{KEY_PATTERN})/$", views.saved_game, name="game"),
    re_path(rf"^pad/(?P<key>{KEY_PATTERN})/attach/$", views.attach, name="attach"),
]
