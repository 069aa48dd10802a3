"""What a stream host writes on the wire: server-sent events, whole regions and line patches.

A page that opens a stream is sent its region whole once; after that, each new version is a
`patch` from the version the page holds: `{"from": version, "lines": [...], "ops": [...]}`,
the region's new lines in order as runs of the old ones (`[start, count]`) and lines that
are new (an index into `lines`, each new text listed once: a tie of 260 teams that all move
from "68=" to "69=" is one line). A deal moves a team's row and the ranks beside it; the
other rows of a 400-team table are copied, so an event is a few kB where the region is
260 kB (static/js/live.js applies it, `apply_patch` is its mirror here).

Lines are the region's `str.splitlines()`, the lines its event carries: EventSource joins an
event's data lines with "\\n", so the page splits its copy on "\\n" and finds the same ones.

Each event is compressed by a fresh deflate compressor ending on a full flush: it refers to
nothing before it, so the bytes are the same for every connection, and a gzip stream (a
header, then these events one after another) decodes as one for the browser.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
# A patch is the event sent only when it is at most this share of the whole region: past it,
# a page gets the region (a new round, a new language of the rows: nearly every line new).
PATCH_AT_MOST = 0.5

Op = list[int] | int  # [start, count] of the old lines, or the index of a new line


def sse_event(name: str, version: str, lines: Sequence[str]) -> bytes:
    """One server-sent event: a data line each (a region's lines), the version as its id."""
    data = "".join(f"data: {line}\n" for line in lines or [""])
    return f"event: {name}\nid: {version}\n{data}\n".encode()


def region_lines(html: str) -> tuple[str, ...]:
    """The lines of a region as its event carries them (and the page splits them again)."""
    return tuple(html.splitlines())


def line_patch(old: Sequence[str], new: Sequence[str]) -> tuple[list[str], list[Op]]:
    """`new` as runs of `old`'s lines and the lines `old` has nowhere (the new texts, each
    once, and the ops).

    A line `old` also has is copied from where it stands: after the run it extends, else
    from its first place. Lines repeat (`</tr>`, a row of zeros), so any place with the same
    text is as good; the cost is only a shorter run.
    """
    first: dict[str, int] = {}
    for index, line in enumerate(old):
        first.setdefault(line, index)
    ops: list[Op] = []
    texts: dict[str, int] = {}
    follows = -1  # the old line that would extend the last run
    for line in new:
        if 0 <= follows < len(old) and old[follows] == line:
            run = ops[-1]
            assert isinstance(run, list)
            run[1] += 1
            follows += 1
            continue
        place = first.get(line)
        if place is None:
            ops.append(texts.setdefault(line, len(texts)))
            follows = -1
        else:
            ops.append([place, 1])
            follows = place + 1
    return list(texts), ops


def apply_patch(old: Sequence[str], texts: Sequence[str], ops: Sequence[Op]) -> tuple[str, ...]:
    """The new lines a patch makes of `old` (what static/js/live.js does with one)."""
    lines: list[str] = []
    for op in ops:
        if isinstance(op, int):
            lines.append(texts[op])
        else:
            start, count = op
            lines.extend(old[start : start + count])
    return tuple(lines)


def patch_event(since: str, version: str, texts: Sequence[str], ops: Sequence[Op]) -> bytes:
    """The `patch` event that turns version `since`'s lines into `version`'s."""
    patch = {"from": since, "lines": texts, "ops": ops}
    body = json.dumps(patch, ensure_ascii=False, separators=(",", ":"))
    return sse_event("patch", version, [body])


def deflated(chunk: bytes) -> bytes:
    """`chunk` as deflate blocks that refer to nothing before them (see the module's doc)."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)


@dataclass(eq=False)
class Frame:
    """An event as sent: plain, and deflated once for every listener that accepts gzip."""

    plain: bytes
    packed: bytes = b""

    def __post_init__(self) -> None:
        self.packed = deflated(self.plain)

    def body(self, gzip: bool) -> bytes:
        return self.packed if gzip else self.plain


KEEPALIVE = Frame(b": keepalive\n\n")
# The page already shows the newest version: it may stop polling (static/js/live.js). An
# event with no data is never dispatched by EventSource, hence the "1".
CURRENT = Frame(b"event: current\ndata: 1\n\n")
# The host cannot fetch the region now (the web tier answered neither the region nor a
# refusal): the page polls until the next region event.
POLL = Frame(b"event: poll\ndata: 1\n\n")
# Not sent as such: the listener is owed the topic's newest version, as a patch from the
# version it holds when there is one (`Topic.frame_for`), else whole.
NEWEST = Frame(b"")
