"""Defs of a site reading the pieces near it only: found from their bodies, and their kept results dropped
only near the sites where pieces changed (compile/sitelocal.py, ir._refresher)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from meeple.compile.sitelocal import local_paths, looped_calls, nearby, reached
from meeple.rules.syntax import parse

HUTS = """
game: {name: Huts, players: {min: 2, max: 2}}
components:
  pieces:
    hut: {supply: 6}
    tent: {supply: 6}
board:
  hex: {radius: 1}
defs:
  building(c): "first([b for b in pieces_at(c) if b.kind == 'hut'])"
  far_enough(c): "building(c) == none and all(building(n) == none for n in neighbours(c))"
  crowded(c): "count(pieces('hut')) > 3 and far_enough(c)"
  lonely(c): "len(pieces_at(c)) == 0"
actions:
  build:
    params: {corner: corners}
    when: far_enough(corner)
    effect: [place hut at corner]
  camp:
    params: {corner: corners}
    when: crowded(corner) and lonely(first(corners))
    effect: [place tent at corner]
  shift:
    params: {hut: "pieces('hut', owner=me)", to: corners}
    when: building(to) == none
    effect: [move piece hut to to]
  raze:
    params: {hut: "pieces('hut', owner=me)"}
    effect: [remove hut]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: count(pieces('hut')) >= 6
    do: [{choose: [build, camp, shift, raze], optional: true}]
"""


def load(tmp_path: Path, text: str = HUTS) -> meeple.Game:
    path = tmp_path / "huts.yaml"
    path.write_text(text, encoding="utf-8")
    assert meeple.check(path) == []
    return meeple.load(path, players=2)


def test_a_def_reading_the_pieces_at_its_site_and_its_neighbours_is_local_by_those_paths(tmp_path):
    game = load(tmp_path)
    # `crowded` counts every hut; `lonely` is asked of one site only, and `building` reads the pieces of its
    # own site alone (as cheap to ask again as to sort out): none is worth keeping apart.
    assert game.definition.local_defs == {"far_enough": frozenset({(), ("neighbours",)})}
    board = game.definition.board
    corner = next(c for c in board.kind_of if board.kind_of[c] == "corner")
    assert reached(board, corner, game.definition.local_defs["far_enough"]) == {
        corner,
        *board.neighbours[corner],
    }
    # A change at a corner reaches far_enough of it and of its neighbours: the corners one path away.
    near = nearby(board, game.definition.local_defs["far_enough"])
    assert set(near[corner]) == {corner, *board.neighbours[corner]}


@pytest.mark.parametrize(
    ("body", "local"),
    [
        ("len(pieces_at(c))", {()}),
        ("any(x.kind == 'wall' for s in sides_of(c) for x in pieces_at(s))", {("sides_of",)}),
        ("[t for t in tiles_of(c) if len(pieces_at(t)) > 0]", {("tiles_of",)}),
        ("first(pieces_at(c)).owner == none", {()}),
        ("c.number == 3", set()),  # a field of a site: no piece read
        ("count(pieces('hut'))", None),  # every hut
        ("supply(first(players), 'hut') > 0", None),
        ("len(pieces_at(token))", None),  # a site a variable holds: it moves unseen
        ("len(within(c, 2, 'walk'))", None),  # a metric's costs may read pieces anywhere
        ("first(pieces('hut')).owner", None),  # a field of a piece found elsewhere
        ("len(pieces_at(first(pieces('hut')).site))", None),
    ],
)
def test_a_def_is_local_only_when_every_piece_it_reads_is_at_a_site_reached_from_its_argument(body, local):
    bodies = {"d": (parse(body, "expr"), {}, None, ("c",))}
    found = local_paths("d", bodies, set(meeple.compile.builtins.BUILTINS), {"kind", "owner", "site"})
    assert found == (None if local is None else frozenset(local))


def test_a_def_called_by_a_local_def_is_followed_with_the_site_it_is_asked_of():
    bodies = {
        "at": (parse("first(pieces_at(x))", "expr"), {}, None, ("x",)),
        "around": (parse("[at(n) for n in neighbours(c)]", "expr"), {}, None, ("c",)),
        "elsewhere": (parse("at(first(corners))", "expr"), {}, None, ("c",)),
    }
    builtins = set(meeple.compile.builtins.BUILTINS)
    assert local_paths("around", bodies, builtins, {"kind"}) == frozenset({("neighbours",)})
    assert local_paths("elsewhere", bodies, builtins, {"kind"}) is None


def test_only_a_def_asked_of_a_looped_value_is_looped():
    node = parse(
        "far_enough(corner) and lonely(first(corners)) and any(near(n) for n in neighbours(x))", "expr"
    )
    names = {"far_enough", "lonely", "near"}
    assert looped_calls(node, names, {"corner"}) == {"far_enough", "near"}


def test_a_placement_drops_the_kept_results_near_it_and_keeps_the_others(tmp_path):
    from meeple.values import Player

    game = load(tmp_path)
    state = game.new_game(seed=1)
    state.legal_actions()  # every corner's far_enough worked out and kept
    kept = state._kept["far_enough"]
    board = game.definition.board
    corners = [c for c in board.kind_of if board.kind_of[c] == "corner"]
    assert set(kept) == set(corners) and all(kept.values())
    target = corners[0]
    state.place("hut", target, Player(0), {})
    game.definition.refresh_kept(state)
    now = state._kept["far_enough"]
    near = {target, *board.neighbours[target]}
    assert now is not kept and set(kept) == set(corners)  # a new dict: a clone may share the old one
    assert set(now) == set(corners) - near  # those near the hut to be worked out again, the rest kept
    state._legal = None  # the hut was placed by the effects directly, not by an action
    state.legal_actions()
    assert all(now[c] is False for c in near) and now is state._kept["far_enough"]
    # Two huts apart, then a third: the sites noted since the last refresh drop what is near each.
    state.place("hut", corners[-1], Player(1), {})
    state.place("hut", corners[-2], Player(1), {})
    game.definition.refresh_kept(state)
    gone = {corners[-1], corners[-2], *board.neighbours[corners[-1]], *board.neighbours[corners[-2]]}
    assert set(state._kept["far_enough"]) == set(corners) - gone


@pytest.mark.parametrize("seed", range(6))
def test_a_game_with_local_defs_offers_what_it_offers_with_nothing_kept(tmp_path, monkeypatch, seed):
    game = load(tmp_path)
    monkeypatch.setenv("MEEPLE_CODEGEN", "0")
    slow = load(tmp_path)
    assert slow.definition.local_defs == {}
    fast_state, slow_state = game.new_game(seed=seed), slow.new_game(seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not fast_state.is_over and moves < 200:
        legal = [str(a) for a in fast_state.legal_actions()]
        assert legal == [str(a) for a in slow_state.legal_actions()]
        pick = rng.choice(legal)  # builds, shifts (a piece moved) and razes (one taken off)
        fast_state.apply(pick)
        slow_state.apply(pick)
        moves += 1
    assert fast_state.to_json() == slow_state.to_json()


def test_a_clone_keeps_its_own_sites_to_drop_and_a_change_behind_the_effects_drops_every_result(tmp_path):
    from meeple.values import Player

    game = load(tmp_path)
    state = game.new_game(seed=2)
    state.legal_actions()
    other = state.clone()
    kept = state._kept["far_enough"]
    assert other._kept["far_enough"] is kept  # shared until either refreshes after a change
    corners = sorted(kept)
    state.apply(f"build(corner={corners[0]})")  # listing the next decision consumed the site noted
    assert state._site_log == [] and state._kept["far_enough"] is not kept
    assert other._kept["far_enough"] is kept and kept[corners[0]] is True  # the clone's results whole
    state.place("hut", corners[-1], Player(1), {})
    assert state._site_log == [corners[-1]] and other._site_log == []
    # Pieces changed behind the effects, their counters moved but no site noted: every result dropped.
    for part in other.ver:
        other.ver[part] += 1
    other.game.refresh_kept(other)
    assert other._kept["far_enough"] == {}


def test_every_change_of_a_piece_notes_its_sites(tmp_path):
    from meeple.values import PieceRef, Player

    game = load(tmp_path)
    state = game.new_game(seed=3)
    state.legal_actions()
    a, b, c = sorted(state._kept["far_enough"])[:3]
    hut = state.place("hut", a, Player(0), {})
    state.move_piece(hut, b)
    state.set_field(PieceRef(hut), "site", c)  # a move by its field: the pieces by site follow
    assert state.at[b] == () and state.at[c] == (hut,)
    state.set_field(PieceRef(hut), "owner", Player(1))
    state.replace(hut, "tent", None)
    state.remove(hut)
    assert state._site_log == [a, a, b, b, c, c, c, c]
