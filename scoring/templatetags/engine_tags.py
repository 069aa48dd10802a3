"""`{% engine_script %}`: what a page needs to score on the phone (static/js/engine.js reads it).

When the engine was built for the phone (`manage.py build_engine_bundle`): where its worker,
Pyodide, the engine's zip and the engine's messages in the page's language (the Django
catalogue, scoring.views.engine_messages_json) are. Without the build, nothing: the page
scores on the server, as it always could.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from scoring import bundle

register = template.Library()


def language() -> str:
    code = get_language() or settings.LANGUAGE_CODE
    return code if code in dict(settings.LANGUAGES) else code.split("-")[0]


def engine_config() -> dict[str, Any]:
    config: dict[str, Any] = {}
    found = bundle.built()
    if found is not None:
        # Pyodide fetches its files by their own names next to pyodide.js, and the engine's zip
        # is named by its content already: both by their plain address, not a hashed copy's.
        config.update(
            worker=static("js/engine-worker.js"),
            pyodide=f"{settings.STATIC_URL}{found['pyodide']}",
            bundle=f"{settings.STATIC_URL}{found['bundle']}",
            version=found["version"],
            messages=reverse("scoring:engine_messages", args=[language()]),
        )
    return config


@register.simple_tag
def engine_script() -> SafeString:
    return json_script(engine_config(), "belote-engine")
