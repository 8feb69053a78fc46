"""Compile a `board:` section: the topology, its typed incidence tables, the NetworkX graphs, the layout."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from meeple.compile.expressions import ExprCompiler, Fn
from meeple.compile.hexgrid import HexTopology, hex_topology
from meeple.compile.symbols import Path, Sink


@dataclass(frozen=True)
class LayoutDef:
    """One random layout step: fill a field on a list of sites from a shuffled bag or a rotated ring."""

    field: str
    on: Fn
    bag: tuple[Any, ...] = ()
    at: tuple[int, ...] = ()
    values: tuple[Any, ...] = ()
    rotate: bool = False


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
    site_fields: dict[str, dict[str, Any]] = field(default_factory=dict)  # starting fields of sites
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def order(self) -> dict[str, int]:
        """Each site's place in board order (tiles, then corners, then sides)."""
        if "order" not in self._cache:
            self._cache["order"] = {site: i for i, site in enumerate(self.kind_of)}
        return self._cache["order"]  # type: ignore[no-any-return]

    def graph(self, kind: str) -> nx.Graph:
        """The NetworkX graph of one kind of site: corners joined by sides, or tiles sharing a side.

        Built once per kind; callers must not change it."""
        if kind not in self._cache:
            self._cache[kind] = self._build_graph(kind)
        return self._cache[kind]

    def _build_graph(self, kind: str) -> nx.Graph:
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
    board = Board(topology=topo)
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
        return hex_board(int(radius))
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
            path, None, "rules/board-kind", "the board needs a topology", "use hex: {radius: N} or graph: {…}"
        )
    return Board()


def graph_board(data: dict[str, Any], path: Path, sink: Sink) -> Board:
    """Named spaces with fields, joined by links: `spaces: {BASE: {vp: 1}}`, `links: [BASE-S1]`."""
    from meeple.errors import did_you_mean

    board = Board()
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


def compile_layout(data: dict[str, Any], path: Path, ex: ExprCompiler, sink: Sink) -> list[LayoutDef]:
    steps = []
    for i, step in enumerate(data.get("layout") or []):
        where = (*path, "layout", i)
        on = ex.compile(step.get("on", "tiles"), (*where, "on"), {})
        shuffle = step.get("shuffle")
        if isinstance(shuffle, dict):
            bag: tuple[Any, ...] = tuple(k for k, v in shuffle.items() for _ in range(int(v)))
        else:
            bag = tuple(shuffle or ())
        at, values = tuple(step.get("at") or ()), tuple(step.get("values") or ())
        if at and len(at) != len(values):
            sink.at(where, None, "rules/layout-mismatch", f"{len(at)} positions but {len(values)} values")
        if not bag and not at:
            sink.at(
                where, None, "rules/layout-empty", "a layout step needs `shuffle:` or `at:` with `values:`"
            )
        steps.append(LayoutDef(str(step.get("set")), on, bag, at, values, step.get("rotate") == "random"))
    return steps
