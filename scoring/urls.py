"""URLs of the rule book and of the engine's messages for the phone."""

from django.urls import path

from . import views

app_name = "scoring"
urlpatterns = [
    path("rules/", views.rulebook, name="rulebook"),
    path(
        "engine/messages.<str:language>.json",
        views.engine_messages_json,
        name="engine_messages",
    ),
]
