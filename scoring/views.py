"""The rule book page: docs/rules.md, or its translation, in the visitor's language."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from .rulebook import rendered_book

DOCS = settings.BASE_DIR / "docs"


@require_GET
def rulebook(request: HttpRequest) -> HttpResponse:
    language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    book = rendered_book(DOCS, language)
    # Safe: our own Markdown, rendered with raw HTML escaped (scoring.rulebook).
    body = mark_safe(book.html)
    return render(request, "scoring/rulebook.html", {"book": book, "body": body})
