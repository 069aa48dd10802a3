"""Small line charts drawn on the server as inline SVG: no chart library, nothing to load."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Colour-blind friendly palette (Okabe–Ito), cycled; the legend and titles carry the names.
PALETTE = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#b8860b"]


def line_chart(
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    *,
    title: str,
    x_label: str = "",
    y_label: str = "",
    invert_y: bool = False,
    width: int = 640,
    height: int = 280,
    highlight: int | None = None,
) -> SafeString:
    """An SVG line chart of `series` [(name, [(x, y), ...])]; `invert_y` puts low values on top (ranks)."""
    points = [p for _, data in series for p in data]
    if not points:
        return mark_safe("")
    left, right, top, bottom = 44, 12, 12, 34
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x0 == x1:
        x0, x1 = x0 - 0.5, x1 + 0.5
    if y0 == y1:
        y0, y1 = y0 - 1, y1 + 1
    plot_w, plot_h = width - left - right, height - top - bottom

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * plot_w

    def py(y: float) -> float:
        share = (y - y0) / (y1 - y0)
        return top + (share if invert_y else 1 - share) * plot_h

    parts: list[str] = [
        format_html(
            '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}" '
            'preserveAspectRatio="xMidYMid meet"><title>{}</title>',
            width,
            height,
            title,
            title,
        )
    ]
    parts.append(
        f'<line class="axis" x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}"/>'
        f'<line class="axis" x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}"/>'
    )
    for value in _ticks(y0, y1):
        parts.append(
            f'<text class="tick" x="{left - 6}" y="{py(value) + 4:.1f}" text-anchor="end">{_fmt(value)}</text>'
            f'<line class="grid" x1="{left}" y1="{py(value):.1f}" x2="{left + plot_w}" y2="{py(value):.1f}"/>'
        )
    for value in _ticks(x0, x1):
        parts.append(
            f'<text class="tick" x="{px(value):.1f}" y="{top + plot_h + 16}" text-anchor="middle">{_fmt(value)}</text>'
        )
    if x_label:
        parts.append(
            f'<text class="label" x="{left + plot_w / 2:.1f}" y="{height - 2}" text-anchor="middle">{escape(x_label)}</text>'
        )
    if y_label:
        parts.append(
            f'<text class="label" x="12" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
            f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">{escape(y_label)}</text>'
        )
    # With many series only the first `highlight` get a colour; the rest stay grey behind them.
    ordered = list(enumerate(series))
    if highlight is not None:
        ordered = ordered[highlight:][::-1] + ordered[:highlight][::-1]
    for index, (name, data) in ordered:
        if not data:
            continue
        faint = highlight is not None and index >= highlight
        colour = "#c3cad2" if faint else PALETTE[index % len(PALETTE)]
        coords = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in data)
        parts.append(
            f'<g class="series{" faint" if faint else ""}"><title>{escape(name)}</title>'
            f'<polyline points="{coords}" fill="none" stroke="{colour}" '
            f'stroke-width="{1 if faint else 2}"/>'
        )
        if len(data) <= 60 and not faint:
            for x, y in data:
                parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{colour}"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return mark_safe("".join(str(p) for p in parts))  # every text is escaped above


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    span = high - low
    raw = span / count
    step = 1.0
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        step = candidate
        if candidate >= raw:
            break
    first = (int(low // step) + (0 if low % step == 0 else 1)) * step
    values = []
    value = first
    while value <= high + 1e-9:
        values.append(value)
        value += step
    return values


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def series_colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


@register.simple_tag
def rating_chart(changes: Sequence[Any], title: str = "") -> SafeString:
    """A player's rating after each finished match, numbered in order."""
    data = [(float(i + 1), float(change.rating)) for i, change in enumerate(changes)]
    return line_chart([(title, data)], title=title, height=200)


@register.filter
def colour(index: int) -> str:
    return series_colour(int(index))
