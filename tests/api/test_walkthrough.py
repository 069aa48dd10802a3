"""docs/api.md cannot rot: its ```sh blocks run, in order, in one bash against a live site,
and each block's output equals the ```text block shown after it."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from .live_site import ROOT, LiveSite, live_site

WALKTHROUGH = ROOT / "docs" / "api.md"
MARKER = "@@ walkthrough block {} @@"


@dataclass(frozen=True)
class Step:
    line: int
    commands: str
    prints: str | None  # the ```text block that follows, if any


def steps(path: Path) -> list[Step]:
    """Each ```sh block of the page, with the ```text block right after it (its output)."""
    fences = [
        token
        for token in MarkdownIt("commonmark").parse(path.read_text(encoding="utf-8"))
        if token.type == "fence"
    ]
    found: list[Step] = []
    for index, fence in enumerate(fences):
        if fence.info.strip() != "sh":
            continue
        following = fences[index + 1] if index + 1 < len(fences) else None
        prints = following.content if following and following.info.strip() == "text" else None
        found.append(Step((fence.map or [0])[0] + 1, fence.content, prints))
    return found


def script(page: list[Step]) -> str:
    parts = ["set -euo pipefail"]
    for number, step in enumerate(page):
        parts += [f"printf '%s\\n' '{MARKER.format(number)}'", step.commands]
    return "\n".join(parts) + "\n"


def outputs(stdout: str, count: int) -> list[str]:
    pieces = re.split(r"^@@ walkthrough block (\d+) @@\n", stdout, flags=re.MULTILINE)
    found = {int(pieces[i]): pieces[i + 1] for i in range(1, len(pieces) - 1, 2)}
    return [found.get(number, "") for number in range(count)]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveSite]:
    with live_site(tmp_path_factory.mktemp("walkthrough")) as running:
        yield running


def test_the_page_has_an_evening_to_run():
    page = steps(WALKTHROUGH)
    assert len(page) >= 10
    assert sum(step.prints is not None for step in page) >= 8
    everything = "\n".join(step.commands for step in page)
    for path in ["/auth/token/", "/me/", "/tournaments/", "/schedule/", "/deals/", "/standings/"]:
        assert path in everything, path


def test_every_command_of_the_walkthrough_runs_and_prints_what_the_page_says(site):
    assert shutil.which("curl"), "the walkthrough needs curl"
    page = steps(WALKTHROUGH)
    done = subprocess.run(
        ["bash", "-c", script(page)],
        cwd=ROOT,
        env={**site.env, "BELOTE": site.url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    printed = outputs(done.stdout, len(page))
    ran = done.stdout.count("@@ walkthrough block")
    assert done.returncode == 0, (
        f"docs/api.md line {page[ran - 1].line}: the block failed "
        f"(status {done.returncode}):\n{printed[ran - 1]}\n{done.stderr}"
    )
    for step, output in zip(page, printed, strict=True):
        if step.prints is not None:
            assert output == step.prints, f"docs/api.md line {step.line}"
