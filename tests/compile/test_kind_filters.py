"""A comprehension over pieces whose condition keeps some kinds (`b.kind != 'rope'`) reads the pieces of
those kinds only: a def built on one keeps its results while pieces of the other kinds change."""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple.values import Player

CAMPS = """
game: {name: Camps, players: {min: 2, max: 2}}
components:
  pieces:
    hut: {supply: 6}
    tower: {supply: 6}
    rope: {supply: 9}
board:
  hex: {radius: 1}
defs:
  homes(p): "[b.site for b in pieces(owner=p) if b.kind != 'rope']"
  towers(p): "[b.site for b in pieces(owner=p) if b.kind in ['tower']]"
  strung(p): "[b.site for b in pieces(owner=p) if b.kind not in ['hut', 'tower']]"
  anything(p): "[b.site for b in pieces(owner=p) if b.site != none]"
actions:
  settle:
    params: {corner: "[c for c in corners if c not in homes(me)]"}
    when: len(towers(me)) + len(strung(me)) + len(anything(me)) >= 0
    effect: [place hut at corner]
  string:
    params: {side: "[x for x in sides if len(pieces_at(x)) == 0]"}
    effect: [place rope at side]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: count(pieces('hut')) >= 4
    do: [{choose: [settle, string]}]
"""


def load(tmp_path: Path) -> meeple.Game:
    path = tmp_path / "camps.yaml"
    path.write_text(CAMPS, encoding="utf-8")
    assert meeple.check(path) == []
    return meeple.load(path, players=2)


def test_a_kind_test_narrows_the_parts_a_def_of_a_players_pieces_reads(tmp_path):
    kept = {names: parts for parts, names in load(tmp_path).definition.kept_defs}
    assert kept[("homes",)] == ("pieces.hut@=", "pieces.tower@=")  # `!=`: every kind but the rope
    assert kept[("towers",)] == ("pieces.tower@=",)  # `in`
    assert kept[("strung",)] == ("pieces.rope@=",)  # `not in`
    assert kept[("anything",)] == ("pieces.hut@=", "pieces.rope@=", "pieces.tower@=")  # no kind tested


def test_a_rope_placed_keeps_the_results_of_a_def_of_the_other_kinds(tmp_path):
    game = load(tmp_path)
    state = game.new_game(seed=1)
    state.apply(state.legal_actions()[0])  # p1 places a hut
    state.apply(next(a for a in state.legal_actions() if a.name == "string"))  # p2 a rope
    state.legal_actions()
    homes = state._kept["homes"]
    assert homes[Player(0)] and Player(0) in state._kept["anything"] and Player(0) in state._kept["strung"]
    rope = next(a for a in state.legal_actions() if a.name == "string")
    state.apply(rope)  # p1 places a rope
    state.legal_actions()
    assert state._kept["homes"] is homes  # not dropped: a rope never gets past its condition
    assert Player(0) not in state._kept["strung"] and Player(0) not in state._kept["anything"]  # dropped
    # The same offers as the rules compiled without generated source (nothing kept), game after game.
    for seed in range(5):
        fast, slow = game.new_game(seed=seed), game.new_game(seed=seed)
        while not fast.is_over:
            legal = fast.legal_actions()
            slow.forget()
            assert [str(a) for a in legal] == [str(a) for a in slow.legal_actions()]
            pick = legal[seed % len(legal)]
            fast.apply(pick)
            slow.apply(str(pick))
