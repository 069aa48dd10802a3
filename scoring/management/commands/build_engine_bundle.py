"""`manage.py build_engine_bundle`: the engine and Pyodide as static files for the phone."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring import bundle


class Command(BaseCommand):
    help = (
        "Copy Pyodide (from npm's node_modules/) into static/vendor/pyodide/ and zip "
        "scoring/engine/ into static/engine/, so that the score pad and the table page score "
        "on the phone. Without Pyodide nothing is built and the pages score on the server."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        found = bundle.build()
        if found is None:
            self.stdout.write(
                "Pyodide is not in node_modules/ (run `npm ci`): the pages score on the server."
            )
            return
        self.stdout.write(
            f"Engine {found['version']} with Pyodide {found['pyodide_version']}: "
            f"static/{found['bundle']}"
        )
