"""state.why(action): the step that does not offer it, a value outside its domain, the first failing
condition broken down to its values, the cost the player lacks; bad input raises ActionTextError."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tiny_rules import load_tiny

import meeple
from meeple.runtime.why import ActionTextError, read_action

# Four cells in a row; a hut needs its cell and the cells beside it empty; huts on a1 and d1 cost more.
HUTS = """game:
  name: Huts
  players: {min: 2, max: 2}
components:
  resources: [wood, stone]
  pieces:
    hut: {supply: 3}
board:
  grid: {width: 4, height: 1}
defs:
  empty(c): len(pieces_at(c)) == 0
  lonely(c): "empty(c) and all(empty(n) for n in neighbours(c))"
setup:
  - for: p in players
    do: [gain 1 wood + 1 stone to p]
actions:
  gather:
    params: {res: resources}
    effect: [gain 1 res]
  build:
    params: {cell: cells}
    when: supply(me, 'hut') > 0 and lonely(cell)
    cost: 1 wood + (3 if cell in [a1, d1] else 1) stone
    effect: [place hut at cell]
flow:
  - phase: main
    turns: clockwise
    repeat: true
    do:
      - choose: [gather]
      - choose: [build]
        until: end_turn
scoring:
  score: count(pieces('hut', owner=p))
end:
  win: score(p) >= 2
"""
WHEN_LINE = HUTS.splitlines().index("    when: supply(me, 'hut') > 0 and lonely(cell)") + 1


@pytest.fixture
def huts(tmp_path: Path) -> meeple.Game:
    return load_tiny(tmp_path, HUTS, 2)


@pytest.fixture
def second_turn(huts: meeple.Game) -> meeple.State:
    """p1 built on b1; p2 has gathered a stone and holds 1 wood and 2 stone."""
    state = huts.new_game(seed=1)
    for action in ("gather(res=wood)", "build(cell=b1)", "end_turn", "gather(res=stone)"):
        state.apply(action)
    return state


def test_a_legal_action_is_said_to_be_legal(huts: meeple.Game) -> None:
    answer = huts.new_game(seed=1).apply("gather(res=wood)").why("build(cell=b1)")
    assert answer.legal and answer.kind == "legal"
    assert str(answer) == "build(cell=b1) is legal for p1 now"


def test_an_action_the_step_does_not_offer_names_the_step_and_what_it_offers(huts: meeple.Game) -> None:
    answer = huts.new_game(seed=1).why("build(cell=b1)")
    assert answer.kind == "not-offered" and not answer.legal
    assert answer.headline.endswith("is not offered to p1 now: phase 'main', step 1 offers gather")
    assert answer.because == ["build is offered in phase 'main', step 2"]


def test_a_value_outside_the_domain_lists_the_values_there_are(huts: meeple.Game) -> None:
    answer = huts.new_game(seed=1).apply("gather(res=wood)").why("build(cell=z9)")
    assert answer.kind == "outside-domain"
    assert "cell=z9 is not among the values of `cells`" in answer.headline
    assert answer.because == ["cell may be (4): a1, b1, c1, d1"]


def test_a_failing_condition_is_broken_down_through_defs_to_the_values(second_turn: meeple.State) -> None:
    answer = second_turn.why("build(cell=c1)")
    assert answer.kind == "condition" and answer.player == 1
    assert answer.headline.endswith("lonely(c1) is false")
    assert answer.because == [
        "all(empty(n) for n in neighbours(c1)) is false: for n = b1",
        "empty(b1) is false",
        "len(pieces_at(b1)) == 0 is false: len(pieces_at(b1)) is 1",
    ]
    assert answer.where is not None and answer.where.line == WHEN_LINE


def test_a_missing_cost_says_what_is_short(huts: meeple.Game) -> None:
    answer = huts.new_game(seed=1).apply("gather(res=wood)").why("build(cell=d1)")
    assert answer.kind == "cost" and answer.because == []
    assert "it costs 1 wood + 3 stone and p1 has 2 wood, 1 stone: 2 stone short" in answer.headline


def test_a_cost_and_a_condition_that_both_fail_are_both_named(second_turn: meeple.State) -> None:
    answer = second_turn.why("build(cell=a1)")
    assert answer.kind == "condition" and answer.headline.endswith("lonely(a1) is false")
    assert (
        answer.because[-1] == "besides, it costs 1 wood + 3 stone and p2 has 1 wood, 2 stone: 1 stone short"
    )


def test_the_answer_as_data_names_the_kind_and_the_place(second_turn: meeple.State) -> None:
    data = second_turn.why("build(cell=c1)").to_dict()
    assert data["legal"] is False and data["kind"] == "condition" and data["player"] == "p2"
    assert data["where"]["line"] == WHEN_LINE and data["because"][0].startswith("all(")


def test_a_game_that_is_over_allows_nothing(huts: meeple.Game) -> None:
    state = huts.new_game(seed=1)
    state.declare_winners([meeple.Player(0)])
    assert state.why("gather(res=wood)").kind == "game-over"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("biuld(cell=a1)", "did you mean 'build'"),
        ("build(cel=a1)", "did you mean 'cell'"),
        ("build", "build needs cell"),
        ("build(cell=a1", "cannot read the action"),
        ("build(a1)", "give each parameter as name=value"),
    ],
)
def test_unreadable_input_raises_a_clear_error(huts: meeple.Game, text: str, message: str) -> None:
    with pytest.raises(ActionTextError, match=message):
        huts.new_game(seed=1).apply("gather(res=wood)").why(text)


def test_values_may_hold_commas_inside_brackets() -> None:
    assert read_action("play(cards=[red_1, red_2], n=2)") == (
        "play",
        [("cards", "[red_1, red_2]"), ("n", "2")],
        False,
    )
    assert read_action("offer_trade(partner=p2, …)") == ("offer_trade", [("partner", "p2")], True)


@pytest.mark.parametrize(
    "name", ["climbers_of_verdon", "tabletop_climber", "pluvionauts", "k2", "caravan_conquest"]
)
def test_why_agrees_with_the_legal_actions_at_random_positions(name: str) -> None:
    """Every legal action is said to be legal; an action legal elsewhere is said legal here only if it is."""
    game = meeple.load(name, players=3)  # every seed game takes three
    rng = random.Random(4)
    state = game.new_game(seed=4)
    seen: list[meeple.Action] = []
    for _ in range(60):
        if state.is_over:
            break
        legal = state.legal_actions()
        for action in rng.sample(legal, min(4, len(legal))):
            assert state.why(action).legal, (action, str(state.why(action)))
        for action in rng.sample(seen, min(6, len(seen))):
            answer = state.why(action)
            if action.partial or game.definition.actions.get(action.name) is None:
                continue
            if game.definition.actions[action.name].stepwise:
                continue
            assert answer.legal == (action in legal), (action, str(answer))
        seen = (seen + [a for a in legal if not a.partial])[-200:]
        state.apply(rng.choice(legal))
