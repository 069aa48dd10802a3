"""A server process sets the site's objects aside from the garbage collector once loaded
(config/process.py): gunicorn's and uvicorn's entry points and each Celery pool process."""

from __future__ import annotations

import gc
import importlib
import sys

import pytest


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_settling_imports_every_view_then_freezes_what_is_alive(unfrozen):
    from config.process import settle

    settle()
    assert "tournaments.views.live" in sys.modules
    # The site's modules and objects: many thousands, none of them scanned again.
    assert gc.get_freeze_count() > 10_000


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_the_servers_entry_points_settle_their_process(unfrozen, entry):
    sys.modules.pop(entry, None)
    importlib.import_module(entry)
    assert gc.get_freeze_count() > 10_000


def test_each_celery_pool_process_settles_once_started(unfrozen):
    from celery.signals import worker_process_init

    from config.celery_app import settle_pool_process

    assert any(
        receiver() is settle_pool_process for _key, receiver in worker_process_init.receivers
    )
    worker_process_init.send(sender=None)
    assert gc.get_freeze_count() > 10_000
