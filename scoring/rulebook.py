"""The rule book's Markdown (docs/rules.md and its translations) as HTML, with heading anchors and contents.

Rendered once per file and kept in process; a changed file (a deploy, an edit while
developing) is rendered again because its modification time is part of the cache key.
Raw HTML in the Markdown is escaped, never passed through.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

# English is the original; a translation lives in docs/<language>/rules.md.
ORIGINAL_LANGUAGE = "en"
BOOK_NAME = "rules.md"


@dataclass(frozen=True)
class Heading:
    anchor: str
    text: str


@dataclass(frozen=True)
class RenderedBook:
    title: str
    html: str
    contents: tuple[Heading, ...]  # the sections (level-2 headings), in order
    anchors: frozenset[str]


def book_path(docs: Path, language: str) -> Path:
    """The rule book in `language`, or the English original when there is no translation."""
    if language != ORIGINAL_LANGUAGE:
        translated = docs / language / BOOK_NAME
        if translated.is_file():
            return translated
    return docs / BOOK_NAME


def slug(text: str) -> str:
    """A heading's anchor as GitHub makes it, so links inside the book work there and here."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _plain_text(inline: Token) -> str:
    return "".join(
        child.content for child in inline.children or () if child.type in ("text", "code_inline")
    )


def _heading_anchors(state: StateCore) -> None:
    seen: dict[str, int] = {}
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        anchor = slug(_plain_text(tokens[index + 1]))
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        token.attrSet("id", anchor if count == 0 else f"{anchor}-{count}")


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.push("heading_anchors", _heading_anchors)
    return md


_MARKDOWN = _markdown()


def render(text: str) -> RenderedBook:
    """The book's title (its first-level heading, taken out of the body), body and sections."""
    tokens = _MARKDOWN.parse(text)
    title = ""
    body: list[Token] = []
    contents: list[Heading] = []
    anchors: set[str] = set()
    skip = 0
    for index, token in enumerate(tokens):
        if skip:
            skip -= 1
            continue
        if token.type == "heading_open":
            text_of = _plain_text(tokens[index + 1])
            anchors.add(str(token.attrGet("id")))
            if token.tag == "h1" and not title:
                title = text_of
                skip = 2  # its inline content and its closing tag
                continue
            if token.tag == "h2":
                contents.append(Heading(str(token.attrGet("id")), text_of))
        body.append(token)
    html = _MARKDOWN.renderer.render(body, _MARKDOWN.options, {})
    return RenderedBook(title, html, tuple(contents), frozenset(anchors))


@lru_cache(maxsize=8)
def _rendered(path: Path, modified_ns: int) -> RenderedBook:
    return render(path.read_text(encoding="utf-8"))


def rendered_book(docs: Path, language: str) -> RenderedBook:
    path = book_path(docs, language)
    return _rendered(path, path.stat().st_mtime_ns)


@dataclass(frozen=True)
class WorkedExample:
    """One of the book's worked examples of a deal (section 6): its words, entry and result."""

    number: int
    text: str
    deal: dict[str, Any]
    result: dict[str, Any]

    @property
    def summary(self) -> str:
        """The example's first sentence (two when the first is only the setting), to list it."""
        sentences = self.text.split(". ")
        short = sentences[0] if len(sentences[0]) >= 30 else ". ".join(sentences[:2])
        return short.rstrip(".") + "."


WORKED_EXAMPLES_SECTION = "6. Worked examples"
_NUMBERED = re.compile(r"^\*\*(\d+)\.\*\*\s*")


def worked_examples(path: Path) -> tuple[WorkedExample, ...]:
    """Section 6 of a rule book: each "**n.**" paragraph, its deal and the engine's answer.

    The REST API documents its deal entry with these (tests/scoring/test_rule_book.py holds
    every one of them equal to what the engine answers).
    """
    return _worked_examples(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=4)
def _worked_examples(path: Path, modified_ns: int) -> tuple[WorkedExample, ...]:
    tokens = MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8"))
    found: list[WorkedExample] = []
    section, paragraph, entry = "", "", None
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            section = tokens[index + 1].content
        elif section != WORKED_EXAMPLES_SECTION:
            continue
        elif token.type == "paragraph_open" and _NUMBERED.match(tokens[index + 1].content):
            paragraph, entry = " ".join(tokens[index + 1].content.split()), None
        elif token.type == "fence" and token.info.strip() == "json" and paragraph:
            value = json.loads(token.content)
            if entry is None and isinstance(value, dict) and "deal" in value:
                entry = value
            elif entry is not None:
                match = _NUMBERED.match(paragraph)
                assert match is not None
                found.append(
                    WorkedExample(
                        int(match.group(1)), paragraph[match.end() :], entry["deal"], value
                    )
                )
                paragraph, entry = "", None
    return tuple(found)
