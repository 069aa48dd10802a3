"""URLs of the rule book."""

from django.urls import path

from . import views

app_name = "scoring"
urlpatterns = [path("rules/", views.rulebook, name="rulebook")]
