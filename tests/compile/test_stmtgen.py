"""Effect blocks written out as one generated function (compile/stmtgen.py): the same game as the closures,
the same stops once the game is over, and a failing rule reported at the same place."""

from __future__ import annotations

import random
import re

import pytest
from test_codegen import load_tiny, plays_as_the_closures

import meeple
from meeple.compile.statements import Block
from meeple.compile.stmtgen import _loop_names_local
from meeple.errors import RuleRuntimeError
from meeple.tools.simulate import instrumented

RULES = """
game: {name: Written out, players: {min: 2, max: 2}}
components:
  resources: [coin]
  pieces: {stone: {supply: 6}}
board: {grid: {width: 3, height: 2}}
vars:
  game: {placed: 0, last: none, rows: [[1, 2], [3, 4]]}
  player: {marks: []}
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect:
      - let here = cell
      - place stone at here for me
      - set placed = placed + 1
      - set last = here
      - add here to me.marks
      - gain 1 coin
      - if: placed % 2 == 0
        then: [gain 1 coin]
        else:
          - for: p in players
            if: p != me
            do: ["gain 2 coin to p"]
      - if: len(me.marks) == 3
        then: [win me]
  clear:
    params: {cell: "[c for c in cells if len(pieces_at(c)) > 0]"}
    when: me.coin >= 4
    effect:
      - for: x in pieces_at(cell)
        do: ["remove x"]
      - pay 4 coin
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: placed >= 12
    do: [{choose: [put, clear]}]
"""


def test_an_effect_is_one_generated_function_that_plays_as_the_closures(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, RULES, players=2)
    put = game.definition.actions["put"].effect
    source = put.source
    # Every statement in place: a let, a placement, sets, an add, gains, an if, a for with a condition.
    for line in (
        "b['here'] = b['cell']",
        "s.place('stone', b['here'], b['me'], {})",
        "s.set_var('gv', 'placed'",
    ):
        assert line in source
    assert "for _i" in source and "s.declare_winners(" in source
    assert "(s, b)" not in source.split("\n", 1)[1]  # no statement left to its closure
    plays_as_the_closures(tmp_path, monkeypatch, RULES, game, range(1, 9))
    slow = load_tiny(tmp_path, RULES, players=2)  # MEEPLE_CODEGEN is still 0
    assert isinstance(slow.definition.actions["put"].effect, Block)


def test_the_rules_counted_for_coverage_stay_closures(tmp_path):
    game = load_tiny(tmp_path, RULES, players=2)
    counted = instrumented(game).game
    assert isinstance(counted.definition.actions["put"].effect, Block)
    assert not isinstance(game.definition.actions["put"].effect, Block)


ENDS = """
game: {name: Ends, players: {min: 2, max: 2}}
vars:
  game: {passes: 0, after: 0, checked: 0}
actions:
  go:
    effect:
      - for: i in 1..4
        if: "i > 0 and pick([1]) == 1"
        do:
          - set passes = passes + 1
          - if: passes == 2
            then: [win me]
          - set checked = checked + 1
      - set after = 1
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [go]}]
"""


@pytest.mark.parametrize("codegen", ["1", "0"])
def test_a_win_stops_the_block_and_the_loop_goes_on_through_its_conditions_only(
    tmp_path, monkeypatch, codegen
):
    monkeypatch.setenv("MEEPLE_CODEGEN", codegen)
    game = load_tiny(tmp_path, ENDS, players=2)
    assert isinstance(game.definition.actions["go"].effect, Block) == (codegen == "0")
    state = game.new_game(seed=3)
    state.apply("go")
    assert state.is_over and state.winners == [state.players[0]]
    assert state.gv["passes"] == 2 and state.gv["checked"] == 1 and state.gv["after"] == 0
    # The two passes after the win still drew for their condition, as the closures do.
    expected = random.Random(3)
    for _ in range(4):
        expected.choice([1])
    assert state.rng.getstate() == expected.getstate()


FAILS = """
game: {name: Fails, players: {min: 2, max: 2}}
board: {grid: {width: 2, height: 1}}
components:
  pieces: {stone: {supply: 4}}
vars:
  game: {rows: [1, 2]}
actions:
  bad_index:
    effect:
      - let first = rows[0]
      - let third = rows[2]
  bad_site:
    effect: ["place stone at 'z9' for me"]
  bad_lead:
    effect: [give lead to me]     # no round-robin phase runs
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [bad_index, bad_site, bad_lead]}]
"""


def failure_reports(tmp_path, monkeypatch, rules: str, action: str) -> list[tuple[str, int, int]]:
    """The error, line and column `action` fails with in a new game, with generated source and without."""
    reports = []
    for codegen in ("1", "0"):
        monkeypatch.setenv("MEEPLE_CODEGEN", codegen)
        state = load_tiny(tmp_path, rules, players=2).new_game(seed=1)
        with pytest.raises(RuleRuntimeError) as info:
            state.apply(action)
        err = info.value
        assert err.span is not None
        reports.append((str(err), err.span.line, err.span.col))
    return reports


@pytest.mark.parametrize(
    ("action", "at"), [("bad_index", "rows[2]"), ("bad_site", "'z9'"), ("bad_lead", "give lead")]
)
def test_a_failing_rule_is_reported_where_the_closures_report_it(tmp_path, monkeypatch, action, at):
    reports = failure_reports(tmp_path, monkeypatch, FAILS, action)
    assert reports[0] == reports[1]
    line = reports[0][1]
    assert at in FAILS.splitlines()[line - 1]


def test_the_seed_games_effects_are_written_out():
    for name in ("climbers_of_verdon", "k2", "pluvionauts", "caravan_conquest", "tabletop_climber"):
        game = meeple.load(name)
        effects = [a.effect for a in game.definition.actions.values()]
        written = [e for e in effects if not isinstance(e, Block)]
        assert len(written) >= len(effects) - 1, name  # an empty effect stays a Block


def test_grants_performs_replacements_leads_and_resets_are_written_out_in_place():
    verdon = meeple.load("climbers_of_verdon").definition.actions
    assert (
        "s.grant('accept_trade', (('partner', b['me']), ('give', b['give']), ('get', b['get']), ), 1, "
        in (verdon["offer_trade"].effect.source)
    )
    assert "s.perform(" in verdon["play_card"].effect.source
    assert "s.replace(b['project'], 'route', None)" in verdon["climb"].effect.source
    climber = meeple.load("tabletop_climber").definition
    assert "s.perform(" in climber.actions["play"].effect.source  # a routine: the field reset
    reset = climber.sym.routines["reset_field"]
    assert "s.reset_scope('trick')" in reset.source and "s.give_lead(" in reset.source
    for effect in (verdon["offer_trade"].effect, verdon["play_card"].effect, reset):
        left = [line for line in effect.source.split("\n")[1:] if "(s, b)" in line]
        assert all(line.strip().startswith("if s.log is not None:") for line in left)  # log lines alone


SEARCHES = """
game: {name: Searches, players: {min: 2, max: 2}}
board: {grid: {width: 3, height: 3}}
components:
  pieces: {stone: {supply: 9}}
tables:
  rows: [[a1, b1, c1], [a2, b2, c2], [a3, b3, c3]]
vars:
  game: {found: 0, none_row: 0, every: 0, bad: 0}
defs:
  mine(c, p): first(pieces_at(c)).owner == p
  full(r, p): "all(mine(c, p) for c in r)"
  any_full(p): "any(full(r, p) for r in rows)"
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect:
      - place stone at cell for me
      - if: any(full(r, me) for r in rows if cell in r)
        then: ["set found = found + 1"]
      - if: "all(len(pieces_at(c)) > 0 for c in [])"
        then: ["set every = every + 1"]
      - if: "any(c == cell for c in [])"
        then: ["set none_row = none_row + 1"]
      - if: any_full(me)
        then: [win me]
  break:
    effect:
      - if: "any(rows[9] == c for c in cells)"
        then: ["set bad = 1"]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces('stone')) == 9
    do: [{choose: [put]}]
"""


def test_an_if_that_searches_is_worked_out_as_loops_and_plays_as_the_closures(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, SEARCHES, players=2)
    source = game.definition.actions["put"].effect.source
    # any(full(r, me) …): a loop over the rows (keeping those holding the cell) around a loop over the
    # cells of full's body, each stopping at the item that decides; the memo case keeps the expression.
    assert "for v_r in _k" in source and "for v_c in (v_r if type(v_r) in _SEQ else _units(v_r)):" in source
    assert "break" in source
    assert "if s._memo is None:" in source
    assert "_D['any_full'](s" not in source  # a def of a def with a comprehension is written out as well
    state = game.new_game(seed=1)
    for cell in ("a1", "a2", "b1", "b2"):
        state.apply(f"put(cell={cell})")
    assert not state.is_over and state.gv["found"] == 0
    state.apply("put(cell=c1)")  # p1 fills the top row
    assert state.is_over and state.winners == [state.players[0]] and state.gv["found"] == 1
    assert (state.gv["every"], state.gv["none_row"]) == (5, 0)  # all of nothing holds, any of nothing not
    plays_as_the_closures(tmp_path, monkeypatch, SEARCHES, game, range(1, 13))


def test_a_search_in_an_if_that_fails_is_reported_at_its_test(tmp_path, monkeypatch):
    rules = SEARCHES.replace("do: [{choose: [put]}]", "do: [{choose: [break]}]")
    reports = failure_reports(tmp_path, monkeypatch, rules, "break")
    assert reports[0] == reports[1]
    assert "rows[9]" in rules.splitlines()[reports[0][1] - 1]


CARDS = """
game: {name: Cards, players: {min: 2, max: 2}}
components:
  cards:
    a: {family: common, count: 3}
    b: {family: common, count: 3}
    c: {family: common, count: 3}
  zones:
    deck: {visibility: hidden, fill: common}
    hand: {per: player, visibility: owner}
    table: {per: player, visibility: all}
setup:
  - for: p in players
    do: [draw 2 from deck to p.hand]
actions:
  play:
    params: {card: distinct(me.hand)}
    effect:
      - move card card from me.hand to me.table
      - draw 1 from deck to me.hand as got
      - if: size(got) == 0
        then: [end game]
  fold:
    when: size(me.table) >= 2
    effect: [move cards me.table from me.table to me.hand]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [play, fold]}]
"""


def test_moved_and_drawn_cards_are_written_out_with_each_players_zone_key_made_once(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, CARDS, players=2)
    play, fold = (game.definition.actions[a].effect.source for a in ("play", "fold"))
    assert "s.move_cards(b['card'], _t0, _t1)" in play and "_t0 = _k" in play and "[b['me']]" in play
    assert "b['got'] = tuple(s.draw(1, 'deck', " in play
    assert "s.move_cards(" in fold and "(s, b)" not in fold.split("\n", 1)[1]
    state = game.new_game(seed=3)
    card = state.legal_actions()[0]
    state.apply(card)
    assert state.zones["table#0"] == {card.params[0][1]: 1} and sum(state.zones["hand#0"].values()) == 2
    plays_as_the_closures(tmp_path, monkeypatch, CARDS, game, range(1, 7))


def test_a_card_that_is_not_in_the_zone_is_a_rule_error_at_the_move(tmp_path):
    rules = CARDS.replace("move card card from me.hand", "move card 'c' from me.hand")
    state = load_tiny(tmp_path, rules, players=2).new_game(seed=1)
    with pytest.raises(RuleRuntimeError, match="no c in hand#") as caught:
        for _ in range(50):  # until a player plays with no c in hand
            state.apply(state.legal_actions()[0])
    assert caught.value.rule is not None and caught.value.rule.startswith("actions.play.effect")


def test_a_log_line_is_skipped_in_place_in_a_game_not_logged_and_told_in_one_that_is(tmp_path):
    drawn = "      - draw 1 from deck to me.hand as got\n"
    rules = CARDS.replace(drawn, drawn + "      - log '{me} draws {size(got)}'\n      - log 'a card'\n")
    game = load_tiny(tmp_path, rules, players=2)
    source = game.definition.actions["play"].effect.source
    assert source.count("if s.log is not None: _k") == 2
    quiet = game.new_game(seed=2)
    quiet.apply(quiet.legal_actions()[0])
    assert quiet.log is None
    told = game.new_game(seed=2)
    told.log = []
    told.apply(told.legal_actions()[0])
    assert "  p1 draws 1" in told.log and "  a card" in told.log


CHANGES = """
game: {name: Changes, players: {min: 2, max: 2}}
board: {grid: {width: 3, height: 2}}
components:
  pieces: {stone: {supply: 6}}
vars:
  game: {placed: 0}
  player: {score: 0, marks: []}
  turn: {seen: []}
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect:
      - place stone at cell for me
      - placed += 1
      - me.score += placed * 2
      - me.marks += [cell, cell]
      - turn.seen += [cell]
      - if: placed % 3 == 0
        then:
          - me.marks -= [m for m in me.marks if m != cell]
          - me.score -= 1
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: placed >= 6
    do: [{choose: [put]}]
"""


def test_a_changed_value_is_written_out_for_numbers_and_lists(tmp_path, monkeypatch):
    """`+=` and `-=` add to a number and take from it, extend a list and take items out of it."""
    game = load_tiny(tmp_path, CHANGES, players=2)
    source = game.definition.actions["put"].effect.source
    assert "_added(" in source and "_taken(" in source
    assert "(s, b)" not in source.split("\n", 1)[1]  # no statement left to its closure
    s = game.new_game(seed=1)
    for cell in ("a1", "b1", "c1"):
        s.apply(f"put(cell={cell})")
    assert s.gv["placed"] == 3
    assert [s.pv[p]["score"] for p in range(2)] == [2 + 6 - 1, 4]
    assert s.pv[0]["marks"] == ("c1", "c1") and s.pv[1]["marks"] == ("b1", "b1")
    plays_as_the_closures(tmp_path, monkeypatch, CHANGES, game, range(1, 6))


FILL_RULES = """
game: {name: Fill, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 6}}
board: {grid: {width: 3, height: 1}}
vars:
  player: {marks: []}
actions:
  fill:
    effect:
      - for: c in [x for x in cells if len(pieces_at(x)) == 0]
        do: ["place stone at c for me", "add c to me.marks"]
      - for: m in me.marks
        do: ["add m to me.marks"]
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [fill]}]
"""


def test_a_loop_over_a_list_made_in_place_takes_it_as_it_is_and_one_over_a_variable_copies_it(tmp_path):
    # The comprehension is worked out whole before the body runs (each place fills a cell it tested); a
    # list made there is no one else's, so it is looped over without a copy. A player's list the body
    # adds to is copied first: the loop sees it as it was.
    game = load_tiny(tmp_path, FILL_RULES, players=2)
    source = game.definition.actions["fill"].effect.source
    loops = [line.strip() for line in source.splitlines() if line.strip().startswith("for _i")]
    assert len(loops) == 2
    assert "list(_units(" not in loops[0] and "list(_units(" in loops[1]
    state = game.new_game(seed=1)
    state.apply("fill")
    marks = state.pv[0]["marks"]
    assert len(state.pieces) == 3 and list(marks[:3]) == ["a1", "b1", "c1"] and len(marks) == 6


def test_a_loop_name_is_the_loops_own_variable_where_nothing_else_can_read_it(tmp_path, monkeypatch):
    game = load_tiny(tmp_path, RULES, players=2)
    source = game.definition.actions["put"].effect.source
    # `for: p in players` reads its player as the loop's item; the let's name stays a binding.
    assert "b['p']" not in source and "b['here'] = b['cell']" in source
    assert re.search(r"s\.gain\(_i\d+, ", source)
    plays_as_the_closures(tmp_path, monkeypatch, RULES, game, range(1, 9))


def test_a_loop_name_stays_a_binding_where_the_bindings_may_be_read_otherwise():
    loop = ["    for _i0 in xs:", "        b['x'] = _i0", "        s.gain(b['x'], one)"]
    assert _loop_names_local(loop)[1:] == ["        pass", "        s.gain(_i0, one)"]
    handed = [*loop, "    _k1(s, b)"]  # a closure given the bindings may read any of them
    assert _loop_names_local(handed) == handed
    after = [*loop, "    s.gain(b['x'], one)"]  # read after the loop
    assert _loop_names_local(after) == after
    defaulted = [*loop, "        s.gain(b.get('x', 0), one)"]  # read with a default
    assert _loop_names_local(defaulted) == defaulted
    rebound = [*loop, "        b['x'] = 3"]  # bound again in the body
    assert _loop_names_local(rebound) == rebound
