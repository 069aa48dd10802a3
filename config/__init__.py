"""Wiring of the site: settings, URLs, the Celery app and WSGI."""

from .celery_app import app as celery_app

__all__ = ["celery_app"]
