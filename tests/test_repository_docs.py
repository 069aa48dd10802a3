"""The repository documents itself: its Markdown links lead to its own files, never outside it;
the README is a front page, and every manual of docs/ is a page of the site (mkdocs.yml)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARKDOWN = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Built in two pieces so that this file does not itself mention the briefing folder.
OUTSIDE = "../" + "shared"
README_MOST_LINES = 150
SCREENSHOT_MOST_BYTES = 300_000


def navigation() -> list[str]:
    """The pages of mkdocs.yml's `nav`, in order (read as text: the file holds a Python tag
    that a safe YAML loader refuses)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:\n") :]
    return re.findall(r"^\s+- (?:[^:\n]+: )?(\S+\.md)$", nav, flags=re.MULTILINE)


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_of_the_repository(path):
    text = path.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    missing = [t for t in local if not (path.parent / t).resolve().is_relative_to(ROOT)]
    missing += [t for t in local if not (path.parent / t).exists()]
    assert missing == []


def test_nothing_outside_ci_points_to_the_briefing_folder():
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split("\0")
    if not any(tracked):
        pytest.fail("git ls-files found nothing: run the tests from a git checkout")
    mentions = []
    for name in tracked:
        path = ROOT / name
        if not name or name.startswith(".ci/") or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if OUTSIDE in text or "/work/" + "shared" in text:
            mentions.append(name)
    assert mentions == []


def test_the_readme_is_a_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES
    assert "make run" in "\n".join(lines) and "make test" in "\n".join(lines)


def test_the_readme_shows_two_small_screenshots_of_the_repository():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    images = re.findall(r'<img src="([^"]+)"', text)
    assert images == ["docs/img/table-phone.png", "docs/img/big-screen.png"]
    for image in images:
        assert (ROOT / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", image
        assert (ROOT / image).stat().st_size <= SCREENSHOT_MOST_BYTES, image


def test_every_manual_is_a_page_of_the_site_and_every_page_a_manual():
    pages = navigation()
    manuals = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    assert len(pages) == len(set(pages))
    assert sorted(pages) == manuals


def test_every_manual_the_readme_links_is_in_the_navigation():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {t for t in re.findall(r"\]\(docs/([^)#\s]+\.md)", text)}
    assert linked and linked <= set(navigation())
