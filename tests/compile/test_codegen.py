"""Generated Python source for expressions and action enumeration (interpreter/compile/codegen.py).

The closures are the reference: with MEEPLE_CODEGEN=0 the engine runs them alone, and every seed game must
play exactly the same game, action for action, either way.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.compile import codegen, ir
from meeple.compile.expressions import RuleRuntimeError
from meeple.compile.where import Where
from meeple.rules.loader import SourceIndex
from meeple.values import Action, Bundle, stepwise_offer

ROOT = Path(__file__).resolve().parents[2]
SEED_GAMES = sorted(p.stem for p in (ROOT / "games").glob("*.yaml"))


def offers_along_a_random_game(game: meeple.Game, seed: int, limit: int = 400) -> list[str]:
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    seen = []
    while not state.is_over and len(seen) < limit:
        legal = state.legal_actions()
        seen.append(" | ".join(map(str, legal)))
        state.apply(rng.choice(legal))
    seen.append(state.to_json())
    return seen


@pytest.mark.parametrize("name", SEED_GAMES)
def test_a_seed_game_offers_the_same_actions_with_generated_source_as_with_closures(name, monkeypatch):
    players = 3
    fast = meeple.load(ROOT / "games" / f"{name}.yaml", players=players)
    monkeypatch.setenv("MEEPLE_CODEGEN", "0")
    slow = meeple.load(ROOT / "games" / f"{name}.yaml", players=players)
    assert all(a.fast is None for a in slow.definition.actions.values())
    for seed in (1, 2):
        assert offers_along_a_random_game(fast, seed) == offers_along_a_random_game(slow, seed)


@pytest.mark.parametrize("name", SEED_GAMES)
def test_every_action_of_a_seed_game_has_a_generated_enumerator(name):
    game = meeple.load(ROOT / "games" / f"{name}.yaml", players=3)
    assert [n for n, a in game.definition.actions.items() if a.fast is None] == []


@pytest.mark.parametrize("name", SEED_GAMES)
def test_a_steps_listing_appends_what_the_enumerator_lists_with_nothing_bound(name):
    """`listing(s, me, out)`, the step's own version of each action's loops (no test of a bound value, of a
    free cost or of `first`), lists the same Actions as the enumerator, at every decision of random games;
    a stepwise action's lists its offer with nothing decided when the enumerator finds a first binding."""
    game = meeple.load(ROOT / "games" / f"{name}.yaml", players=3)
    listers = game.definition.listers
    for a in game.definition.actions.values():
        if a.listing is not None:
            assert not any(word in a.listing.source for word in ("in bound", "not free", "if first"))
    compared = 0
    for seed in (1, 2):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        while not state.is_over:
            frame = state.stack[-1]
            if frame["k"] == "choose":
                state._memo = {}  # as a listing has it
                try:
                    for listing, a in listers[frame["ph"]][frame["st"]]:
                        assert listing is a.listing is not None
                        out: list[Any] = []
                        listing(state, frame["p"], out)
                        if not a.stepwise:
                            assert out == a.fast(state, frame["p"], {}, False, False)
                        else:  # offered, with nothing decided, when some binding is legal
                            found = a.fast(state, frame["p"], {}, False, True)
                            assert out == ([Action(a.name, (), partial=True)] if found else [])
                            assert not out or out[0] is stepwise_offer(a.name)
                        compared += 1
                finally:
                    state._memo = None
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 100


def test_a_steps_listing_of_a_constant_domain_takes_its_values_as_they_are():
    # trade(give, get), both among the resources: a step's listing tests neither value's type, loops over
    # the constant domain itself, and works out camps_of(me), asked twice by trade_rate, once.
    game = meeple.load(ROOT / "games" / "climbers_of_verdon.yaml", players=4)
    trade = game.definition.actions["trade"]
    source = trade.listing.source
    assert "in _ATOMS" in trade.fast.source and "in _ATOMS" not in source
    assert "d_get" not in source and re.search(r"for v_get in _k\d+:", source)
    assert len(set(re.findall(r"(_h\d+) := \(_D\['camps_of", source))) == 1
    # (that it lists what the enumerator does: test_a_steps_listing_appends_what_the_enumerator_lists...)


def test_an_actions_loops_read_a_sites_fields_in_place():
    # The loops run in a copy of the expressions' namespace, made before the board's sites were all known:
    # they see the sites all the same, and a tile's terrain (`project.home.terrain`) is read off the site.
    game = meeple.load(ROOT / "games" / "climbers_of_verdon.yaml", players=4)
    ns = game.definition.actions["climb"].listing.__globals__
    assert set(game.definition.board.kind_of) <= ns["_SITES"]
    asked: list[Any] = []
    ns["_get_attr"] = lambda s, obj, name, read=ns["_get_attr"]: asked.append(obj) or read(s, obj, name)
    state, rng, listed = game.new_game(seed=3), random.Random(3), 0
    while not state.is_over:
        listed += any(a.name == "climb" for a in state.legal_actions())
        state.apply(rng.choice(state.legal_actions()))
    assert listed > 0 and not [obj for obj in asked if isinstance(obj, str)]


def test_a_steps_listing_finds_the_action_of_a_binding_of_sites_without_testing_their_kind():
    # A site of the board is a name: where only the domains give the values, its kind goes untested.
    game = meeple.load(ROOT / "games" / "climbers_of_verdon.yaml", players=4)
    place = game.definition.actions["place_start"]
    assert "in _ATOMS" in place.fast.source and "in _ATOMS" not in place.listing.source
    assert "_a = _made.get((v_corner, v_tile, v_path, ))" in place.listing.source


def plays_as_the_closures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, game: meeple.Game, seeds: range
) -> None:
    """The same rules compiled without generated source offer the same actions along random games."""
    monkeypatch.setenv("MEEPLE_CODEGEN", "0")
    slow = load_tiny(tmp_path, text, players=game.players)
    for seed in seeds:
        assert offers_along_a_random_game(game, seed) == offers_along_a_random_game(slow, seed)


def load_tiny(tmp_path: Path, text: str, players: int) -> meeple.Game:
    path = tmp_path / "tiny.yaml"
    path.write_text(text, encoding="utf-8")
    assert meeple.check(path) == []
    return meeple.load(path, players=players)


def test_a_generated_expression_reads_the_state_directly_and_computes_constant_parts_once(tmp_path):
    game = load_tiny(
        tmp_path,
        """
game: {name: Tiny, players: {min: 1, max: 2}}
components: {resources: [coin]}
vars:
  game: {round: 0}
actions:
  tick:
    when: round + (2 * 3) < 100
    effect: [round += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [tick]}]
""",
        players=1,
    )
    (check,) = game.definition.actions["tick"].checks[0]
    assert "s.gv['round']" in check.source
    assert "6" in check.source and "2 * 3" not in check.source


def test_a_type_mismatch_inside_generated_source_is_a_rule_error_not_a_python_one(tmp_path):
    game = load_tiny(
        tmp_path,
        """
game: {name: Tiny, players: {min: 1, max: 2}}
vars:
  game: {label: 'x'}
actions:
  tick:
    when: label + 1 > 0
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [tick]}]
""",
        players=1,
    )
    with pytest.raises(RuleRuntimeError, match="TypeError") as caught:
        game.new_game(seed=1).legal_actions()
    assert caught.value.rule == "actions.tick.when"
    assert caught.value.span is not None and (caught.value.span.line, caught.value.span.col) == (7, 11)


def test_an_unknown_node_falls_back_to_the_closures():
    from meeple.compile.expressions import ExprCompiler
    from meeple.compile.symbols import Sink, Symbols

    class Strange(codegen.n.Node):
        pass

    gen = codegen.SourceGen(ExprCompiler(Symbols(), Sink(None), {}))  # type: ignore[arg-type]
    assert gen.function(Strange(), {}, Where(SourceIndex(), ())) is None


def test_a_parameter_that_is_not_a_plain_name_is_never_written_into_source():
    """A rule file's keys may be any text; only plain names become Python names (else: the closures)."""
    from meeple.compile.expressions import ExprCompiler
    from meeple.compile.symbols import Sink, Symbols
    from meeple.rules.syntax import parse

    gen = codegen.SourceGen(ExprCompiler(Symbols(), Sink(None), {}))  # type: ignore[arg-type]
    sneaky = "x): import os  #"
    where = Where(SourceIndex(), ())
    assert gen.function(parse("1 + 2"), {sneaky: None}, where, (sneaky,)) is None
    located = (lambda node: where, where)
    assert codegen.action_enumerator(gen, "give", [(sneaky, None)], [[], []], None, {}, *located) is None
    enumerator = codegen.action_enumerator(
        gen, "give", [("n", parse("[1, 2]"))], [[], []], None, {}, *located
    )
    assert enumerator is not None


INLINE_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 1}}
defs:
  empty(c): len(pieces_at(c, 'stone')) == 0
  open(c): empty(c) and c.x != 9
  spot(c): "first([x for x in cells if x == c])"
  lucky(c): pick([c])
  twice(c, n): n + n
  last(): sorted(cells)[2]
  early(c): c <= last()
actions:
  put:
    params: {cell: "[c for c in cells if open(c) and lucky(c) == c and spot(c) == c and early(c)]"}
    when: twice(cell.x, cell.x * 1) >= 0
    effect: [place stone at cell for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces('stone')) == 3
    do: [{choose: [put]}]
"""


def test_a_small_def_is_written_out_where_it_is_called_and_plays_as_the_closures(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, INLINE_RULES, players=2)
    gen_source = game.definition.actions["put"].fast.source
    # empty and open are small and loop-free: their bodies stand in the enumerator, no def call left.
    assert "'empty'" not in gen_source and "'open'" not in gen_source
    # empty(c): len(pieces_at(c, 'stone')) == 0, where stones are the only kind: whether the site's list of
    # pieces is empty
    assert "(not(s.at.get(v_c, ())))" in gen_source
    # A def with a comprehension, one drawing from the generator, and one whose costly argument its body
    # would compute twice are still called (with their memo).
    assert "'spot'" in gen_source and "'lucky'" in gen_source and "'twice'" in gen_source
    # early(c) calls last(), which is not written out (`sorted`): early's body stands in the enumerator
    # all the same, with its call of last() through the memo.
    assert "'early'" not in gen_source and "_call0(s, 'last'" in gen_source
    plays_as_the_closures(tmp_path, monkeypatch, INLINE_RULES, game, range(1, 4))


CALLING_EACH_OTHER_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
vars:
  game: {rounds: 0}
defs:
  even(n): "n == 0 or odd(n - 1)"
  odd(n): "n != 0 and even(n - 1)"
  countdown(n): "n <= 0 or countdown(n - 1)"
actions:
  go:
    params: {n: "[x for x in [1, 2, 3, 4] if even(x) and countdown(x)]"}
    effect: [rounds += n]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 9
    do: [{choose: [go]}]
"""


def test_defs_that_call_each_other_or_themselves_are_never_written_into_each_other(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, CALLING_EACH_OTHER_RULES, players=2)
    source = game.definition.actions["go"].fast.source
    # even calls odd, compiled after it: called with its memo. odd, written out into even's body, calls
    # even through the memo; countdown calls itself: called, never written out.
    assert "'even'" in source and "'countdown'" in source
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["go(n=2)", "go(n=4)"]
    plays_as_the_closures(tmp_path, monkeypatch, CALLING_EACH_OTHER_RULES, game, range(1, 4))


def test_a_game_whose_set_up_draws_nothing_starts_from_one_kept_state_without_sharing_it(tmp_path):
    game = load_tiny(tmp_path, INLINE_RULES.replace("lucky(c) == c and ", ""), players=2)
    first = game.new_game(seed=1)
    assert game._start is not None  # the set-up drew nothing from the generator: kept for later games
    first.apply(first.legal_actions()[0])
    second = game.new_game(seed=2)
    assert len(second.pieces) == 0 and len(second.legal_actions()) == 3
    fresh = meeple.load(tmp_path / "tiny.yaml", players=2).new_game(seed=2)
    assert second.to_json() == fresh.to_json()  # the same state as one built from scratch, its own seed


def test_a_game_whose_first_offer_draws_from_the_generator_is_set_up_anew_each_time(tmp_path):
    game = load_tiny(tmp_path, INLINE_RULES, players=2)  # `lucky` picks while the first offer is made
    game.new_game(seed=1)
    assert game._start is None


def test_a_set_up_that_draws_from_the_generator_is_run_for_every_game():
    game = meeple.load("climbers_of_verdon", players=3)
    a, b = game.new_game(seed=1), game.new_game(seed=2)
    assert game._start is None
    assert a.to_json() != b.to_json()


KEPT_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 1}}
vars:
  game: {bonus: 0}
defs:
  stones(c): "len([x for x in pieces_at(c) if x.kind == 'stone'])"
  worth(c): "stones(c) + bonus"
  lucky(c): "pick([c, c])"
actions:
  put:
    params: {cell: "[c for c in cells if stones(c) == 0 and lucky(c) == c]"}
    effect: [place stone at cell for me]
  boost:
    params: {cell: "[c for c in cells if worth(c) >= 1]"}
    effect: [bonus += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: bonus >= 3
    do: [{choose: [put, boost]}]
"""


def test_def_results_are_kept_across_decisions_until_a_part_they_read_changes(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, KEPT_RULES, players=2)
    kept = dict((names, parts) for parts, group in game.definition.kept_defs for names in group)
    # Not lucky: it draws at random. The score (0 here) is a def too, as `score(p)` in an expression.
    # Of the pieces at a cell, stones reads only the stones (its condition keeps no other kind).
    assert kept == {"stones": ("pieces.stone",), "worth": ("gv", "pieces.stone"), "score": ()}
    state = game.new_game(seed=1)
    state.apply("put(cell=a1)")
    assert "boost(cell=a1)" in map(str, state.legal_actions())
    stones_a1 = state._kept["stones"]
    state.apply("boost(cell=a1)")  # changes the game variable only: stones' results stay, worth's go
    assert str(state.legal_actions()[0]).startswith("put")
    assert state._kept["stones"] is stones_a1 and ("a1",) not in state._kept["worth"]
    state.apply("put(cell=b1)")  # a piece placed: both groups start again
    state.legal_actions()
    assert state._kept["stones"] is not stones_a1
    assert set(map(str, state.legal_actions())) >= {"boost(cell=a1)", "boost(cell=b1)", "boost(cell=c1)"}
    plays_as_the_closures(tmp_path, monkeypatch, KEPT_RULES, game, range(1, 5))


def test_a_kept_result_is_looked_up_where_the_def_is_called_without_calling_the_memo(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, KEPT_RULES, players=2)
    boost = game.definition.actions["boost"].listing  # what a step's listing runs
    assert "s._kept.get('worth', _NOTHING_KEPT).get(v_c, _MISSING)" in boost.source
    ns = boost.__globals__
    memo_calls: list[tuple[str, Any]] = []
    call1 = ns["_call1"]

    def counted(s: Any, name: str, fn: Any, v0: Any) -> Any:
        memo_calls.append((name, v0))
        return call1(s, name, fn, v0)

    monkeypatch.setitem(ns, "_call1", counted)
    state = game.new_game(seed=1)
    state.apply("put(cell=a1)")
    assert ("worth", "b1") in memo_calls  # worked out once through the memo
    memo_calls.clear()
    state._legal = None
    assert [str(a) for a in state.legal_actions() if a.name == "boost"] == ["boost(cell=a1)"]
    assert memo_calls == []  # kept for every cell since: found in place
    state._kept["worth"]["c1"] = 7  # a kept answer is what the listing believes
    state._legal = None
    offered = [str(a) for a in state.legal_actions() if a.name == "boost"]
    assert offered == ["boost(cell=a1)", "boost(cell=c1)"] and memo_calls == []
    state.apply(
        "boost(cell=a1)"
    )  # the bonus changes: worth's results are dropped, worked out through the memo
    assert ("worth", "b1") in memo_calls


PURE_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
vars:
  game: {total: 0, rounds: 0}
defs:
  double(n): "sum([n for x in [1, 2]])"
  plus_total(n): "sum([n + total for x in [1]])"
actions:
  add:
    params: {n: "[1, 2, 3]"}
    effect: [total += double(n) + plus_total(n), rounds += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 6
    do: [{choose: [add]}]
"""


def test_a_def_that_reads_no_part_of_the_state_keeps_its_results_in_effects_too(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, PURE_RULES, players=2)
    effect = game.definition.actions["add"].effect.source
    # double reads its argument only: its kept result holds while the effect changes the state; plus_total
    # reads a game variable, so it is worked out in place.
    assert "_keep1(s, 'double'" in effect
    assert "_keep(s, 'plus_total'" not in effect and "_keep1(s, 'plus_total'" not in effect
    state = game.new_game(seed=3)
    played = []
    while not state.is_over:
        action = state.legal_actions()[len(played) % 3]
        played.append(action.params[0][1])
        state.apply(action)
    total = 0
    for n in played:  # what the rules say, worked out by hand: 2n, then n + the total before
        total += 2 * n + (n + total)
    assert state.gv["total"] == total
    assert state._kept["double"] == {n: 2 * n for n in set(played)}
    plays_as_the_closures(tmp_path, monkeypatch, PURE_RULES, game, range(1, 4))


def test_clones_that_go_different_ways_do_not_share_kept_results(tmp_path):
    game = load_tiny(tmp_path, KEPT_RULES, players=2)
    state = game.new_game(seed=1)
    state.legal_actions()
    left, right = state.clone(), state.clone()
    left.apply("put(cell=a1)")
    right.apply("put(cell=c1)")  # the same change counters as left, another board
    assert [str(a) for a in left.legal_actions() if a.name == "boost"] == ["boost(cell=a1)"]
    assert [str(a) for a in right.legal_actions() if a.name == "boost"] == ["boost(cell=c1)"]


SHARED_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
vars:
  game: {rounds: 0}
  trick: {rank: 0, tags: []}
defs:
  # Each calls `distinct`, which no def written out in place calls: worked out through the memo.
  beats(n): "n > trick.rank and n in distinct([1, 2, 3])"
  tagged(n): "n in distinct(trick.tags)"
  double(n): "size(distinct([n, n * 2]))"
actions:
  play:
    params: {n: "[1, 2, 3]"}
    when: beats(n) and double(n) > 0
    effect: [set trick.rank = n]
  tag:
    params: {n: "[1, 2]"}
    when: not tagged(n)
    effect: [add n to trick.tags]
  clear: {effect: [reset trick, rounds += 1]}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 3
    do: [{choose: [play, tag, clear]}]
"""


def test_a_scope_variable_set_counts_its_own_change_and_the_scopes(tmp_path):
    game = load_tiny(tmp_path, SHARED_RULES, players=2)
    # The generated statement names the variable's change counter itself (no name built at each set).
    assert "'sv.trick.rank')" in game.definition.actions["play"].effect.source
    state = game.new_game(seed=1)
    before = dict(state.ver)
    state.apply("play(n=2)")
    assert state.sv["trick"]["rank"] == 2
    assert state.ver["sv.trick.rank"] == before["sv.trick.rank"] + 1 and state.ver["sv"] == before["sv"] + 1
    assert state.ver["sv.trick.tags"] == before["sv.trick.tags"]


def test_results_of_defs_reading_only_scope_variables_are_shared_by_their_values(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, SHARED_RULES, players=2)
    kept = dict((name, parts) for parts, group in game.definition.kept_defs for name in group)
    assert kept["beats"] == ("sv.trick.rank",) and kept["double"] == ()
    first, second = game.new_game(seed=1), game.new_game(seed=2)
    first.legal_actions()
    second.legal_actions()
    # Another game at the same rank: the same results, worked out once for both
    assert first._kept["beats"] is second._kept["beats"]
    assert first._kept["beats"] == {1: True, 2: True, 3: True}
    assert first._kept["double"] is second._kept["double"]  # reads nothing: one dict for every game
    at_zero = first._kept["beats"]
    first.apply("play(n=2)")
    assert [str(a) for a in first.legal_actions() if a.name == "play"] == ["play(n=3)"]
    assert first._kept["beats"] is not at_zero
    first.apply("clear")  # the rank back to 0: the results kept for it, in this game and the other
    assert first._kept["beats"] is at_zero
    assert [a.name for a in first.legal_actions()] == ["play", "play", "play", "tag", "tag", "clear"]
    plays_as_the_closures(tmp_path, monkeypatch, SHARED_RULES, game, range(1, 6))


def test_the_scope_variables_are_tested_only_when_one_of_them_changed(tmp_path, monkeypatch):
    rules = SHARED_RULES.replace("  clear: {", "  rest: {effect: [rounds += 0]}\n  clear: {").replace(
        "[play, tag, clear]", "[play, tag, rest, clear]"
    )
    game = load_tiny(tmp_path, rules, players=2)
    parts = ir.kept_parts(game.definition.kept_defs, 2)
    rank = parts.index("sv.trick.rank")
    state = game.new_game(seed=1)
    state.legal_actions()
    at_zero = state._kept["beats"]
    assert state._kept_stamps[len(parts)] == state.ver["sv"]  # the slot of every scope variable's counter
    state.apply("rest")  # a game variable changes, no scope variable: their tests are skipped
    state._kept_stamps[rank] = "not looked at"
    state.legal_actions()
    assert state._kept_stamps[rank] == "not looked at" and state._kept["beats"] is at_zero
    state.apply("play(n=2)")  # trick.rank changes: tested again, the results of rank 2 taken
    assert [str(a) for a in state.legal_actions() if a.name == "play"] == ["play(n=3)"]
    assert state._kept_stamps[rank] == state.ver["sv.trick.rank"] and state._kept["beats"] is not at_zero
    plays_as_the_closures(tmp_path, monkeypatch, rules, game, range(1, 6))


PIECE_PARTS_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}, flag: {supply: 9}}
board: {grid: {width: 3, height: 1}}
vars:
  game: {turns: 0}
defs:
  empty(c): "len(pieces_at(c)) == 0"
  flags(): "count(pieces('flag'))"
actions:
  put:
    params: {cell: cells}
    when: empty(cell) and flags() < 1
    effect: [place stone at cell for me]
  plant:
    params: {cell: cells}
    when: empty(cell)
    effect: [place flag at cell for me]
  rest: {effect: [turns += 1]}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: turns >= 4
    do: [{choose: [put, plant, rest]}]
"""


def test_the_finer_parts_of_the_pieces_are_tested_only_when_the_pieces_changed(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, PIECE_PARTS_RULES, players=2)
    parts = ir.kept_parts(game.definition.kept_defs, 2)
    assert parts == ["pieces", "pieces.flag"]  # empty(c) reads every piece, flags() the flags alone
    state = game.new_game(seed=1)
    state.legal_actions()
    state.apply("rest")  # no piece changes: the flags' counter is not looked at
    state._kept_stamps[1] = "not looked at"
    state.legal_actions()
    assert state._kept_stamps[1] == "not looked at"
    state.apply("plant(cell=a1)")  # a flag: both tested again, no stone may be put now
    assert [str(a) for a in state.legal_actions()] == ["plant(cell=b1)", "plant(cell=c1)", "rest"]
    assert state._kept_stamps[1] == state.ver["pieces.flag"]
    plays_as_the_closures(tmp_path, monkeypatch, PIECE_PARTS_RULES, game, range(1, 6))


OWNED_PARTS_RULES = """
game: {name: Tiny, players: {min: 2, max: 3}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 4, height: 1}}
vars:
  game: {turns: 0}
defs:
  mine(p): "count(distinct([b.site for b in pieces('stone', owner=p)]))"
actions:
  put:
    params: {cell: cells}
    when: mine(me) < 2 and len(pieces_at(cell)) == 0
    effect: [place stone at cell for me]
  drop:
    params: {cell: cells}
    when: len(pieces_at(cell)) == 0 and turns == 2
    effect: [place stone at cell]
  rest: {effect: [turns += 1]}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: turns >= 5
    do: [{choose: [put, drop, rest]}]
"""


def test_a_def_of_a_players_pieces_keeps_the_results_of_the_others_when_one_builds(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, OWNED_PARTS_RULES, players=2)
    # mine(p) reads the stones of its argument: kept by seat, each seat's stones (and no one's) counted
    assert (("pieces.stone" + ir.OF_ARGUMENT,), ("mine",)) in game.definition.kept_defs
    parts = ["pieces", "pieces.stone@-", "pieces.stone@0", "pieces.stone@1"]  # guarded by all the pieces
    assert ir.kept_parts(game.definition.kept_defs, 2) == parts and set(parts) <= set(
        game.definition.counters
    )
    state = game.new_game(seed=1)
    state.apply("rest")  # p1 rests, p2 lists: both results kept
    state.legal_actions()
    assert state._kept["mine"] == {0: 0, 1: 0}
    state.apply("put(cell=a1)")  # p2's stone: p1's result stays, p2's is worked out again when asked
    assert [str(a) for a in state.legal_actions()][:2] == ["put(cell=b1)", "put(cell=c1)"]
    assert state._kept["mine"] == {0: 0}
    state.apply("rest")  # turns is 2: a stone of no one's may be dropped
    state.legal_actions()
    assert state._kept["mine"] == {0: 0, 1: 1}
    state.apply("drop(cell=d1)")  # a stone of no one's: every result dropped
    state.legal_actions()
    assert state._kept["mine"] == {0: 0}
    plays_as_the_closures(tmp_path, monkeypatch, OWNED_PARTS_RULES, game, range(1, 9))


KIND_AT_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}, flag: {supply: 9}, marker: {supply: 9}}
board: {grid: {width: 3, height: 1}}
vars:
  game: {turns: 0}
defs:
  stones_at(c): "count([b for b in pieces_at(c) if b.kind in ['stone', 'marker']])"
  flag_at(c): "first([b for b in pieces_at(c) if b.kind == 'flag'])"
actions:
  put:
    params: {cell: cells}
    when: stones_at(cell) == 0 and flag_at(cell) == none
    effect: [place stone at cell for me]
  plant:
    params: {cell: cells}
    when: flag_at(cell) == none
    effect: [place flag at cell for me]
  rest: {effect: [turns += 1]}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: turns >= 4
    do: [{choose: [put, plant, rest]}]
"""


def test_a_def_of_the_pieces_of_some_kinds_at_a_site_is_kept_while_other_kinds_change(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, KIND_AT_RULES, players=2)
    kept = dict((name, parts) for parts, group in game.definition.kept_defs for name in group)
    assert kept["stones_at"] == ("pieces.marker", "pieces.stone") and kept["flag_at"] == ("pieces.flag",)
    assert ir.kept_parts(game.definition.kept_defs, 2)[0] == "pieces"  # the finer parts' guard
    state = game.new_game(seed=1)
    state.legal_actions()
    stones = state._kept["stones_at"]
    assert stones == {"a1": 0, "b1": 0, "c1": 0}
    state.apply("plant(cell=a1)")  # a flag: what stands of the stones is still known
    assert [str(a) for a in state.legal_actions()] == [
        "put(cell=b1)",
        "put(cell=c1)",
        "plant(cell=b1)",
        "plant(cell=c1)",
        "rest",
    ]
    assert state._kept["stones_at"] is stones
    assert state._kept["flag_at"]["a1"] is not None and state._kept["flag_at"]["b1"] is None
    state.apply("put(cell=b1)")  # a stone: worked out again
    state.legal_actions()
    assert state._kept["stones_at"] is not stones and state._kept["stones_at"]["b1"] == 1
    # The first of the pieces at a cell where none stands is none at once, without the comprehension
    closure = game.definition.defs["flag_at"].__closure__
    flag_at = [c.cell_contents for c in closure if hasattr(c.cell_contents, "source")]
    assert "(_b_first(s, [v_b for v_b in _b_pieces_at(s, v_c) " in flag_at[0].source
    assert flag_at[0].source.endswith(" if s.at.get(v_c) else None)")
    plays_as_the_closures(tmp_path, monkeypatch, KIND_AT_RULES, game, range(1, 9))


def test_a_scope_variable_holding_a_list_is_shared_by_its_items(tmp_path):
    game = load_tiny(tmp_path, SHARED_RULES, players=2)
    state = game.new_game(seed=1)
    state.apply("tag(n=1)")
    assert [str(a) for a in state.legal_actions() if a.name == "tag"] == ["tag(n=2)"]
    other = game.new_game(seed=2)
    other.apply("tag(n=1)")
    other.legal_actions()
    assert other._kept["tagged"] is state._kept["tagged"]  # the same tags: (1,)


def test_a_value_that_cannot_be_hashed_gives_the_state_dicts_of_its_own():
    from types import SimpleNamespace

    from meeple.compile import ir

    table: dict[Any, Any] = {}
    first, second = SimpleNamespace(_kept={}), SimpleNamespace(_kept={})
    for state in (first, second):
        ir._share(state, table, ({"a": 1},), ("beats", "ranked"))
    assert table == {} and first._kept == {"beats": {}, "ranked": {}}
    assert first._kept["beats"] is not second._kept["beats"]
    ir._share(first, table, (3,), ("beats", "ranked"))
    ir._share(second, table, (3,), ("beats", "ranked"))
    assert first._kept["ranked"] is second._kept["ranked"] is table[(3,)]["ranked"]


def test_shared_results_start_afresh_when_a_dict_grows_past_its_bound(tmp_path, monkeypatch):
    from meeple.compile import codegen

    game = load_tiny(tmp_path, SHARED_RULES, players=2)
    state = game.new_game(seed=1)
    state.legal_actions()
    full = state._kept["double"]
    assert set(full) == {1, 2, 3}
    monkeypatch.setattr(codegen, "_SHARED_RESULTS", 2)
    later = game.new_game(seed=3)  # a new game takes the results of defs reading nothing afresh
    later.apply("clear")
    later.legal_actions()
    assert later._kept["double"] is not full and set(later._kept["double"]) == {1, 2, 3}


RUN_OF_SETS = """
game: {name: Tiny, players: {min: 2, max: 2}}
vars:
  game: {rounds: 0}
  trick: {rank: 0, tags: [], lead: 0}
actions:
  play:
    params: {n: "[1, 2, 3]"}
    effect:
      - set trick.rank = n
      - let m = n * 2
      - set trick.tags = [m, n]
      - if: n > 1
        then: [rounds += 1]
      - set trick.lead = trick.rank + 1
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 3
    do: [{choose: [play]}]
"""


def test_a_run_of_sets_of_one_scope_copies_its_variables_once_and_leaves_a_clone_as_it_was(tmp_path):
    game = load_tiny(tmp_path, RUN_OF_SETS, players=2)
    source = game.definition.actions["play"].effect.source
    # The second set follows the first with only a value worked out between; the third comes after an `if`.
    assert "s.set_scoped('trick', 'rank'" in source and "s.set_scoped_again('trick', 'tags'" in source
    assert "s.set_scoped('trick', 'lead'" in source
    state = game.new_game(seed=1)
    before, counters = state.clone(), dict(state.ver)
    state.apply("play(n=2)")
    assert state.sv["trick"] == {"rank": 2, "tags": (4, 2), "lead": 3} and state.gv["rounds"] == 1
    assert before.sv["trick"] == {"rank": 0, "tags": (), "lead": 0}  # the clone's variables are its own
    assert state.ver["sv"] == counters["sv"] + 3
    assert all(state.ver[f"sv.trick.{v}"] == counters[f"sv.trick.{v}"] + 1 for v in ("rank", "tags", "lead"))


VALUED_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
vars:
  game: {total: 0}
  trick: {rank: 0}
defs:
  # Reads the trick's rank and no other part of a state.
  above(n): "size(distinct([m for m in [1, 2, 3, 4] if m > trick.rank and m <= n]))"
actions:
  raise:
    params: {n: "[1, 2, 3]"}
    when: above(n) > 0
    effect: [set trick.rank = n, total += above(4)]
  clear: {effect: [reset trick]}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: total >= 9
    do: [{choose: [raise, clear]}]
"""


def test_an_effect_finds_a_def_of_scope_variables_among_the_results_kept_for_their_values(tmp_path):
    game = load_tiny(tmp_path, VALUED_RULES, players=2)
    assert "_keepv1(s, 'above'" in game.definition.actions["raise"].effect.source
    table, names, variables = game.definition.valued_kept["above"]
    assert names == ("above",) and variables == (("trick", "rank"),)
    state = game.new_game(seed=1)
    state.apply("raise(n=1)")  # the rank is set first: above(4) counts 2, 3 and 4
    assert state.gv["total"] == 3 and table[(1,)]["above"][4] == 3
    assert [str(a) for a in state.legal_actions()] == ["raise(n=2)", "raise(n=3)", "clear"]
    assert state._kept["above"] is table[(1,)]["above"]  # a listing at rank 1 shares the effect's results
    state.apply("raise(n=2)")
    assert state.gv["total"] == 5 and table[(2,)]["above"][4] == 2
    later = game.new_game(seed=2)  # another game at rank 1 finds the result kept, not worked out again
    table[(1,)]["above"][4] = 7
    later.apply("raise(n=1)")
    assert later.gv["total"] == 7


def test_a_view_does_not_reuse_results_computed_from_the_full_state(tmp_path):
    game = load_tiny(tmp_path, KEPT_RULES, players=2)
    state = game.new_game(seed=1)
    state.legal_actions()
    assert state._kept
    assert state.view(0)._kept == {}


CLASSIC = ROOT / "examples" / "classic"


def first_field_read(field: str, source: str) -> bool:
    """Whether `source` reads `field` of the first piece at v_c in place: the cell's ids looked up once,
    held in a temporary, then the first one's record."""
    held = rf"\(s\.pieces\[(_f\d+)\[0\]\]\['{field}'\] if \(\1 := s\.at\.get\(v_c\)\) else None\)"
    return re.search(held, source) is not None


@pytest.mark.parametrize("name", ["tic_tac_toe", "connect_four"])
def test_a_field_of_the_first_piece_found_reads_its_record_and_plays_as_the_closures(name, monkeypatch):
    fast = meeple.load(CLASSIC / f"{name}.yaml", players=2)
    wrapper = fast.definition.defs["full_line"]  # the generated def, called with its arguments by name
    [generated] = [c.cell_contents for c in wrapper.__closure__ if hasattr(c.cell_contents, "source")]
    # owner(c), written out in place: the first piece's record at the cell (the only kind of piece), the
    # cell's ids looked up once and held in a temporary
    assert first_field_read("owner", generated.source)
    monkeypatch.setenv("MEEPLE_CODEGEN", "0")
    slow = meeple.load(CLASSIC / f"{name}.yaml", players=2)
    for seed in (1, 2, 3, 4):  # lines are checked through the owner of each cell's first piece
        assert offers_along_a_random_game(fast, seed) == offers_along_a_random_game(slow, seed)


MIXED_SITE_RULES = """
game: {name: Stacks, players: {min: 2, max: 2}}
components:
  pieces: {pawn: {supply: 9}, flag: {supply: 9}}
board: {grid: {width: 2, height: 1}}
defs:
  flag_owner(c): first(pieces_at(c, 'flag')).owner
  top_kind(c): first(pieces_at(c)).kind
  flags(c): len(pieces_at(c, 'flag'))
  height(c): count(pieces_at(c))
actions:
  put_pawn:
    params: {cell: "[c for c in cells if height(c) < 3 and count(pieces()) < 8 and len(pieces('flag')) < 5]"}
    effect: [place pawn at cell for me]
  put_flag:
    params: {cell: "[c for c in cells if flags(c) == 0 and flag_owner(c) == none and top_kind(c) != 'flag']"}
    effect: [place flag at cell for me]
  steal:
    params: {cell: "[c for c in cells if none != first(pieces_at(c, 'flag')) and flag_owner(c) != me]"}
    effect: ["remove first(pieces_at(cell, 'flag'))"]
  claim:
    params: {cell: "[c for c in cells if first(pieces_at(c)) == none]"}
    effect: [place flag at cell for me]
  crowd:
    params: {cell: "[c for c in cells if none != first(pieces_at(c)) and height(c) < 3]"}
    effect: [place pawn at cell for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces('pawn')) >= 4
    do: [{choose: [put_pawn, put_flag, steal, claim, crowd]}]
"""


def test_a_field_or_count_of_a_sites_pieces_of_one_kind_skips_the_other_kinds(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, MIXED_SITE_RULES, players=2)
    sources = "".join(game.definition.actions[a].fast.source for a in ("put_pawn", "put_flag", "steal"))
    assert "_field_at(s, v_c, 'flag', 'owner')" in sources and first_field_read("kind", sources)
    assert "_count_at(s, v_c, 'flag')" in sources and "len(s.at.get(v_c, ()))" in sources  # any kind
    assert "len(s.pieces)" in sources and "_count_pieces(s, 'flag')" in sources
    assert "(_count_at(s, v_c, 'flag') != 0)" in sources  # none != first(pieces_at(c, 'flag'))
    anything = {a: game.definition.actions[a].fast.source for a in ("claim", "crowd")}
    assert "(not (s.at.get(v_c)))" in anything["claim"] and "(bool(s.at.get(v_c)))" in anything["crowd"]
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions() if a.name in ("claim", "crowd")] == [
        "claim(cell=a1)",
        "claim(cell=b1)",
    ]
    state.apply("put_pawn(cell=a1)")
    state.apply("put_flag(cell=a1)")  # over a pawn: the cell's flag owner is the flag's, not the pawn's
    assert "steal(cell=a1)" in [str(a) for a in state.legal_actions()]
    assert "put_flag(cell=a1)" not in [str(a) for a in state.legal_actions()]
    state.apply("put_pawn(cell=a1)")  # three pieces: no room for a fourth pawn
    offers = [str(a) for a in state.legal_actions()]
    assert not {"put_pawn(cell=a1)", "crowd(cell=a1)", "claim(cell=a1)"} & set(offers)
    state.apply("put_flag(cell=b1)")
    offers = [str(a) for a in state.legal_actions()]
    assert [a for a in offers if a.startswith(("claim", "crowd"))] == ["crowd(cell=b1)"]
    plays_as_the_closures(tmp_path, monkeypatch, MIXED_SITE_RULES, game, range(6))


PIECE_FIELDS_RULES = """
game: {name: Walls, players: {min: 2, max: 2}}
components:
  pieces: {pawn: {supply: 9}, wall: {supply: 9}}
board: {grid: {width: 3, height: 1}}
defs:
  walled(c): "any(x.kind == 'wall' for x in pieces_at(c))"
  mine_here(c, p): "[x for x in pieces_at(c) if x.owner == p]"
actions:
  put_pawn:
    params: {cell: "[c for c in cells if not walled(c) and count(mine_here(c, me)) < 2]"}
    effect: [place pawn at cell for me]
  put_wall:
    params: {cell: "[c for c in cells if not walled(c)]"}
    effect: [place wall at cell for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces('wall')) >= 2    # a cell is left without a wall: someone can always move
    do: [{choose: [put_pawn, put_wall]}]
"""


def test_a_search_over_a_sites_pieces_reads_their_records_by_id_in_place(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, PIECE_FIELDS_RULES, players=2)
    source = game.definition.actions["put_pawn"].fast.source
    assert "for v_x in s.at.get(v_c, ()) if ((s.pieces[v_x]['kind'] == 'wall'))" in source
    assert "for v_x in _b_pieces_at(s, v_c) if" in source  # mine_here hands the pieces out: references
    # walled, a search over one site's pieces, is written out even where a memo is kept; mine_here is not
    assert "'walled'" not in source and "_call(s, 'mine_here'" in source
    state = game.new_game(seed=1)
    state.apply("put_pawn(cell=a1)")
    mine = state.game.defs["mine_here"](state, {"c": "a1", "p": state.players[0]})
    assert [str(x) for x in mine] == ["pawn#0@a1"]  # a reference, shown as one
    state.apply("put_wall(cell=a1)")
    offers = [str(a) for a in state.legal_actions()]
    assert offers == ["put_pawn(cell=b1)", "put_pawn(cell=c1)", "put_wall(cell=b1)", "put_wall(cell=c1)"]
    plays_as_the_closures(tmp_path, monkeypatch, PIECE_FIELDS_RULES, game, range(6))


JOINED_LISTS_RULES = """
game: {name: Joined, players: {min: 2, max: 2}}
components:
  pieces: {pawn: {supply: 9}, wall: {supply: 9}}
board: {grid: {width: 3, height: 1}}
actions:
  put_pawn: {params: {cell: cells}, effect: [place pawn at cell for me]}
  put_wall: {params: {cell: cells}, effect: [place wall at cell for me]}
  echo:
    # The cells where another player has a pawn or a wall: the joined piece lists are read as pieces.
    params: {cell: "distinct([x.site for x in pieces('pawn') + pieces('wall') if x.owner != me])"}
    effect: []
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces()) >= 5
    do: [{choose: [put_pawn, put_wall, echo]}]
"""


def test_two_piece_lists_joined_are_a_list_of_pieces_read_in_place(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, JOINED_LISTS_RULES, players=2)
    source = game.definition.actions["echo"].fast.source
    assert "s.pieces[v_x]['site'] for v_x in _add(_b_pieces(s, 'pawn'), _b_pieces(s, 'wall'))" in source
    assert "_get_attr" not in source and "_units" not in source
    state = game.new_game(seed=1)
    state.apply("put_pawn(cell=a1)").apply("put_wall(cell=c1)")
    assert [str(a) for a in state.legal_actions() if a.name == "echo"] == ["echo(cell=c1)"]  # p2's wall
    plays_as_the_closures(tmp_path, monkeypatch, JOINED_LISTS_RULES, game, range(6))


SEARCH_DEF_RULES = """
game: {name: Searches, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 2}}
vars:
  game: {weights: [0, 2, 3]}     # crowded once one has a stone: someone can always move
defs:
  lonely(c): "all(len(pieces_at(n)) == 0 for n in neighbours(c))"
  crowded(p): "any(count(pieces(owner=p)) > w for w in weights)"
  big(x): x.owner + weights[9] > 0
  heavy(c): "any(big(x) for x in pieces_at(c))"
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0 and (lonely(c) or crowded(me))]"}
    effect: [place stone at cell for me]
  weigh:
    params: {cell: "[c for c in cells if len(pieces_at(c)) > 0 and heavy(c)]"}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces()) >= 4
    do: [{choose: [put]}]
"""


def test_a_def_that_is_a_search_runs_as_loops_that_stop_at_the_item_that_decides(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, SEARCH_DEF_RULES, players=2)
    source = {}
    for name in ("lonely", "crowded"):
        wrapper = game.definition.defs[name]
        [generated] = [c.cell_contents for c in wrapper.__closure__ if hasattr(c.cell_contents, "source")]
        source[name] = generated.source
    assert (
        "for v_n in " in source["lonely"] and "break" in source["lonely"] and "next(" not in source["lonely"]
    )
    assert "for v_w in " in source["crowded"] and "return _q" in source["crowded"]
    state = game.new_game(seed=1)
    assert len(state.legal_actions()) == 6  # every cell is lonely on an empty board
    state.apply("put(cell=b1)")
    offers = [str(a) for a in state.legal_actions()]
    assert offers == ["put(cell=a2)", "put(cell=c2)"]  # a1, c1 and b2 are beside the stone on b1
    plays_as_the_closures(tmp_path, monkeypatch, SEARCH_DEF_RULES, game, range(6))


def test_an_error_inside_a_def_run_as_loops_is_located_at_the_def(tmp_path):
    rules = SEARCH_DEF_RULES.replace("do: [{choose: [put]}]", "do: [{choose: [put, weigh]}]")
    game = load_tiny(tmp_path, rules, players=2)
    state = game.new_game(seed=1)
    with pytest.raises(RuleRuntimeError, match="IndexError") as caught:
        state.apply("put(cell=a1)")  # the next offers ask heavy(a1), which reads past the list's end
    assert caught.value.rule == "defs.heavy(c)"


SITE_FIELD_RULES = """
game: {name: Worth, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 1}}
setup:
  - for: c in cells
    do: ["set c.worth = c.x + 1"]
defs:
  worths(): "[c.worth for c in cells]"
  best(): "max([c.worth for c in cells if len(pieces_at(c)) == 0])"
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0 and c.worth == best()]"}
    effect: [place stone at cell for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces()) >= 3
    do: [{choose: [put]}]
"""


def test_a_field_of_a_site_from_a_board_collection_is_read_in_place_and_reads_only_the_sites(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, SITE_FIELD_RULES, players=2)
    assert "s.sites.get(v_c, _NO_FIELDS).get('worth')" in game.definition.actions["put"].fast.source
    kept = dict(game.definition.kept_defs)
    assert "worths" in kept[("sites",)]  # not the pieces: a stone placed keeps its results
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["put(cell=c1)"]  # the best cell is worth 3
    state.apply("put(cell=c1)")
    assert [str(a) for a in state.legal_actions()] == ["put(cell=b1)"]
    plays_as_the_closures(tmp_path, monkeypatch, SITE_FIELD_RULES, game, range(3))


SHADOWED_SITES_RULES = """
game: {name: Shadow, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 2, height: 1}}
vars:
  game: {cells: [], best: 0}
setup:
  - set cells = ['stone']
actions:
  put:
    effect:
      - "set best = max([c.supply for c in cells])"
      - end game
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [put]}]
"""


def test_a_variable_named_like_a_board_collection_does_not_hold_sites(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, SHADOWED_SITES_RULES, players=2)
    state = game.new_game(seed=1)
    state.apply("put")
    assert state.gv["best"] == 9  # `cells` is the variable, holding a kind of piece, not the grid's cells
    plays_as_the_closures(tmp_path, monkeypatch, SHADOWED_SITES_RULES, game, range(2))


DOMAINS_RULES = """
game: {name: Domains, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 2}}
vars:
  game: {picked: []}
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect: [place stone at cell for me]
  column:
    params: {x: "[c.x for c in cells]"}
    effect: ["picked += [x]"]
  seat:
    params: {who: "[p for p in players if p != me]"}
    effect: ["picked += [who.index]"]
  again:
    params: {x: "[x for x in [2, 1, 2] if x > 0 and x in [1, 2, me.index + 5] and x not in [0, 3]]"}
    effect: ["picked += [x]"]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(picked) + len(pieces('stone')) >= 8
    do: [{choose: [put, column, seat, again]}]
"""


MAYBE_NONE_RULES = """
game: {name: Membership, players: {min: 2, max: 2}}
vars:
  game: {held: none, rounds: 0}
actions:
  keep:
    params: {x: "[1, 2, 3]"}
    when: x in held
    effect: [rounds += 1]
  leave:
    params: {x: "[1, 2, 3]"}
    when: x not in held
    effect: ["set held = [2, 3]", rounds += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 4
    do: [{choose: [keep, leave]}]
"""


def test_membership_of_a_value_that_may_be_none_is_written_out_and_nothing_is_in_none(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, MAYBE_NONE_RULES, players=2)
    keep, leave = (game.definition.actions[a].fast.source for a in ("keep", "leave"))
    assert "s.gv['held'] is not None and v_x in s.gv['held']" in keep
    assert "s.gv['held'] is None or v_x not in s.gv['held']" in leave
    # A step's listing of `keep` goes over the values in `held` alone (`among`: none of none).
    listing = game.definition.actions["keep"].listing.source
    assert "_among(" in listing and "v_x in s.gv" not in listing
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["leave(x=1)", "leave(x=2)", "leave(x=3)"]
    state.apply("leave(x=1)")
    assert [str(a) for a in state.legal_actions()] == ["keep(x=2)", "keep(x=3)", "leave(x=1)"]
    plays_as_the_closures(tmp_path, monkeypatch, MAYBE_NONE_RULES, game, range(3))


def test_membership_of_a_worked_out_value_is_written_out_the_value_first(tmp_path, monkeypatch):
    rules = MAYBE_NONE_RULES.replace("when: x in held", "when: x + 1 in held")
    rules = rules.replace("when: x not in held", "when: x - 1 not in held")
    game = load_tiny(tmp_path, rules, players=2)
    keep, leave = (game.definition.actions[a].fast.source for a in ("keep", "leave"))
    # The value, then the list (none holds nothing), as the helper takes them; no helper called.
    assert "(_add(v_x, 1) in (() if s.gv['held'] is None else s.gv['held']))" in keep
    assert "((v_x - 1) not in (() if s.gv['held'] is None else s.gv['held']))" in leave
    assert "_in(" not in keep + leave
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["leave(x=1)", "leave(x=2)", "leave(x=3)"]
    state.apply("leave(x=1)")  # held is [2, 3]
    assert [str(a) for a in state.legal_actions()] == ["keep(x=1)", "keep(x=2)", "leave(x=1)", "leave(x=2)"]
    plays_as_the_closures(tmp_path, monkeypatch, rules, game, range(3))


def test_a_domain_whose_values_are_surely_different_is_not_deduplicated_again(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, DOMAINS_RULES, players=2)
    source = {name: game.definition.actions[name].fast.source for name in ("put", "column", "seat", "again")}
    assert "_b_distinct" not in source["put"] and "_b_distinct" not in source["seat"]
    assert "_b_distinct" in source["column"] and "_b_distinct" in source["again"]  # 0 1 2 0 1 2; 2 1 2
    # Membership of a constant list, or of a list written in the rule, is Python's own `in`.
    assert " not in _k" in source["again"] and "(v_x in [1, 2, " in source["again"]
    offers = [str(a) for a in game.new_game(seed=1).legal_actions()]
    assert [a for a in offers if a.startswith("column")] == ["column(x=0)", "column(x=1)", "column(x=2)"]
    assert [a for a in offers if a.startswith("again")] == ["again(x=2)", "again(x=1)"]
    plays_as_the_closures(tmp_path, monkeypatch, DOMAINS_RULES, game, range(4))


METRIC_RULES = """
game: {name: Mud, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 4, height: 1}}
vars:
  game: {flood: 0}
metrics:
  mud: {on: cell, enter: "3 if len(pieces_at(t)) > 0 else 1", blocked: flood > 5}
defs:
  near(c): within(c, 2)
  reach(c): within(c, 2, 'mud')
  by_name(c, m): within(c, 1, m)
actions:
  put:
    params: {cell: "[c for c in reach(a1) if len(pieces_at(c)) == 0 and c in near(a1)]"}
    effect: [place stone at cell for me]
  rain:
    params: {cell: "by_name(a1, 'mud')"}
    effect: [flood += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: flood > 3
    do: [{choose: [put, rain]}]
"""


def test_a_def_measuring_by_a_metric_is_kept_while_what_the_metric_reads_is_unchanged(tmp_path):
    game = load_tiny(tmp_path, METRIC_RULES, players=2)
    kept = dict((name, parts) for parts, group in game.definition.kept_defs for name in group)
    assert kept["near"] == ()  # steps on the board alone, which never changes
    assert kept["reach"] == ("gv", "pieces")  # what the metric's `enter` and `blocked` read
    assert kept["by_name"] == ("gv", "pieces")  # a metric named in play: what any metric reads
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions() if a.name == "put"] == [
        f"put(cell={c})" for c in "a1 b1 c1".split()
    ]
    state.apply("put(cell=b1)")  # entering b1 now costs 3: c1 is out of reach, its kept result dropped
    state.apply("rain(cell=a1)")
    assert [str(a) for a in state.legal_actions() if a.name == "put"] == ["put(cell=a1)"]


def test_a_def_called_while_the_state_may_change_is_called_straight_and_else_through_its_memo(tmp_path):
    game = load_tiny(tmp_path, KEPT_RULES, players=2)
    wrapper = game.definition.defs["worth"]
    [generated] = [c.cell_contents for c in wrapper.__closure__ if hasattr(c.cell_contents, "source")]
    # stones(c) has a comprehension: written out in place where no memo is kept, else called with its memo
    straight, memoised = generated.source.split(" if s._memo is None else ")
    assert "_b_pieces_at(s, v_c)" in straight and "_D['stones']" not in straight
    assert memoised.startswith("_call1(s, 'stones', _D['stones'], v_c)")
    state = game.new_game(seed=1)
    state.apply("put(cell=a1)")
    state.forget()  # nothing kept yet
    assert state._memo is None and wrapper(state, {"c": "a1"}) == 1  # straight: still nothing kept
    assert state._kept == {}
    state.legal_actions()  # the memo is on while the legal actions are worked out: stones(a1) is kept
    assert state._kept["stones"]["a1"] == 1


ONE_KIND_RULES = """
game: {name: One kind, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 2}}
actions:
  put:
    params:
      cell: "[c for c in cells if len(pieces_at(c, 'stone')) == 0 and len(pieces('stone')) < len(cells)]"
    effect: [place stone at cell for me]
  flip:
    params: {cell: "[c for c in cells if first(pieces_at(c, 'stone')).owner != me]"}
    when: first(pieces_at(cell, 'stone')) != none
    effect: ["remove first(pieces_at(cell, 'stone'))", place stone at cell for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces('stone')) == 5
    do: [{choose: [put, flip]}]
"""


def test_queries_of_a_rule_files_only_piece_kind_skip_the_kind_and_a_pure_count_is_worked_out_once(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, ONE_KIND_RULES, players=2)
    put = game.definition.actions["put"].fast.source
    flip = game.definition.actions["flip"].fast.source
    # Every piece is a stone: a site's pieces are counted without looking at kinds, all pieces likewise;
    # len(cells) does not change and is 6 in the source.
    assert "(not(s.at.get(v_c, ())))" in put and "(len(s.pieces) < 6)" in put
    assert first_field_read("owner", flip) and "'stone'" not in put + flip
    state = game.new_game(seed=1)
    state.apply("put(cell=a1)")
    assert "put(cell=a1)" not in [str(a) for a in state.legal_actions()]
    assert "flip(cell=a1)" in [str(a) for a in state.legal_actions()]  # p2 may turn p1's stone
    plays_as_the_closures(tmp_path, monkeypatch, ONE_KIND_RULES, game, range(1, 6))


def test_a_domain_given_by_a_def_of_a_list_without_repeats_is_not_passed_through_distinct():
    game = meeple.load(ROOT / "examples" / "classic" / "connect_four.yaml")
    # open_columns(): [x for x in 0..6 if …] can hold no value twice, nor can its calls
    assert "open_columns" in game.definition.actions["drop"].fast.source
    assert "_b_distinct" not in game.definition.actions["drop"].fast.source
    state = game.new_game(seed=1)
    for _ in range(6):
        state.apply("drop(column=3)")  # the column fills up and is offered no more
    assert [str(a) for a in state.legal_actions()] == [f"drop(column={x})" for x in (0, 1, 2, 4, 5, 6)]


HYGIENE_RULES = """
game: {name: Hygiene, players: {min: 2, max: 2}}
board: {grid: {width: 3, height: 2}}
vars:
  game: {total: 0, shadowed: 0, near: 0}
defs:
  # Each reads a game variable, so its results are not kept in an effect: it is written out there or
  # called.
  same(l, x): "len([c for c in l if c == x and shadowed == 0])"
  hides(c): "len([c for c in cells if near == 0])"
  row_mates(x): "len([c for c in cells if c.y == x.y and total >= 0])"
actions:
  go:
    effect:
      - "set total = sum(same(cells, c) for c in cells)"
      - "set shadowed = hides('a1')"
      - "set near = row_mates('a1')"
      - end game
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [go]}]
"""


def test_a_def_with_a_comprehension_is_written_out_in_an_effect_only_where_no_name_is_captured(tmp_path):
    game = load_tiny(tmp_path, HYGIENE_RULES, players=2)
    source = game.definition.actions["go"].effect.source
    # same(cells, c) inside a comprehension over c: its body binds c too, so it stays a call (of its
    # version for a site, as c is one); hides(c) binds its own parameter: a call too; row_mates('a1') is
    # written out.
    assert "_D['same(l, x: site)'](s, _k" in source and "_D['hides'](s, 'a1')" in source
    assert "_D['row_mates']" not in source.split(" if s._memo is None else ")[2]
    state = game.new_game(seed=1)
    state.apply("go")
    assert (state.gv["total"], state.gv["shadowed"], state.gv["near"]) == (6, 6, 3)


INDEX_RULES = """
game: {name: Index, players: {min: 2, max: 2}}
tables:
  prices: {rope: 2, nut: 1}
vars:
  game: {holder: [5, 6, 7], got: [], missing: 0, grid: [], firsts: [], deep: [], rows: [], maze: []}
actions:
  look:
    effect:
      - "set got = [holder[0], holder[-1], [1, 2, 3][1]]"
      - "set grid = [[x, x + 1] for x in holder]"
      - "set firsts = [r[0] for r in grid]"
      - "set rows = [prices, prices]"
      - "set maze = grid if len(got) > 0 else none"
      - >-
        set deep = [grid[2][1], rows[1]['nut'], rows[0]['chalk'],
                    [maze[0][0] for g in maze[1]], [g for g in [maze[1][0]]]]
      - set holder = prices
      - "set missing = 1 if holder['chalk'] == none and holder['rope'] == 2 else 0"
      - end game
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [look]}]
"""


def test_a_variable_holding_a_list_or_tuple_is_indexed_in_place_and_one_holding_a_mapping_as_before(tmp_path):
    game = load_tiny(tmp_path, INDEX_RULES, players=2)
    source = game.definition.actions["look"].effect.source
    assert "(s.gv['holder'][0] if type(s.gv['holder']) in _SEQ else _index(s.gv['holder'], 0))" in source
    assert "(v_r[0] if type(v_r) in _SEQ else _index(v_r, 0))" in source  # grid's rows stay lists
    state = game.new_game(seed=1)
    state.apply("look")
    # a list kept in a variable is a tuple; a mapping gives none for a key it lacks
    assert state.gv["got"] == (5, 7, 2) and state.gv["missing"] == 1
    assert state.gv["firsts"] == (5, 6, 7) and type(state.gv["grid"][0]) is list
    # an item of an item of a value of unknown type (maze may be none): the inner one held in a temporary
    # to be tested, except in a loop's iterable; grid is only ever given lists of lists: read in place
    assert "type(_i" in source and "for v_g in [_index(" in source
    assert "s.gv['grid'][2][1]" in source and "type(s.gv['grid'])" not in source
    assert state.gv["deep"] == (8, 1, None, [5, 5], [6])


SCOPED_RULES = """
game: {name: Scoped, players: {min: 2, max: 2}}
vars:
  season: {cap: 3, notes: 0}
  trick: {played: 0}
defs:
  room(n): "len([x for x in 1..n if x <= season.cap]) == n"   # every step up to n fits under the cap
actions:
  play:
    params: {n: "[x for x in 1..5 if room(x)]"}
    effect: [set trick.played = trick.played + n]
  tighten:
    effect: [set season.cap = season.cap - 1]
  note:
    effect: [set season.notes = season.notes + 1]
  restart:
    effect: [reset season]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: trick.played >= 12
    do: [{choose: [play, tighten, note, restart]}]
"""


def test_a_def_reading_one_scope_variable_keeps_its_results_while_others_change(tmp_path):
    game = load_tiny(tmp_path, SCOPED_RULES, players=2)
    kept = dict((name, parts) for parts, group in game.definition.kept_defs for name in group)
    assert kept["room"] == ("sv.season.cap",)  # that variable of the season, not its others nor the trick's
    state = game.new_game(seed=1)
    state.legal_actions()
    results = state._kept["room"]
    assert results == {1: True, 2: True, 3: True, 4: False, 5: False}
    state.apply("play(n=2)")  # a trick variable changes: room's results stay
    state.legal_actions()
    assert state._kept["room"] is results
    state.apply("note")  # another variable of the same scope: they stay too
    state.legal_actions()
    assert state._kept["room"] is results
    state.apply("tighten")  # the cap changes: worked out again
    assert [str(a) for a in state.legal_actions() if a.name == "play"] == ["play(n=1)", "play(n=2)"]
    tightened = state._kept["room"]
    assert tightened is not results and tightened[3] is False
    state.apply("restart")  # a reset changes every variable of the scope, the cap back to 3 among them
    assert [str(a) for a in state.legal_actions() if a.name == "play"] == [f"play(n={n})" for n in (1, 2, 3)]
    restarted = state._kept["room"]
    assert restarted is not tightened
    state.apply("restart")  # a reset that changes nothing: the results stay
    state.legal_actions()
    assert state._kept["room"] is restarted


def test_a_reset_counts_a_variable_as_changed_unless_it_holds_that_very_value():
    from meeple.runtime.effects import _same
    from meeple.values import Player

    assert _same(3, 3) and _same("red", "red") and _same(None, None) and _same((), ())
    assert not _same(Player(1), 1) and not _same(1, Player(1))  # a seat is not its number
    assert not _same(1, True) and not _same(2, 3)
    cards = ("a", "b")
    assert _same(cards, cards) and not _same(cards, tuple(["a", "b"]))  # a tuple: only the very same one


ZONE_ARGUMENT_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components:
  card_fields: {number: 0}
  cards:
    a1: {number: 1}
    b1: {number: 1}
    a2: {number: 2}
    b2: {number: 2}
  zones:
    start: {fill: "[a1, b1]"}
    deck: {fill: "[a2, b2]"}
    hand: {per: player}
vars:
  game: {waits: 0}
defs:
  pairs(h): "[g for g in groups(h, 'number') if size(g) == 2]"
setup:
  - move card a1 from start to players[0].hand
  - move card b1 from start to players[0].hand
actions:
  take:
    params: {card: distinct(deck)}
    effect: [move card card from deck to me.hand]
  wait: {effect: [waits += 1]}
  show:
    params: {pair: pairs(me.hand)}
    effect: [waits += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: waits >= 6
    do: [{choose: [take, wait, show]}]
"""


def test_a_def_of_a_zone_keeps_its_results_by_the_cards_the_zone_holds(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, ZONE_ARGUMENT_RULES, players=2)
    kept = dict((name, parts) for parts, group in game.definition.kept_defs for name in group)
    assert kept["pairs"] == ()  # the cards' fields never change: only the zone given matters
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions() if a.name == "show"] == ["show(pair=1 a1 + 1 b1)"]
    [(first_hand, first_pairs)] = state._kept["pairs"].items()
    assert first_hand == codegen._Zone({"a1": 1, "b1": 1}.items())
    state.apply("wait")
    state.legal_actions()  # p2, empty-handed
    state.apply("wait")
    state.legal_actions()  # p1 again with the same hand: its result is the one kept, not worked out anew
    assert state._kept["pairs"][first_hand] is first_pairs
    state.apply("take(card=a2)")
    state.apply("take(card=b2)")  # p2's hand: b2
    assert [str(a) for a in state.legal_actions() if a.name == "show"] == ["show(pair=1 a1 + 1 b1)"]
    # p1's hand before and after taking a2, and p2's empty one
    after = codegen._Zone({"a1": 1, "b1": 1, "a2": 1}.items())
    assert set(state._kept["pairs"]) == {first_hand, after, frozenset()}
    plays_as_the_closures(tmp_path, monkeypatch, ZONE_ARGUMENT_RULES, game, range(1, 5))


TYPED_ARGUMENT_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components:
  cards: {a: {}, b: {}, c: {}}
  zones:
    deck: {fill: "[a, b, c]"}
    hand: {per: player}
vars:
  game: {nobody: none, seen: 0}
  player: {gold: 0}
defs:
  ready(p): "size(p.hand) > 0 and p.gold < 2"
  gold_of(p): p.gold
actions:
  take:
    params: {card: distinct(deck)}
    effect: [move card card from deck to me.hand]
  earn:
    when: ready(me)
    effect:
      - me.gold += 1
      - seen += sum(gold_of(p) for p in players)
      - "set nobody = gold_of(nobody)"
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: size(deck) == 0 and all(not ready(p) for p in players)
    do: [{choose: [take, earn]}]
"""


def test_a_def_written_out_reads_the_fields_of_a_player_it_is_given_in_place(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, TYPED_ARGUMENT_RULES, players=2)
    source = game.definition.actions["earn"].fast.source
    # ready(me) written out with p standing for me, a player: its hand and gold read straight from the state
    assert "s.pv[v_me]['gold']" in source and "_get_attr" not in source
    state = game.new_game(seed=1)
    state.apply("take(card=a)")
    state.apply("take(card=b)")
    state.apply("earn")  # p1 holds a card and has no gold: ready
    assert state.pv[0]["gold"] == 1 and state.gv["seen"] == 1
    assert state.gv["nobody"] is None  # a def given none still reads none of it, as a plain call does
    plays_as_the_closures(tmp_path, monkeypatch, TYPED_ARGUMENT_RULES, game, range(1, 5))


NEXT_SEAT_RULES = """
game: {name: Tiny, players: {min: 3, max: 3}}
vars:
  game: {helped: 0}
  player: {gold: 0}
defs:
  rich(p): p.gold >= 1
actions:
  earn:
    effect: [me.gold += 1]
  help:
    when: rich(seat_after(me))
    effect: [helped += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: helped >= 2
    do: [{choose: [earn, help]}]
"""


def test_a_def_given_the_seat_after_a_player_reads_that_players_fields_in_place(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, NEXT_SEAT_RULES, players=3)
    source = game.definition.actions["help"].fast.source
    # rich(seat_after(me)) written out with p standing for a seat, always a player: its gold read in place
    assert "s.pv[_b_seat_after(s, v_me)]['gold']" in source and "_get_attr" not in source
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["earn"]  # p2 has no gold yet
    state.apply("earn")  # p1
    state.apply("earn")  # p2, who sits after p1
    state.apply("earn")  # p3
    assert "help" in [str(a) for a in state.legal_actions()]  # p1 again: p2 has gold
    plays_as_the_closures(tmp_path, monkeypatch, NEXT_SEAT_RULES, game, range(1, 5))


HOIST_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
vars:
  game: {xs: [3, 1, 4, 1, 5], ys: [], above: [], lucky: []}
actions:
  grow:
    params: {x: "[x for x in xs if len(ys) == 0 or x > max(ys) + 1]"}
    effect: [add x to ys]
  note:
    effect:
      - "set above = [x for x in xs if x > max(xs) - len(ys)]"
      - "set lucky = [x for x in xs if x == pick(xs)]"
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(ys) >= 2
    do: [{choose: [grow, note]}]
"""


def test_a_call_in_a_comprehensions_condition_that_mentions_no_loop_name_is_worked_out_once(
    tmp_path, monkeypatch
):
    calls = []

    def counting_max(s, *xs):
        calls.append(xs)
        return builtins_max(s, *xs)

    from meeple.compile.builtins import BUILTINS

    builtins_max = BUILTINS["max"]
    monkeypatch.setitem(BUILTINS, "max", counting_max)
    game = load_tiny(tmp_path, HOIST_RULES, players=2)
    grow = game.definition.actions["grow"].fast.source
    assert "_UNSET" in grow and grow.count("_b_max(") == 1
    state = game.new_game(seed=1)
    # ys is empty: `len(ys) == 0` decides for every x and max(ys) + 1, an error on none, is never reached
    assert [str(a) for a in state.legal_actions() if a.name == "grow"] == [
        f"grow(x={x})" for x in (3, 1, 4, 5)
    ]
    assert calls == []
    state.apply("grow(x=3)")
    assert [str(a) for a in state.legal_actions() if a.name == "grow"] == ["grow(x=5)"]
    assert len(calls) == 1  # once for the five values of x
    state.apply("note")
    assert state.gv["above"] == (5,)  # max(xs) - len(ys) is 4
    assert calls.count(((3, 1, 4, 1, 5),)) == 1
    effect = game.definition.actions["note"].effect.source
    assert "_b_pick(" in effect and ":= _b_pick(" not in effect  # a draw is made for each item, never kept
    monkeypatch.undo()
    game = load_tiny(tmp_path, HOIST_RULES, players=2)
    plays_as_the_closures(tmp_path, monkeypatch, HOIST_RULES, game, range(1, 5))


ORDERLESS_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components:
  cards: {a: {count: 2}, b: {count: 2}, c: {}}
  zones:
    deck: {fill: "[a, a, b, b, c]"}
    hand: {per: player}
vars:
  game: {counted: -1, least: none}
actions:
  take:
    params: {card: distinct(deck)}
    effect:
      - move card card from deck to me.hand
      - "set counted = count([x for x in me.hand if x >= 'b'])"
      - "set least = min(x for x in me.hand if x != 'a')"
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: size(deck) == 0
    do: [{choose: [take]}]
"""


def test_a_count_or_least_of_a_zones_cards_loops_over_them_unsorted_and_counts_each_copy(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, ORDERLESS_RULES, players=2)
    effect = game.definition.actions["take"].effect.source
    # the count adds up the copies of the cards that pass (no units listed); the least loops unsorted
    assert "sum([_n" in effect and ".items() if (v_x >= 'b')" in effect and effect.count("_units_held(") == 1
    state = game.new_game(seed=1)
    # p1 takes b, b and c (two copies of b), p2 takes a twice; each count is of the taker's hand
    for card, counted, least in [("b", 1, "b"), ("a", 0, None), ("b", 2, "b"), ("a", 0, None), ("c", 3, "b")]:
        state.apply(f"take(card={card})")
        assert (state.gv["counted"], state.gv["least"]) == (counted, least)
    assert state.zones["hand#0"] == {"b": 2, "c": 1}
    plays_as_the_closures(tmp_path, monkeypatch, ORDERLESS_RULES, game, range(1, 5))


PRICE_RULES = """
game: {name: Market, players: {min: 2, max: 2}}
components: {resources: [coin, gem]}
setup:
  - for: p in players
    do: [gain 2 coin to p]
vars:
  player: {rate: 3, paid: 0}
actions:
  buy:  # one resource, its amount worked out per binding (zero for the free one)
    params: {n: "[0, 1, 2, 3]", what: "['coin', 'gem']"}
    cost: (n) what
    effect: [me.paid += n, gain 1 gem]
  trade:
    params: {what: "['coin', 'gem']"}
    cost: (me.rate) [what]
    effect: [me.rate -= 1]
  bundle:
    cost: 1 coin + 1 gem
  fee:
    cost: 2 coin
  swap:  # a rate that is 1 or 3: fewer than 1 held, the rate is not worked out
    params: {what: "['coin', 'gem']"}
    cost: (rate(what)) [what]
    effect: [gain 1 coin]
defs:
  rate(r): "1 if r == 'gem' else 3"
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [buy, trade, bundle, fee, swap]}]
"""


def test_a_price_of_one_resource_is_checked_against_its_count_without_making_a_bundle(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, PRICE_RULES, players=2)
    actions = game.definition.actions
    # The counts are read in place: an amount worked out once per binding (none is owed for a zero), a
    # fixed amount, or each resource of a price known when the rule is compiled.
    assert "_can_pay" not in "".join(actions[a].fast.source for a in ("buy", "trade", "bundle", "fee"))
    assert re.search(
        r"not \(_c\d+ := v_n\) or s\.pv\[me\]\.get\(v_what, 0\) >= _c", actions["buy"].fast.source
    )
    assert re.search(r"not \(_c\d+ := s\.pv\[", actions["trade"].fast.source)
    assert re.search(
        r"\.get\('coin', 0\) >= 1 and _p\d+\.get\('gem', 0\) >= 1", actions["bundle"].fast.source
    )
    assert "(s.pv[me].get('coin', 0) >= 2)" in actions["fee"].fast.source
    # an amount that is at least 1 whatever the state: the count is tested against that first
    assert re.search(
        r"\(\(_c(\d+) := s\.pv\[me\]\.get\(v_what, 0\)\) >= 1 and _c\1 >= \(\(1 if",
        actions["swap"].fast.source,
    )
    state = game.new_game(seed=1)
    offers = [str(a) for a in state.legal_actions()]
    # 2 coins and no gem: up to 2 coins, and 0 of anything (a zero price costs nothing).
    assert [a for a in offers if a.startswith("buy")] == [
        "buy(n=0, what=coin)",
        "buy(n=0, what=gem)",
        "buy(n=1, what=coin)",
        "buy(n=2, what=coin)",
    ]
    assert not [a for a in offers if a.startswith(("trade", "bundle", "swap"))] and "fee" in offers
    state.apply("buy(n=0, what=gem)")
    assert state.pv[0]["gem"] == 1 and state.pv[0]["coin"] == 2
    state.apply("fee")  # p2
    # 1 gem is the rate of a gem; 2 coins are not the 3 a coin costs
    assert [str(a) for a in state.legal_actions() if a.name == "swap"] == ["swap(what=gem)"]
    plays_as_the_closures(tmp_path, monkeypatch, PRICE_RULES, game, range(4))


SWAP_RULES = """
game: {name: Swap, players: {min: 2, max: 2}}
components: {resources: [coin, gem, pearl]}
setup:
  - for: p in players
    do: [gain 2 coin + 1 gem to p]
vars:
  player: {offers: 0}
actions:
  offer:  # two units of one's own against two of the other's, nothing of a kind on both sides
    params:
      give: bundles(me.resources, 2)
      get: bundles(first([p for p in players if p != me]).resources, 2)
    when: disjoint(give, get)
    effect: [me.offers += 1]
  mine:
    params: {what: "['coin', 'gem', 'pearl']"}
    effect: [gain 1 what]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: players[0].offers + players[1].offers >= 6
    do: [{choose: [offer, mine]}]
"""


def test_a_players_resources_are_one_bundle_while_their_resources_stay_and_its_bundles_are_kept_on_it(
    tmp_path, monkeypatch
):
    from meeple.compile.builtins import bundles, disjoint
    from meeple.compile.codegen import _resources
    from meeple.values import Bundle, Player

    game = load_tiny(tmp_path, SWAP_RULES, players=2)
    # The bundles of a player's resources are all different: no `distinct` asked of them again (those of
    # `first(...).resources`, not known to be a player's, are asked).
    source = game.definition.actions["offer"].listing.source
    # The kept bundle read in place, else made; its bundles kept on it looked up in place, else asked for.
    kept = r"for v_give in \(\(\((_s\d+) := \((_x\d+) := \((_r\d+) if \(\3 := s\.held\[v_me\]\) is not None"
    found = re.search(kept, source)
    assert found is not None
    kept_subs, holding = found.group(1), found.group(2)
    assert f"else _resources(s, v_me)))._subs) is not None and {kept_subs}.get((2, 1)))" in source
    assert f" or _b_bundles(s, {holding}, 2)):" in source
    state = game.new_game(seed=1)
    # Both hold 2 coins and a gem: a coin or two against the gem, or the gem against a coin or two.
    assert [str(a) for a in state.legal_actions() if a.name == "offer"] == [
        "offer(give=1 coin, get=1 gem)",
        "offer(give=1 gem, get=1 coin)",
        "offer(give=1 gem, get=2 coin)",
        "offer(give=2 coin, get=1 gem)",
    ]
    mine = state.held[Player(0)]
    assert mine == Bundle({"coin": 2, "gem": 1}) and mine._subs is not None  # its bundles kept on it
    state.apply("offer(give=1 coin, get=1 gem)")  # a variable changes, no resource: the same bundles serve
    assert _resources(state, Player(0)) is mine and state.held[Player(0)] is mine
    state.apply("mine(what=pearl)")  # p2 gains a pearl: p2's bundle is made again, p1's stays
    assert state.held[Player(1)] is None or state.held[Player(1)]["pearl"] == 1
    offers = [str(a) for a in state.legal_actions() if a.name == "offer"]
    assert "offer(give=1 gem, get=1 pearl)" in offers and "offer(give=1 gem, get=1 coin)" in offers
    assert _resources(state, Player(1))["pearl"] == 1 and state.held[Player(0)] is mine
    # A clone starts with the bundles kept as they are; each state drops its own at a change of them.
    left, right = state.clone(), state.clone()
    assert left.held == state.held and left.held is not state.held
    left.apply("mine(what=pearl)")
    right.apply("mine(what=coin)")
    assert left.held[0] is None and right.held[0] is None and state.held[0] is mine
    assert _resources(left, Player(0))["pearl"] == 1 and _resources(right, Player(0))["coin"] == 3
    assert _resources(left, Player(0))["coin"] == 2 and _resources(right, Player(0))["pearl"] == 0
    assert _resources(state, Player(0)) is mine  # the holding of the same counts: the very same bundle
    assert left.held[0] is not right.held[0] and left.held[0]["pearl"] == 1
    # Resources changed behind the effects, then said so: nothing worked out before is trusted.
    state.pv[0]["gem"] = 5
    state.forget()
    assert _resources(state, Player(0))["gem"] == 5
    # Nothing held: its bundles are none, kept as an empty list, asked for again each time (the same).
    state.pv[0].update(coin=0, gem=0, pearl=0)
    state.forget()
    assert state.to_move == Player(0) and not [a for a in state.legal_actions() if a.name == "offer"]
    assert state.held[0]._subs == {(2, 1): []}
    state.forget()
    assert not [a for a in state.legal_actions() if a.name == "offer"]
    # `bundles` of the same bundle: the same list; `disjoint` of bundles by their kinds.
    assert bundles(None, mine, 2) is bundles(None, mine, 2)
    assert disjoint(None, Bundle({"coin": 2}), Bundle({"gem": 1})) and not disjoint(
        None, mine, Bundle({"gem": 3})
    )
    plays_as_the_closures(tmp_path, monkeypatch, SWAP_RULES, game, range(4))


PEEK_RULES = """
game: {name: Peek, players: {min: 2, max: 2}}
components: {resources: [coin, gem]}
setup:
  - gain 2 coin + 1 gem to players[1]
actions:
  look:  # the other player is reached through a list: their type is not known before play
    params: {n: "[total(first([p for p in players if p != me]).resources)]"}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [look]}]
"""


def test_a_players_resources_reached_through_a_value_of_unknown_type_are_what_they_hold(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, PEEK_RULES, players=2)
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["look(n=3)"]  # p1 sees p2's 2 coins and 1 gem
    state.apply("look(n=3)")
    assert [str(a) for a in state.legal_actions()] == ["look(n=0)"]  # p2 sees p1's nothing
    plays_as_the_closures(tmp_path, monkeypatch, PEEK_RULES, game, range(2))


KINDS_RULES = """
game: {name: Kinds, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}, flag: {supply: 9}, tower: {supply: 9}}
board: {grid: {width: 4, height: 1}}
vars:
  game: {turns: 0}
  player: {score: 0}
defs:
  standing(c): "first([b for b in pieces_at(c) if b.kind in ['flag', 'tower']])"
actions:
  lay:
    params: {cell: cells}
    when: len(pieces_at(cell)) < 2
    effect: [place stone at cell for me, turns += 1]
  raise:
    params: {cell: cells}
    when: len(pieces_at(cell)) < 2
    effect:
      - place tower at cell for me
      - turns += 1
      - for: c in cells
        do:
          - let b = standing(c)
          - if: b != none and b.owner == me
            then: [me.score += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: turns >= 6
    do: [{choose: [lay, raise]}]
"""


def test_the_first_piece_of_some_kinds_at_a_site_is_found_on_its_list_of_pieces(tmp_path, monkeypatch):
    from meeple.compile.builtins import first_of_kinds, pieces_at

    game = load_tiny(tmp_path, KINDS_RULES, players=2)
    assert "_first_of_kinds(s, " in game.definition.actions["raise"].effect.source  # the effect, no memo on
    state = game.new_game(seed=1)
    assert first_of_kinds(state, "a1", frozenset({"flag", "tower"})) is None  # nothing there
    state.apply("lay(cell=a1)")
    assert first_of_kinds(state, "a1", frozenset({"flag", "tower"})) is None  # none of those kinds
    state.apply("raise(cell=a1)")
    found = first_of_kinds(state, "a1", frozenset({"flag", "tower"}))
    assert found is pieces_at(state, "a1")[1] and state.pieces[found]["kind"] == "tower"  # the same reference
    assert state.pv[1]["score"] == 1  # p2 owns the tower standing there
    plays_as_the_closures(tmp_path, monkeypatch, KINDS_RULES, game, range(1, 7))


OFFER_RULES = """
game: {name: Offers, players: {min: 3, max: 3}}
components: {resources: [coin, gem, pearl]}
setup:
  - for: p in players
    do: [gain 2 coin + 1 gem to p]
vars:
  player: {offers: 0}
actions:
  offer:  # decided a step at a time: a partner, what one gives, what one gets; no kind on both sides
    stepwise: true
    params:
      partner: "[p for p in players if p != me]"
      give: bundles(me.resources, 2)
      get: bundles(partner.resources, 2)
    when: disjoint(give, get)
    effect: [me.offers += 1]
  pair:  # a bundle of exactly two, and a condition that asks more of it than `disjoint`
    stepwise: true
    params:
      give: bundles(me.resources, 2, 2)
      get: bundles(players[1].resources, 2)
    when: disjoint(give, get) and size(get) > 1
    effect: [me.offers += 1]
  match:  # something of a kind on both sides: what a unit has, a bundle of two may have too
    stepwise: true
    params:
      give: bundles(me.resources, 2)
      get: bundles(players[2].resources, 2)
    when: not disjoint(give, get) and not disjoint(give, [me.offers])
    effect: [me.offers += 1]
  spare:  # something another holds and one has none of: one's resources as they are, not a loop's bundle
    stepwise: true
    params:
      partner: "[p for p in players if p != me]"
      got: bundles(partner.resources, 2)
    when: disjoint(got, me.resources)
    effect: [me.offers += 1]
  mine:
    params: {what: "['coin', 'gem', 'pearl']"}
    effect: [gain 1 what]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: players[0].offers + players[1].offers + players[2].offers >= 8
    do: [{choose: [offer, pair, match, spare, mine]}]
"""


def test_whether_an_offer_exists_is_asked_of_the_resources_one_unit_at_a_time(tmp_path, monkeypatch):
    from meeple.compile.builtins import _held_bundles
    from meeple.compile.codegen import _resources, held_kinds, held_ones
    from meeple.values import Bundle, Player

    game = load_tiny(tmp_path, OFFER_RULES, players=3)
    offer, pair = game.definition.actions["offer"], game.definition.actions["pair"]
    # Whether any offer exists: a unit of each side is as good as a bundle (a bundle disjoint from the
    # other side has its units disjoint too), and the units come from the players' counts, each as the
    # name of its resource: two units are disjoint unless they are of the same resource.
    listing = offer.listing.source
    assert "_held_kinds(s, v_me, " in listing and "_held_kinds(s, v_partner, " in listing
    assert "(v_give != v_get)" in listing
    assert "_resources(" not in listing and "_b_bundles(" not in listing
    # The bundles one may give are listed whole; only whether each has something to get asks for units:
    # whether the bundle holds none of that resource.
    gives = offer.stepped[1].source
    assert "_held_kinds(s, v_me, " not in gives and "_held_kinds(s, v_partner, " in gives
    assert "(v_get not in v_give._d)" in gives
    assert "_held_" not in offer.stepped[2].source  # the offers themselves: every bundle
    # Where a value may be given (the pass trying the values of one parameter), the units are bundles.
    assert "_held_ones(s, v_partner, " in offer.next_values["give"].source
    # Bundles of two at least, a bundle asked more than `disjoint`, or asked not to be disjoint: every
    # bundle, as written.
    assert "_held_" not in pair.listing.source
    assert "_held_" not in game.definition.actions["match"].listing.source
    # A unit against what cannot be told a bundle before play: the built-in, given the unit's bundle
    spare = game.definition.actions["spare"].listing.source
    assert "_held_kinds(s, v_partner, " in spare and "_b_disjoint(s, _Bundle.one(v_got, 1), " in spare
    state = game.new_game(seed=1)
    names = ("coin", "gem", "pearl")
    first = Player(0)
    state.kinds[first] = None  # from the counts, then kept on the state
    kinds = held_kinds(state, first, names)
    assert kinds == ["coin", "gem"] and state.kinds[first] is kinds
    assert held_kinds(state, first, names) is kinds
    # Until the player's resources change (an effect drops them), in this state only
    copy = state.clone()
    copy.gain(first, Bundle({"pearl": 1}))
    assert copy.kinds[first] is None and held_kinds(copy, first, names) == ["coin", "gem", "pearl"]
    assert held_kinds(state, first, names) is kinds
    # As bundles: from the counts, or, the player's bundle kept, kept on it as `bundles` has them.
    each = tuple((r, Bundle.one(r, 1)) for r in names)
    state.held[first] = None
    assert held_ones(state, first, each) == [Bundle({"coin": 1}), Bundle({"gem": 1})]
    kept = _resources(state, first)
    ones = held_ones(state, first, each)
    assert ones == _held_bundles(kept, 1, 1) and held_ones(state, first, each) is ones is kept._subs[(1, 1)]
    # No pair yet: two units of one's coins and gem always share a kind with two of another's.
    assert [str(a) for a in state.legal_actions()] == [
        "offer(…)",
        *[f"mine(what={r})" for r in ("coin", "gem", "pearl")],
    ]
    plays_as_the_closures(tmp_path, monkeypatch, OFFER_RULES, game, range(1, 7))


def test_a_stepwise_actions_next_values_are_listed_in_one_pass_as_value_by_value():
    """Verdon's trade offers are decided a parameter at a time: the generated pass that lists the values of
    the next parameter some offer completes gives the values trying each one alone gives, in order; so
    does the pass written for exactly the parameters decided so far (`stepped`), used first."""
    from meeple.runtime.engine import stepwise_options

    game = meeple.load("climbers_of_verdon", players=4)
    offer = game.definition.actions["offer_trade"]
    assert set(offer.next_values) == {"partner", "give"}  # the last, `get`, is one listing as it is
    assert len(offer.stepped) == 3 and all(offer.stepped)
    assert "in bound" not in offer.stepped[1].source and "in bound" in offer.next_values["give"].source
    # values the loops took from `bundles(...)` are compared without a test of their type; a value given
    # (the bundle given, once decided) keeps it
    assert "type(v_" not in offer.stepped[1].source and "type(v_" not in offer.listing.source
    assert "type(v_give) is _Bundle else" in offer.stepped[2].source
    assert "type(v_get)" not in offer.stepped[2].source
    generic = dataclasses.replace(offer, stepped=())
    alone = dataclasses.replace(offer, next_values={}, stepped=())
    compared = 0
    for seed in (1, 2):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        while not state.is_over:
            f = state.stack[-1]
            if f["k"] == "choose" and any(a.name == "offer_trade" for a in state.legal_actions()):
                me = f["p"]  # the partners an offer can be made to
                partners = [str(a) for a in stepwise_options(state, offer, me, {}, False)]
                assert partners == [str(a) for a in stepwise_options(state, alone, me, {}, False)]
            if f["k"] == "partial" and f["action"] == "offer_trade":
                me, bound = f["p"], dict(f["args"])
                one_pass = [str(a) for a in stepwise_options(state, offer, me, bound, False)]
                assert one_pass == [str(a) for a in stepwise_options(state, generic, me, bound, False)]
                assert one_pass == [str(a) for a in stepwise_options(state, alone, me, bound, False)]
                compared += len(bound) < 2  # the partner or the bundle given still to choose
                if len(bound) == 2:  # the last value, the rest given in order: the listed offers themselves
                    done = offer.fast(state, me, bound, False, False)
                    assert one_pass == [str(a) for a in done] and not any(a.partial for a in done)
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 100


MIXED_FIELD_RULES = """
game: {name: Mixed, players: {min: 2, max: 2}}
components:
  card_fields: {worth: 0}
  cards: {gold: {worth: 5}, lead: {}}
  pieces: {stone: {supply: 9, fields: {worth: 2}}, flag: {supply: 9}}
board: {grid: {width: 3, height: 1}}
vars:
  game: {things: [], seen: [], top: 0}
setup:
  - for: c in cells
    do: ["set c.worth = c.x + 10"]
  - set things = ['gold', 'lead', 'b1']
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect:
      - place stone at cell for me
      - place flag at cell for me
      - set things = things + pieces_at(cell)
      - set cell.worth = 0
      - set seen = [t.worth for t in things]
      - set top = first(things).worth
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces()) >= 4
    do: [{choose: [put]}]
"""


def test_a_field_of_a_value_of_unknown_type_is_read_in_place_from_a_card_a_site_or_a_piece(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, MIXED_FIELD_RULES, players=2)
    state = game.new_game(seed=1)
    state.apply("put(cell=b1)")
    # a card's field from its definition (its default when it gives none), a site's as it is now (set to 0
    # by the effect), a piece's from its record, and a kind's definition for a piece without the field
    assert state.gv["seen"] == (5, 0, 0, 2, None)
    assert state.gv["top"] == 5  # a value worked out (the first thing) is held in a temporary and read so
    assert ":= _b_first(s, s.gv['things'])" in game.definition.actions["put"].effect.source
    state.apply("put(cell=a1)")
    assert state.gv["seen"] == (5, 0, 0, 2, None, 2, None)
    cards = game.definition.actions["put"].fast.__globals__["_CARDS"]  # the definitions themselves, no site
    assert cards["gold"] is game.definition.sym.definitions["gold"] and "b1" not in cards
    plays_as_the_closures(tmp_path, monkeypatch, MIXED_FIELD_RULES, game, range(3))


KIND_FIELD_RULES = MIXED_FIELD_RULES.replace(
    "stone: {supply: 9, fields: {worth: 2}}", "stone: {supply: 9, income: 3}"
).replace("set seen = [t.worth for t in things]", "set seen = [t.income for t in things]")


def test_a_field_of_a_pieces_kind_is_read_from_its_kind_for_a_value_of_unknown_type(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, KIND_FIELD_RULES, players=2)
    # A piece's field its kind declares (`income: 3`) and no record holds: from the kind, in place
    assert "_DEFINITIONS[" in game.definition.actions["put"].effect.source
    state = game.new_game(seed=1)
    state.apply("put(cell=b1)")
    # cards and sites have none; the stone its kind's 3, the flag's kind none
    assert state.gv["seen"] == (None, None, None, 3, None)
    plays_as_the_closures(tmp_path, monkeypatch, KIND_FIELD_RULES, game, range(3))


HAND_RULES = """
game: {name: Hand, players: {min: 2, max: 2}}
components:
  card_fields: {kind: plain}
  cards:
    a: {family: hand, count: 2}
    b: {family: hand, kind: rope}
    c: {family: hand, count: 3}
  zones:
    deck: {per: player, fill: hand}
    shown: {per: player}
    pool: {}
vars:
  game: {sizes: [], most: 0}
actions:
  show:
    params:
      cards: "[x for x in bundles(me.deck, 2) if count(x, 'c') < 2]"
      way: "['up', 'down'] if any(k.kind == 'rope' for k in cards) else ['any']"
    effect:
      - move cards cards from me.deck to me.shown
      - "set sizes = [size(me.shown), count(me.deck), len(pool), size([k for k in me.shown if k != 'a'])]"
      - set most = max(size(me.shown), count(me.deck), 1)
  one:
    params: {card: "[x for x in distinct(me.deck) if count(me.deck, x) > 1 and size(me.shown) < 5]"}
    effect: [move card card from me.deck to pool]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: size(pool) >= 2 or all(size(p.deck) < 2 for p in players)
    do: [{choose: [show, one]}]
"""


def test_a_domain_of_distinct_cards_or_of_a_zones_bundles_is_not_deduplicated_and_a_zones_size_is_its_copies(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, HAND_RULES, players=2)
    show, one = (game.definition.actions[a].fast.source for a in ("show", "one"))
    # distinct(...), the bundles of a zone and a choice of two lists of different values hold no repeats
    assert "_b_distinct" not in show and one.count("_b_distinct(") == 1  # the one the rule asks for
    assert "sum(s.zones[" in one  # the copies of the cards a zone holds, added up in place
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions() if a.name == "one"] == ["one(card=a)", "one(card=c)"]
    assert [str(a) for a in state.legal_actions() if a.name == "show"] == [
        "show(cards=1 a, way=any)",
        "show(cards=1 b, way=up)",
        "show(cards=1 b, way=down)",
        "show(cards=1 c, way=any)",
        "show(cards=2 a, way=any)",
        "show(cards=1 a + 1 b, way=up)",
        "show(cards=1 a + 1 b, way=down)",
        "show(cards=1 a + 1 c, way=any)",
        "show(cards=1 b + 1 c, way=up)",
        "show(cards=1 b + 1 c, way=down)",
    ]
    state.apply("show(cards=1 a + 1 c, way=any)")
    assert state.gv["sizes"] == (2, 4, 0, 1) and state.gv["most"] == 4
    plays_as_the_closures(tmp_path, monkeypatch, HAND_RULES, game, range(4))


TYPED_DEF_RULES = """
game: {name: Typed, players: {min: 2, max: 2}}
components:
  card_fields: {worth: 0}
  cards: {gold: {worth: 5}, lead: {worth: 1}, tin: {worth: 2}}
  zones:
    deck: {fill: "[gold, lead, tin]"}
    hand: {per: player}
  pieces: {pawn: {supply: 2}}
board: {grid: {width: 3, height: 1}}
vars:
  player: {gold: 0}
  turn: {walker: none}
defs:
  # A comprehension: not written out where a memo is kept (the listings), so called with its argument.
  worthy(p): "count([c for c in p.hand if c.worth > p.gold]) >= 1"
setup:
  - for: p in players
    do: [place pawn at a1 for p]
actions:
  take:
    params: {card: distinct(deck)}
    effect: [move card card from deck to me.hand]
  spend:
    when: worthy(me)
    effect: [me.gold += 2]
  walk:
    params:
      to: "[c for c in cells if c != turn.walker.site and len(pieces_at(c)) < 2]"
    effect: [move piece turn.walker to to]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: size(deck) == 0 and all(not worthy(p) for p in players)
    do:
      - step: ["set turn.walker = first(pieces('pawn', owner=me))"]
      - choose: [take, spend, walk]
"""


def test_a_def_given_a_player_runs_a_version_compiled_for_a_player(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, TYPED_DEF_RULES, players=2)
    source = game.definition.actions["spend"].fast.source
    assert "_D['worthy(p: player)']" in source  # the version for a player, remembered under the def's name
    assert "_call1(s, 'worthy', _D['worthy(p: player)'], v_me)" in source
    typed = game.definition.actions["spend"].fast.__globals__["_D"]["worthy(p: player)"]
    assert "s.pv[v_p]['gold']" in typed.source and "_get_attr(s, v_p" not in typed.source
    assert "s.zones[" in typed.source  # the hand, in place
    state = game.new_game(seed=1)
    assert "spend" not in [str(a) for a in state.legal_actions()]  # an empty hand: nothing worth more
    state.apply("take(card=lead)")
    state.apply("take(card=tin)")
    assert "spend" in [str(a) for a in state.legal_actions()]  # p1 holds lead, worth 1 > 0 gold
    state.apply("spend")
    state.apply("take(card=gold)")
    assert state.pv[0]["gold"] == 2 and "spend" not in [str(a) for a in state.legal_actions()]
    plays_as_the_closures(tmp_path, monkeypatch, TYPED_DEF_RULES, game, range(1, 6))


def test_a_field_of_a_turn_variable_in_a_comprehensions_condition_is_read_once(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, TYPED_DEF_RULES, players=2)
    source = game.definition.actions["walk"].fast.source
    # the walker's type is told as the game runs: its site is read with tests, once for all the cells
    assert source.count("s.tv['walker']]['site']") == 1 and "is not _UNSET else (" in source
    state = game.new_game(seed=1)
    assert sorted(str(a) for a in state.legal_actions() if a.name == "walk") == ["walk(to=b1)", "walk(to=c1)"]
    state.apply("walk(to=c1)")
    assert sorted(str(a) for a in state.legal_actions() if a.name == "walk") == ["walk(to=b1)", "walk(to=c1)"]
    state.apply("walk(to=c1)")  # both pawns at c1: full
    assert sorted(str(a) for a in state.legal_actions() if a.name == "walk") == ["walk(to=a1)", "walk(to=b1)"]
    plays_as_the_closures(tmp_path, monkeypatch, TYPED_DEF_RULES, game, range(1, 6))


FIELD_PARTS_RULES = """
game: {name: Fields, players: {min: 2, max: 2}}
components:
  card_fields: {days: 0}
  cards: {sun: {days: 2}, rain: {days: 1}}
  zones:
    forecast: {fill: "[sun, rain]"}
  pieces: {pawn: {supply: 4, fields: {tired: 0}}}
board: {grid: {width: 3, height: 1}}
vars:
  game: {day: 0}
setup:
  - for: c in cells
    do: ["set c.mud = c.x"]
defs:
  # Of a value of unknown type, a field only cards have (their definitions never change), one of the
  # sites' (a statement sets it), and one pieces start with.
  days_left(t): "t.days - day"
  muddy(x): "x.mud > 0"
  tired(x): "x.tired > 0"
  # The mud of a cell, with a comprehension (not written out in an effect); what a walk noted of its
  # cell before and after the mud it makes.
  mud_of(x): "sum([c.mud for c in [x]])"
  noted(c): "[c.mud_before, c.mud_after]"
  tiredness(x): "sum([p.tired for p in [x]])"
actions:
  wait:
    params: {t: "[t for t in distinct(forecast) if days_left(t) > 0]"}
    effect: [day += 1]
  walk:
    params: {cell: "[c for c in cells if not muddy(c) or len(pieces_at(c)) == 0]"}
    effect:
      - place pawn at cell for me
      - set cell.mud_before = mud_of(cell)
      - set cell.mud = cell.mud + 1
      - set cell.mud_after = mud_of(cell)
  rest:
    params: {pawn: "[x for x in pieces('pawn') if not tired(x)]"}
    effect: ["set pawn.tired = tiredness(pawn) + 1"]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: day >= 2 or len(pieces()) >= 4
    do: [{choose: [wait, walk, rest]}]
"""


def test_a_field_of_a_value_of_unknown_type_is_read_from_the_parts_that_have_or_set_it(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, FIELD_PARTS_RULES, players=2)
    kept = dict((name, parts) for parts, group in game.definition.kept_defs for name in group)
    # days: only cards have it; mud: sites start with it (the set-up) and a statement sets it; tired: a
    # piece's, and set by a statement, which might set it on a site as well
    assert kept["days_left"] == ("gv",)
    assert kept["muddy"] == ("pieces", "sites")
    assert kept["tired"] == ("pieces", "sites")
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions() if a.name == "wait"] == ["wait(t=rain)", "wait(t=sun)"]
    results = state._kept["days_left"]
    state.apply("walk(cell=b1)")  # a piece placed and a site's field set: days_left's results stay
    assert [str(a) for a in state.legal_actions() if a.name == "wait"] == ["wait(t=rain)", "wait(t=sun)"]
    assert state._kept["days_left"] is results
    # b1 was muddy and now holds a pawn: only the cells without one or without mud are offered
    assert [str(a) for a in state.legal_actions() if a.name == "walk"] == ["walk(cell=a1)", "walk(cell=c1)"]
    state.apply("wait(t=sun)")  # the day changes: worked out again
    assert [str(a) for a in state.legal_actions() if a.name == "wait"] == ["wait(t=sun)"]
    assert state._kept["days_left"] is not results
    # mud_of(x) reads a field a statement sets: called through `_keep` in walk's effect, as the field might
    # have been a card's, but not kept there, so its second call sees the mud the first did not.
    assert "_keep1(s, 'mud_of'" in game.definition.actions["walk"].effect.source
    assert "mud_of" not in game.definition.pure_defs
    # tiredness(x) reads a field pawns start with: a part of the state from the start, written out.
    rest = game.definition.actions["rest"].effect.source
    assert "_keep1(s, 'tiredness'" not in rest and "s.pieces[v_p]['tired']" in rest
    state.apply("walk(cell=a1)")
    assert (state.sites["a1"]["mud_before"], state.sites["a1"]["mud_after"]) == (0, 1)
    plays_as_the_closures(tmp_path, monkeypatch, FIELD_PARTS_RULES, game, range(1, 6))


COUNTED_RULES = """
game: {name: Counted, players: {min: 2, max: 2}}
components:
  cards:
    a: {family: hand, count: 2}
    b: {family: hand}
    c: {family: hand, count: 3}
  zones:
    deck: {per: player, fill: hand}
    pool: {}
vars:
  game: {seen: []}
actions:
  give:
    params: {card: "[x for x in distinct(me.deck) if count([y for y in me.deck if y >= x]) >= 3]"}
    effect:
      - move card card from me.deck to pool
      - "set seen = seen + [count([y for y in me.deck if y != 'b']), len([y for y in pool if y == card])]"
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: size(pool) >= 5
    do: [{choose: [give]}]
"""


def test_a_count_of_a_zones_cards_that_pass_a_test_adds_up_their_copies_without_listing_them(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, COUNTED_RULES, players=2)
    give = game.definition.actions["give"]
    assert ".items() if (v_y >= v_x)" in give.fast.source and "_units_held" not in give.fast.source
    state = game.new_game(seed=1)
    # 6 cards: 2 a, 1 b, 3 c; at or after a: 6, after b: 4, after c: 3
    assert [str(a) for a in state.legal_actions()] == ["give(card=a)", "give(card=b)", "give(card=c)"]
    state.apply("give(card=a)")
    assert state.gv["seen"] == (4, 1)  # 1 a and 3 c left (not b); 1 a in the pool
    state.apply("give(card=c)")  # p2: 2 a and 2 c left
    state.apply("give(card=a)")  # p1's last a: none left of it, and only b and 3 c at or after it
    assert state.gv["seen"] == (4, 1, 4, 1, 3, 2)
    # p2 holds 2 a, b and 2 c: only 2 cards at or after c
    assert [str(a) for a in state.legal_actions()] == ["give(card=a)", "give(card=b)"]
    plays_as_the_closures(tmp_path, monkeypatch, COUNTED_RULES, game, range(4))


RANGE_RULES = """
game: {name: Ranges, players: {min: 2, max: 2}}
vars:
  game: {row: [5, 6, 7], far: 3, picked: []}
actions:
  take:
    params: {i: "[i for i in 0..len(row) - 1 if row[i] > 5]"}
    effect: ["set picked = picked + [row[i]]"]
  skip:
    params: {i: "[i for i in 1..far if i > 1]"}
    effect: ["set far = far - 1"]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(picked) >= 2 or far < 2
    do: [{choose: [take, skip]}]
"""


def test_a_range_looped_over_up_to_a_size_is_pythons_and_one_up_to_a_variable_is_checked(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, RANGE_RULES, players=2)
    take, skip = (game.definition.actions[a].fast.source for a in ("take", "skip"))
    # row only ever holds a list (it is never set): its length is Python's
    assert " range(0, (len(s.gv['row']) - 1) + 1)" in take and "_range(" not in take
    assert "_range(1, s.gv['far'])" in skip  # a variable could hold anything: its bound is checked
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["take(i=1)", "take(i=2)", "skip(i=2)", "skip(i=3)"]
    state.gv["far"] = 10**6  # past the bound a range may have, as a mistyped rule might make it
    state.forget()
    with pytest.raises(RuleRuntimeError, match="has more than"):
        state.legal_actions()
    plays_as_the_closures(tmp_path, monkeypatch, RANGE_RULES, game, range(1, 4))


MADE_RULES = """
game: {name: Made, players: {min: 2, max: 2}}
board: {grid: {width: 3, height: 1}}
components:
  pieces: {stone: {supply: 9}}
vars:
  game: {turns: 0}
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]", n: "1..2"}
    effect: [place stone at cell for me, turns += n]
  pick:
    params: {stone: "pieces('stone', owner=me)"}
    effect: [remove stone, turns += 1]
  name:
    params: {who: players}
    effect: [turns += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: turns >= 8
    do: [{choose: [put, pick, name]}]
"""


def test_a_listing_hands_out_the_action_it_made_before_for_the_same_names_and_numbers(tmp_path, monkeypatch):
    """An Action never changes, so one whose parameters are names or whole numbers is made once and found
    again by them; one naming a player or a piece (equal to a number, or shown with where it stands) is
    made afresh each time."""
    game = load_tiny(tmp_path, MADE_RULES, players=2)
    one = game.new_game(seed=1).apply("put(cell=a1, n=1)")
    two = game.new_game(seed=2).apply("put(cell=a1, n=2)")  # another game, at the same choices
    first = {str(a): a for a in one.legal_actions()}
    again = {str(a): a for a in two.legal_actions()}
    assert first.keys() == again.keys()
    assert first["put(cell=b1, n=2)"] is again["put(cell=b1, n=2)"]
    assert (
        first["name(who=p1)"] is not again["name(who=p1)"] and first["name(who=p1)"] == again["name(who=p1)"]
    )
    one.apply("put(cell=b1, n=1)")
    stones = [a for a in one.legal_actions() if a.name == "pick"]
    assert [str(a) for a in stones] == ["pick(stone=stone#0@a1)"]
    same = game.new_game(seed=1).apply("put(cell=a1, n=1)").apply("put(cell=b1, n=1)")
    assert stones[0] is not next(a for a in same.legal_actions() if a.name == "pick")
    assert first["put(cell=c1, n=1)"] is next(a for a in one.legal_actions() if str(a) == "put(cell=c1, n=1)")
    plays_as_the_closures(tmp_path, monkeypatch, MADE_RULES, game, range(1, 5))


TABLE_RULES = """
game: {name: Tables, players: {min: 2, max: 2}}
tables:
  room: {0: {2: 2, 3: 3}, 1: {2: 1, 3: 2}}
  rows: [[1, 2], [3, 4, 5]]
  mixed: {a: [1, 2], b: {0: 7}}
vars:
  game: {level: 0, got: []}
actions:
  take:
    params: {i: "[i for i in 0..1 if room[level][len(players)] + rows[i][0] > 2]"}
    effect:
      - "let w = 'a' if level == 0 else 'b'"
      - "set got = got + [room[i][2], rows[level][i], mixed[w][0], room[level + 5]]"
      - "set level = 1 - level"
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(got) >= 15
    do: [{choose: [take]}]
"""


def test_a_table_is_indexed_in_place_by_the_kind_of_its_rows(tmp_path, monkeypatch):
    """A table never changes: indexing one whose rows are all mappings is a lookup (none for a missing
    key), one whose rows are all lists an index; a table of mixed rows is tested at each index."""
    game = load_tiny(tmp_path, TABLE_RULES, players=2)
    listing = game.definition.actions["take"].fast.source
    assert ".get(s.gv['level']).get(len(s.players))" in listing and "[v_i][0]" in listing
    effect = game.definition.actions["take"].effect.source
    assert ".get(_add(s.gv['level'], 5))" in effect and "_index(" in effect  # `mixed[w][0]`: two kinds of row
    s = game.new_game(seed=1)
    s.apply("take(i=0)").apply("take(i=1)")
    assert s.gv["got"] == (2, 1, 1, None, 1, 4, 7, None)
    plays_as_the_closures(tmp_path, monkeypatch, TABLE_RULES, game, range(1, 4))


AMONG_RULES = """
game: {name: Among, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 12}}
  cards: {a1: {}, c1: {}}
  zones:
    marked: {fill: cards}
board: {grid: {width: 4, height: 2}}
vars:
  game: {wanted: [], rounds: 0}
defs:
  # The cells beside a player's stones, each as often as it is beside one, in no particular order.
  beside(p): "[n for b in pieces('stone', owner=p) for n in neighbours(b.site)]"
actions:
  put:
    params: {cell: cells}
    when: first(pieces_at(cell)) == none and cell in beside(me)
    effect: [place stone at cell for me]
  start:
    params: {cell: cells}
    when: count(pieces('stone', owner=me)) == 0 and cell in wanted
    effect: [place stone at cell for me]
  mark:
    params: {cell: cells}
    when: cell in marked and rounds < 3
    effect: [rounds += 1]
setup:
  - set wanted = ['d2', 'b1', 'd2']
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces()) >= 7
    do: [{choose: [put, start, mark]}]
"""


def test_a_loop_over_a_constant_domain_whose_condition_asks_for_membership_goes_over_the_members(
    tmp_path, monkeypatch
):
    """`cell in beside(me)` over every cell: the loop takes the cells in the list (each once, in the
    board's order) instead of testing every cell; a zone, which is no list, still has every cell tested."""
    game = load_tiny(tmp_path, AMONG_RULES, players=2)
    source = {name: game.definition.actions[name].fast.source for name in ("put", "start", "mark")}
    assert "_among(" in source["put"] and "_among(" in source["start"]
    assert "_among(" in source["mark"]  # a zone's names: those of its cards that are cells
    # A step's listing loops over the members only and does not ask again; given a cell, it asks.
    listing = game.definition.actions["put"].listing.source
    assert "_among(" in listing and "v_cell in _i" not in listing and "v_cell in _i" in source["put"]
    state = game.new_game(seed=1)
    offers = [str(a) for a in state.legal_actions()]
    assert offers == ["start(cell=b1)", "start(cell=d2)", "mark(cell=a1)", "mark(cell=c1)"]
    state.apply("start(cell=b1)").apply("start(cell=d2)")
    # p1's stone at b1 has a1, c1 and b2 beside it: listed in the board's order, not the list's.
    put = [str(a) for a in state.legal_actions() if a.name == "put"]
    assert put == ["put(cell=a1)", "put(cell=c1)", "put(cell=b2)"]
    plays_as_the_closures(tmp_path, monkeypatch, AMONG_RULES, game, range(1, 6))


def test_among_keeps_the_domains_order_and_answers_exactly_the_values_in_what_it_is_asked_of():
    domain = ["a", "b", "c", "d"]
    order = {v: i for i, v in enumerate(domain)}
    assert codegen.among(order, ["d", "x", "b", "d"], domain) == ["b", "d"]
    assert codegen.among(order, ("c",), domain) == ["c"]
    assert codegen.among(order, [], domain) == []
    assert codegen.among(order, {"a": 1, "x": 2}, domain) == ["a"]  # a zone: the names it has
    assert codegen.among(order, None, domain) == []  # `x in none` holds for nothing
    assert codegen.among(order, [["a"], "c"], domain) == ["c"]  # a value that cannot be hashed: compared
    kept = ["d", "a"]  # a def's result kept across decisions: the same list asked again
    first = codegen.among(order, kept, domain)
    assert first == ["a", "d"] and codegen.among(order, kept, domain) is first
    assert codegen.among({v: i for i, v in enumerate(domain)}, kept, domain) == first  # another domain's
    assert codegen.among(order, ["d", "a"], domain) == first  # an equal list, another object


def test_a_def_given_a_zone_is_memoised_by_its_cards_and_one_given_a_list_is_worked_out_each_time():
    """`_call1` keys a zone (a dict, changed in place) by what it holds, told by its type (no exception
    raised and caught on the way), and calls a def given a list, which cannot be a key, every time."""

    class Decision:
        _memo: dict[Any, Any] = {}
        _kept: dict[str, Any] = {}

    calls: list[Any] = []

    def size(s: Any, v: Any) -> int:
        calls.append(v)
        return sum(v.values()) if isinstance(v, dict) else len(v)

    zone = {"ace": 2, "king": 1}
    assert codegen._call1(Decision, "size", size, zone) == 3
    assert codegen._call1(Decision, "size", size, dict(zone)) == 3  # the same cards: found
    assert len(calls) == 1
    zone["king"] = 3  # changed in place: other cards, worked out again
    assert codegen._call1(Decision, "size", size, zone) == 5 and len(calls) == 2
    Decision._kept = {"size": {}}  # kept across decisions: by the cards alone
    assert codegen._call1(Decision, "size", size, zone) == 5 and len(calls) == 3
    assert codegen._call1(Decision, "size", size, {"ace": 2, "king": 3}) == 5 and len(calls) == 3
    listed = ["ace", "king"]
    assert codegen._call1(Decision, "size", size, listed) == 2
    assert codegen._call1(Decision, "size", size, listed) == 2 and len(calls) == 5


NONE_RULES = """
game: {name: Nothing, players: {min: 2, max: 2}}
components:
  resources: [gold, wood]
vars:
  game: {top: none, rounds: 0}
actions:
  offer:
    params: {b: "bundles(me.resources, 2)"}
    when: top == none or b != top
    effect: ["set top = b", rounds += 1]
  clear:
    when: top != none
    effect: [set top = none, rounds += 1]
setup:
  - for: p in players
    do: [gain 2 gold + 1 wood to p]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 8
    do: [{choose: [offer, clear]}]
"""


def test_a_comparison_with_none_is_an_identity_test_and_a_bundle_compares_as_before(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, NONE_RULES, players=2)
    offer, clear = (game.definition.actions[name].fast.source for name in ("offer", "clear"))
    assert "(s.gv['top'] is None)" in offer and "(s.gv['top'] is not None)" in clear
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()][:2] == ["offer(b=1 gold)", "offer(b=1 wood)"]
    state.apply("offer(b=1 gold)")  # top is now a bundle: every other bundle, and clearing it
    offered = [str(a) for a in state.legal_actions()]
    assert "offer(b=1 gold)" not in offered and "offer(b=1 wood)" in offered and "clear" in offered
    assert Bundle({"gold": 1}) != None and not (Bundle({"gold": 1}) == "gold")  # noqa: E711
    assert Bundle({"gold": 1}) == Bundle([("gold", 1)]) and Bundle({"gold": 1}) != {"gold": 1}
    plays_as_the_closures(tmp_path, monkeypatch, NONE_RULES, game, range(1, 5))


LEVEL_HOIST_RULES = """
game: {name: Picks, players: {min: 2, max: 2}}
components:
  cards: {c1: {}, c2: {}, c3: {}, c4: {}, c5: {}}
  zones:
    deck: {fill: "[c1, c2, c3, c4, c5]"}
    hand: {per: player}
    played: {per: player}
vars:
  game: {rounds: 0}
setup:
  - for: p in players
    do: [draw 2 from deck to p.hand]
actions:
  pick:
    params: {card: distinct(me.hand)}
    when: "count([x for x in me.hand if x >= card]) >= 3 - size(me.played) - size(deck)"
    effect: [move card card from me.hand to me.played, rounds += 1]
  draw_one:
    when: size(deck) > 0
    effect: [draw 1 from deck to me.hand, rounds += 1]
  rest:
    effect: [rounds += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 12
    do: [{choose: [pick, draw_one, rest]}]
"""


def test_a_size_in_a_listings_condition_that_does_not_read_the_value_is_worked_out_once_per_listing(
    tmp_path, monkeypatch
):
    """`3 - size(me.played) - size(deck)` is the same for every card: each size is worked out at the first
    card that asks for it and kept for the others (a temporary set before the loop), while the count, which
    reads the card, is worked out for each."""
    game = load_tiny(tmp_path, LEVEL_HOIST_RULES, players=2)
    source = game.definition.actions["pick"].fast.source
    loop = next(line for line in source.splitlines() if "for v_card in" in line)
    temps = [
        line.strip().split(" = ")[0] for line in source.splitlines() if line.strip().endswith("= _UNSET")
    ]
    assert len(temps) == 2 and all(f"({t} := sum(s.zones[" in source for t in temps)
    assert source.index(f"{temps[0]} = _UNSET") < source.index(loop)
    assert "sum([_n" in source and "(v_x >= v_card)" in source  # the count, for each card
    state = game.new_game(seed=1)
    hand, deck = state.zones["hand#0"], state.zones["deck"]
    assert sum(deck.values()) == 1  # two cards each were drawn: a card fits if another is above it
    fits = [c for c in sorted(hand) if sum(n for x, n in hand.items() if x >= c) >= 3 - 0 - 1]
    assert len(fits) == 1 and [str(a) for a in state.legal_actions() if a.name == "pick"] == [
        f"pick(card={fits[0]})"
    ]
    plays_as_the_closures(tmp_path, monkeypatch, LEVEL_HOIST_RULES, game, range(1, 8))


MUD_RULES = """
game: {name: Mud, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 5, height: 1}}
vars:
  game: {trail: [], rounds: 0}
metrics:
  mud: {on: cell, enter: "t.depth + 1"}
setup:
  - for: c in cells
    do: [set c.depth = 0]
actions:
  put:
    params: {cell: "[c for c in within(a1, 2, 'mud') if len(pieces_at(c)) == 0]"}
    effect:
      - place stone at cell for me
      - set trail = path(a1, e1, 'mud')
      - rounds += 1
  soak:
    params: {cell: "[c for c in cells if c.depth == 0]"}
    effect: [set cell.depth = 2, rounds += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 6
    do: [{choose: [put, soak]}]
"""


@pytest.mark.python_engine  # replaces a function of the engine or the built-ins
def test_a_metrics_costs_are_kept_across_decisions_until_what_it_reads_changes(tmp_path, monkeypatch):
    """`within` and `path` under a metric keep the costs from a site in the state (with the defs' kept
    results), by the site and the distance asked, while the parts the metric reads are unchanged (the
    sites' fields here), in listings and in effects alike; a change to those drops them."""
    from meeple.compile import builtins

    game = load_tiny(tmp_path, MUD_RULES, players=2)
    assert (("sites",), ("$metric:mud",)) in game.definition.kept_defs
    searches: list[tuple[str, Any]] = []
    dijkstra = builtins._dijkstra

    def counted(s: Any, metric: Any, source: str, cutoff: Any, *more: Any) -> Any:
        searches.append((source, cutoff))
        return dijkstra(s, metric, source, cutoff, *more)

    monkeypatch.setattr(builtins, "_dijkstra", counted)
    state = game.new_game(seed=1)
    put = [str(a) for a in state.legal_actions() if a.name == "put"]
    assert put == ["put(cell=a1)", "put(cell=b1)", "put(cell=c1)"] and searches == [("a1", 2)]
    state.apply("put(cell=b1)")  # the path in the effect: one search with no limit; kept
    assert state.gv["trail"] == ("a1", "b1", "c1", "d1", "e1") and searches[1:] == [("a1", None)]
    state.apply("put(cell=a1)").apply("put(cell=c1)")  # the same sites: no search again
    assert len(searches) == 2
    state.apply("soak(cell=c1)")  # c1 now costs 3 to enter: the kept costs are dropped
    assert [str(a) for a in state.legal_actions() if a.name == "put"] == []  # b1 a1 c1 taken, d1 too far
    assert searches[2:] == [("a1", 2)]
    monkeypatch.undo()
    plays_as_the_closures(tmp_path, monkeypatch, MUD_RULES, game, range(1, 6))


SEARCH_RULES = """
game: {name: Stones, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 6}}
board: {grid: {width: 4, height: 2}}
vars:
  game: {moves: 0}
actions:
  start:
    params: {cell: cells}
    when: count(pieces(owner=me)) == 0 and first(pieces_at(cell)) == none
    effect: [place stone at cell for me, moves += 1]
  # Next to one of one's own stones: a search over two loops, neighbours then their pieces.
  grow:
    params: {cell: cells}
    when: >-
      first(pieces_at(cell)) == none and any(r.owner == me for n in neighbours(cell) for r in pieces_at(n))
    effect: [place stone at cell for me, moves += 1]
  # Next to no stone of one's own: the same search with `all`, and a clause with a condition.
  scatter:
    params: {cell: cells}
    when: >-
      first(pieces_at(cell)) == none and count(pieces(owner=me)) > 0
      and all(r.owner != me for n in neighbours(cell) if n != cell for r in pieces_at(n))
    effect: [place stone at cell for me, moves += 1]
  # Its loop name is the parameter's own: the search stays an expression (a loop would overwrite it).
  shadow:
    params: {n: cells}
    when: first(pieces_at(n)) == none and any(r.owner != me for n in neighbours(n) for r in pieces_at(n))
    effect: [place stone at n for me, moves += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: moves >= 6
    do: [{choose: [start, grow, scatter, shadow]}]
"""


def test_a_search_in_a_condition_is_written_as_loops_that_stop_where_an_item_decides(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, SEARCH_RULES, players=2)
    grow, scatter, shadow = (game.definition.actions[a].fast.source for a in ("grow", "scatter", "shadow"))
    # Two nested loops, the pieces of a site walked by their ids, both left once a piece decides.
    assert "next((" not in grow and "for v_r in s.at.get(v_n, ()):" in grow
    assert re.search(r"\n( +)for v_n in .*:\n\1    for v_r in s\.at\.get\(v_n, \(\)\):", grow)
    assert "if not ((v_n != v_cell)):\n                continue" in scatter and "next((" not in scatter
    assert "next((True for v_n in" in shadow and "_q0_" not in shadow
    state = game.new_game(seed=1)
    state.apply("start(cell=a1)")
    state.apply("start(cell=d2)")
    offered = [str(a) for a in state.legal_actions()]
    assert [a for a in offered if a.startswith("grow")] == ["grow(cell=b1)", "grow(cell=a2)"]
    assert "scatter(cell=c1)" in offered and "scatter(cell=b1)" not in offered
    plays_as_the_closures(tmp_path, monkeypatch, SEARCH_RULES, game, range(1, 9))


MEMBERSHIP_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components:
  cards: {gem: {count: 2}, rock: {count: 3}}
  zones:
    pile: {fill: "[gem, gem, rock, rock, rock]"}
    hand: {per: player}
vars:
  game: {kept: 0}
actions:
  take:
    params: {card: distinct(pile)}
    effect: [move card card from pile to me.hand]
  keep:
    when: "'gem' in me.hand and 'rock' not in me.hand"
    effect: [kept += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: size(pile) == 0 or kept >= 2
    do: [{choose: [take, keep]}]
"""


def test_a_card_in_a_zone_is_tested_by_pythons_own_membership(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, MEMBERSHIP_RULES, players=2)
    source = game.definition.actions["keep"].fast.source
    # A zone is a dict, never none: no helper call checks for none first.
    assert "('gem' in s.zones[" in source and "('rock' not in s.zones[" in source
    assert "_in(" not in source and "_not_in(" not in source
    state = game.new_game(seed=1)
    state.apply("take(card=gem)")  # p1
    state.apply("take(card=rock)")  # p2
    assert "keep" in [str(a) for a in state.legal_actions()]  # p1 holds a gem and no rock
    state.apply("take(card=rock)")  # p1 takes a rock too
    assert "keep" not in [str(a) for a in state.legal_actions()]  # p2 holds a rock and no gem
    plays_as_the_closures(tmp_path, monkeypatch, MEMBERSHIP_RULES, game, range(1, 9))


DISJOINT_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
components: {resources: [wood, ore, wool]}
setup:
  - for: p in players
    do: [gain 2 wood + 1 ore to p]
vars:
  game: {swaps: 0}
actions:
  swap:
    params: {give: "bundles(me.resources, 2)", get: "bundles(resources, 1)"}
    when: disjoint(give, get)
    effect: [pay give, gain get, swaps += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: swaps >= 4
    do: [{choose: [swap]}]
"""


def test_two_bundles_are_told_disjoint_in_place(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, DISJOINT_RULES, players=2)
    source = game.definition.actions["swap"].fast.source
    assert "v_give._d.keys().isdisjoint(v_get._d)" in source
    offered = [str(a) for a in game.new_game(seed=1).legal_actions()]
    # p1 holds 2 wood and 1 ore: a handful given never takes back a resource it holds in it
    assert "swap(give=1 wood, get=1 wool)" in offered and "swap(give=1 wood, get=1 ore)" in offered
    assert "swap(give=1 wood, get=1 wood)" not in offered
    assert not [a for a in offered if "give=1 ore + 1 wood" in a and "get=1 wool" not in a]
    plays_as_the_closures(tmp_path, monkeypatch, DISJOINT_RULES, game, range(1, 9))


HOIST_COMPARE_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
vars:
  game: {xs: [3, 1, 4, 1, 5], ys: [], rounds: 0}
  player: {quota: 2}
defs:
  luck(n): "pick(xs) + n"
actions:
  grow:
    params: {x: distinct(xs)}
    when: len(ys) >= me.quota or x not in ys
    effect: [add x to ys, rounds += 1]
  gamble:
    params: {x: distinct(xs)}
    when: luck(0) > 3 or x == 1
    effect: [rounds += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 6
    do: [{choose: [grow, gamble]}]
"""


def test_a_comparison_that_mentions_no_loop_name_is_worked_out_once_unless_it_may_draw(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, HOIST_COMPARE_RULES, players=2)
    grow = game.definition.actions["grow"].listing.source
    gamble = game.definition.actions["gamble"].listing.source
    # len(ys) >= me.quota is the same for every x: kept in a temporary at its first use
    assert re.search(
        r"\(_h\d+ := \([^\n]*_b_len\(s, s\.gv\['ys'\]\)\)\) >= s\.pv\[v_me\]\['quota'\]\)\)", grow
    )
    # luck(0) draws at random: each x draws again, as the closures do
    assert "'luck'" in gamble and not re.search(r"_h\d+ := [^\n]*'luck'", gamble)
    state = game.new_game(seed=1)
    state.apply("grow(x=3)")  # one grown, fewer than the quota: only what is not grown
    assert [str(a) for a in state.legal_actions() if a.name == "grow"] == [f"grow(x={x})" for x in (1, 4, 5)]
    state.apply("grow(x=1)")  # two grown, the quota reached: anything again
    assert [str(a) for a in state.legal_actions() if a.name == "grow"] == [
        f"grow(x={x})" for x in (3, 1, 4, 5)
    ]
    plays_as_the_closures(tmp_path, monkeypatch, HOIST_COMPARE_RULES, game, range(1, 9))


HOIST_DEF_RULES = """
game: {name: Tiny, players: {min: 2, max: 2}}
vars:
  game: {xs: [3, 1, 4, 1, 5], ys: [], lucky: [], waits: 0}
defs:
  ceiling(n): "max([x for x in xs if x > 0]) - n"
  luck(n): "pick(xs) + n"
actions:
  grow:
    params: {x: distinct(xs)}
    when: x not in ys and x <= ceiling(len(ys))
    effect: [add x to ys]
  gamble:
    params: {x: distinct(xs)}
    when: "x not in lucky and x <= luck(0) and len(lucky) < 2"
    effect: [add x to lucky]
  wait:
    effect: [waits += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(ys) >= 3 or waits >= 3
    do: [{choose: [grow, gamble, wait]}]
"""


def test_a_def_call_that_mentions_no_loop_name_is_worked_out_once_unless_it_may_draw(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, HOIST_DEF_RULES, players=2)
    grow = game.definition.actions["grow"].fast.source
    gamble = game.definition.actions["gamble"].fast.source
    # ceiling(len(ys)) gives the same value for every x: kept in a temporary at its first use
    assert re.search(r"\(_h\d+ := \(_D\['ceiling'\]", grow)
    # luck(0) draws at random: each x draws again, as the closures do
    assert "'luck'" in gamble and not re.search(r"_h\d+ := \(_D\['luck'\]", gamble)
    state = game.new_game(seed=1)
    grown = [str(a) for a in state.legal_actions() if a.name == "grow"]
    assert grown == [f"grow(x={x})" for x in (3, 1, 4, 5)]
    state.apply("grow(x=5)")  # the ceiling is now 5 - 1
    grown = [str(a) for a in state.legal_actions() if a.name == "grow"]
    assert grown == [f"grow(x={x})" for x in (3, 1, 4)]
    plays_as_the_closures(tmp_path, monkeypatch, HOIST_DEF_RULES, game, range(1, 9))


HARVEST_RULES = """
game: {name: Harvest, players: {min: 2, max: 2}}
components: {resources: [grain]}
board:
  grid: {width: 6, height: 1}
  layout:
    - set: number
      on: cells
      shuffle: [1, 2, 2, 3, 3, 3]
vars:
  game: {rolled: 0, rounds: 0}
actions:
  harvest:
    effect:
      - roll 1d3 as r
      - set rolled = r
      - rounds += 1
      - for: c in cells
        if: c.number == r and c.x >= 0
        do: [gain (c.x + 1) grain]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 8
    do: [{choose: [harvest]}]
"""


def test_an_effects_loop_over_sites_asking_a_field_no_statement_sets_visits_only_the_sites_that_match(
    tmp_path, monkeypatch
):
    game = load_tiny(tmp_path, HARVEST_RULES, players=2)
    effect = game.definition.actions["harvest"].effect.source
    assert "for _i" in effect and "in _site_bucket(s, _k" in effect and "'number', b['r'])" in effect
    for seed in range(4):  # each game its own layout: each state indexes its own sites
        state = game.new_game(seed=seed)
        worth = {c: f["x"] + 1 for c, f in state.sites.items()}
        numbers = {c: f["number"] for c, f in state.sites.items()}
        while not state.is_over:
            me = state.stack[-1]["p"]
            before = state.pv[me]["grain"]
            state.apply("harvest")
            rolled = state.gv["rolled"]
            # a cell at x is worth x + 1 grain: the sum over the cells with the number rolled
            assert state.pv[me]["grain"] - before == sum(worth[c] for c, v in numbers.items() if v == rolled)
    plays_as_the_closures(tmp_path, monkeypatch, HARVEST_RULES, game, range(3))


def test_an_effects_loop_over_sites_asking_a_field_a_statement_sets_visits_every_site(tmp_path, monkeypatch):
    # Each cell numbered 1 passes the number on to the cell east of it, which the same loop then visits.
    rules = HARVEST_RULES.replace(
        "do: [gain (c.x + 1) grain]",
        "do:\n          - gain 1 grain\n          - for: d in neighbours(c)\n            if: d.x > c.x\n"
        "            do: [set d.number = r]",
    )
    game = load_tiny(tmp_path, rules, players=2)
    assert "number" in game.definition.fields_set
    state = game.new_game(seed=1)
    numbers = [state.sites[c]["number"] for c in sorted(state.sites)]
    state.apply("harvest")
    rolled = state.gv["rolled"]
    first = numbers.index(rolled) if rolled in numbers else len(numbers)
    # from the first cell with the number rolled to the east end: every cell
    assert state.pv[0]["grain"] == len(numbers) - first
    assert [state.sites[c]["number"] for c in sorted(state.sites)][first:] == [rolled] * (
        len(numbers) - first
    )
    plays_as_the_closures(tmp_path, monkeypatch, rules, game, range(3))


def test_an_effects_loop_over_sites_asks_each_site_when_the_value_may_change_under_the_loop(tmp_path):
    # A game variable might be set by the loop's body (or a card's effect it performs); a name the body
    # binds again changes from one site to the next: either is asked of every site, the site's own test.
    by_variable = HARVEST_RULES.replace("if: c.number == r and c.x >= 0", "if: c.number == rolled")
    rebinding = HARVEST_RULES.replace("do: [gain (c.x + 1) grain]", "do: [gain (c.x + 1) grain, let r = 3]")
    for rules in (by_variable, rebinding):
        game = load_tiny(tmp_path, rules, players=2)
        assert "_site_bucket" not in game.definition.actions["harvest"].effect.source
    state = game.new_game(seed=2)
    numbers = [state.sites[c]["number"] for c in sorted(state.sites)]
    worth = [state.sites[c]["x"] + 1 for c in sorted(state.sites)]
    state.apply("harvest")
    rolled = state.gv["rolled"]
    first = numbers.index(rolled)  # every number from 1 to 3 is on some cell
    # the cells numbered as rolled up to the first one, then those numbered 3
    expected = worth[first] + sum(w for i, (w, v) in enumerate(zip(worth, numbers)) if i > first and v == 3)
    assert state.pv[0]["grain"] == expected


SUPPLY_RULES = """
game: {name: Supplies, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 3}}
board: {grid: {width: 3, height: 2}}
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    when: supply(me, 'stone') > 1
    effect: [place stone at cell for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces()) >= 4
    do: [{choose: [put], until: done}]
"""


def test_a_players_supply_is_read_in_place(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, SUPPLY_RULES, players=2)
    assert "s.supply[v_me].get('stone', 0) > 1" in game.definition.actions["put"].fast.source
    state = game.new_game(seed=1)
    state.apply(state.legal_actions()[0]).apply(state.legal_actions()[0])
    assert [a.name for a in state.legal_actions()] == ["done"]  # a third would leave one in the supply
    assert state.supply[0]["stone"] == 1 and state.supply[1]["stone"] == 3
    plays_as_the_closures(tmp_path, monkeypatch, SUPPLY_RULES, game, range(2))


GIFT_RULES = """
game: {name: Gifts, players: {min: 3, max: 3}}
components: {resources: [coin]}
vars:
  player: {given: 0}
actions:
  gift:
    params: {friend: "[p for p in players if p != me and p.coin < 2]"}
    effect: [gain 1 coin to friend, me.given += 1]
  rest:
    effect: [me.given += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: "sum(p.given for p in players) >= 9"
    do: [{choose: [gift, rest]}]
"""


def test_a_domain_that_sifts_a_list_is_looped_over_in_place(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, GIFT_RULES, players=3)
    gift = game.definition.actions["gift"]
    # Over the players themselves, each tried by the comprehension's test: no list is made first. The
    # enumerator that may be handed a bound friend takes it as it is, as it would from the list.
    assert "for v_p in s.players:" in gift.listing.source
    assert "if not ((((v_p != v_me) and (s.pv[v_p]['coin'] < 2)))): continue" in gift.listing.source
    assert "v_friend = v_p" in gift.listing.source
    assert "if 'friend' not in bound and not (" in gift.fast.source
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["gift(friend=p2)", "gift(friend=p3)", "rest"]
    state.apply("gift(friend=p2)").apply("gift(friend=p1)").apply("gift(friend=p2)")
    assert state.pv[1]["coin"] == 2  # p2 holds two coins: no more gifts for p2
    assert [str(a) for a in state.legal_actions()] == ["gift(friend=p3)", "rest"]
    # The parameter's own name as the comprehension's: no copy.
    rules = GIFT_RULES.replace(
        "[p for p in players if p != me", "[friend for friend in players if friend != me"
    )
    rules = rules.replace("and p.coin < 2", "and friend.coin < 2")
    own = load_tiny(tmp_path, rules, players=3).definition.actions["gift"].listing.source
    assert "for v_friend in s.players:" in own and "v_friend = " not in own
    plays_as_the_closures(tmp_path, monkeypatch, GIFT_RULES, game, range(4))


def test_an_error_in_the_test_of_a_sifted_domain_is_located_at_the_domain(tmp_path):
    rules = GIFT_RULES.replace("p.coin < 2", "[1, 2][p.coin] < 2")  # reads past the list at three coins
    game = load_tiny(tmp_path, rules, players=3)
    assert "for v_p in s.players:" in game.definition.actions["gift"].listing.source
    state = game.new_game(seed=1)
    state.pv[1]["coin"] = 2
    state.forget()
    with pytest.raises(RuleRuntimeError, match="IndexError") as caught:
        state.legal_actions()
    assert caught.value.rule == "actions.gift.params.friend"


SUM_RULES = """
game: {name: Sums, players: {min: 2, max: 2}}
components: {resources: [coin]}
vars:
  game: {row: [1, 2, 3], rounds: 0}
actions:
  count_up:
    when: "sum(x for x in row if x > 1) == 5 and sum(x * 0 for x in row if x > 9) == 0"
    effect: ["gain sum(1 coin for x in row) to me", rounds += 1]
  grow:
    effect: ["set row = row + [1]", rounds += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: rounds >= 4
    do: [{choose: [count_up, grow]}]
"""


def test_a_sum_of_a_generator_adds_up_a_list_made_by_a_comprehension(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, SUM_RULES, players=2)
    source = game.definition.actions["count_up"].fast.source
    assert "_b_sum(s, [v_x for v_x in " in source and "_b_sum(s, (" not in source
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["count_up", "grow"]  # 2 + 3, and nothing: 0
    state.apply("count_up")  # three coins: a sum of bundles
    assert state.pv[0]["coin"] == 3
    state.apply("grow")  # p2 adds a 1: the sum over 1 stays 5, a coin more for each item
    state.apply("count_up")
    assert state.pv[0]["coin"] == 7
    plays_as_the_closures(tmp_path, monkeypatch, SUM_RULES, game, range(3))


def test_a_builtins_arguments_given_by_name_are_passed_by_position_with_defaults_between_written_out():
    def takes(s, kind=None, owner=..., *, only=1):  # type: ignore[no-untyped-def]
        return kind, owner, only

    assert codegen._by_position(takes, ["'stone'"], {"owner": "v_p"}) == ["'stone'", "v_p"]
    between = codegen._by_position(takes, [], {"owner": "3"})
    assert between == ["None", "3"]  # the default between written out
    assert eval(f"takes(0, {', '.join(between)})") == (None, 3, 1)
    assert codegen._by_position(takes, [], {"kind": "'a'"}) == ["'a'"]
    assert codegen._by_position(takes, [], {"only": "2"}) is None  # taken by name only: left as it is
    # Verdon's climb lists the decider's projects by a call with no names
    climb = meeple.load("climbers_of_verdon", players=2).definition.actions["climb"]
    assert "_b_pieces(s, 'project', v_me)" in climb.fast.source and "owner=" not in climb.fast.source


TABLE_COST_RULES = """
game: {name: Prices, players: {min: 2, max: 2}}
components:
  resources: [coin, gem]
  pieces: {hut: {supply: 9}}
board: {grid: {width: 3, height: 1}}
tables:
  price: {a1: 3 coin, b1: 2 coin + 1 gem, c1: 4 coin}
setup:
  - for: p in players
    do: ["gain 1 coin to p"]
actions:
  earn: {effect: [gain 1 coin]}
  find: {effect: [gain 1 gem]}
  build:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    cost: price[cell]
    effect: ["place hut at cell for me"]
  gift:
    effect: ["grant build free"]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: "count(pieces('hut')) >= 3"
    do: [{choose: [earn, find, build, gift]}]
"""


def test_a_cost_read_from_a_table_is_tested_first_against_every_cost_the_table_names(tmp_path, monkeypatch):
    # No binding can be legal if the player holds none of the table's costs: the loops are skipped. A
    # free grant pays nothing, so it still lists every cell.
    game = load_tiny(tmp_path, TABLE_COST_RULES, players=2)
    build = game.definition.actions["build"]
    guard = ".get('coin', 0) >= 3) or ("  # each cost's counts read in place, the next cost if one fails
    assert guard in build.listing.source and "not free and not ((_p" in build.fast.source
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["earn", "find", "gift"]  # 1 coin: nothing to build
    for _ in range(4):  # a coin more for each player, turn by turn
        state.apply("earn")
    assert state.pv[0]["coin"] == 3  # the first player again: a1 only
    assert [str(a) for a in state.legal_actions() if a.name == "build"] == ["build(cell=a1)"]
    state.apply("gift")  # a free build: every cell
    assert [str(a) for a in state.legal_actions()] == ["build(cell=a1)", "build(cell=b1)", "build(cell=c1)"]
    plays_as_the_closures(tmp_path, monkeypatch, TABLE_COST_RULES, game, range(1, 9))


def test_a_table_of_many_costs_is_tested_by_a_call():
    gen = meeple.load("climbers_of_verdon", players=2).definition.actions["climb"]
    assert "_affords_any" not in gen.fast.source  # five costs of three resources: written out
    many = tuple(((f"r{i}", 1),) for i in range(9))

    class Consts:  # the one part of a SourceGen the test asks for
        def const(self, value: Any) -> str:
            assert value == many
            return "_k1"

    source = codegen._affords_test(Consts(), many)  # type: ignore[arg-type]
    assert source == "_affords_any(s.pv[me], _k1)"
    assert codegen._affords_test(Consts(), ((("coin", 2),), ())) == "True"  # type: ignore[arg-type]


def test_affords_any_asks_each_cost_whole():
    from meeple.compile.builtins import affords_any

    costs = ((("coin", 3),), (("coin", 2), ("gem", 1)))
    assert not affords_any({"coin": 2}, costs)
    assert affords_any({"coin": 2, "gem": 1}, costs) and affords_any({"coin": 3}, costs)
    assert not affords_any({"coin": 9}, ()) and affords_any({}, ((),))  # no cost at all; a free one


BARTER_RULES = """
game: {name: Swaps, players: {min: 2, max: 2}}
components:
  resources: [coin, gem, ore]
vars:
  game: {banned: none}
setup:
  - for: p in players
    do: ["gain 2 coin + 1 gem to p"]
actions:
  swap:
    params: {give: resources, get: resources}
    when: give != get
    cost: 2 give
    effect: [gain 1 get]
  barter:
    params: {give: resources, get: resources}
    when: give != get and get != banned
    cost: 1 give
    effect: [gain 1 get, set banned = give]
  earn: {effect: [gain 1 ore]}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: "sum(p.ore for p in players) >= 6"
    do: [{choose: [swap, barter, earn]}]
"""


def test_a_listings_last_loop_over_constants_with_constant_tests_is_listed_once_per_outer_values(
    tmp_path, monkeypatch
):
    # `swap`'s gets for a give are always the same actions: listed once, then handed out as a row. The
    # gets of `barter` depend on a variable of the game: looped over at every listing.
    game = load_tiny(tmp_path, BARTER_RULES, players=2)
    swap, barter = (game.definition.actions[a].listing.source for a in ("swap", "barter"))
    assert "_row = _rows.get(v_give)" in swap and "out.extend(_row)" in swap
    assert "_rows.get" not in barter
    state = game.new_game(seed=1)
    listed = [str(a) for a in state.legal_actions() if a.name == "swap"]
    assert listed == ["swap(give=coin, get=gem)", "swap(give=coin, get=ore)"]
    assert [str(a) for a in state.legal_actions() if a.name == "swap"] == listed  # from the row, again
    plays_as_the_closures(tmp_path, monkeypatch, BARTER_RULES, game, range(1, 9))


POSTS_RULES = """
game: {name: Posts, players: {min: 2, max: 2}}
components:
  pieces: {post: {supply: 30}}
board: {hex: {radius: 1}}
vars:
  game: {placed: 0}
actions:
  put:  # a post on a free corner, facing one of the paths there
    params: {corner: corners, path: sides_of(corner)}
    when: len(pieces_at(corner)) == 0
    effect: [place post at corner for me, placed += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: placed >= 6
    do: [{choose: [put]}]
"""


def test_a_last_loop_over_a_boards_entry_for_an_outer_value_is_listed_once_per_value(tmp_path, monkeypatch):
    # The paths at a corner are the board's: the same actions for a corner each time it is free.
    game = load_tiny(tmp_path, POSTS_RULES, players=2)
    put = game.definition.actions["put"].listing.source
    assert "_row = _rows.get(v_corner)" in put and "out.extend(_row)" in put
    state = game.new_game(seed=1)
    first = state.legal_actions()
    state.apply(first[0])
    again = state.legal_actions()
    corner = first[0]["corner"]
    assert all(a["corner"] != corner for a in again)  # that corner is taken
    assert [a for a in first if a["corner"] != corner] == again  # the others' rows, handed out again
    assert all(a is b for a, b in zip([a for a in first if a["corner"] != corner], again))
    plays_as_the_closures(tmp_path, monkeypatch, POSTS_RULES, game, range(1, 5))


def test_a_pure_test_reads_loop_names_and_constants_only():
    for pure in ("(v_give != v_get)", "(v_a in _k3 and not (v_b == 'x'))", "(v_n >= 2)"):
        assert codegen._PURE_TEST.fullmatch(pure)
    for read in ("(v_give != s.gv['x'])", "(v_me != v_p)", "(_b_len(s, v_a) > 1)", "(v_a != _kept)"):
        assert not codegen._PURE_TEST.fullmatch(read)
