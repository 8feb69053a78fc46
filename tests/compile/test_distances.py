"""`distance` and `within` count steps with a breadth-first walk of their own over the board's joins: the
same steps as NetworkX's shortest paths on `board.graph(kind)`, for every kind of site of every seed game
and classic board; and a rule file that only counts steps does not load NetworkX."""

from __future__ import annotations

import subprocess
import sys

import networkx as nx
import pytest

import meeple
from meeple.compile.builtins import _distances, distance, within

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


@pytest.mark.parametrize("name", ["k2", "climbers_of_verdon", "tabletop_climber"])
def test_loading_a_game_that_only_counts_steps_does_not_import_networkx(name: str) -> None:
    code = f"import sys, meeple; meeple.load({name!r}); print('networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

    assert out.stdout.strip() == "False"
