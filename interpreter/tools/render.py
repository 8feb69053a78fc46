"""Draw a game as SVG: a hex or grid board, a graph board laid out from its fields, or a card game's table.

The rule file's `render:` section says how: `fill` (the site field that colours sites) with `colours`,
`pieces` (colours of piece kinds), `label` (a piece field written on pieces), `show` (site fields written on
sites) and, for graph boards, `layout` (the fields or defs that place the spaces).
"""

from __future__ import annotations

import math
from typing import Any

import drawsvg as draw

from meeple.tools.drawing import (
    FONT,
    SCALE,
    FillColours,
    Picture,
    PieceStyle,
    ink,
    pieces_by_site,
    r1,
    spread,
    to_svg,
    words,
)

MARGIN = 1.2  # board units of white around a hex board
# Corners of a pointy-top hexagon of size 1 around its centre, clockwise from the top.
HEX = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(-90, 270, 60))


class NothingToDraw(Exception):
    """The game has neither a board nor any zone to draw."""


def render_svg(state: Any, title: str = "") -> str:
    """A state's board (or, for a game without one, its table of zones) as SVG text."""
    return to_svg(picture(state), title)


def picture(state: Any, sites: bool = True) -> Picture:
    """The state drawn in layers: the board's sites and legend, and the pieces on them.

    With `sites=False` the board layer is left empty (the frame and legend are still worked out, so the
    pieces line up with a board layer drawn before): quicker for a caller that already has the board."""
    shape = state.game.board.shape
    if shape == "hex" and state.game.board.topology is not None:
        return hex_picture(state, sites)
    if shape == "grid":
        return grid_picture(state, sites)
    if shape == "graph":
        from meeple.tools.render_graph import graph_picture

        return graph_picture(state, sites)
    from meeple.tools.render_table import table_picture

    return table_picture(state)


def fill_colours(state: Any, sites: Any) -> tuple[str | None, FillColours]:
    """The fill field and the colour of each of its values on these sites."""
    spec = state.game.render or {}
    field = spec.get("fill")
    values = [state.sites.get(s, {}).get(field) for s in sites] if field else []
    return field, FillColours(spec.get("colours") or {}, values)


def shown(state: Any, site: str) -> str | None:
    """The `render.show` fields a site has, as one line: a lone value as it is (`8`), several with their
    names (`vp 4 · cost 2`)."""
    names = (state.game.render or {}).get("show") or ()
    fields = state.sites.get(site, {})
    present = [(n, fields[n]) for n in names if fields.get(n) is not None]
    if not present:
        return None
    if len(present) == 1:
        return words(present[0][1])
    return " · ".join(f"{words(n)} {words(v)}" for n, v in present)


def text(
    out: list[Any], value: str, size: float, x: float, y: float, fill: str = "#333333", **kw: Any
) -> None:
    out.append(draw.Text(value, size, r1(x), r1(y), center=True, fill=fill, font_family=FONT, **kw))


def token(out: list[Any], value: str, x: float, y: float) -> None:
    """A site's shown fields: on a pale disc when short (a number token), else as a plain line."""
    if len(value) <= 3:
        out.append(draw.Circle(r1(x), r1(y), 9.5, fill="#fbf3dc", stroke="#8a7a5a", stroke_width=0.8))
        text(out, value, 10, x, y, font_weight="bold")
    else:
        text(out, value, 9, x, y)


# ---------------------------------------------------------------- hex boards


def hex_picture(state: Any, sites: bool = True) -> Picture:
    """Tiles filled by the fill field, every piece on its tile, corner or side, shown fields on sites."""
    board = state.game.board
    topo = board.topology
    xs = [x for x, _ in topo.corner_xy.values()]
    ys = [y for _, y in topo.corner_xy.values()]
    left, top = (min(xs) - MARGIN) * SCALE, (min(ys) - MARGIN) * SCALE
    width, height = (max(xs) - min(xs) + 2 * MARGIN) * SCALE, (max(ys) - min(ys) + 2 * MARGIN) * SCALE
    pic = Picture(left, top, width, height)
    field, colours = fill_colours(state, topo.tiles)
    for tile in topo.tiles if sites else ():
        cx, cy = topo.tile_xy[tile]
        value = state.sites.get(tile, {}).get(field) if field else None
        fill = colours(value)
        points = [r1(c) for dx, dy in HEX for c in ((cx + dx) * SCALE, (cy + dy) * SCALE)]
        pic.board.append(draw.Lines(*points, close=True, fill=fill, stroke="#777777"))
        text(pic.board, tile, 8, cx * SCALE, (cy - 0.62) * SCALE, ink(fill) if value else "#555555")
        if value is not None:
            text(pic.board, words(value), 8, cx * SCALE, (cy + 0.62) * SCALE, ink(fill))
        label = shown(state, tile)
        if label is not None:
            token(pic.board, label, cx * SCALE, (cy + 0.2) * SCALE)
    centre = (sum(xs) / len(xs), sum(ys) / len(ys))
    for site in (*topo.corners, *topo.sides) if sites else ():
        label = shown(state, site)
        if label is not None:
            _edge_label(pic.board, label, _site_point(board, site), centre)
    _board_pieces(state, pic, lambda site: _site_point(board, site))
    if field:
        pic.legend += colours.legend(field)
    pic.legend += PieceStyle(state.game).legend(state)
    return pic


def _site_point(board: Any, site: str) -> tuple[float, float]:
    """A site's place in board units: a side at its middle."""
    if board.kind_of.get(site) == "side":
        (ax, ay), (bx, by) = (board.xy[c] for c in board.ends[site])
        return (ax + bx) / 2, (ay + by) / 2
    return board.xy[site]


def _edge_label(out: list[Any], label: str, at: tuple[float, float], centre: tuple[float, float]) -> None:
    """A field written beside a corner or side, pushed away from the board's centre onto the margin."""
    x, y = at
    dx, dy = x - centre[0], y - centre[1]
    norm = math.hypot(dx, dy) or 1.0
    px, py = (x + 0.6 * dx / norm) * SCALE, (y + 0.6 * dy / norm) * SCALE
    w = 6 + 5.2 * len(label)
    out.append(
        draw.Rectangle(
            r1(px - w / 2), r1(py - 7), r1(w), 14, rx=4, fill="#fffbe8", stroke="#b09a60", stroke_width=0.8
        )
    )
    text(out, label, 9, px, py)


def _board_pieces(state: Any, pic: Picture, point: Any) -> None:
    """Pieces on sides as thick lines in their colour with their mark in the middle; on tiles and corners as
    marks, side by side."""
    board = state.game.board
    style = PieceStyle(state.game)
    on_sides = [(s, recs) for s, recs in pieces_by_site(state) if board.kind_of.get(s) == "side"]
    others = [(s, recs) for s, recs in pieces_by_site(state) if board.kind_of.get(s) not in (None, "side")]
    for site, recs in on_sides + others:  # lines first, so the marks on corners stay on top
        if board.kind_of[site] == "side":
            (ax, ay), (bx, by) = (board.xy[c] for c in board.ends[site])
            for k, rec in enumerate(recs):
                fill, _ = style.colour(rec)
                line = (r1(ax * SCALE), r1(ay * SCALE), r1(bx * SCALE), r1(by * SCALE))
                pic.pieces.append(draw.Line(*line, stroke=fill, stroke_width=6, stroke_linecap="round"))
                t = 0.5 + (k - (len(recs) - 1) / 2) * 0.25
                style.draw(pic.pieces, rec, (ax + (bx - ax) * t) * SCALE, (ay + (by - ay) * t) * SCALE, 6.0)
            continue
        x, y = point(site)
        lift = -0.08 if board.kind_of[site] == "tile" else 0.0
        for rec, (dx, dy) in zip(recs, spread(len(recs), 0.45)):
            style.draw(pic.pieces, rec, (x + dx) * SCALE, (y + lift + dy) * SCALE)


# ---------------------------------------------------------------- grid boards


def grid_picture(state: Any, sites: bool = True) -> Picture:
    """A grid board: one square per cell, filled by the fill field, pieces in the middle of their cell."""
    board = state.game.board
    size = 2 * SCALE
    cells = board.collections.get("cells", ())
    cols = 1 + max((int(x) for x, _ in board.xy.values()), default=0)
    rows = 1 + max((int(y) for _, y in board.xy.values()), default=0)
    pic = Picture(-SCALE / 2, -SCALE / 2, cols * size + SCALE, rows * size + SCALE)
    field, colours = fill_colours(state, cells)
    for cell in cells if sites else ():
        x, y = board.xy[cell]
        value = state.sites.get(cell, {}).get(field) if field else None
        fill = colours(value)
        pic.board.append(
            draw.Rectangle(r1(x * size), r1(y * size), r1(size), r1(size), fill=fill, stroke="#777777")
        )
        pic.board.append(
            draw.Text(cell, 8, r1(x * size + 3), r1(y * size + 10), fill=ink(fill), font_family=FONT)
        )
        if value is not None:
            text(pic.board, words(value), 8, (x + 0.5) * size, (y + 0.88) * size, ink(fill))
        label = shown(state, cell)
        if label is not None:
            token(pic.board, label, (x + 0.5) * size, (y + 0.68) * size)
    style = PieceStyle(state.game)
    for site, recs in pieces_by_site(state):
        if site not in board.xy:
            continue
        x, y = board.xy[site]
        for rec, (dx, dy) in zip(recs, spread(len(recs), 0.22)):
            style.draw(pic.pieces, rec, (x + 0.5 + dx) * size, (y + 0.42 + dy) * size)
    if field:
        pic.legend += colours.legend(field)
    pic.legend += style.legend(state)
    return pic
