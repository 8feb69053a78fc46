"""Draw a game's board as SVG: tiles coloured by a field, pieces on tiles, corners and sides."""

from __future__ import annotations

import math
from typing import Any

import drawsvg as draw

SCALE = 42.0  # pixels per tile size (centre to corner)
MARGIN = 1.2
PLAYER_COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#8d6a9f", "#2e4057")
# Corners of a pointy-top hexagon of size 1 around its centre, clockwise from the top.
HEX = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(-90, 270, 60))


class NothingToDraw(Exception):
    """The game has no board (a card game)."""


def render_svg(state: Any, title: str = "") -> str:
    """A state's board as SVG text: tiles (or cells) filled by the `render.fill` field, every piece drawn."""
    board = state.game.board
    if board.shape == "grid":
        return _grid_svg(state, title)
    topo = board.topology
    if topo is None:
        raise NothingToDraw(f"{state.game.id} has no board to draw")
    spec = state.game.render or {}
    xs = [x for x, _ in topo.corner_xy.values()]
    ys = [y for _, y in topo.corner_xy.values()]
    left, top = (min(xs) - MARGIN) * SCALE, (min(ys) - MARGIN) * SCALE
    width, height = (max(xs) - min(xs) + 2 * MARGIN) * SCALE, (max(ys) - min(ys) + 2 * MARGIN) * SCALE
    d = draw.Drawing(width, height + 24, origin=(left, top - 24))
    d.append(draw.Rectangle(left, top - 24, width, height + 24, fill="white"))
    if title:
        d.append(draw.Text(title, 14, left + 8, top - 8, font_family="sans-serif"))
    field, colours = spec.get("fill"), spec.get("colours") or {}
    for tile in topo.tiles:
        cx, cy = topo.tile_xy[tile]
        value = state.sites.get(tile, {}).get(field) if field else None
        points = [c for dx, dy in HEX for c in ((cx + dx) * SCALE, (cy + dy) * SCALE)]
        d.append(draw.Lines(*points, close=True, fill=colours.get(str(value), "#eeeeee"), stroke="#777777"))
        d.append(
            draw.Text(
                tile, 8, cx * SCALE, (cy - 0.6) * SCALE, center=True, fill="#555555", font_family="sans-serif"
            )
        )
        if value is not None:
            d.append(
                draw.Text(
                    str(value),
                    9,
                    cx * SCALE,
                    (cy + 0.62) * SCALE,
                    center=True,
                    fill="#333333",
                    font_family="sans-serif",
                )
            )
    _pieces(d, state, spec)
    _legend(d, spec, left + 8, top + height - 10)
    return d.as_svg() or ""


def _grid_svg(state: Any, title: str) -> str:
    """A grid board: one square per cell, filled by the `render.fill` field, with a legend of the fills."""
    board = state.game.board
    spec = state.game.render or {}
    field, colours = spec.get("fill"), spec.get("colours") or {}
    size = 2 * SCALE
    cols = 1 + max((int(x) for x, _ in board.xy.values()), default=0)
    rows = 1 + max((int(y) for _, y in board.xy.values()), default=0)
    width, height = cols * size + 2 * SCALE, rows * size + 2 * SCALE + 48
    d = draw.Drawing(width, height, origin=(-SCALE, -SCALE - 24))
    d.append(draw.Rectangle(-SCALE, -SCALE - 24, width, height, fill="white"))
    if title:
        d.append(draw.Text(title, 14, -SCALE + 8, -SCALE - 8, font_family="sans-serif"))
    for cell in board.collections.get("cells", ()):
        x, y = board.xy[cell]
        value = state.sites.get(cell, {}).get(field) if field else None
        fill = colours.get(str(value), "#eeeeee")
        d.append(draw.Rectangle(x * size, y * size, size, size, fill=fill, stroke="#777777"))
        d.append(draw.Text(cell, 8, x * size + 3, y * size + 10, fill="#555555", font_family="sans-serif"))
        if value is not None:
            text = str(value).replace("_", " ")
            d.append(
                draw.Text(
                    text,
                    8,
                    (x + 0.5) * size,
                    (y + 0.88) * size,
                    center=True,
                    fill=_ink(fill),
                    font_family="sans-serif",
                )
            )
    for site, ids in sorted(state.at.items()):
        if site not in board.xy:
            continue
        x, y = board.xy[site]
        for k, pid in enumerate(ids):
            rec = state.pieces[pid]
            owner = rec.get("owner")
            colour = (spec.get("pieces") or {}).get(rec["kind"]) or (
                PLAYER_COLOURS[int(owner) % len(PLAYER_COLOURS)] if owner is not None else "#444444"
            )
            offset = (k - (len(ids) - 1) / 2) * 0.4
            cx, cy = (x + 0.5 + offset) * size, (y + 0.45) * size
            d.append(draw.Circle(cx, cy, 9, fill=colour, stroke="white", stroke_width=1.5))
            label = f"p{int(owner) + 1}" if owner is not None else ""
            if label:
                d.append(draw.Text(label, 8, cx, cy, center=True, fill="white", font_family="sans-serif"))
    legend = {str(k): v for k, v in colours.items()}
    _legend(d, {"pieces": {**legend, **(spec.get("pieces") or {})}}, -SCALE + 8, rows * size + 24)
    return d.as_svg() or ""


def _ink(fill: str) -> str:
    """Dark text on a light fill, white on a dark one."""
    try:
        r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#333333"
    return "#333333" if 0.299 * r + 0.587 * g + 0.114 * b > 120 else "#ffffff"


def _legend(d: Any, spec: dict[str, Any], x: float, y: float) -> None:
    """One line of swatches: the piece kinds given colours in `render.pieces`."""
    for kind, colour in (spec.get("pieces") or {}).items():
        d.append(draw.Rectangle(x, y - 9, 10, 10, fill=colour, stroke="#777777"))
        d.append(draw.Text(kind.replace("_", " "), 10, x + 14, y, font_family="sans-serif"))
        x += 24 + 6 * len(kind)


def _pieces(d: Any, state: Any, spec: dict[str, Any]) -> None:
    board = state.game.board
    label_field = spec.get("label")
    kind_colours = spec.get("pieces") or {}
    for site, ids in sorted(state.at.items()):
        if not ids:
            continue
        kind = board.kind_of.get(site)
        for k, pid in enumerate(ids):
            rec = state.pieces[pid]
            owner = rec.get("owner")
            colour = kind_colours.get(rec["kind"]) or (
                PLAYER_COLOURS[int(owner) % len(PLAYER_COLOURS)] if owner is not None else "#444444"
            )
            if kind == "side":
                (ax, ay), (bx, by) = (board.xy[c] for c in board.ends[site])
                d.append(
                    draw.Line(
                        ax * SCALE,
                        ay * SCALE,
                        bx * SCALE,
                        by * SCALE,
                        stroke=colour,
                        stroke_width=7,
                        stroke_linecap="round",
                    )
                )
                if owner is not None:
                    d.append(
                        draw.Circle(
                            (ax + bx) / 2 * SCALE,
                            (ay + by) / 2 * SCALE,
                            3,
                            fill=PLAYER_COLOURS[int(owner) % len(PLAYER_COLOURS)],
                        )
                    )
                continue
            x, y = board.xy[site]
            offset = (k - (len(ids) - 1) / 2) * 0.42
            px, py = (x + offset) * SCALE, y * SCALE
            d.append(draw.Circle(px, py, 9, fill=colour, stroke="white", stroke_width=1.5))
            text = rec.get(label_field) if label_field else None
            if text is not None and not isinstance(text, (tuple, list, dict)):
                d.append(
                    draw.Text(
                        str(text),
                        10,
                        px,
                        py,
                        center=True,
                        fill="white",
                        font_family="sans-serif",
                        font_weight="bold",
                    )
                )
