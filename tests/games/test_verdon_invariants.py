"""Climbers of Verdon's invariants catch what they guard: two buildings on one corner, two fixed ropes on one
side. They are written as counts of distinct sites, so a soak checks them after every action cheaply."""

from __future__ import annotations

import pytest

import meeple
from meeple.runtime.invariants import broken
from meeple.values import Player


@pytest.fixture(scope="module")
def verdon() -> meeple.Game:
    return meeple.load("climbers_of_verdon", players=2)


def sites(game: meeple.Game, kind: str) -> list[str]:
    board = game.new_game(seed=0).game.board
    return sorted(site for site, k in board.kind_of.items() if k == kind)


def names(s: object) -> set[str]:
    return {b.name for b in broken(s)}


def test_a_start_and_pieces_on_distinct_sites_break_nothing(verdon: meeple.Game) -> None:
    s = verdon.new_game(seed=1)
    corner_a, corner_b = sites(verdon, "corner")[:2]
    side_a, side_b = sites(verdon, "side")[:2]
    s.place("project", corner_a, Player(0), {})
    s.place("route", corner_b, Player(1), {})
    s.place("fixed_rope", side_a, Player(0), {})
    s.place("fixed_rope", side_b, Player(1), {})

    assert names(s) == set()


def test_two_fixed_ropes_on_one_side_break_one_rope_per_path(verdon: meeple.Game) -> None:
    s = verdon.new_game(seed=1)
    side = sites(verdon, "side")[5]
    s.place("fixed_rope", side, Player(0), {})
    s.place("fixed_rope", side, Player(1), {})

    assert names(s) == {"one_rope_per_path"}


@pytest.mark.parametrize("second", ["project", "route"])
def test_two_buildings_on_a_corner_break_one_building_per_location(verdon: meeple.Game, second: str) -> None:
    s = verdon.new_game(seed=1)
    corner = sites(verdon, "corner")[7]
    s.place("project", corner, Player(0), {})
    s.place(second, corner, Player(1), {})

    assert names(s) == {"one_building_per_location"}


def test_a_fixed_rope_beside_a_building_is_no_second_building(verdon: meeple.Game) -> None:
    s = verdon.new_game(seed=1)
    corner = sites(verdon, "corner")[3]
    s.place("project", corner, Player(0), {})
    s.place("fixed_rope", corner, Player(1), {})  # not a building: the location still holds one

    assert "one_building_per_location" not in names(s)
