"""Pure geometry of a board of pointy-top hexagonal tiles: tiles, corners, sides and their incidences."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # networkx is imported where a graph is first needed, not at start-up
    import networkx as nx


__all__ = ["GraphKind", "HexTopology", "hex_topology", "hex_topology_from_coords", "ring_positions"]

GraphKind = Literal["tiles", "corners"]
Axial = tuple[int, int]
Lattice = tuple[int, int]

_SQRT3 = math.sqrt(3.0)
# Corner offsets of a pointy-top hex in the integer "half lattice" (X, Y), where pixel x = X * sqrt(3) / 2
# and pixel y = Y / 2 (y grows downwards).  Listed clockwise on screen, starting from the top apex.
_CORNER_OFFSETS: tuple[Lattice, ...] = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class HexTopology:
    """Tiles, corners and sides of a hex board, with every incidence map between them.

    Conventions (all ids are stable for a given set of axial coordinates):

    * Tiles are pointy-top hexes of size 1 (centre to corner).  Axial ``(q, r)``: ``r`` is the row, growing
      downwards; pixel centre is ``(sqrt(3) * (q + r / 2), 1.5 * r)`` with ``y`` growing downwards.
    * ``tiles`` are ``t0..t{n-1}`` ordered row by row from top to bottom, left to right (by ``(r, q)``).
    * ``corners`` are ``c0..`` ordered by pixel ``(y, x)``: top to bottom, then left to right.  The order is
      computed on an exact integer lattice, so there is no float noise.
    * ``sides`` are ``"{a}-{b}"`` from their two end corners, lower corner index first, ordered by the pair of
      corner indices.
    * Every incidence value is a tuple sorted in that canonical order (by index, not by string).
    * ``border_sides`` are the sides touching exactly one tile, as a ring going clockwise on screen (``y``
      down; the shoelace sum over the midpoints in pixel coordinates is positive).  ``border_sides[0]`` is
      the border side whose midpoint is topmost, ties broken leftmost.  ``border_corners[i]`` is the corner
      where ``border_sides[i]`` starts, so ``border_sides[i]`` joins ``border_corners[i]`` and
      ``border_corners[(i + 1) % n]``.

    The mappings are shared (``hex_topology`` is cached): treat them as read-only.
    """

    tiles: tuple[str, ...]
    tile_coords: dict[str, Axial]
    tile_xy: dict[str, tuple[float, float]]
    corners: tuple[str, ...]
    corner_xy: dict[str, tuple[float, float]]
    sides: tuple[str, ...]
    corners_of_tile: dict[str, tuple[str, ...]]
    tiles_of_corner: dict[str, tuple[str, ...]]
    sides_of_corner: dict[str, tuple[str, ...]]
    ends_of_side: dict[str, tuple[str, str]]
    tiles_of_side: dict[str, tuple[str, ...]]
    sides_of_tile: dict[str, tuple[str, ...]]
    corner_neighbours: dict[str, tuple[str, ...]]
    tile_neighbours: dict[str, tuple[str, ...]]
    side_between: dict[frozenset[str], str]
    border_sides: tuple[str, ...]
    border_corners: tuple[str, ...]
    _graphs: dict[str, nx.Graph] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return hash(tuple(self.tile_coords[t] for t in self.tiles))

    def graph(self, kind: GraphKind) -> nx.Graph:
        """Frozen networkx graph: ``"tiles"`` (edges join tiles sharing a side) or ``"corners"`` (edges are
        sides).  Nodes carry ``xy``; edges carry ``side`` (the side id, shared side for tiles)."""
        if kind not in ("tiles", "corners"):
            raise ValueError(f"unknown graph kind {kind!r}; expected 'tiles' or 'corners'")
        if kind not in self._graphs:
            import networkx as nx

            self._graphs[kind] = nx.freeze(self._tile_graph() if kind == "tiles" else self._corner_graph())
        return self._graphs[kind]

    def _tile_graph(self) -> nx.Graph:
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from((t, {"xy": self.tile_xy[t]}) for t in self.tiles)
        for s in self.sides:
            if len(self.tiles_of_side[s]) == 2:
                g.add_edge(*self.tiles_of_side[s], side=s)
        return g

    def _corner_graph(self) -> nx.Graph:
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from((c, {"xy": self.corner_xy[c]}) for c in self.corners)
        g.add_edges_from((*self.ends_of_side[s], {"side": s}) for s in self.sides)
        return g


@lru_cache(maxsize=32)
def hex_topology(radius: int) -> HexTopology:
    """Hexagon-shaped board of the given radius (0 = one tile, 2 = 19 tiles, 3 = 37 tiles); cached."""
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    return hex_topology_from_coords(_axial_disc(radius))


def hex_topology_from_coords(coords: list[Axial]) -> HexTopology:
    """Topology of an explicit layout of axial ``(q, r)`` tiles (input order does not matter).

    The tiles must form a connected board without holes, so that the border is a single ring; otherwise
    ``ValueError``.  (Hex tiles cannot pinch: two tiles sharing a corner always share a side.)
    """
    ordered = _ordered_coords(coords)
    tiles = tuple(f"t{i}" for i in range(len(ordered)))
    tile_coords = dict(zip(tiles, ordered, strict=True))
    corner_key, ring_of_tile = _corner_rings(tile_coords)
    ends_of_side, sides_of_tile = _sides(ring_of_tile)
    tiles_of_side = _invert(sides_of_tile)
    sides_of_corner = _invert(ends_of_side)
    side_between = {frozenset(ends): s for s, ends in ends_of_side.items()}
    border = [s for s in ends_of_side if len(tiles_of_side[s]) == 1]
    border_corners = _border_ring(border, ends_of_side, corner_key, side_between)
    return HexTopology(
        tiles=tiles,
        tile_coords=tile_coords,
        tile_xy={t: _tile_xy(qr) for t, qr in tile_coords.items()},
        corners=tuple(corner_key),
        corner_xy={c: _lattice_xy(key) for c, key in corner_key.items()},
        sides=_canonical(ends_of_side),
        corners_of_tile={t: _canonical(ring) for t, ring in ring_of_tile.items()},
        tiles_of_corner=_invert(ring_of_tile),
        sides_of_corner=sides_of_corner,
        ends_of_side=ends_of_side,
        tiles_of_side=tiles_of_side,
        sides_of_tile={t: _canonical(ss) for t, ss in sides_of_tile.items()},
        corner_neighbours=_neighbours(sides_of_corner, ends_of_side),
        tile_neighbours=_neighbours(sides_of_tile, tiles_of_side),
        side_between=side_between,
        border_sides=_ring_sides(border_corners, side_between),
        border_corners=tuple(border_corners),
    )


def ring_positions(n_ring: int, indices: list[int], offset: int) -> list[int]:
    """``(i + offset) % n_ring`` for each index: positions on a ring of ``n_ring`` slots, rotated."""
    if n_ring <= 0:
        raise ValueError(f"n_ring must be positive, got {n_ring}")
    return [(i + offset) % n_ring for i in indices]


# --- construction helpers -------------------------------------------------------------------------------


def _axial_disc(radius: int) -> list[Axial]:
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(max(-radius, -r - radius), min(radius, -r + radius) + 1)
    ]


def _ordered_coords(coords: Iterable[Axial]) -> list[Axial]:
    ordered = sorted(((int(q), int(r)) for q, r in coords), key=lambda qr: (qr[1], qr[0]))
    if not ordered:
        raise ValueError("a hex board needs at least one tile")
    if len(set(ordered)) != len(ordered):
        raise ValueError("duplicate tile coordinates")
    return ordered


def _tile_lattice(qr: Axial) -> Lattice:
    q, r = qr
    return (2 * q + r, 3 * r)


def _tile_xy(qr: Axial) -> tuple[float, float]:
    return _lattice_xy(_tile_lattice(qr))


def _lattice_xy(key: Lattice) -> tuple[float, float]:
    return (round(key[0] * _SQRT3 / 2, 12) + 0.0, key[1] / 2)


def _corner_rings(tile_coords: Mapping[str, Axial]) -> tuple[dict[str, Lattice], dict[str, tuple[str, ...]]]:
    """Corner ids (by lattice ``(Y, X)``) and, per tile, its six corners clockwise from the top apex."""
    keys = {t: [_add(_tile_lattice(qr), off) for off in _CORNER_OFFSETS] for t, qr in tile_coords.items()}
    unique = sorted({k for ks in keys.values() for k in ks}, key=lambda k: (k[1], k[0]))
    ids = {k: f"c{i}" for i, k in enumerate(unique)}
    return {c: k for k, c in ids.items()}, {t: tuple(ids[k] for k in ks) for t, ks in keys.items()}


def _add(a: Lattice, b: Lattice) -> Lattice:
    return (a[0] + b[0], a[1] + b[1])


def _sides(
    ring_of_tile: Mapping[str, tuple[str, ...]],
) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, ...]]]:
    """Side ends (sorted by side order) and, per tile, its six sides clockwise from the upper right."""
    ends: dict[str, tuple[str, str]] = {}
    sides_of_tile: dict[str, tuple[str, ...]] = {}
    for t, ring in ring_of_tile.items():
        pairs = [_canonical((ring[k], ring[(k + 1) % 6])) for k in range(6)]
        sides_of_tile[t] = tuple(f"{a}-{b}" for a, b in pairs)
        ends.update({f"{a}-{b}": (a, b) for a, b in pairs})
    return {s: ends[s] for s in _canonical(ends)}, sides_of_tile


def _index(item_id: str) -> int:
    return int(item_id[1:])


def _side_order(side: str) -> tuple[int, int]:
    a, b = side.split("-")
    return (_index(a), _index(b))


def _canonical(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(ids, key=_order_key))


def _order_key(item_id: str) -> tuple[int, ...]:
    """Canonical order of any id: by index for tiles and corners, by corner-index pair for sides."""
    return _side_order(item_id) if "-" in item_id else (_index(item_id),)


def _invert(mapping: Mapping[str, Iterable[str]]) -> dict[str, tuple[str, ...]]:
    """Reverse an incidence map; keys and values both in canonical order."""
    out: dict[str, list[str]] = {}
    for k, values in mapping.items():
        for v in values:
            out.setdefault(v, []).append(k)
    return {v: _canonical(out[v]) for v in sorted(out, key=_order_key)}


def _neighbours(
    links_of: Mapping[str, tuple[str, ...]], members_of_link: Mapping[str, tuple[str, ...]]
) -> dict[str, tuple[str, ...]]:
    """Items sharing a link (a side) with each item, e.g. tiles across a side or corners along one."""
    return {
        item: _canonical({m for link in links for m in members_of_link[link] if m != item})
        for item, links in links_of.items()
    }


def _border_ring(
    border: list[str],
    ends: Mapping[str, tuple[str, str]],
    corner_key: Mapping[str, Lattice],
    side_between: Mapping[frozenset[str], str],
) -> list[str]:
    """Border corners clockwise on screen, starting at the first end of the topmost-then-leftmost side."""
    start = min(border, key=lambda s: _midpoint_order(ends[s], corner_key))
    a, b = ends[start]
    ring = _walk_border(border, ends, a, b, side_between)
    if _shoelace([corner_key[c] for c in ring]) < 0:
        ring = _walk_border(border, ends, b, a, side_between)
    return ring


def _midpoint_order(ends: tuple[str, str], corner_key: Mapping[str, Lattice]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = corner_key[ends[0]], corner_key[ends[1]]
    return (y1 + y2, x1 + x2)


def _walk_border(
    border: list[str],
    ends: Mapping[str, tuple[str, str]],
    first: str,
    second: str,
    side_between: Mapping[frozenset[str], str],
) -> list[str]:
    """Follow the border from ``first`` through ``second`` back to ``first``; the corners visited in order."""
    nexts = _invert({s: ends[s] for s in border})
    ring = [first, second]
    while True:
        came_by = side_between[frozenset(ring[-2:])]
        out = next(s for s in nexts[ring[-1]] if s != came_by)
        following = next(c for c in ends[out] if c != ring[-1])
        if following == first:
            break
        ring.append(following)
    if len(ring) != len(border):
        raise ValueError("board is disconnected or has holes; the border is not a single ring")
    return ring


def _shoelace(points: list[Lattice]) -> int:
    """Twice the signed area; positive means clockwise on screen (``y`` grows downwards)."""
    n = len(points)
    return sum(
        points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n)
    )


def _ring_sides(ring: list[str], side_between: Mapping[frozenset[str], str]) -> tuple[str, ...]:
    n = len(ring)
    return tuple(side_between[frozenset((ring[i], ring[(i + 1) % n]))] for i in range(n))
