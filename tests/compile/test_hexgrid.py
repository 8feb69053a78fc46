"""Tests for the hex board geometry in meeple.compile.hexgrid."""

from __future__ import annotations

import math
import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.compile.hexgrid import HexTopology, hex_topology, hex_topology_from_coords, ring_positions

# Closed forms for a hexagon-shaped board of radius n (n >= 1):
#   tiles 3n^2+3n+1; corners 6(n+1)^2; sides 9n^2+15n+6 (Euler on a disc: V - E + F = 1);
#   border sides = border corners = 6(2n+1); interior corners 6n^2 (3 tiles);
#   border corners touching 2 tiles 6n (one per adjacent pair in the outer ring of 6n tiles),
#   touching 1 tile 6n+6 (2 per board-corner tile, 1 per other outer tile);
#   corner degree 3 = 6n^2+6n, degree 2 = 6n+6; tiles with 6/4/3 neighbours: 3n^2-3n+1 / 6(n-1) / 6.


def _expected_counts(n: int) -> dict[str, int]:
    return {
        "tiles": 3 * n * n + 3 * n + 1,
        "corners": 6 * (n + 1) ** 2,
        "sides": 9 * n * n + 15 * n + 6,
        "border": 12 * n + 6,
    }


def _shoelace(points: list[tuple[float, float]]) -> float:
    n = len(points)
    return sum(
        points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n)
    )


def _midpoint(h: HexTopology, side: str) -> tuple[float, float]:
    (x1, y1), (x2, y2) = (h.corner_xy[c] for c in h.ends_of_side[side])
    return ((x1 + x2) / 2, (y1 + y2) / 2)


def _index(item_id: str) -> int:
    return int(item_id[1:])


def _side_key(side: str) -> tuple[int, int]:
    a, b = side.split("-")
    return (_index(a), _index(b))


def test_radius_2_counts() -> None:
    h = hex_topology(2)
    assert (len(h.tiles), len(h.corners), len(h.sides)) == (19, 54, 72)
    assert len(h.border_sides) == 30 and len(h.border_corners) == 30
    assert Counter(len(v) for v in h.sides_of_corner.values()) == {3: 36, 2: 18}
    assert Counter(len(v) for v in h.tiles_of_corner.values()) == {3: 24, 2: 12, 1: 18}
    assert Counter(len(v) for v in h.tile_neighbours.values()) == {6: 7, 4: 6, 3: 6}
    assert sum(1 for s in h.sides if len(h.tiles_of_side[s]) == 2) == 42


def test_radius_3_counts() -> None:
    h = hex_topology(3)
    assert (len(h.tiles), len(h.corners), len(h.sides)) == (37, 96, 132)
    assert len(h.border_sides) == 42 and len(h.border_corners) == 42
    assert Counter(len(v) for v in h.sides_of_corner.values()) == {3: 72, 2: 24}
    assert Counter(len(v) for v in h.tiles_of_corner.values()) == {3: 54, 2: 18, 1: 24}


def test_radius_0_single_tile() -> None:
    h = hex_topology(0)
    assert h.tiles == ("t0",) and len(h.corners) == 6 and len(h.sides) == 6
    assert set(h.border_sides) == set(h.sides) and len(h.border_corners) == 6
    assert h.tile_neighbours == {"t0": ()}
    _check_border(h)


def test_radius_2_rows_and_ids() -> None:
    h = hex_topology(2)
    rows = Counter(h.tile_coords[t][1] for t in h.tiles)
    assert [rows[r] for r in range(-2, 3)] == [3, 4, 5, 4, 3]
    assert h.tiles == tuple(f"t{i}" for i in range(19))
    assert h.corners == tuple(f"c{i}" for i in range(54))
    xy = [h.tile_xy[t] for t in h.tiles]
    assert xy == sorted(xy, key=lambda p: (round(p[1], 6), round(p[0], 6)))
    cxy = [h.corner_xy[c] for c in h.corners]
    assert cxy == sorted(cxy, key=lambda p: (round(p[1], 6), round(p[0], 6)))
    assert h.tile_coords["t9"] == (0, 0) and h.tile_xy["t9"] == (0.0, 0.0)


def test_radius_2_border_start() -> None:
    h = hex_topology(2)
    assert h.border_sides[:3] == ("c0-c3", "c0-c4", "c1-c4")
    assert h.border_corners[:3] == ("c3", "c0", "c4")


def test_side_ids_and_order() -> None:
    h = hex_topology(2)
    assert list(h.sides) == sorted(h.sides, key=_side_key)
    for s in h.sides:
        a, b = h.ends_of_side[s]
        assert s == f"{a}-{b}" and _index(a) < _index(b)


def test_explicit_layout_order_independent() -> None:
    coords = list(hex_topology(2).tile_coords.values())
    assert hex_topology_from_coords(list(reversed(coords))) == hex_topology(2)


def test_layout_with_hole_or_gap_rejected() -> None:
    ring = [c for c in hex_topology(1).tile_coords.values() if c != (0, 0)]
    with pytest.raises(ValueError):
        hex_topology_from_coords(ring)
    with pytest.raises(ValueError):
        hex_topology_from_coords([(0, 0), (5, 0)])
    with pytest.raises(ValueError):
        hex_topology_from_coords([(0, 0), (0, 0)])
    with pytest.raises(ValueError):
        hex_topology_from_coords([])
    with pytest.raises(ValueError):
        hex_topology(-1)


def test_ids_stable_and_deterministic() -> None:
    a = hex_topology(3)
    hex_topology.cache_clear()
    b = hex_topology(3)
    assert a is not b and a == b and hash(a) == hash(b)
    assert a.sides == b.sides and a.border_sides == b.border_sides and a.side_between == b.side_between
    assert hex_topology(3) is b


def test_graphs() -> None:
    h = hex_topology(2)
    cg, tg = h.graph("corners"), h.graph("tiles")
    assert h.graph("corners") is cg
    assert (cg.number_of_nodes(), cg.number_of_edges()) == (54, 72)
    assert (tg.number_of_nodes(), tg.number_of_edges()) == (19, 42)
    assert all(h.side_between[frozenset((u, v))] == d["side"] for u, v, d in cg.edges(data=True))
    assert all(d["side"] in h.sides_of_tile[u] for u, v, d in tg.edges(data=True))
    assert nx.is_frozen(cg) and nx.is_connected(cg) and nx.is_connected(tg)
    with pytest.raises(ValueError):
        h.graph("sides")  # type: ignore[arg-type]


def test_ring_positions() -> None:
    assert ring_positions(30, [0, 1, 29], 2) == [2, 3, 1]
    assert ring_positions(6, [0, 3], -1) == [5, 2]
    with pytest.raises(ValueError):
        ring_positions(0, [0], 0)


def _check_incidences(h: HexTopology) -> None:
    for t in h.tiles:
        assert len(h.corners_of_tile[t]) == 6 and len(h.sides_of_tile[t]) == 6
        for c in h.corners_of_tile[t]:
            assert t in h.tiles_of_corner[c]
            assert math.dist(h.tile_xy[t], h.corner_xy[c]) == pytest.approx(1.0)
        for n in h.tile_neighbours[t]:
            assert t in h.tile_neighbours[n]
            assert set(h.sides_of_tile[t]) & set(h.sides_of_tile[n])
    for s in h.sides:
        a, b = h.ends_of_side[s]
        assert h.side_between[frozenset((a, b))] == s
        assert s in h.sides_of_corner[a] and s in h.sides_of_corner[b]
        assert b in h.corner_neighbours[a] and a in h.corner_neighbours[b]
        assert 1 <= len(h.tiles_of_side[s]) <= 2
        assert math.dist(h.corner_xy[a], h.corner_xy[b]) == pytest.approx(1.0)
    assert len(h.side_between) == len(h.sides)


def _check_sorted(h: HexTopology) -> None:
    for mapping in (
        h.corners_of_tile,
        h.tiles_of_corner,
        h.tiles_of_side,
        h.corner_neighbours,
        h.tile_neighbours,
    ):
        for values in mapping.values():
            assert list(values) == sorted(values, key=_index)
    for mapping in (h.sides_of_corner, h.sides_of_tile):
        for values in mapping.values():
            assert list(values) == sorted(values, key=_side_key)


def _check_border(h: HexTopology) -> None:
    border, ring = h.border_sides, h.border_corners
    n = len(border)
    assert set(border) == {s for s in h.sides if len(h.tiles_of_side[s]) == 1}
    assert len(set(border)) == n and len(set(ring)) == n
    for i in range(n):
        assert set(h.ends_of_side[border[i]]) == {ring[i], ring[(i + 1) % n]}
        assert set(h.ends_of_side[border[i]]) & set(h.ends_of_side[border[(i + 1) % n]])
    assert _shoelace([_midpoint(h, s) for s in border]) > 0  # y down: positive = clockwise on screen
    top = min(border, key=lambda s: (round(_midpoint(h, s)[1], 6), round(_midpoint(h, s)[0], 6)))
    assert border[0] == top


@given(st.integers(min_value=1, max_value=4))
def test_properties_over_radius(n: int) -> None:
    h = hex_topology(n)
    expected = _expected_counts(n)
    assert (len(h.tiles), len(h.corners), len(h.sides)) == (
        expected["tiles"],
        expected["corners"],
        expected["sides"],
    )
    assert len(h.border_sides) == len(h.border_corners) == expected["border"]
    assert len(h.corners) - len(h.sides) + len(h.tiles) == 1
    assert Counter(len(v) for v in h.sides_of_corner.values()) == {3: 6 * n * n + 6 * n, 2: 6 * n + 6}
    _check_incidences(h)
    _check_sorted(h)
    _check_border(h)


@given(st.integers(min_value=0, max_value=3), st.randoms(use_true_random=False))
def test_input_order_irrelevant(n: int, rng: random.Random) -> None:
    coords = list(hex_topology(n).tile_coords.values())
    rng.shuffle(coords)
    shuffled = hex_topology_from_coords(coords)
    assert shuffled == hex_topology(n)
    assert shuffled.border_sides == hex_topology(n).border_sides


def test_parallelogram_layout() -> None:
    a, b = 4, 3
    h = hex_topology_from_coords([(q, r) for q in range(a) for r in range(b)])
    # Internal sides (a-1)b + a(b-1) + (a-1)(b-1); border 6ab - 2 * internal = 4a + 4b - 2; Euler for corners.
    internal = (a - 1) * b + a * (b - 1) + (a - 1) * (b - 1)
    assert len(h.tiles) == a * b and len(h.border_sides) == 4 * a + 4 * b - 2
    assert len(h.sides) == 6 * a * b - internal and len(h.corners) == len(h.sides) - a * b + 1
    _check_incidences(h)
    _check_sorted(h)
    _check_border(h)
