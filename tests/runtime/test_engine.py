"""The scheduler on small inline rule files: turn orders, grants, stepwise choices, end turn."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tiny_rules import load_tiny

import meeple

BASE = """
game:
  name: Tiny
  players: {min: 2, max: 4}
components:
  resources: [coin, gem]
vars:
  turn: {moves: 0}
"""


def tiny(tmp_path: Path, body: str, players: int = 3) -> meeple.Game:
    return load_tiny(tmp_path, BASE + body, players)


def deciders(state: meeple.State, n: int) -> list[int]:
    seen = []
    for _ in range(n):
        seen.append(int(state.to_move))
        state.apply(state.legal_actions()[0])
    return seen


def test_snake_turns_go_out_and_back(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  take: {effect: [gain 1 coin]}
flow:
  - phase: setup
    turns: snake
    do: [{choose: [take]}]
""",
    )
    state = game.new_game(seed=1)
    assert deciders(state, 6) == [0, 1, 2, 2, 1, 0]
    assert state.is_over


def test_counterclockwise_turns_start_with_the_first_player_then_go_backwards(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  take: {effect: [gain 1 coin]}
flow:
  - phase: one_round
    turns: counterclockwise
    do: [{choose: [take]}]
""",
        players=4,
    )
    assert deciders(game.new_game(seed=1), 4) == [0, 3, 2, 1]


def test_a_choose_step_with_until_repeats_until_its_closing_action(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  take: {effect: [gain 1 coin]}
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [take], until: end_turn}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    for _ in range(3):
        state.apply("take")
    assert state.to_move == 0 and state.pv[0]["coin"] == 3
    state.apply("end_turn")
    assert state.to_move == 1


def test_a_cost_makes_an_action_illegal_until_it_can_be_paid(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  take: {effect: [gain 1 coin]}
  buy: {cost: 2 coin, effect: [gain 1 gem]}
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [take, buy], until: end_turn}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    assert "buy" not in [str(a) for a in state.legal_actions()]
    state.apply("take").apply("take")
    state.apply("buy")
    assert (state.pv[0]["coin"], state.pv[0]["gem"]) == (0, 1)


def test_a_cost_that_calls_a_def_is_worked_out_as_the_state_stands_when_paid(tmp_path: Path) -> None:
    """A cost calling a def is worked out from the def's kept results; once the payer's level has changed,
    the new price is paid, never the one kept from before."""
    game = load_tiny(
        tmp_path,
        """
game:
  name: Prices
  players: {min: 2, max: 2}
components:
  resources: [coin, gem]
vars:
  player: {level: 0}
defs:
  price(p): "p.level + 1"
actions:
  take: {effect: [gain 3 coin]}
  train: {effect: [me.level += 1]}
  buy: {cost: (price(me)) coin, effect: [gain 1 gem]}
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [take, train, buy], until: end_turn}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    assert game.definition.actions["buy"].cost_memo
    state.apply("take").apply("buy")
    assert (state.pv[0]["coin"], state.pv[0]["gem"]) == (2, 1)
    state.apply("train").apply("buy")  # the price was 1 at the first buy; training made it 2
    assert (state.pv[0]["coin"], state.pv[0]["gem"]) == (0, 2)


def test_an_illegal_action_names_what_was_legal(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  take: {effect: [gain 1 coin]}
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [take]}]
""",
    )
    with pytest.raises(meeple.IllegalActionError, match="legal now: take"):
        game.new_game(seed=1).apply("steal")


def test_a_granted_optional_action_can_be_skipped_and_is_free_when_granted_free(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  gift: {effect: [grant buy times 2 free optional]}
  buy: {cost: 5 coin, effect: [gain 1 gem]}
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [gift]}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    state.apply("gift")
    assert sorted(str(a) for a in state.legal_actions()) == ["buy", "skip"]
    state.apply("buy")
    assert state.pv[0]["gem"] == 1 and state.pv[0]["coin"] == 0
    state.apply("skip")
    assert state.to_move == 1


def test_a_grant_to_another_player_makes_that_player_decide(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  ask:
    params: {other: "[p for p in players if p != me]"}
    effect: [grant answer(asker=me) by other]
  answer:
    inputs: [asker]
    effect: [gain 1 gem to asker]
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [ask]}]
""",
    )
    state = game.new_game(seed=1)
    state.apply("ask(other=p3)")
    assert state.to_move == 2
    state.apply("answer(asker=p1)")
    assert state.pv[0]["gem"] == 1 and state.to_move == 1


def test_a_stepwise_action_is_decided_one_parameter_at_a_time(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  pick:
    stepwise: true
    params: {a: "[1, 2, 3]", b: "[1, 2, 3]"}
    when: a + b == 4
    effect: [gain (a * 10 + b) coin]
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [pick]}]
""",
    )
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["pick(…)"]
    (offer,) = state.legal_actions()
    state.apply("pick(…)")
    assert [str(a) for a in state.legal_actions()] == ["pick(a=1, …)", "pick(a=2, …)", "pick(a=3, …)"]
    firsts = state.legal_actions()
    state.apply("pick(a=3, …)")
    assert [str(a) for a in state.legal_actions()] == ["pick(a=3, b=1)"]
    state.apply("pick(a=3, b=1)")
    assert state.pv[0]["coin"] == 31
    # The next player is offered the same action, made once: nothing of it is decided yet.
    assert state.to_move == 1 and state.legal_actions() == [offer] and state.legal_actions()[0] is offer
    state.apply(offer)
    assert state.legal_actions() == firsts


def test_a_stepwise_value_equal_to_one_offered_before_is_offered_as_itself(tmp_path: Path) -> None:
    # The second seat and the number 1 are equal values; each is offered as what it is.
    game = tiny(
        tmp_path,
        """
actions:
  pick:
    stepwise: true
    params: {a: "[1, 2] if me.coin == 0 else [p for p in players if p.index == 1]", b: "[5, 6]"}
    effect: [gain 1 coin]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [pick]}]
""",
    )
    state = game.new_game(seed=1)
    state.apply("pick(…)")
    assert [str(a) for a in state.legal_actions()] == ["pick(a=1, …)", "pick(a=2, …)"]
    state.apply("pick(a=1, …)")
    state.apply("pick(a=1, b=5)")
    for _ in range(2):  # the others' turns: the first pick of each
        state.apply("pick(…)").apply("pick(a=1, …)").apply("pick(a=1, b=5)")
    state.apply("pick(…)")  # p1 again, holding a coin
    assert [str(a) for a in state.legal_actions()] == ["pick(a=p2, …)"]


def test_end_turn_in_an_effect_passes_the_turn_at_once(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  gamble: {effect: [turn.moves += 1, {if: turn.moves >= 2, then: [end turn]}]}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [gamble], until: stop}]
scoring:
  score: p.coin
end:
  win: turn.moves > 100
""",
    )
    state = game.new_game(seed=1)
    state.apply("gamble")
    assert state.to_move == 0
    state.apply("gamble")
    assert state.to_move == 1 and state.tv["moves"] == 0


def test_the_highest_score_wins_when_the_flow_runs_out(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  take:
    params: {n: "[1, 2]"}
    effect: [gain (n) coin]
flow:
  - phase: one_round
    turns: clockwise
    do: [{choose: [take]}]
scoring:
  score: p.coin
""",
        players=2,
    )
    state = game.new_game(seed=1)
    state.apply("take(n=1)").apply("take(n=2)")
    assert state.is_over and state.winners == [1] and state.scores == {0: 1, 1: 2}


def test_the_pig_tutorial_plays_to_its_goal() -> None:
    game = meeple.load(Path(__file__).parents[2] / "examples" / "tutorial" / "pig.yaml", players=3)
    state = game.new_game(seed=4)
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    (winner,) = state.winners
    assert state.scores[winner] >= game.options["goal"]


def test_a_granted_stepwise_action_keeps_its_bound_arguments_and_its_free_cost(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  gift: {effect: ["grant pick(base=5) free"]}
  pick:
    stepwise: true
    inputs: [base]
    params: {a: "[1, 2]", b: "[1, 2]"}
    cost: 9 coin
    effect: [gain (base + a + b) gem]
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [gift]}]
""",
    )
    state = game.new_game(seed=1)
    state.apply("gift")
    assert [str(a) for a in state.legal_actions()] == ["pick(base=5, …)"]
    state.apply("pick(base=5, …)")
    assert [str(a) for a in state.legal_actions()] == ["pick(base=5, a=1, …)", "pick(base=5, a=2, …)"]
    state.apply("pick(base=5, a=2, …)")
    state.apply("pick(base=5, a=2, b=1)")
    assert state.pv[0]["gem"] == 8 and state.pv[0]["coin"] == 0


LAST_STEP = """
actions:
  gift: {effect: ["grant pick(b=2)"]}
  pick:
    stepwise: true
    params: {a: "[3, 1, 2, 1]", b: "[1, 2]"}
    when: a != 2
    effect: [gain (a * 10 + b) gem]
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [gift]}]
"""


@pytest.mark.parametrize("codegen", ["1", "0"])
def test_the_last_value_of_a_stepwise_action_is_offered_in_its_domains_order_after_the_given_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, codegen: str
) -> None:
    # With generated source the last step is listed by one pass of the action's loops; with closures value
    # by value. Both offer each value once, in the domain's order, after the arguments the grant gave.
    monkeypatch.setenv("MEEPLE_CODEGEN", codegen)
    state = tiny(tmp_path, LAST_STEP).new_game(seed=1)
    state.apply("gift")
    assert [str(a) for a in state.legal_actions()] == ["pick(b=2, …)"]
    state.apply("pick(b=2, …)")
    offers = state.legal_actions()
    assert [str(a) for a in offers] == ["pick(b=2, a=3)", "pick(b=2, a=1)"]
    assert not any(a.partial for a in offers)
    state.apply("pick(b=2, a=1)")
    assert state.pv[0]["gem"] == 12


def test_a_step_lists_its_actions_then_the_word_that_ends_it_then_skip_if_optional(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = """
actions:
  take: {effect: [gain 1 coin, turn.moves += 1]}
  swap:
    when: me.coin > 0
    cost: 1 coin
    effect: [gain 1 gem, turn.moves += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: sum(p.gem for p in players) >= 2
    do:
      - {choose: [take, swap], until: end_turn, while: turn.moves < 2, optional: OPTIONAL}
"""
    plain = tiny(tmp_path, body.replace("OPTIONAL", "false"), players=2)
    listings, end = plain.definition.step_listings[0][0]
    assert listings is not None and len(listings) == 2 and str(end) == "end_turn"
    state = plain.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["take", "end_turn"]
    state.apply("take")
    assert [str(a) for a in state.legal_actions()] == ["take", "swap", "end_turn"]
    # Optional: the engine lists the word, then `skip`, as before the step's listings were kept.
    optional = tiny(tmp_path, body.replace("OPTIONAL", "true"), players=2)
    assert optional.definition.step_listings[0][0][1] is None
    state = optional.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["take", "end_turn", "skip"]
    state.apply("take")
    assert [str(a) for a in state.legal_actions()] == ["take", "swap", "end_turn", "skip"]
    # Without generated listings (the closures alone), the engine enumerates each action: the same offers.
    monkeypatch.setenv("MEEPLE_CODEGEN", "0")
    closures = tiny(tmp_path, body.replace("OPTIONAL", "false"), players=2)
    assert closures.definition.step_listings[0][0][0] is None
    state = closures.new_game(seed=1).apply("take")
    assert [str(a) for a in state.legal_actions()] == ["take", "swap", "end_turn"]


@pytest.mark.parametrize("game", ["climbers_of_verdon", "tabletop_climber", "caravan_conquest"])
def test_every_attribute_a_state_sets_while_played_and_cloned_is_one_of_its_slots(game: str) -> None:
    # An attribute left out of State.__slots__ would still work, kept in the instance's dict: slower to
    # read for every rule, and the dict of one not shared between states once it holds many.
    state = meeple.load(game, players=3).new_game(seed=4)
    rng = random.Random(4)
    for _ in range(200):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert vars(state) == {} and vars(copy) == {}
    assert state.players is copy.players and state.ver == state.clone().ver  # the slots copied
