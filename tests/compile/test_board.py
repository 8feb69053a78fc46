"""The compiled hex board: typed incidence, NetworkX graphs and the distance query."""

from __future__ import annotations

import meeple
from meeple.compile.board import hex_board
from meeple.compile.builtins import BUILTINS


def test_the_corner_graph_of_a_radius_two_board_has_54_locations_and_72_paths() -> None:
    g = hex_board(2).graph("corner")
    assert (g.number_of_nodes(), g.number_of_edges()) == (54, 72)


def test_the_tile_graph_joins_tiles_that_share_a_side() -> None:
    board = hex_board(2)
    g = board.graph("tile")
    assert g.number_of_nodes() == 19
    assert all(set(g.neighbors(t)) == set(board.neighbours[t]) for t in g.nodes)


def test_distance_counts_steps_between_sites_of_one_kind_and_is_none_across_kinds() -> None:
    state = meeple.load("climbers_of_verdon", players=4).new_game(seed=1)
    distance = BUILTINS["distance"]
    board = state.game.board
    corner = board.collections["corners"][0]
    neighbour = board.neighbours[corner][0]
    assert distance(state, corner, corner) == 0
    assert distance(state, corner, neighbour) == 1
    assert distance(state, "t0", "t18") == 4  # opposite ends of a radius-2 board
    assert distance(state, "t0", corner) is None
