"""Fixtures for every test: a fast password hasher and the services a test may need."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(
        ("postgres://", "postgresql://", "pgsql://")
    )


requires_postgres = pytest.mark.skipif(
    not _on_postgres(), reason="needs PostgreSQL: set DATABASE_URL=postgres://..."
)
requires_redis = pytest.mark.skipif(
    not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"),
    reason="needs the Redis broker: set CELERY_BROKER_URL=redis://...",
)
