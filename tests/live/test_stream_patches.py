"""The stream's patches (live/stream/events.py, live/stream/hub.py): a page holds a
region's lines and each new version comes as runs of them and the new lines; a patch always
makes the new region, is a few hundred bytes for a deal in a 400-team table, and a page that
fell behind gets one patch from what it holds, or the region whole."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from live.stream.events import (
    apply_patch,
    line_patch,
    patch_event,
    region_lines,
    sse_event,
)
from live.stream.hub import HISTORY, Listener
from live.stream.paths import topic_of
from tests.live.test_stream_hub import (
    FakeWeb,
    fetch_at_once,  # noqa: F401  (autouse)
    patch_of,
    run,
    scope,
)

# Few distinct lines, so that repeats (a row of zeros, `</tr>`) are the rule, as in a table.
LINES = st.lists(st.sampled_from(["<tr>", "</tr>", "<td>0</td>", "<td>1</td>", "é «»", ""]))


@given(old=LINES, new=LINES)
def test_a_patch_always_makes_the_new_lines(old, new):
    texts, ops = line_patch(old, new)
    assert apply_patch(old, texts, ops) == tuple(new)
    # Only what `old` lacks is sent as text, and each text once.
    assert sorted(texts) == sorted(set(new) - set(old))


@given(old=LINES)
def test_an_unchanged_region_is_one_run(old):
    assert line_patch(old, old) == ([], [[0, len(old)]] if old else [])


def standings(order: list[int], points: dict[int, int]) -> str:
    """A region shaped as templates/tournaments/_standings.html renders it: a row of several
    lines per team, its rank first."""
    rows = []
    for rank, team in enumerate(order, start=1):
        rows.append(
            f'      <tr class="">\n        <td class="num">{rank}</td>\n'
            f'        <td><a href="/clubs/a/b/teams/{team}/">Team {team}</a></td>\n'
            f'        <td class="num">3</td><td class="num">2</td><td class="num">0</td>\n'
            f'        <td class="num wide"><strong>{points[team]}</strong></td>\n'
            f"      </tr>"
        )
    body = "\n".join(rows)
    return f'<div id="standings" data-version="{sum(points.values())}">\n<tbody>\n{body}\n</tbody>\n</div>'


def test_a_deal_that_moves_a_team_fifty_places_is_a_small_patch():
    points = {team: 5000 - 10 * team for team in range(1, 401)}
    before = list(range(1, 401))
    points[250] += 760  # team 250 climbs to 174th: 76 ranks shift by one
    after = sorted(before, key=lambda team: -points[team])
    old = region_lines(standings(before, {**points, 250: points[250] - 760}))
    new = region_lines(standings(after, points))
    texts, ops = line_patch(old, new)
    assert apply_patch(old, texts, ops) == new
    event = patch_event("1", "2", texts, ops)
    whole = sse_event("standings", "2", new)
    assert len(whole) > 100_000
    # Two runs per shifted row (its rank line, then the rest), the moved row's new lines.
    assert len(event) < 3_000, len(event)
    assert len(event) < 0.02 * len(whole)


def test_a_patch_is_one_data_line_whatever_the_lines_hold():
    texts, ops = line_patch(["a"], ['<td title="« Les As »">é</td>', "a", "\t"])
    lines = patch_event("3-1", "4-2", texts, ops).decode().split("\n")
    assert lines[:2] == ["event: patch", "id: 4-2"] and lines[3:] == ["", ""]
    assert json.loads(lines[2].removeprefix("data: ")) == {
        "from": "3-1",
        "lines": ['<td title="« Les As »">é</td>', "\t"],
        "ops": [0, [0, 1], 1],
    }


class Versions(FakeWeb):
    """The web tier with a region of many rows, one row new per version."""

    def __init__(self) -> None:
        super().__init__("1-0")
        self.rows = {"1-0": [f"<tr><td>{n}</td></tr>" for n in range(200)]}

    def at(self, version: str, rows: list[str]) -> None:
        self.version = version
        self.rows[version] = rows

    async def fetch(self, topic):  # type: ignore[no-untyped-def]
        self.asked.append(topic.version)
        if topic.version == self.version:
            return 204, b""
        lines = "\n".join(self.rows[self.version])
        return 200, f'<div data-version="{self.version}">\n{lines}\n</div>'.encode()


def test_a_page_that_fell_behind_gets_one_patch_from_what_it_holds():
    web = Versions()

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        quick, slow = Listener(), Listener()
        topic, _ = topic_of(scope())
        joined = await hub.join(topic, quick)
        await hub.join(topic_of(scope())[0], slow)
        quick.take(joined), slow.take(joined)
        rows = web.rows["1-0"]
        for n in range(2, 5):
            rows = [*rows[:-1], f"<tr><td>new {n}</td></tr>"]
            web.at(f"{n}-0", rows)
            hub.published(joined.channel)
            await joined.fetching
            version, since, _, _ = patch_of(quick.take(joined))
            assert (version, since) == (f"{n}-0", f"{n - 1}-0")
        # The slow page was owed only the newest: one patch from 1-0 to 4-0.
        version, since, texts, ops = patch_of(slow.take(joined))
        assert (version, since) == ("4-0", "1-0")
        old = region_lines('<div data-version="1-0">\n' + "\n".join(web.rows["1-0"]) + "\n</div>")
        assert apply_patch(old, texts, ops)[-2] == "<tr><td>new 4</td></tr>"
        assert slow.holds == quick.holds == "4-0"

    run(scenario())


def test_a_page_whose_version_is_no_longer_kept_or_a_new_region_gets_it_whole():
    web = Versions()

    async def scenario():  # type: ignore[no-untyped-def]
        hub = web.hub()
        slow, quick = Listener(), Listener()
        joined = await hub.join(topic_of(scope())[0], slow)
        await hub.join(topic_of(scope())[0], quick)
        slow.take(joined), quick.take(joined)
        for n in range(2, HISTORY + 2):
            web.at(f"{n}-0", [*web.rows["1-0"][:-1], f"<tr><td>{n}</td></tr>"])
            hub.published(joined.channel)
            await joined.fetching
        assert "1-0" not in joined.kept_lines and len(joined.kept_lines) == HISTORY
        assert slow.take(joined) is joined.frame
        quick.take(joined)
        # Every row new (a new round, say): a patch would be as long as the region.
        web.at("20-0", [f"<tr><td>other {n}</td></tr>" for n in range(200)])
        hub.published(joined.channel)
        await joined.fetching
        assert quick.take(joined) is joined.frame

    run(scenario())
