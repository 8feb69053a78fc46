"""The values expressions compute with: the first player and the first piece are things, not zero."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.values import Action, Bundle, PieceRef, Player

RULES = """
game: {name: Marks, players: {min: 2, max: 2}}
components:
  pieces: {mark: {supply: 9}}
board:
  grid: {width: 3, height: 1}
actions:
  play:
    params: {cell: "[c for c in cells if not any(pieces_at(c))]"}
    effect: [place mark at cell]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: "all(any(pieces_at(c)) for c in cells)"
    do: [{choose: [play]}]
"""


def test_the_first_player_and_the_first_piece_are_true():
    assert bool(Player(0)) and bool(PieceRef(0, {"kind": "mark", "site": "a1"}))


def test_a_cell_holding_the_first_piece_placed_is_not_offered_again(tmp_path: Path):
    path = tmp_path / "marks.yaml"
    path.write_text(RULES, encoding="utf-8")
    assert meeple.check(path) == []
    state = meeple.load(path, players=2).new_game(seed=1)
    state.apply("play(cell=a1)")
    assert [str(a) for a in state.legal_actions()] == ["play(cell=b1)", "play(cell=c1)"]


def test_a_players_view_carries_no_random_generator_state():
    """With the generator a player could work out every future draw and roll (issue: views leak nothing)."""
    import json

    game = meeple.load("tabletop_climber", players=3)
    first, second = game.new_game(seed=1), game.new_game(seed=1)
    second.rng.seed(12345)  # the same game, another future
    assert first.to_json() != second.to_json()
    for p in range(3):
        view = json.loads(first.view(p).to_json())
        assert view["rng"] is None
        assert first.view(p).to_json() == second.view(p).to_json()
    assert json.loads(first.to_json())["rng"] is not None  # the game itself keeps its generator


_values = st.one_of(
    st.sampled_from(["a1", "b2", "rope"]),
    st.integers(0, 3).map(Player),
    st.dictionaries(st.sampled_from(["rope", "nut"]), st.integers(1, 2)).map(Bundle),
)
_actions = st.builds(
    Action,
    st.sampled_from(["play", "trade"]),
    st.lists(st.tuples(st.sampled_from(["give", "get"]), _values), max_size=2).map(tuple),
    st.booleans(),
)


@given(_actions, _actions)
def test_actions_are_equal_when_name_params_and_partial_are_and_then_hash_alike(a: Action, b: Action) -> None:
    """An action's hash is worked out when first asked for; equality never depends on whether it was."""
    same = (a.name, a.params, a.partial) == (b.name, b.params, b.partial)
    assert (a == b) is same
    if same:
        assert hash(a) == hash(b)
    copy = Action(a.name, a.params, a.partial)
    assert copy == a and hash(copy) == hash(a)
    assert a in {copy: 1}
    assert pickle.loads(pickle.dumps(a)) == a


@given(st.dictionaries(st.sampled_from(["rope", "nut", "bolt", "chalk"]), st.integers(0, 4)))
def test_a_bundles_units_are_each_copy_in_name_order_and_its_size_their_count(counts: dict[str, int]) -> None:
    from meeple.compile.builtins import count, size, units

    bundle = Bundle(counts)
    expected = tuple(k for k in sorted(counts) for _ in range(counts[k]))
    assert bundle.units() == expected and bundle.units() is bundle.units()  # made once, then kept
    assert tuple(units(bundle)) == expected == tuple(units(dict(bundle.items())))
    assert size(None, bundle) == count(None, bundle) == len(expected)
    assert pickle.loads(pickle.dumps(bundle)).units() == expected
    assert Bundle.of_counts(counts).units() == expected


@given(st.dictionaries(st.sampled_from(["ace", "king", "queen", "jack"]), st.integers(0, 3)))
def test_a_zones_distinct_names_and_extremes_are_of_the_cards_it_holds(zone: dict[str, int]) -> None:
    from meeple.compile.builtins import BUILTINS

    held = sorted(k for k, v in zone.items() if v > 0)  # a name with no copy left is not held
    assert BUILTINS["distinct"](None, zone) == held
    assert BUILTINS["min"](None, zone) == (held[0] if held else None)
    assert BUILTINS["max"](None, zone) == (held[-1] if held else None)


def test_a_bundle_of_names_and_counts_in_step_leaves_out_the_zero_ones():
    made = Bundle.of_pairs(["rope", "nut", "bolt"], (2, 0, 1))
    assert made == Bundle({"rope": 2, "bolt": 1}) == Bundle.of_counts({"rope": 2, "nut": 0, "bolt": 1})
    assert (
        "nut" not in made
        and list(made) == ["rope", "bolt"]
        and hash(made) == hash(Bundle({"bolt": 1, "rope": 2}))
    )
    assert Bundle.of_pairs(["rope"], [0]) == Bundle({})


@given(st.sampled_from(["rope", "nut"]), st.integers(-2, 3))
def test_a_bundle_of_one_term_is_the_bundle_of_its_count(name: str, count: int) -> None:
    one = Bundle.one(name, count)
    assert one == Bundle.of_counts({name: count}) and hash(one) == hash(Bundle.of_counts({name: count}))
    assert (name in one) == (count != 0) and one[name] == count
    assert Bundle.one(name, 0) == Bundle({}) and not Bundle.one(name, 0)


COUNTS = st.dictionaries(st.sampled_from(["rope", "nut", "bolt"]), st.integers(0, 3))


@given(COUNTS, COUNTS)
def test_a_bundle_includes_another_when_it_holds_at_least_each_of_its_units(held: dict, asked: dict) -> None:
    a, b = Bundle(held), Bundle(asked)
    includes = all(held.get(k, 0) >= v for k, v in asked.items())
    assert (a >= b) is includes and (b <= a) is includes
    assert a >= Bundle() and a >= a
    with pytest.raises(TypeError):  # compared with a number: no answer
        a >= 3  # noqa: B015
