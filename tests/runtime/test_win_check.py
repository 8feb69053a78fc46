"""The win condition is checked after every change, and skipped for a player while the parts of the state
it reads are as they were when it last failed for them (engine.settle, GameDef.win_reads)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tiny_rules import load_tiny

import meeple
from meeple.runtime import engine

RULES = """
game: {name: Race, players: {min: 2, max: 2}}
components:
  resources: [gold]
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 1}}
vars:
  game: {bell: 0}
  player: {steps: 0}
actions:
  walk:
    effect: [me.steps += 1]
  ring:
    effect: [bell += 1]
  mine:
    effect: [gain 1 gold]
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    effect: [place stone at cell for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [walk, ring, put, mine]}]
end:
  win: WIN
"""


def load(tmp_path: Path, win: str) -> meeple.Game:
    return load_tiny(tmp_path, RULES.replace("WIN", win), players=2)


def test_the_win_condition_knows_the_parts_it_reads(tmp_path):
    assert load(tmp_path, "p.steps >= 3").definition.win_reads == ("pv",)
    assert load(tmp_path, "bell >= 2 and len(pieces('stone')) >= 1").definition.win_reads == (
        "gv",
        "pieces.stone",  # the stones only: a change to pieces of another kind leaves the check skipped
    )
    # A player's own stones: the check of p reads the counter of p's stones only (`pieces.stone@0` for p1).
    own = load(tmp_path, "count(pieces('stone', owner=p)) >= 2").definition
    assert own.win_reads == ("pieces.stone@=p",)
    assert own.win_counters is not None and own.win_counters[1]({"pieces.stone@1": 7}) == 7
    assert load(tmp_path, "len(pieces_at('a1')) >= 1").definition.win_reads == ("pieces",)
    assert load(tmp_path, "score(p) >= 2").definition.win_reads == ()  # the score is 0: it reads nothing
    assert load(tmp_path, "p.steps >= 3 and chance(1, 2)").definition.win_reads is None  # drawn at random
    # What a player holds is a part of its own (`res`), apart from the players' other variables (`pv`).
    assert load(tmp_path, "p.gold >= 3").definition.win_reads == ("res",)
    assert load(tmp_path, "total(p.resources) >= 3 or p.steps > 5").definition.win_reads == ("pv", "res")


def test_a_win_is_found_at_the_change_that_makes_it_after_changes_that_did_not(tmp_path):
    state = load(tmp_path, "p.steps >= 2 and bell >= 2").new_game(seed=1)
    # p1 walks twice and puts a stone, p2 puts one, rings and walks: every check fails until p1 rings
    for move in ("walk", "put(cell=a1)", "walk", "ring", "put(cell=b1)", "walk"):
        state.apply(move)
        assert not state.is_over
    state.apply("ring")  # the bell's second ring, by p1: both parts now hold for p1
    assert state.is_over and state.winners == [0]


def test_a_part_the_win_does_not_read_changing_leaves_the_check_skipped(tmp_path):
    state = load(tmp_path, "p.steps >= 3").new_game(seed=1)
    state.apply("ring")  # p1's win is checked and fails with the players' variables as they are now
    state.pv[0]["steps"] = 5  # changed behind the engine's back: the change counters say nothing changed
    state.apply("ring")  # p2's turn: only p2's win is checked
    state.apply("put(cell=a1)")  # p1's turn, but only the pieces changed: p1's check is skipped
    assert not state.is_over
    state.apply("walk")  # p2 walks (1 step, no win): the players' variables changed
    state.apply("ring")  # so p1's check runs again, and finds p1's 5 steps
    assert state.is_over and state.winners == [0]


# A turn of several actions, until the player passes: settling again in one turn can find nothing changed.
MANY_A_TURN = RULES.replace("WIN", "p.steps >= 3").replace(
    "do: [{choose: [walk, ring, put, mine]}]", "do: [{choose: [walk, ring, put, mine], until: pass}]"
)


@pytest.mark.python_engine  # replaces a function of the engine or the built-ins
def test_settling_is_skipped_while_the_turns_player_and_what_the_win_reads_stay(tmp_path, monkeypatch):
    rules = MANY_A_TURN
    settled = []
    monkeypatch.setattr(engine, "_settle", lambda s, g, run=engine._settle: settled.append(1) or run(s, g))
    state = load_tiny(tmp_path, rules, players=2).new_game(seed=1)
    for move in ("ring", "ring", "mine", "put(cell=a1)"):  # p1's turn: nothing the win reads changes
        state.apply(move)
    assert len(settled) == 1
    state.pv[0]["steps"] = 5  # behind the engine's back: no counter moves, so no settling sees it
    state.apply("ring")
    assert len(settled) == 1 and not state.is_over
    state.apply("walk")  # a variable the win reads: settled, and p1's 6 steps found
    assert len(settled) == 2 and state.is_over and state.winners == [0]


@pytest.mark.python_engine  # replaces a function of the engine or the built-ins
def test_a_new_turn_with_nothing_changed_checks_the_win_alone(tmp_path, monkeypatch):
    rules = MANY_A_TURN
    settled, checked = [], []
    monkeypatch.setattr(engine, "_settle", lambda s, g, run=engine._settle: settled.append(1) or run(s, g))
    monkeypatch.setattr(
        engine, "check_win", lambda s, g, run=engine.check_win: checked.append(1) or run(s, g)
    )
    state = load_tiny(tmp_path, rules, players=2).new_game(seed=1)
    state.apply("ring")  # p1: settled (the awards, none here, then the win)
    state.apply("pass")
    assert (len(settled), len(checked)) == (1, 1)
    state.pv[1]["steps"] = 5  # behind the engine's back
    state.apply("ring")  # p2's turn: nothing read changed, so the win alone, for p2, who has 5 steps
    assert (len(settled), len(checked)) == (1, 2)
    assert state.is_over and state.winners == [1]


def test_the_next_players_win_is_checked_though_nothing_it_reads_changed(tmp_path):
    state = load(tmp_path, "p.steps >= 3").new_game(seed=1)
    state.apply("ring")  # p1's turn settles: p1's win fails; the bell is not read
    state.pv[1]["steps"] = 5  # behind the engine's back: no counter moves
    state.apply("ring")  # p2's turn: nothing the win reads changed, but the turn's player did
    assert state.is_over and state.winners == [1]


def test_a_resource_gained_leaves_a_check_of_the_variables_skipped_and_a_variable_does_not(tmp_path):
    state = load(tmp_path, "p.steps >= 3").new_game(seed=1)
    state.apply("ring")  # p1's win is checked and fails
    state.pv[0]["steps"] = 5  # behind the engine's back: no counter moves
    state.apply("mine")  # p2 gains gold: a resource, not a variable the win reads
    state.apply("mine")  # p1's turn: the players' variables did not change, so p1's check is skipped
    assert not state.is_over
    state.apply("walk")  # p2 walks: a variable changed
    state.apply("mine")  # so p1's check runs again, and finds p1's 5 steps
    assert state.is_over and state.winners == [0]


def test_a_resource_gained_counts_as_a_change_for_a_win_reading_resources(tmp_path):
    state = load(tmp_path, "p.gold >= 2").new_game(seed=1)
    for move in ("mine", "ring", "mine"):  # p1, p2, then p1 again with its second gold
        assert not state.is_over
        state.apply(move)
    assert state.is_over and state.winners == [0]


def test_verdon_plays_the_same_games_with_the_win_check_skipped_or_not():
    root = Path(__file__).resolve().parents[2]
    skipping = meeple.load(root / "games" / "climbers_of_verdon.yaml", players=3)
    always = meeple.load(root / "games" / "climbers_of_verdon.yaml", players=3)
    assert skipping.definition is not always.definition and skipping.definition.win_reads is not None
    always.definition.win_reads = always.definition.win_counters = None  # checked after every change
    checks = [0, 0]
    for i, game in enumerate((skipping, always)):
        win = game.definition.win

        def counted(s, b, win=win, i=i):
            checks[i] += 1
            return win(s, b)

        game.definition.win = counted
    for seed in range(3):
        games = []
        for game in (skipping, always):
            state, rng, moves = game.new_game(seed=seed), random.Random(seed), []
            while not state.is_over:
                moves.append(rng.choice(state.legal_actions()))
                state.apply(moves[-1])
            games.append((moves, state.winners, state.scores))
        assert games[0] == games[1]
    assert 0 < checks[0] < checks[1] * 0.8  # a fifth of the checks or more were skipped


def test_a_state_changed_behind_the_effects_and_forgotten_checks_the_win_again(tmp_path):
    state = load(tmp_path, "p.steps >= 3").new_game(seed=1)
    state.apply("ring")  # p1's win fails and is stamped
    state.pv[0]["steps"] = 5  # as a deal of hidden cards changes a state, then says so with forget()
    state.forget()
    state.apply("ring")  # p2
    state.apply("put(cell=a1)")  # p1's turn: the pieces alone changed, but nothing stamped is trusted now
    assert state.is_over and state.winners == [0]


def test_a_win_reading_a_players_own_pieces_is_checked_again_when_theirs_change(tmp_path):
    state = load(tmp_path, "count(pieces('stone', owner=p)) >= 2").new_game(seed=1)
    state.apply("put(cell=a1)")  # p1 has one stone: p1's win is checked and fails
    state.apply("put(cell=b1)")  # p2's stone
    theirs = next(pid for pid, rec in state.pieces.items() if rec["site"] == "b1")
    state.pieces[theirs] = {**state.pieces[theirs], "owner": 0}  # behind the engine's back: p1's now
    state._piece_lists.clear()  # the piece queries see it; no change counter (so no stamp) says so
    state.apply("ring")  # p1's turn: only the game variable changed, p1's stones did not: skipped
    assert not state.is_over
    state.apply("put(cell=c1)")  # p2 puts a stone of its own: p2's stones changed, not p1's
    state.apply("ring")  # p1's check is still skipped
    assert not state.is_over
    state.apply("walk")  # p2
    state.apply("mine")  # p1: still skipped (a resource)
    assert not state.is_over
    state.forget()  # as a deal behind the effects says so: nothing stamped is trusted
    state.apply("walk")  # p2
    state.apply("ring")  # p1's turn: checked, and p1 has two stones
    assert state.is_over and state.winners == [0]


CARD_RULES = """
game: {name: Hands, players: {min: 2, max: 2}}
components:
  cards:
    ace: {count: 6}
  zones:
    deck: {fill: cards}
    hand: {per: player}
vars:
  game: {bell: 0}
actions:
  draw:
    effect: [draw 1 from deck to me.hand]
  ring:
    effect: [bell += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [draw, ring]}]
end:
  win: size(p.hand) >= 2
"""


def test_a_win_reading_a_players_own_zones_reads_the_counter_of_that_players_zones(tmp_path):
    game = load_tiny(tmp_path, CARD_RULES, players=2)
    d = game.definition
    assert d.win_reads == ("zones@=p",)
    assert d.win_counters is not None and d.win_counters[1]({"zones@1": 7}) == 7
    assert d.zone_parts == {"hand#0": "zones@0", "hand#1": "zones@1"}  # the deck is no player's
    state = game.new_game(seed=1)
    state.apply("draw")  # p1 draws: the zones changed, p1's among them, not p2's
    assert (state.ver["zones"], state.ver["zones@0"], state.ver["zones@1"]) == (1, 1, 0)


def test_a_win_reading_a_players_own_zones_is_checked_again_when_theirs_change(tmp_path):
    state = load_tiny(tmp_path, CARD_RULES, players=2).new_game(seed=1)
    state.apply("draw")  # p1 holds one card: p1's win is checked and fails
    state.zones["hand#0"]["ace"] += 1  # behind the engine's back: p1 holds two, no counter says so
    state.apply("draw")  # p2 draws: the zones changed, p2's among them, not p1's
    state.apply("ring")  # p1's turn: p1's zones are as they were when the check failed: skipped
    assert not state.is_over
    state.apply("ring")  # p2
    state.apply("draw")  # p1 draws a third card: p1's zones changed, checked, and won
    assert state.is_over and state.winners == [0]


def test_a_game_whose_win_reads_no_players_zones_for_that_player_alone_counts_no_zones_of_a_player(tmp_path):
    # A def of a player's hand is kept by all the zones: no counter of each player's zones for it.
    rules = CARD_RULES.replace("win: size(p.hand) >= 2", "win: size(deck) <= 2").replace(
        "actions:\n",
        'defs:\n  held(p): "sum([1 for c in p.hand])"\nactions:\n  show: {when: held(me) > 0}\n',
        1,
    )
    game = load_tiny(tmp_path, rules.replace("[draw, ring]", "[draw, ring, show]"), players=2)
    assert (("zones",), ("held",)) in game.definition.kept_defs
    assert game.definition.zone_parts == {}
    state = game.new_game(seed=1)
    assert not [part for part in state.ver if part.startswith("zones@")]
    state.apply("draw")
    assert [str(a) for a in state.legal_actions()] == ["draw", "ring"]  # p2 holds nothing
    state.apply("draw")
    assert [str(a) for a in state.legal_actions()] == ["draw", "ring", "show"]
