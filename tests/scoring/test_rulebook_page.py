"""The rule book page: docs/rules.md rendered in the visitor's language, with contents and anchors."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.urls import reverse

from scoring.engine.rules import RULE_NAMES
from scoring.rulebook import render, rendered_book
from scoring.views import DOCS

LANGUAGES = ("en", "nl", "fr", "fi")
HOUSE_RULES = (*RULE_NAMES, *(() if "draws" in RULE_NAMES else ("draws",)))


def page(client, settings, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("scoring:rulebook"))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("language", "title", "section", "contents"),
    [
        ("en", "The Belote rule book", "9. House rules", "Contents"),
        ("nl", "Het spelreglement van de Belote", "9. Huisregels", "Inhoud"),
        ("fr", "Le règlement de la belote", "9. Règles maison", "Sommaire"),
        ("fi", "Belote-sääntökirja", "9. Talon säännöt", "Sisällys"),
    ],
)
def test_the_rule_book_answers_in_the_visitors_language(
    client, settings, compiled_catalogues, language, title, section, contents
):
    html = page(client, settings, language)
    assert f"<h1>{title}</h1>" in html
    assert f'<h2 id="toc-title">{contents}</h2>' in html
    assert f'<a href="#{section[:1]}-' in html and section in html


def test_the_contents_list_every_section_in_order(client, settings):
    html = page(client, settings, "en")
    start = html.index('id="toc-title"')
    toc = html[start : html.index("</nav>", start)]
    assert re.findall(r'href="#([^"]+)"', toc) == [
        "1-table-seats-and-teams",
        "2-cards-their-order-and-their-value",
        "3-dealing-and-taking-trump",
        "4-declarations",
        "5-scoring-a-deal",
        "6-worked-examples",
        "7-a-match",
        "8-the-json-contract",
        "9-house-rules",
        "10-two-or-three-players-each-for-themselves",
        "sources-and-choices",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_house_rule_has_an_anchor_named_after_it(language):
    book = rendered_book(DOCS, language)
    assert set(HOUSE_RULES) <= book.anchors


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_link_inside_the_book_leads_to_a_heading(language):
    book = rendered_book(DOCS, language)
    targets = {unquote(href) for href in re.findall(r'href="#([^"]+)"', book.html)}
    assert targets and targets <= book.anchors


def test_raw_html_in_the_markdown_is_escaped():
    book = render('# Title\n\n<script>alert("x")</script>\n\n[link](javascript:alert(1))\n')
    assert "<script>" not in book.html and "&lt;script&gt;" in book.html
    assert 'href="javascript' not in book.html


def test_headings_get_the_anchors_github_gives_them():
    book = render("# Book\n\n## 9. Règles maison\n\n### `litige`\n\n## Fours\n\n## Fours\n")
    assert [h.anchor for h in book.contents] == ["9-règles-maison", "fours", "fours-1"]
    assert '<h3 id="litige"><code>litige</code></h3>' in book.html
    assert book.title == "Book" and "<h1" not in book.html


def test_a_language_without_a_translation_reads_the_original(tmp_path):
    (tmp_path / "rules.md").write_text("# Original\n", encoding="utf-8")
    assert rendered_book(tmp_path, "de").title == "Original"


def test_the_book_is_rendered_once_per_language(monkeypatch):
    rendered_book(DOCS, "fr")
    monkeypatch.setattr("scoring.rulebook.render", lambda text: pytest.fail("rendered again"))
    assert rendered_book(DOCS, "fr").title == "Le règlement de la belote"


@pytest.mark.django_db
def test_the_rule_book_page_needs_no_query(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(0):
        assert client.get(reverse("scoring:rulebook")).status_code == 200


def test_the_header_and_the_footer_link_to_the_rule_book(client, settings):
    html = page(client, settings, "en")
    assert html.count(f'href="{reverse("scoring:rulebook")}"') >= 2
