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


def test_side_between_names_the_side_two_neighbours_share_in_either_order_and_none_for_others() -> None:
    state = meeple.load("climbers_of_verdon", players=4).new_game(seed=1)
    side_between = BUILTINS["side_between"]
    board = state.game.board
    for side, (a, b) in board.ends.items():  # the two locations at the ends of each path
        assert side_between(state, a, b) == side_between(state, b, a) == side
    t0, t1 = "t0", board.neighbours["t0"][0]
    shared = set(board.sides_of[t0]) & set(board.sides_of[t1])
    assert [side_between(state, t0, t1)] == list(shared)  # two tiles share one path
    assert side_between(state, t0, t0) is None and side_between(state, t0, board.ends[side][0]) is None
