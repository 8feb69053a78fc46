"""Piece queries are kept by the change counters of the pieces they list: a change to pieces of another
kind or owner leaves an answer as it was, and a piece placed joins the answers it belongs to in place."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_rules import load_tiny

from meeple.compile import builtins
from meeple.compile.builtins import pieces

RULES = """
game: {name: Stones, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}, flag: {supply: 9}}
board: {grid: {width: 4, height: 1}}
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect: [place stone at cell for me]
  plant:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0 and len(pieces('flag')) < 9]"}
    effect: [place flag at cell for me]
  shift:
    params: {stone: "pieces('stone', owner=me)", cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect: [move piece stone to cell]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [put, plant, shift]}]
"""


def sites(refs: list) -> list[str]:
    return [ref.rec["site"] for ref in refs]


def test_a_piece_placed_joins_the_kept_answers_and_leaves_the_others_as_they_were(tmp_path: Path) -> None:
    state = load_tiny(tmp_path, RULES, players=2).new_game(seed=1)
    p1, p2 = state.players
    state.apply("put(cell=a1)")
    state.apply("plant(cell=b1)")  # p2's flag
    stones, flags, mine = pieces(state, "stone"), pieces(state, "flag"), pieces(state, "stone", owner=p1)
    everything = pieces(state)
    assert sites(stones) == ["a1"] and sites(flags) == ["b1"] and sites(mine) == ["a1"]
    state.apply("put(cell=c1)")  # p1's second stone
    assert pieces(state, "flag") is flags  # another kind: the same answer, not listed again
    assert pieces(state, "stone", owner=p2) == []
    assert sites(pieces(state, "stone")) == ["a1", "c1"]  # placed last, listed last
    assert sites(pieces(state, "stone", owner=p1)) == ["a1", "c1"]
    assert sites(pieces(state)) == ["a1", "b1", "c1"] and everything == pieces(state)[:2]
    assert sites(pieces(state, owner=p1)) == ["a1", "c1"]


def test_a_piece_moved_is_listed_where_it_now_stands(tmp_path: Path) -> None:
    state = load_tiny(tmp_path, RULES, players=2).new_game(seed=1)
    p1, _ = state.players
    state.apply("put(cell=a1)")
    state.apply("plant(cell=b1)")
    flags = pieces(state, "flag")
    assert sites(pieces(state, "stone", owner=p1)) == ["a1"]
    state.apply("shift(stone=stone#0@a1, cell=d1)")
    assert sites(pieces(state, "stone", owner=p1)) == ["d1"] and sites(pieces(state, "stone")) == ["d1"]
    assert pieces(state, "flag") is flags


def test_pieces_moved_are_listed_again_from_the_kept_answer_not_a_pass_over_the_pieces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move changes no answer's pieces, only the references (shown with their sites): an answer kept
    since the last piece was placed or removed (the `roster` counter) is listed again with new ones."""
    state = load_tiny(tmp_path, RULES, players=2).new_game(seed=1)
    p1, p2 = state.players
    state.apply("put(cell=a1)").apply("put(cell=b1)")
    state._piece_lists.clear()  # answers listed since the last piece was placed, as the rules list them
    assert sites(pieces(state, "stone")) == ["a1", "b1"] and sites(pieces(state)) == ["a1", "b1"]
    assert sites(pieces(state, "stone", owner=p1)) == ["a1"]
    state.apply("shift(stone=stone#0@a1, cell=c1)")  # p1's stone
    with monkeypatch.context() as patch:
        for name in ("_pieces", "_by_owner"):
            patch.setattr(builtins, name, _no_pass)
        assert [str(ref) for ref in pieces(state, "stone")] == ["stone#0@c1", "stone#1@b1"]
        assert sites(pieces(state)) == ["c1", "b1"]
        assert sites(pieces(state, "stone", owner=p1)) == ["c1"]
    state.apply("plant(cell=a1)")  # p2's flag: placed, it joins the kept answers that were right
    assert sites(pieces(state)) == ["c1", "b1", "a1"]
    assert sites(pieces(state, "stone", owner=p2)) == ["b1"] and sites(pieces(state, owner=p2)) == [
        "b1",
        "a1",
    ]


def _no_pass(*args: object) -> None:
    raise AssertionError("a pass over the pieces")


def test_only_the_parts_of_the_pieces_some_rule_reads_are_counted(tmp_path: Path) -> None:
    game = load_tiny(tmp_path, RULES, players=2)
    counters = game.definition.counters
    # flags are read by kind, stones by kind and owner; nothing reads a player's pieces of every kind
    of_pieces = {c for c in counters if c.startswith("pieces")}
    assert of_pieces == {"pieces", "pieces.flag", "pieces.stone", "pieces.stone@0", "pieces.stone@1"}
    state = game.new_game(seed=1)
    before = dict(state.ver)
    state.apply("plant(cell=a1)")  # a flag of p1: the pieces' and the flags' counters move, no other
    moved = {k for k in state.ver if state.ver[k] != before[k]}
    assert moved & of_pieces == {"pieces", "pieces.flag"}
    p1, _ = state.players
    assert sites(pieces(state, owner=p1)) == ["a1"]  # answered all the same, kept by every piece's counter


def test_a_players_pieces_of_every_kind_are_counted_where_a_rule_reads_them(tmp_path: Path) -> None:
    rules = RULES.replace("len(pieces('flag')) < 9", "len(pieces(owner=me)) < 9")
    counters = load_tiny(tmp_path, rules, players=2).definition.counters
    assert {"pieces@0", "pieces@1", "pieces.flag@0", "pieces.stone@1"} <= set(counters)
    assert "pieces@-" not in counters  # no rule reads the pieces of no owner
