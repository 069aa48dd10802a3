"""The REST API's router: every resource under /api/v1/."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
