"""The repository documents itself: its Markdown links lead to its own files, never outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARKDOWN = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Built in two pieces so that this file does not itself mention the briefing folder.
OUTSIDE = "../" + "shared"


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
