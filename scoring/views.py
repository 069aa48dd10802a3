"""The rule book page: docs/rules.md, or its translation, in the visitor's language; and the
engine's messages in a language, for the engine on the phone (docs/offline.md)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, override
from django.views.decorators.http import require_GET

from .rulebook import rendered_book
from .translation import engine_messages

DOCS = settings.BASE_DIR / "docs"


@require_GET
def rulebook(request: HttpRequest) -> HttpResponse:
    language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    book = rendered_book(DOCS, language)
    # Safe: our own Markdown, rendered with raw HTML escaped (scoring.rulebook).
    body = mark_safe(book.html)
    return render(request, "scoring/rulebook.html", {"book": book, "body": body})


@require_GET
def engine_messages_json(request: HttpRequest, language: str) -> JsonResponse:
    """Every engine message template in `language`, by problem code (the Django catalogue):
    the phone's engine fills them as the server does. Its own address per language, so that
    the service worker keeps the page's one."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with override(language):
        return JsonResponse(engine_messages())
