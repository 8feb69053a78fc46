"""`distance`, `within`, `path` and `components` search the board's joins with walks of their own: the same
steps, the same ways (ties included) and the same groups as NetworkX's searches on `board.graph(kind)`, for
every kind of site of every seed game and classic board, and under the seed games' metrics in positions of
random games. So no seed game loads NetworkX."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.compile.builtins import _distances, components, distance, path, within

BOARDS = [
    ("climbers_of_verdon", 2),
    ("k2", 2),
    ("pluvionauts", 2),
    ("caravan_conquest", 2),
    ("examples/classic/connect_four.yaml", 2),
]


@pytest.mark.parametrize(("name", "players"), BOARDS, ids=[b[0].split("/")[-1] for b in BOARDS])
def test_steps_between_sites_are_networkx_shortest_path_lengths(name: str, players: int) -> None:
    board = meeple.load(name, players=players).new_game(seed=3).game.board

    for kind in sorted(set(board.kind_of.values())):
        expected = {a: dict(lengths) for a, lengths in nx.all_pairs_shortest_path_length(board.graph(kind))}

        assert _distances(board, kind) == expected, kind


def test_within_lists_the_sites_a_number_of_steps_away_in_board_order() -> None:
    s = meeple.load("k2", players=2).new_game(seed=1)
    graph = s.game.board.graph("space")
    near = [x for x, d in nx.single_source_shortest_path_length(graph, "BASE").items() if d <= 2]

    assert within(s, "BASE", 2) == sorted(near, key=s.game.board.order.__getitem__)
    assert sorted(distance(s, "BASE", x) for x in near) == sorted(
        d for d in nx.single_source_shortest_path_length(graph, "BASE").values() if d <= 2
    )


@pytest.mark.parametrize(("name", "players"), BOARDS, ids=[b[0].split("/")[-1] for b in BOARDS])
def test_a_fewest_steps_path_is_the_one_networkx_finds(name: str, players: int) -> None:
    s = meeple.load(name, players=players).new_game(seed=3)
    board = s.game.board

    for kind in sorted(set(board.kind_of.values())):
        for a in [x for x, k in board.kind_of.items() if k == kind][::3]:
            expected = nx.single_source_shortest_path(board.graph(kind), a)
            for b in board.kind_of:
                assert path(s, a, b) == expected.get(b), (a, b)


def _played(name: str, players: int, seed: int, actions: int) -> meeple.State:
    """A seeded random game after some decisions (fewer if it ends first)."""
    s = meeple.load(name, players=players).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


def _networkx_weight(s: Any, metric: Any) -> Any:
    """A metric as a NetworkX weight: None cuts the step (the way `path` searched before it had its own)."""

    def weight(u: str, v: str, _: Any) -> Any:
        if metric.blocked is not None and metric.blocked(s, {"a": u, "b": v}):
            return None
        return metric.enter(s, {"t": v})

    return weight


METRICS = [("caravan_conquest", 3, "road"), ("caravan_conquest", 3, "ground"), ("pluvionauts", 3, "travel")]


@pytest.mark.parametrize(("name", "players", "metric"), METRICS, ids=[f"{m[0]}-{m[2]}" for m in METRICS])
@pytest.mark.parametrize("actions", [0, 60, 200])
def test_a_cheapest_path_under_a_metric_is_the_one_networkx_finds(
    name: str, players: int, metric: str, actions: int
) -> None:
    s = _played(name, players, seed=actions + 1, actions=actions)
    m = s.game.metrics[metric]
    graph = s.game.board.graph(m.kind)

    for a in list(graph.nodes)[::2]:
        expected = nx.single_source_dijkstra_path(graph, a, weight=_networkx_weight(s, m))
        for b in graph.nodes:
            assert path(s, a, b, metric) == expected.get(b), (a, b)


def _networkx_components(s: Any, sites: list[str], metric: str | None) -> list[list[str]]:
    """The groups as `components` found them with NetworkX before it had its own walk."""
    board = s.game.board
    graph = nx.Graph(board.graph(board.kind_of[sites[0]]).subgraph(sites))
    if metric is not None:
        blocked = s.game.metrics[metric].blocked
        graph.remove_edges_from(
            [(a, b) for a, b in graph.edges if blocked(s, {"a": a, "b": b}) or blocked(s, {"a": b, "b": a})]
        )
    order = board.order
    groups = [sorted(c, key=order.__getitem__) for c in nx.connected_components(graph)]
    return sorted(groups, key=lambda g: order[g[0]])


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(1, 50), actions=st.integers(0, 150), picks=st.lists(st.integers(0, 10_000), max_size=40)
)
def test_components_are_the_groups_networkx_finds(seed: int, actions: int, picks: list[int]) -> None:
    s = _played("pluvionauts", 3, seed, actions)
    tiles = [x for x, k in s.game.board.kind_of.items() if k == "tile"]
    sites = [tiles[i % len(tiles)] for i in picks]
    if not sites:
        assert components(s, sites) == []
        return

    for metric in (None, "travel"):
        assert components(s, sites, metric) == _networkx_components(s, sites, metric)


@pytest.mark.parametrize(("name", "players"), BOARDS, ids=[b[0].split("/")[-1] for b in BOARDS])
def test_a_path_from_a_site_of_another_graph_reaches_nothing(name: str, players: int) -> None:
    s = meeple.load(name, players=players).new_game(seed=1)

    assert path(s, "no such site", next(iter(s.game.board.kind_of))) is None


@pytest.mark.parametrize(
    "name", ["k2", "climbers_of_verdon", "tabletop_climber", "pluvionauts", "caravan_conquest"]
)
def test_loading_a_seed_game_does_not_import_networkx(name: str) -> None:
    code = f"import sys, meeple; meeple.load({name!r}); print('networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

    assert out.stdout.strip() == "False"


@pytest.mark.python_engine  # replaces a function of the engine or the built-ins
def test_a_cheapest_path_search_stops_once_the_target_is_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    from meeple.compile import builtins

    s = _played("caravan_conquest", 3, seed=3, actions=0)
    settled: list[int] = []
    dijkstra = builtins._dijkstra

    def counted(*args: Any) -> Any:
        done = dijkstra(*args)
        settled.append(len(done))
        return done

    monkeypatch.setattr(builtins, "_dijkstra", counted)
    graph = s.game.board.graph(s.game.metrics["road"].kind)
    a = next(iter(graph.nodes))
    near = next(b for b in graph.neighbors(a) if path(s, a, b, "road") is not None)
    assert path(s, a, near, "road") == [a, near]
    assert settled and max(settled) < len(graph.nodes) // 2  # a neighbour: a few sites settled, not the board
