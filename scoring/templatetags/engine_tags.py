"""`{% engine_script %}`: what a page needs to score on the phone (static/js/engine.js reads it).

The engine's message templates in the page's language (the Django catalogue), and, when the
engine was built for the phone (`manage.py build_engine_bundle`), where its worker, Pyodide
and the engine's zip are. Without the build the page scores on the server, as it always could.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.utils.html import json_script
from django.utils.safestring import SafeString

from scoring import bundle
from scoring.translation import engine_messages

register = template.Library()


def engine_config() -> dict[str, Any]:
    config: dict[str, Any] = {"messages": engine_messages()}
    found = bundle.built()
    if found is not None:
        # Pyodide fetches its files by their own names next to pyodide.js, and the engine's zip
        # is named by its content already: both by their plain address, not a hashed copy's.
        config.update(
            worker=static("js/engine-worker.js"),
            pyodide=f"{settings.STATIC_URL}{found['pyodide']}",
            bundle=f"{settings.STATIC_URL}{found['bundle']}",
            version=found["version"],
        )
    return config


@register.simple_tag
def engine_script() -> SafeString:
    return json_script(engine_config(), "belote-engine")
