"""The shared parts of every picture of a game: the frame, colours, piece markers and the legend.

A `Picture` holds a board's elements in two layers, `board` (the sites, which rarely change) and `pieces`
(what moves), so the replay viewer can keep one copy of a board and lay each step's pieces over it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import drawsvg as draw

SCALE = 42.0  # pixels per unit of a board (a hex tile's size, half a grid cell, a graph's link)
FONT = "sans-serif"
TITLE_BAND = 28.0  # pixels above the board for the title
PLAYER_COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#8d6a9f", "#2e4057", "#f08a4b", "#6c757d")
# Colours for values of the fill field that `render.colours` does not name, in order of first use.
PALETTE = ("#8ecae6", "#b5d98a", "#f1d9a0", "#cdb8ee", "#f4a6a6", "#a3c4bc", "#e9c46a", "#c9ada7")
SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star")
NEUTRAL = "#555555"  # a piece with no owner and no colour of its own


@dataclass
class LegendItem:
    label: str
    colour: str
    shape: str = "swatch"  # swatch (a fill colour), a piece shape from SHAPES, or line (a piece on a side)


@dataclass
class Picture:
    """A board drawn in pixels: the area it covers, its two layers and what its legend explains."""

    left: float
    top: float
    width: float
    height: float
    board: list[Any] = field(default_factory=list)
    pieces: list[Any] = field(default_factory=list)
    legend: list[LegendItem] = field(default_factory=list)


def r1(v: float) -> float:
    """A coordinate rounded to a tenth of a pixel: smaller files, no visible change."""
    return round(v, 1)


# ---------------------------------------------------------------- the whole picture as SVG


LEGEND_FONT, LEGEND_ROW = 11.0, 18.0


def legend_rows(items: Sequence[LegendItem], width: float) -> list[list[tuple[float, LegendItem]]]:
    """The legend's items placed left to right, a new row wherever the next one would not fit."""
    rows: list[list[tuple[float, LegendItem]]] = [[]]
    x = 0.0
    for item in items:
        w = 22 + text_width(item.label, LEGEND_FONT) + 12
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append((x, item))
        x += w
    return [row for row in rows if row]


def to_svg(pic: Picture, title: str = "", parts: Iterable[str] = ("board", "pieces")) -> str:
    """The picture as an SVG document: a title band, the board, then the legend in as many rows as needed.

    `parts` picks the layers; every choice gives a document of the same size, so layers drawn separately
    line up when laid over each other (the board layer carries the white background, title and legend)."""
    parts = tuple(parts)
    width = max(pic.width, 240.0)
    rows = legend_rows(pic.legend, width - 16)
    legend_height = len(rows) * LEGEND_ROW + (10 if rows else 0)
    top = pic.top - TITLE_BAND
    height = pic.height + TITLE_BAND + legend_height
    d = draw.Drawing(r1(width), r1(height), origin=(r1(pic.left), r1(top)))
    if "board" in parts:
        d.append(draw.Rectangle(r1(pic.left), r1(top), r1(width), r1(height), fill="white"))
        if title:
            d.append(draw.Text(title, 14, r1(pic.left + 8), r1(top + 19), font_family=FONT))
        for element in pic.board:
            d.append(element)
        y = pic.top + pic.height + 4
        for row in rows:
            for x, item in row:
                _legend_item(d, item, pic.left + 8 + x, y + LEGEND_ROW / 2)
            y += LEGEND_ROW
    if "pieces" in parts:
        for element in pic.pieces:
            d.append(element)
    return strip_prolog(d.as_svg() or "")


def strip_prolog(svg: str) -> str:
    """The SVG without its `<?xml …?>` line and empty `<defs>`, ready to stand in a file or a web page."""
    if svg.startswith("<?xml"):
        svg = svg.split("\n", 1)[1]
    return svg.replace("<defs>\n</defs>\n", "")


def _legend_item(d: Any, item: LegendItem, x: float, y: float) -> None:
    if item.shape == "swatch":
        d.append(draw.Rectangle(r1(x), r1(y - 6), 12, 12, fill=item.colour, stroke="#777777"))
    elif item.shape == "line":
        d.append(draw.Line(r1(x), r1(y), r1(x + 14), r1(y), stroke=item.colour, stroke_width=5))
    else:
        d.append(marker(item.shape, x + 6, y, 6, item.colour, "#666666"))
    d.append(
        draw.Text(item.label, LEGEND_FONT, r1(x + 18), r1(y), font_family=FONT, dominant_baseline="central")
    )


def text_width(text: str, size: float) -> float:
    """About how wide a line of sans-serif text is, in pixels."""
    return 0.58 * size * len(text)


def words(value: Any) -> str:
    """A field value as a reader would write it: `silk_camp` as `silk camp`, a list as `a, b`."""
    if isinstance(value, (tuple, list)):
        return ", ".join(words(v) for v in value)
    return str(value).replace("_", " ")


# ---------------------------------------------------------------- colours


def ink(fill: str) -> str:
    """Dark text on a light fill, white on a dark one."""
    try:
        r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#333333"
    return "#333333" if 0.299 * r + 0.587 * g + 0.114 * b > 120 else "#ffffff"


def player_colour(owner: Any) -> str:
    return PLAYER_COLOURS[int(owner) % len(PLAYER_COLOURS)]


class FillColours:
    """The colour of each value of the `render.fill` field: the rule file's, else a scale or a palette.

    Numbers the rule file gives no colour get a scale from light to dark over the numbers on the board;
    other values take the next colour of PALETTE in sorted order, so the same board gets the same colours."""

    def __init__(self, given: dict[Any, Any], values: Iterable[Any]) -> None:
        self.given = {str(k): str(v) for k, v in (given or {}).items()}
        present = {v for v in values if v is not None}
        missing = sorted((v for v in present if str(v) not in self.given), key=lambda v: (str(type(v)), v))
        numbers = [v for v in missing if isinstance(v, (int, float)) and not isinstance(v, bool)]
        self.own: dict[str, str] = {}
        if numbers:
            low, high = min(numbers), max(numbers)
            for v in numbers:
                self.own[str(v)] = _scale((v - low) / (high - low) if high > low else 0.5)
        others = [v for v in missing if str(v) not in self.own]
        for i, v in enumerate(others):
            self.own[str(v)] = PALETTE[i % len(PALETTE)]
        order = [k for k in self.given if k in {str(v) for v in present}]
        self.order = order + [str(v) for v in missing]

    def __call__(self, value: Any) -> str:
        if value is None:
            return "#eeeeee"
        key = str(value)
        return self.given.get(key) or self.own.get(key) or "#eeeeee"

    def legend(self, field_name: str) -> list[LegendItem]:
        """One swatch per value on the board, the rule file's colours first in its order."""
        if not self.order:
            return []
        numeric = all(_is_number(k) for k in self.order)
        return [LegendItem(f"{words(field_name)} {k}" if numeric else words(k), self(k)) for k in self.order]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _scale(t: float) -> str:
    """A colour from pale green (t = 0) through tan to a dark slate (t = 1): lowland to high ground."""
    stops = ((0.0, (0xD8, 0xEE, 0xC8)), (0.5, (0xE0, 0xC8, 0x9A)), (1.0, (0x6E, 0x74, 0x86)))
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            u = (t - t0) / (t1 - t0)
            return "#" + "".join(f"{round(a + (b - a) * u):02x}" for a, b in zip(c0, c1))
    return "#6e7486"


# ---------------------------------------------------------------- pieces


def marker(shape: str, x: float, y: float, r: float, fill: str, stroke: str = "white") -> Any:
    """A piece's mark: a small shape of radius `r` centred on (x, y)."""
    if shape == "circle":
        return draw.Circle(r1(x), r1(y), r1(r), fill=fill, stroke=stroke, stroke_width=1.5)
    if shape == "square":
        s = r * 0.9
        return draw.Rectangle(r1(x - s), r1(y - s), r1(2 * s), r1(2 * s), fill=fill, stroke=stroke)
    corners = {"triangle": (3, -90), "diamond": (4, -90), "hexagon": (6, 0), "star": (10, -90)}
    n, start = corners.get(shape, (4, -90))
    points: list[float] = []
    for i in range(n):
        a = math.radians(start + i * 360 / n)
        radius = r * (1.15 if shape == "triangle" else 1.0) * (0.5 if shape == "star" and i % 2 else 1.0)
        points += [r1(x + radius * math.cos(a)), r1(y + radius * math.sin(a) + (r * 0.15 if n == 3 else 0))]
    return draw.Lines(*points, close=True, fill=fill, stroke=stroke, stroke_width=1.5)


class PieceStyle:
    """How the pieces of one game look: a shape per kind, a colour per kind or per owner, a label field."""

    def __init__(self, game: Any) -> None:
        spec = game.render or {}
        kinds = list(game.supply) or sorted(game.sym.piece_kinds)
        self.shape = {kind: SHAPES[i % len(SHAPES)] for i, kind in enumerate(kinds)}
        self.colours = {str(k): str(v) for k, v in (spec.get("pieces") or {}).items()}
        self.label = spec.get("label")

    def colour(self, rec: dict[str, Any]) -> tuple[str, str]:
        """The fill and the outline of a piece: its kind's colour ringed by its owner's, or its owner's."""
        owner = rec.get("owner")
        own = self.colours.get(rec["kind"])
        if own is not None:
            return own, player_colour(owner) if owner is not None else "white"
        return (player_colour(owner) if owner is not None else NEUTRAL), "white"

    def text(self, rec: dict[str, Any]) -> str | None:
        value = rec.get(self.label) if self.label else None
        if value is None or isinstance(value, (tuple, list, dict)) or isinstance(value, bool):
            return None
        return str(value)

    def draw(self, out: list[Any], rec: dict[str, Any], x: float, y: float, r: float = 9.0) -> None:
        fill, stroke = self.colour(rec)
        out.append(marker(self.shape.get(rec["kind"], "circle"), x, y, r, fill, stroke))
        text = self.text(rec)
        if text is not None:
            out.append(
                draw.Text(
                    text,
                    10,
                    r1(x),
                    r1(y),
                    center=True,
                    fill=ink(fill),
                    font_family=FONT,
                    font_weight="bold",
                )
            )

    def legend(self, state: Any) -> list[LegendItem]:
        """Each piece kind with its shape, then each player's colour."""
        items = []
        for kind, shape in self.shape.items():
            items.append(LegendItem(words(kind), self.colours.get(kind, "#999999"), shape))
        if items:  # pieces take their owner's colour, or are ringed by it
            items += [LegendItem(str(p), player_colour(p)) for p in state.players]
        return items


def spread(n: int, gap: float) -> list[tuple[float, float]]:
    """Offsets for `n` pieces sharing a site: a row of up to four, then more rows below."""
    per_row = 4 if n > 4 else n
    rows = math.ceil(n / per_row) if n else 0
    out = []
    for k in range(n):
        row, col = divmod(k, per_row)
        in_row = min(per_row, n - row * per_row)
        out.append(((col - (in_row - 1) / 2) * gap, (row - (rows - 1) / 2) * gap))
    return out


def pieces_by_site(state: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """The pieces on each site, sites in board order."""
    order = state.game.board.order
    return [
        (site, [state.pieces[pid] for pid in ids])
        for site, ids in sorted(state.at.items(), key=lambda kv: order.get(kv[0], len(order)))
        if ids
    ]
