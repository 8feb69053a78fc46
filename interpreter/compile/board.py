"""Compile a `board:` section: the topology, its typed incidence tables, the NetworkX graphs, the layout."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple.compile.expressions import ExprCompiler, Fn
from meeple.compile.hexgrid import HexTopology, hex_topology
from meeple.compile.squaregrid import square_grid
from meeple.compile.symbols import Path, Sink

if TYPE_CHECKING:  # networkx is imported where a graph is first needed, not at start-up
    import networkx as nx


@dataclass(frozen=True)
class LayoutDef:
    """One random layout step: fill a field on a list of sites from a shuffled bag or a rotated ring."""

    field: str
    on: Fn
    bag: tuple[Any, ...] = ()
    at: tuple[int, ...] = ()
    values: tuple[Any, ...] = ()
    rotate: bool = False
    draw: bool = False  # the bag is a pool: as many values as there are sites are drawn from it


MAX_GRID_SIDE = 200  # a grid's width and height at most (the schema says the same)
MAX_HEX_RADIUS = 50  # a hex board's rings at most: 7,651 tiles (the schema says the same)
MAX_BAG = 100_000  # the values of one layout bag, all counts together (the schema bounds each count)


@dataclass(frozen=True)
class RequireDef:
    """A condition on a laid-out board; the whole layout is drawn again until it holds."""

    holds: Fn
    tries: int


@dataclass
class Board:
    """Static topology: sites by kind and every incidence the rule language can ask about."""

    kind_of: dict[str, str] = field(default_factory=dict)
    neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict)
    corners_of: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tiles_of: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sides_of: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ends: dict[str, tuple[str, ...]] = field(default_factory=dict)
    side_between: dict[frozenset[str], str] = field(default_factory=dict)
    collections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    xy: dict[str, tuple[float, float]] = field(default_factory=dict)
    layout: list[LayoutDef] = field(default_factory=list)
    topology: HexTopology | None = None
    shape: str = "none"  # hex | grid | graph | none
    site_fields: dict[str, dict[str, Any]] = field(default_factory=dict)  # starting fields of sites
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def order(self) -> dict[str, int]:
        """Each site's place in board order (tiles, then corners, then sides)."""
        if "order" not in self._cache:
            self._cache["order"] = {site: i for i, site in enumerate(self.kind_of)}
        return self._cache["order"]  # type: ignore[no-any-return]

    @property
    def side_of_pair(self) -> dict[tuple[str, str], str]:
        """`side_between` keyed by the two sites in either order: a tuple is quicker to make than a set."""
        if "side_of_pair" not in self._cache:
            pairs = {}
            for ends, side in self.side_between.items():
                if len(ends) == 2:
                    a, b = ends
                    pairs[(a, b)] = pairs[(b, a)] = side
            self._cache["side_of_pair"] = pairs
        return self._cache["side_of_pair"]  # type: ignore[no-any-return]

    def graph(self, kind: str) -> nx.Graph:
        """The NetworkX graph of one kind of site: corners joined by sides, or tiles sharing a side.

        Built once per kind; callers must not change it."""
        if kind not in self._cache:
            self._cache[kind] = self._build_graph(kind)
        return self._cache[kind]

    def _build_graph(self, kind: str) -> nx.Graph:
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(site for site, k in self.kind_of.items() if k == kind)
        if kind == "corner":
            for side, (a, b) in self.ends.items():
                g.add_edge(a, b, side=side)
        else:
            for site in g.nodes:
                g.add_edges_from((site, other) for other in self.neighbours.get(site, ()))
        return g


def hex_board(radius: int) -> Board:
    topo = hex_topology(radius)
    board = Board(topology=topo, shape="hex")
    board.kind_of.update({t: "tile" for t in topo.tiles})
    board.kind_of.update({c: "corner" for c in topo.corners})
    board.kind_of.update({s: "side" for s in topo.sides})
    board.neighbours.update(topo.tile_neighbours)
    board.neighbours.update(topo.corner_neighbours)
    board.corners_of.update(topo.corners_of_tile)
    board.corners_of.update(topo.ends_of_side)
    board.tiles_of.update(topo.tiles_of_corner)
    board.tiles_of.update(topo.tiles_of_side)
    board.sides_of.update(topo.sides_of_corner)
    board.sides_of.update(topo.sides_of_tile)
    board.ends.update(topo.ends_of_side)
    board.side_between.update(topo.side_between)
    for side, tiles in topo.tiles_of_side.items():  # two neighbouring tiles share a side too
        if len(tiles) == 2:
            board.side_between[frozenset(tiles)] = side
    board.collections.update(
        tiles=topo.tiles,
        corners=topo.corners,
        sides=topo.sides,
        border_sides=topo.border_sides,
        border_corners=topo.border_corners,
    )
    board.xy.update(topo.tile_xy)
    board.xy.update(topo.corner_xy)
    return board


def compile_board(
    data: dict[str, Any], path: Path, sink: Sink, options: dict[str, Any] | None = None
) -> Board:
    """The topology part, which expressions need before anything else compiles."""
    if "hex" in data:
        radius = data["hex"].get("radius", 2) if isinstance(data["hex"], dict) else 2
        if type(radius) is not int or not 0 <= radius <= MAX_HEX_RADIUS:
            message = f"a hex board's radius is a whole number from 0 to {MAX_HEX_RADIUS}, not {radius!r}"
            sink.at((*path, "hex", "radius"), None, "rules/hex-size", message)
            return hex_board(0)  # one tile: its names exist, so the rest of the file is checked as usual
        return hex_board(radius)
    if "grid" in data:
        return grid_board(data["grid"] or {}, (*path, "grid"), sink)
    if "graph" in data:
        return graph_board(data["graph"] or {}, (*path, "graph"), sink)
    if "graphs" in data:
        graphs = data["graphs"] or {}
        option = str(data.get("use", ""))
        chosen = (options or {}).get(option)
        if chosen not in graphs:
            sink.at(
                (*path, "use"),
                None,
                "rules/board-choice",
                f"option '{option}' is '{chosen}', which names none of the boards: {', '.join(graphs)}",
            )
            return Board()
        return graph_board(graphs[chosen] or {}, (*path, "graphs", chosen), sink)
    if data:
        sink.at(
            path,
            None,
            "rules/board-kind",
            "the board needs a topology",
            "use hex: {radius: N}, grid: {width: W, height: H} or graph: {…}",
        )
    return Board()


def grid_board(data: dict[str, Any], path: Path, sink: Sink) -> Board:
    """Square cells: `width` x `height`, or `rows` of letters that `legend` turns into a field's values."""
    from meeple.errors import did_you_mean

    raw = [str(r) for r in data.get("rows") or []]
    rows = [r.replace(" ", "") for r in raw]
    width, height = data.get("width"), data.get("height")
    if rows:
        longest = max(len(r) for r in rows)
        short = [y for y, r in enumerate(rows) if len(r) != len(rows[0])]
        if short:  # reported at the first row that differs; the grid keeps the longest row's width
            message = f"row {short[0] + 1} has {len(rows[short[0]])} cells, the first row {len(rows[0])}"
            sink.at(
                (*path, "rows", short[0]), None, "rules/grid-rows", message, "give every row as many letters"
            )
            rows = [r.ljust(longest, " ") for r in rows]
        for key, given, found in (("width", width, longest), ("height", height, len(rows))):
            if given is not None and given != found:
                sink.at((*path, key), None, "rules/grid-size", f"{key} is {given} but the rows make {found}")
        width, height = longest, len(rows)
    if (
        not isinstance(width, int)
        or not isinstance(height, int)
        or not (1 <= width <= MAX_GRID_SIDE and 1 <= height <= MAX_GRID_SIDE)
    ):
        message = f"a grid has a width and a height of 1 to {MAX_GRID_SIDE} cells, or rows"
        sink.at(path, None, "rules/grid-size", message)
        return Board()
    grid = square_grid(width, height, data.get("neighbours", 4) == 8)
    board = Board(shape="grid")
    board.kind_of.update(dict.fromkeys(grid.cells, "cell"))
    board.neighbours.update(grid.neighbours)
    board.collections["cells"] = grid.cells
    for cell, (x, y) in grid.coords.items():
        board.site_fields[cell] = {"x": x, "y": y}
        board.xy[cell] = (float(x), float(y))
    legend = data.get("legend") or {}
    field_name = str(data.get("field", "terrain"))
    for y, row in enumerate(rows):
        for x, letter in enumerate(row):
            if letter == " ":  # the padding of a short row, reported already
                continue
            if letter not in legend:
                where = (*path, "rows", y)
                column = [i for i, ch in enumerate(raw[y]) if ch != " "][x]
                hint = did_you_mean(letter, legend) or f"the legend has: {', '.join(map(str, legend))}"
                sink.at(where, column, "rules/grid-legend", f"the legend has no letter '{letter}'", hint)
                continue
            board.site_fields[grid.cells[y * width + x]][field_name] = legend[letter]
    return board


def graph_board(data: dict[str, Any], path: Path, sink: Sink) -> Board:
    """Named spaces with fields, joined by links: `spaces: {BASE: {vp: 1}}`, `links: [BASE-S1]`."""
    from meeple.errors import did_you_mean

    board = Board(shape="graph")
    spaces = data.get("spaces") or {}
    for name, fields in spaces.items():
        board.kind_of[name] = "space"
        board.site_fields[name] = {
            k: tuple(v) if isinstance(v, list) else v for k, v in (fields or {}).items()
        }
    links: dict[str, list[str]] = {name: [] for name in spaces}
    for i, link in enumerate(data.get("links") or []):
        ends = link.split("-") if isinstance(link, str) else list(link)
        bad = [e for e in ends if e not in spaces]
        if len(ends) != 2 or bad:
            problem = f"no space '{bad[0]}'" if bad else "a link joins two spaces: A-B"
            sink.at(
                (*path, "links", i),
                None,
                "rules/bad-link",
                problem,
                did_you_mean(str(bad[0]), spaces) if bad else None,
            )
            continue
        a, b = ends
        links[a].append(b)
        links[b].append(a)
    order = {name: i for i, name in enumerate(spaces)}
    for name, near in links.items():
        board.neighbours[name] = tuple(sorted(set(near), key=order.__getitem__))
    board.collections["spaces"] = tuple(spaces)
    return board


def compile_require(data: dict[str, Any], path: Path, ex: ExprCompiler) -> RequireDef | None:
    """`require:` a condition the laid-out board must meet; `tries:` how many layouts to draw at most."""
    if data.get("require") is None:
        return None
    holds = ex.compile(data["require"], (*path, "require"), {})
    return RequireDef(holds, int(data.get("tries", 1000)))


def compile_layout(data: dict[str, Any], path: Path, ex: ExprCompiler, sink: Sink) -> list[LayoutDef]:
    steps = []
    for i, step in enumerate(data.get("layout") or []):
        where = (*path, "layout", i)
        on = ex.compile(step.get("on", "tiles"), (*where, "on"), {})
        shuffle = step.get("shuffle", step.get("draw"))
        bag = layout_bag(shuffle, (*where, "shuffle" if "shuffle" in step else "draw"), sink)
        at, values = tuple(step.get("at") or ()), tuple(step.get("values") or ())
        if at and len(at) != len(values):
            sink.at(where, None, "rules/layout-mismatch", f"{len(at)} positions but {len(values)} values")
        if not bag and not at and not shuffle:  # a wrong bag is reported by layout_bag
            sink.at(
                where,
                None,
                "rules/layout-empty",
                "a layout step needs `shuffle:`, `draw:` or `at:` with `values:`",
            )
        rotate, drawn = step.get("rotate") == "random", "draw" in step and "shuffle" not in step
        steps.append(LayoutDef(str(step.get("set")), on, bag, at, values, rotate, drawn))
    return steps


def check_render_layout(
    render: dict[str, Any], board: Board, defs: dict[str, tuple[str, ...]], sink: Sink
) -> None:
    """`render: layout: {x: …, y: …}`: each axis names a number field of every space or a def of a space."""
    from meeple.errors import did_you_mean

    layout = render.get("layout") if isinstance(render, dict) else None
    if not isinstance(layout, dict) or not layout:  # absent, or a shape the schema reports
        return
    if board.shape != "graph":
        sink.at(
            ("render", "layout"),
            None,
            "rules/render-layout",
            f"`layout` places the spaces of a graph board, and this board is {board.shape!r}",
            "remove `layout:`; hex and grid boards are drawn by their own geometry",
        )
        return
    fields = {name for spec in board.site_fields.values() for name in spec}
    for axis in ("x", "y"):
        name = layout.get(axis)
        if name is None:
            continue
        where = ("render", "layout", axis)
        if name in defs:
            if len(defs[name]) != 1:
                message = f"def '{name}' takes {len(defs[name])} parameters; a layout axis needs one"
                sink.at(where, None, "rules/render-layout", message)
            continue
        if name not in fields:
            hint = did_you_mean(str(name), sorted(fields | set(defs))) or (
                f"space fields: {', '.join(sorted(fields)) or 'none'}"
            )
            sink.at(where, None, "rules/render-layout", f"no space field or def '{name}'", hint)
            continue
        for space, spec in board.site_fields.items():
            value = spec.get(name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                shown = "no value" if value is None else repr(value)
                message = f"space '{space}' has {shown} for '{name}'; a layout axis needs a number on each"
                sink.at(where, None, "rules/render-layout", message)
                break


def layout_bag(given: Any, path: Path, sink: Sink) -> tuple[Any, ...]:
    """A layout's bag of values: a list as written, or a mapping of value to how many; empty when wrong."""
    if not isinstance(given, dict):
        return tuple(given) if isinstance(given, list) else ()
    wrong = [k for k, v in given.items() if type(v) is not int or not 0 <= v <= MAX_BAG]
    for k in wrong:
        message = f"a bag's counts are whole numbers from 0 to {MAX_BAG:,}, not {given[k]!r}"
        sink.at((*path, k), None, "rules/layout-bag", message)
    if wrong:
        return ()
    counts = list(given.values())
    if sum(counts) > MAX_BAG:
        sink.at(
            path, None, "rules/layout-bag", f"a bag holds at most {MAX_BAG:,} values, not {sum(counts):,}"
        )
        return ()
    return tuple(k for k, v in given.items() for _ in range(v))
