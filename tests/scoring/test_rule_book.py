"""The rule book cannot rot: every example in docs/rules.md is exactly what the engine answers.

An example is a ```json block that `python -m scoring deal` or `match` reads
(`{"rules": ..., "deal": ...}` or `{"rules": ..., "first_dealer": ..., "deals": [...]}`),
followed by the ```json block of its answer. The Dutch, French and Finnish books carry the same
blocks, and every house rule of the engine has its own section in all four.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from scoring.engine import InvalidDeal, InvalidMatch, codec
from scoring.engine.rules import DEFAULT_RULES, RULE_NAMES

DOCS = Path(__file__).resolve().parents[2] / "docs"
BOOKS = {
    "en": DOCS / "rules.md",
    "nl": DOCS / "nl" / "rules.md",
    "fr": DOCS / "fr" / "rules.md",
    "fi": DOCS / "fi" / "rules.md",
}
DEAL_INPUT = frozenset({"rules", "deal"})
MATCH_INPUT = frozenset({"rules", "first_dealer", "deals"})
# Another branch is adding the `draws` house rule to the engine. Until it lands, the engine
# refuses an example that sets it, so such an example is an expected failure (not a skip: CI
# fails on skips); once the engine knows the rule, the example must pass like any other.
ENGINE_KNOWS_DRAWS = "draws" in RULE_NAMES
HOUSE_RULES = (*RULE_NAMES, *(() if ENGINE_KNOWS_DRAWS else ("draws",)))


@dataclass(frozen=True)
class Block:
    line: int
    section: str
    value: Any


@dataclass(frozen=True)
class Example:
    line: int
    section: str
    body: dict[str, Any]
    answer: Any

    @property
    def sets_draws(self) -> bool:
        return "draws" in (self.body.get("rules") or {})


def json_blocks(path: Path) -> list[Block]:
    """Every ```json block of a book, parsed, with its line and the heading above it."""
    tokens = MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8"))
    blocks, section = [], ""
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            section = tokens[index + 1].content
        elif token.type == "fence" and token.info.split()[:1] == ["json"]:
            line = token.map[0] + 1 if token.map else 0
            try:
                value = json.loads(token.content)
            except ValueError as error:
                raise ValueError(f"{path.name}:{line}: not valid JSON: {error}") from error
            blocks.append(Block(line, section, value))
    return blocks


def is_input(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    keys = frozenset(value)
    return ("deal" in keys and keys <= DEAL_INPUT) or ("deals" in keys and keys <= MATCH_INPUT)


def read_book(path: Path) -> tuple[list[Example], list[Block]]:
    """The examples of a book, and every other block it holds."""
    blocks = json_blocks(path)
    examples, others = [], []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        if is_input(block.value) and following is not None and not is_input(following.value):
            examples.append(Example(block.line, block.section, block.value, following.value))
            index += 2
        else:
            others.append(block)
            index += 1
    return examples, others


def engine_answer(body: dict[str, Any]) -> Any:
    """What `python -m scoring deal|match` prints for `body`."""
    try:
        if "deals" in body:
            return codec.match_answer(body.get("rules"), body["first_dealer"], body["deals"])
        return codec.deal_answer(body.get("rules"), body["deal"])
    except (InvalidDeal, InvalidMatch) as error:
        return codec.errors_to_json(error.problems)


def documented_defaults() -> dict[str, Any]:
    defaults = DEFAULT_RULES.to_json()
    if not ENGINE_KNOWS_DRAWS:
        defaults["draws"] = "allowed"
    return defaults


EXAMPLES, OTHER_BLOCKS = read_book(BOOKS["en"])


def example_param(example: Example) -> Any:
    marks = []
    if example.sets_draws and not ENGINE_KNOWS_DRAWS:
        marks.append(pytest.mark.xfail(reason="the engine does not know `draws` yet", strict=True))
    return pytest.param(example, id=f"line-{example.line}", marks=marks)


@pytest.mark.parametrize("example", [example_param(e) for e in EXAMPLES])
def test_every_example_of_the_rule_book_is_exactly_what_the_engine_answers(example):
    assert engine_answer(example.body) == example.answer, (
        f"docs/rules.md line {example.line} ({example.section})"
    )


def test_the_book_has_every_worked_example_of_section_6():
    worked = [e for e in EXAMPLES if e.section.startswith("6.")]
    # Fifteen examples; the twelfth is shown under both ways of comparing declarations.
    assert len(worked) == 16
    assert all(e.body["rules"] in ({}, {"declaration_comparison": "highest"}) for e in worked)


def test_every_house_rule_has_an_example_that_sets_it():
    set_somewhere = {name for e in EXAMPLES for name in e.body.get("rules") or {}}
    assert set(HOUSE_RULES) <= set_somewhere


def test_the_only_other_block_is_the_house_rules_at_their_defaults():
    assert [block.value for block in OTHER_BLOCKS] == [documented_defaults()]


def test_the_documented_defaults_name_every_house_rule_of_the_engine():
    assert set(documented_defaults()) == set(HOUSE_RULES)


@pytest.mark.parametrize("language", sorted(BOOKS))
def test_every_house_rule_has_its_own_section_in_every_language(language):
    lines = BOOKS[language].read_text(encoding="utf-8").splitlines()
    missing = [name for name in HOUSE_RULES if f"### `{name}`" not in lines]
    assert missing == []


@pytest.mark.parametrize("language", ["nl", "fr", "fi"])
def test_the_translations_show_the_same_examples_unchanged(language):
    original = [block.value for block in json_blocks(BOOKS["en"])]
    translated = [block.value for block in json_blocks(BOOKS[language])]
    assert translated == original


@pytest.mark.parametrize("language", ["nl", "fr", "fi"])
def test_the_translations_number_their_sections_like_the_original(language):
    def numbered(path: Path) -> list[str]:
        text = path.read_text(encoding="utf-8").splitlines()
        return [line.split(".")[0] for line in text if line.startswith("## ") and "." in line]

    assert numbered(BOOKS[language]) == numbered(BOOKS["en"])
