"""An award whose measure of `p` reads p's own pieces keeps each player's measure while their pieces stay as
they were: a piece placed by one player works out that player's measure again, not every player's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tiny_rules import load_tiny

RULES = """
game: {name: Builders, players: {min: 3, max: 3}}
components:
  pieces: {stone: {supply: 9}, flag: {supply: 9}}
board: {grid: {width: 4, height: 2}}
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect: [place stone at cell for me]
  plant:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect: [place flag at cell for me]
  pass_on: {}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [put, plant, pass_on]}]
scoring:
  score: "award_points(p)"
  awards:
    builder: {measure: "count(pieces('stone', owner=p))", min: 2, points: 2}
"""


def counted(tmp_path: Path) -> tuple[Any, list[int]]:
    """A game whose award's measure counts, by player, how often it is worked out."""
    game = load_tiny(tmp_path, RULES, players=3)
    award = game.definition.awards[0]
    measure, asked = award.measure, []

    def counting(s: Any, b: dict[str, Any]) -> Any:
        asked.append(int(b["p"]))
        return measure(s, b)

    object.__setattr__(award, "measure", counting)
    return game, asked


def test_the_measure_of_a_players_own_pieces_is_worked_out_again_only_for_that_player(tmp_path: Path) -> None:
    game, asked = counted(tmp_path)
    award = game.definition.awards[0]
    assert award.reads == ("pieces.stone@=p",) and award.per_player
    state = game.new_game(seed=1)
    state.apply("put(cell=a1)")  # the first settle works out everyone's measure
    assert sorted(asked) == [0, 1, 2]
    asked.clear()
    state.apply("put(cell=b1)")  # p2's stone: p2's measure alone
    assert asked == [1]
    asked.clear()
    state.apply("plant(cell=c1)")  # p3's flag: another kind, no stone's count can change
    state.apply("pass_on")
    assert asked == []


def test_the_award_changes_hands_as_the_measures_do(tmp_path: Path) -> None:
    game, _ = counted(tmp_path)
    state = game.new_game(seed=1)
    holders = []
    for move in ("put(cell=a1)", "put(cell=b1)", "pass_on", "put(cell=c1)", "put(cell=d1)", "pass_on"):
        state.apply(move)
        holders.append(state.awards["builder"])
    # p1 has 2 stones after its second: the award; p2's second only ties (p1 keeps it)
    assert holders == [None, None, None, 0, 0, 0]
    for move in ("pass_on", "put(cell=a2)"):  # p2's third stone: strictly more
        state.apply(move)
    assert state.awards["builder"] == 1
    assert state.scores == {0: 0, 1: 2, 2: 0}


def test_a_measure_calling_a_def_is_worked_out_with_the_listings_memo(tmp_path: Path) -> None:
    # The same award, its measure by way of a def: it is measured with a listing's memo (the def's kept
    # results brought up to date first); the measure calling none has no use for one and runs without.
    with_def = RULES.replace("measure: \"count(pieces('stone', owner=p))\"", 'measure: "stones(p)"').replace(
        "actions:", "defs:\n  stones(p): \"count(pieces('stone', owner=p))\"\nactions:"
    )
    plain = load_tiny(tmp_path, RULES, players=3)
    calling = load_tiny(tmp_path, with_def, players=3)
    assert not plain.definition.awards[0].memo and calling.definition.awards[0].memo
    moves = ("put(cell=a1)", "put(cell=b1)", "pass_on", "put(cell=c1)", "put(cell=d1)", "pass_on", "pass_on")
    for game in (plain, calling):
        award = game.definition.awards[0]
        memos: list[bool] = []

        def measure(s: Any, b: dict[str, Any], inner: Any = award.measure, memos: list[bool] = memos) -> Any:
            memos.append(s._memo is not None)
            return inner(s, b)

        object.__setattr__(award, "measure", measure)
        state = game.new_game(seed=1)
        holders = []
        for move in (*moves, "put(cell=a2)"):
            state.apply(move)
            holders.append(state.awards["builder"])
        assert holders == [None, None, None, 0, 0, 0, 0, 1]
        assert memos and set(memos) == {game is calling}
