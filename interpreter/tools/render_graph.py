"""Draw a graph board: place its spaces (by `render.layout`, else by their links), then links, spaces, pieces.

`layout: {x: F, y: G}` names a space field or a def of one space per axis. With both, they are the
coordinates. With one, its values sort the spaces into rows (or columns) in order, and each row is ordered
and spaced so that linked spaces sit near each other (layers, as in Sugiyama's method: a link that skips rows
bends through a waypoint in each row it crosses, and a few barycentre sweeps order the rows). With neither,
a force-directed layout from the links alone, with a fixed seed so the same board is drawn the same way.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

import drawsvg as draw

from meeple.compile.expressions import RuleRuntimeError
from meeple.tools.drawing import FONT, SCALE, Picture, PieceStyle, ink, pieces_by_site, r1, spread
from meeple.tools.render import fill_colours, shown

Point = tuple[float, float]
SEED = 7  # the force-directed layout's seed: the same board, the same picture
BOX_W, BOX_H = 2.7, 1.1  # a space's box, in board units
ROW_GAP, COLUMN_GAP = 1.4, 2.9  # board units from row to row, and from a space to the next in its row
WAYPOINT = 0.35  # the width, in spaces, a link's bend takes in a row it crosses
SWEEPS = 16


@dataclass
class Layout:
    """Each space's centre in board units (y downwards, as in SVG) and the bends of links that skip rows."""

    at: dict[str, Point]
    bends: dict[tuple[str, str], list[Point]] = field(default_factory=dict)

    def path(self, a: str, b: str) -> list[Point]:
        if (a, b) in self.bends:
            return [self.at[a], *self.bends[(a, b)], self.at[b]]
        if (b, a) in self.bends:
            return [self.at[a], *reversed(self.bends[(b, a)]), self.at[b]]
        return [self.at[a], self.at[b]]


def axis_values(state: Any, name: str) -> dict[str, float]:
    """Each space's value of a field or of a one-parameter def (the compiler checked which it is)."""
    game = state.game
    spaces = game.board.collections.get("spaces", ())
    params = game.sym.defs.get(name, ())
    if name in game.defs and len(params) == 1:
        fn = game.defs[name]
        values = {s: fn(state, {params[0]: s}) for s in spaces}
    else:
        values = {s: state.sites.get(s, {}).get(name, 0) for s in spaces}
    for s, v in values.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise RuleRuntimeError(f"render layout: {name} of space '{s}' is {v!r}, not a number")
    return {s: float(v) for s, v in values.items()}


def links(board: Any) -> list[tuple[str, str]]:
    """Each link once, in board order."""
    order = board.order
    seen = {
        (a, b) if order[a] <= order[b] else (b, a)
        for a in board.collections.get("spaces", ())
        for b in board.neighbours.get(a, ())
    }
    return sorted(seen, key=lambda ab: (order[ab[0]], order[ab[1]]))


_LAYOUTS: list[tuple[Any, Layout]] = []  # the last few games' layouts: a replay draws one board many times


def lay_out(state: Any) -> Layout:
    """Where each space goes, worked out once per game from the state it is first asked with."""
    for game, layout in _LAYOUTS:
        if game is state.game:
            return layout
    layout = _lay_out(state)
    _LAYOUTS[:] = [(state.game, layout), *_LAYOUTS[:7]]
    return layout


def _lay_out(state: Any) -> Layout:
    """Where each space goes: by the `render.layout` axes the rule file names, else by the links alone."""
    board = state.game.board
    spaces = list(board.collections.get("spaces", ()))
    spec = (state.game.render or {}).get("layout") or {}
    xs = axis_values(state, spec["x"]) if spec.get("x") else None
    ys = axis_values(state, spec["y"]) if spec.get("y") else None
    if xs is not None and ys is not None:
        return Layout(_fit({s: (xs[s], -ys[s]) for s in spaces}))
    if ys is not None:
        return layered(spaces, links(board), {s: -v for s, v in ys.items()})
    if xs is not None:  # columns: lay out rows, then turn the picture a quarter
        turned = layered(spaces, links(board), xs, across=ROW_GAP, along=COLUMN_GAP)
        swap = {s: (y, x) for s, (x, y) in turned.at.items()}
        return Layout(swap, {k: [(y, x) for x, y in pts] for k, pts in turned.bends.items()})
    return Layout(_apart(_by_links(board, spaces)))


# ---------------------------------------------------------------- both axes, or none


def _fit(pos: dict[str, Point]) -> dict[str, Point]:
    """Coordinates in the rule file's units scaled, axis by axis, so that neighbouring values sit a space
    apart; then nudged so that no two boxes overlap."""
    out: list[dict[str, float]] = []
    for axis, gap in ((0, COLUMN_GAP), (1, ROW_GAP)):
        values = sorted({p[axis] for p in pos.values()})
        steps = [b - a for a, b in zip(values, values[1:])]
        unit = gap / min(steps) if steps else 1.0
        span = max(1.0, math.sqrt(len(pos))) * 2 * gap  # a very uneven spread is squeezed to this size
        if steps and (values[-1] - values[0]) * unit > span:
            unit = span / (values[-1] - values[0])
        out.append({s: (p[axis] - values[0]) * unit for s, p in pos.items()})
    return _apart({s: (out[0][s], out[1][s]) for s in pos})


def _by_links(board: Any, spaces: list[str]) -> dict[str, Point]:
    """A force-directed layout (NetworkX's, seeded), scaled so a typical link is about one space long."""
    import networkx as nx

    if not spaces:
        return {}
    raw = nx.spring_layout(board.graph("space"), seed=SEED)
    pos = {s: (float(raw[s][0]), float(raw[s][1])) for s in spaces}
    lengths = [math.dist(pos[a], pos[b]) for a, b in links(board)]
    typical = statistics.median(lengths) if lengths else 1.0
    unit = COLUMN_GAP / typical if typical > 0 else 1.0
    return {s: (x * unit, y * unit) for s, (x, y) in pos.items()}


def _apart(pos: dict[str, Point], rounds: int = 200) -> dict[str, Point]:
    """Push overlapping boxes apart, along the axis where they overlap least, until none overlap."""
    at = dict(pos)
    names = list(at)
    need_x, need_y = BOX_W + 0.3, BOX_H + 0.3
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                (ax, ay), (bx, by) = at[a], at[b]
                ox, oy = need_x - abs(ax - bx), need_y - abs(ay - by)
                if ox <= 0 or oy <= 0:
                    continue
                moved = True
                if ox / need_x < oy / need_y:
                    push = (ox / 2 + 0.01) * (1 if ax >= bx else -1)
                    at[a], at[b] = (ax + push, ay), (bx - push, by)
                else:
                    push = (oy / 2 + 0.01) * (1 if ay >= by else -1)
                    at[a], at[b] = (ax, ay + push), (bx, by - push)
        if not moved:
            break
    return at


# ---------------------------------------------------------------- one axis: layers


def layered(
    spaces: list[str],
    edges: list[tuple[str, str]],
    level: dict[str, float],
    across: float = COLUMN_GAP,
    along: float = ROW_GAP,
) -> Layout:
    """Rows by `level` (smallest on top), each ordered and spaced to keep links short and uncrossed."""
    values = sorted(set(level.values()))
    row_of: dict[Any, int] = {s: values.index(level[s]) for s in spaces}
    rows: list[list[Any]] = [[] for _ in values]
    for s in spaces:  # board order first: a stable start for the sweeps
        rows[row_of[s]].append(s)
    near: dict[Any, list[Any]] = {s: [] for s in spaces}
    chains: dict[tuple[str, str], list[Any]] = {}
    for a, b in edges:
        if row_of[a] > row_of[b]:
            a, b = b, a
        chain = [(a, b, r) for r in range(row_of[a] + 1, row_of[b])]  # a waypoint in each row crossed
        for w in chain:
            row_of[w] = w[2]
            rows[w[2]].append(w)
            near[w] = []
        if chain:
            chains[(a, b)] = chain
        path = [a, *chain, b]
        for u, v in zip(path, path[1:]):
            if row_of[u] != row_of[v]:
                near[u].append(v)
                near[v].append(u)
    x = {n: float(i) for row in rows for i, n in enumerate(row)}
    best = (crossings(rows, near, row_of), dict(x))
    for sweep in range(SWEEPS):
        for r in range(len(rows)) if sweep % 2 == 0 else range(len(rows) - 1, -1, -1):
            wanted = {n: sum(x[m] for m in near[n]) / len(near[n]) if near[n] else x[n] for n in rows[r]}
            rows[r].sort(key=lambda n: wanted[n])
            _place_row(rows[r], wanted, x)
        count = crossings(rows, near, row_of)
        if count < best[0]:
            best = (count, dict(x))
    x = best[1]  # the sweeps can swing back and forth: keep the order that crossed the fewest links
    low = min(x.values(), default=0.0)
    at = {s: ((x[s] - low) * across, row_of[s] * along) for s in spaces}
    bends = {ab: [((x[w] - low) * across, row_of[w] * along) for w in chain] for ab, chain in chains.items()}
    return Layout(at, bends)


def crossings(rows: list[list[Any]], near: dict[Any, list[Any]], row_of: dict[Any, int]) -> int:
    """How many pairs of links cross between neighbouring rows, in the rows' present order."""
    place = {n: i for row in rows for i, n in enumerate(row)}
    count = 0
    for r in range(len(rows) - 1):
        segments = [(place[u], place[v]) for u in rows[r] for v in near[u] if row_of[v] == r + 1]
        for i, (a, b) in enumerate(segments):
            count += sum(1 for c, d in segments[i + 1 :] if (a - c) * (b - d) < 0)
    return count


def _width(n: Any) -> float:
    return WAYPOINT if isinstance(n, tuple) else 1.0


def _place_row(row: list[Any], wanted: dict[Any, float], x: dict[Any, float]) -> None:
    """Put a sorted row as near its wanted places as it can, each keeping its width from its neighbours."""
    placed: list[float] = []
    for i, n in enumerate(row):
        least = placed[-1] + (_width(row[i - 1]) + _width(n)) / 2 if placed else -math.inf
        placed.append(max(wanted[n], least))
    shift = sum(wanted[n] - p for n, p in zip(row, placed)) / len(row) if row else 0.0
    for n, p in zip(row, placed):
        x[n] = p + shift


# ---------------------------------------------------------------- the picture


def graph_picture(state: Any, sites: bool = True) -> Picture:
    """Links as lines, spaces as boxes coloured by the fill field with their shown fields, pieces inside."""
    board = state.game.board
    spaces = list(board.collections.get("spaces", ()))
    layout = lay_out(state)
    pos = layout.at
    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    margin_x, margin_y = BOX_W / 2 + 0.3, BOX_H / 2 + 0.3
    left, top = (min(xs) - margin_x) * SCALE, (min(ys) - margin_y) * SCALE
    width = (max(xs) - min(xs) + 2 * margin_x) * SCALE
    height = (max(ys) - min(ys) + 2 * margin_y) * SCALE
    pic = Picture(left, top, width, height)
    for a, b in links(board) if sites else ():
        points = [r1(c * SCALE) for p in layout.path(a, b) for c in p]
        pic.board.append(draw.Lines(*points, close=False, fill="none", stroke="#8a8a8a", stroke_width=2))
    field, colours = fill_colours(state, spaces)
    w, h = BOX_W * SCALE, BOX_H * SCALE
    for s in spaces if sites else ():
        x, y = pos[s][0] * SCALE, pos[s][1] * SCALE
        value = state.sites.get(s, {}).get(field) if field else None
        fill = colours(value)
        pic.board.append(
            draw.Rectangle(r1(x - w / 2), r1(y - h / 2), r1(w), r1(h), rx=7, fill=fill, stroke="#666666")
        )
        label = shown(state, s)
        top = r1(y - h / 2 + 11)
        pic.board.append(
            draw.Text(s, 9, r1(x - w / 2 + 6), top, fill=ink(fill), font_family=FONT, font_weight="bold")
        )
        if label is not None:
            pic.board.append(
                draw.Text(
                    label, 8, r1(x + w / 2 - 6), top, fill=ink(fill), font_family=FONT, text_anchor="end"
                )
            )
    style = PieceStyle(state.game)
    for site, recs in pieces_by_site(state):
        if site not in pos:
            continue
        x, y = pos[site][0] * SCALE, (pos[site][1] + 0.12) * SCALE
        for rec, (dx, dy) in zip(recs, spread(len(recs), 0.4)):
            style.draw(pic.pieces, rec, x + dx * SCALE, y + dy * 0.9 * SCALE, 7.0)
    if field:
        pic.legend += colours.legend(field)
    pic.legend += style.legend(state)
    return pic
