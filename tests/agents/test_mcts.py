"""MCTS: finds wins, never peeks at the real game's future, plays every seed game legally and reproducibly."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from meeple.agents import ISMCTSAgent, MCTSAgent, make_agent, make_agents, play_game
from meeple.agents.mcts import outcome
from meeple.values import Player

TIC_TAC_TOE = "examples/classic/tic_tac_toe.yaml"
SEED_GAMES = {
    "k2": 2,
    "tabletop_climber": 3,
    "caravan_conquest": 2,
    "climbers_of_verdon": 2,
    "pluvionauts": 2,
}


@pytest.fixture(scope="module")
def tic_tac_toe() -> meeple.Game:
    return meeple.load(TIC_TAC_TOE)


def after(game: meeple.Game, moves: list[str]) -> meeple.State:
    state = game.new_game(seed=1)
    for move in moves:
        state.apply(move)
    return state


def test_mcts_takes_a_winning_move(tic_tac_toe: meeple.Game) -> None:
    # x: a1 b1 ; o: a2 b2 ; x to move wins with c1
    state = after(tic_tac_toe, ["play(cell=a1)", "play(cell=a2)", "play(cell=b1)", "play(cell=b2)"])
    pick = MCTSAgent(iterations=300).choose(state, state.legal_actions(), random.Random(0))
    assert str(pick) == "play(cell=c1)"


def test_mcts_blocks_the_opponents_winning_move(tic_tac_toe: meeple.Game) -> None:
    # x: a1 b1 ; o to move must block c1
    state = after(tic_tac_toe, ["play(cell=a1)", "play(cell=b2)", "play(cell=b1)"])
    pick = MCTSAgent(iterations=400).choose(state, state.legal_actions(), random.Random(0))
    assert str(pick) == "play(cell=c1)"


def play_as_second(game: meeple.Game, seeds: range, iterations: int) -> list[list[int]]:
    winners = []
    for seed in seeds:
        state, _ = play_game(game, seed, make_agents(["random", f"mcts:iterations={iterations}"], 2))
        winners.append([int(w) for w in state.winners or []])
    return winners


def test_mcts_as_second_player_never_loses_tic_tac_toe_to_random(tic_tac_toe: meeple.Game) -> None:
    winners = play_as_second(tic_tac_toe, range(20), 400)
    assert all(w != [0] for w in winners), winners
    assert sum(w == [1] for w in winners) >= 15  # and mostly wins outright


@pytest.mark.slow
def test_mcts_as_second_player_never_loses_a_hundred_tic_tac_toe_games(tic_tac_toe: meeple.Game) -> None:
    # 400 iterations let one fork through in these games (seed 121: after X a2, O's c1 loses to a1, then b2
    # threatening c2 and c3); 1,000 see it.
    winners = play_as_second(tic_tac_toe, range(100, 200), 1000)
    assert all(w != [0] for w in winners), winners
    assert sum(w == [1] for w in winners) >= 80


def test_the_search_leaves_the_real_game_and_its_dice_alone() -> None:
    game = meeple.load("examples/tutorial/pig.yaml")
    state = game.new_game(seed=4)
    before, dice = state.to_json(), state.rng.getstate()
    MCTSAgent(iterations=50).choose(state, state.legal_actions(), random.Random(0))
    assert state.to_json() == before and state.rng.getstate() == dice


def test_each_iteration_of_a_dice_game_rolls_its_own_dice() -> None:
    game = meeple.load("examples/tutorial/pig.yaml")
    state = game.new_game(seed=4)
    agent, rng = MCTSAgent(iterations=40), random.Random(0)
    agent.choose(state, state.legal_actions(), rng)
    assert agent.last_method == "clone" and agent.last_iterations == 40
    rolls = set()
    for _ in range(20):  # the search's samples: a clone with a generator drawn from the agent's rng
        sample = state.clone()
        sample.rng = random.Random(rng.getrandbits(64))
        rolls.add(sample.apply("roll_die").to_json())
    assert len(rolls) > 1


def test_a_time_budget_runs_at_least_one_iteration(tic_tac_toe: meeple.Game) -> None:
    agent = MCTSAgent(seconds=0.05)
    state = tic_tac_toe.new_game(seed=1)
    assert agent.choose(state, state.legal_actions(), random.Random(0)) in state.legal_actions()
    assert agent.last_iterations >= 1


@pytest.mark.parametrize(
    "options",
    [
        {"iterations": 0},
        {"iterations": 2.5},
        {"seconds": 0},
        {"depth": -1},
        {"c": -1},
        {"determinize": "sometimes"},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        MCTSAgent(**options)  # type: ignore[arg-type]


# ---------------------------------------------------------------- rewards


class Ended:
    def __init__(self, winners: list[int] | None, scores: list[int], over: bool = True) -> None:
        self.is_over = over
        self.game = self  # a stand-in for the game definition, with no estimate
        self.estimate = None
        self.winners = None if winners is None else [Player(w) for w in winners]
        self.players = [Player(i) for i in range(len(scores))]
        self.scores = dict(zip(self.players, scores, strict=True))


@pytest.mark.parametrize(
    ("winners", "scores", "players", "reward"),
    [
        ([1], [0, 0, 0], 3, [0, 1, 0]),
        ([0, 2], [0, 0, 0], 3, [0.5, 0, 0.5]),
        ([], [0, 0], 2, [0.5, 0.5]),
        ([], [3], 1, [0]),
        ([0], [3], 1, [1]),
    ],
)
def test_a_finished_game_rewards_win_shares(
    winners: list[int], scores: list[int], players: int, reward: list[float]
) -> None:
    assert outcome(Ended(winners, scores), players) == reward  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("scores", "reward"),
    [([5, 2], [1, 0]), ([2, 2], [0.5, 0.5]), ([1, 7, 4], [0, 2 / 3, 1 / 3]), ([3, 3, 0], [0.5, 0.5, 0])],
)
def test_an_unfinished_game_rewards_rank_by_score(scores: list[int], reward: list[float]) -> None:
    got = outcome(Ended(None, scores, over=False), len(scores))  # type: ignore[arg-type]
    assert got == pytest.approx(reward) and sum(got) == pytest.approx(1)


# ---------------------------------------------------------------- the seed games


def first_choices(game: meeple.Game, spec: str, decisions: int) -> tuple[list[str], str]:
    """The actions MCTS takes for every seat in the first `decisions` real choices of seed 3."""
    state, rng = game.new_game(seed=3), random.Random(3)
    agent = make_agent(spec)
    taken: list[str] = []
    while len(taken) < decisions and not state.is_over:
        legal = state.legal_actions()
        before = state.to_json()
        action = agent.choose(state, legal, rng)
        assert action in legal
        assert state.to_json() == before  # the search worked on copies
        state.apply(action)
        taken.append(str(action))
    return taken, getattr(agent, "last_method", "")


@pytest.mark.parametrize("name", list(SEED_GAMES))
def test_mcts_plays_each_seed_game_legally_and_the_same_way_twice(name: str) -> None:
    game = meeple.load(name, players=SEED_GAMES[name])
    spec = "mcts:iterations=6:depth=4"
    first, method = first_choices(game, spec, 6)
    again, _ = first_choices(game, spec, 6)
    assert first == again and len(first) == 6
    assert method in ("sampled", "view.determinize")  # every seed game hides some cards


def test_ismcts_determinizes_even_an_open_game(tic_tac_toe: meeple.Game) -> None:
    state = tic_tac_toe.new_game(seed=1)
    agent = ISMCTSAgent(iterations=5)
    agent.choose(state, state.legal_actions(), random.Random(0))
    assert agent.last_method in ("sampled", "view.determinize")
    plain = MCTSAgent(iterations=5)
    plain.choose(state, state.legal_actions(), random.Random(0))
    assert plain.last_method == "clone"


# ---------------------------------------------------------------- scoring.estimate

ESTIMATE = """
game:
  name: Tiny
  players: {min: 2, max: 3}
components:
  resources: [gem]
actions:
  take: {effect: [gain 1 gem]}
  wait: {effect: []}
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [take, wait]}]
scoring:
  score: "0"
  estimate: "ESTIMATE"
"""


def tiny(tmp_path: Path, estimate: str) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(ESTIMATE.replace("ESTIMATE", estimate), encoding="utf-8")
    return path


def test_an_unfinished_game_is_ranked_by_its_estimate_when_it_has_one(tmp_path: Path) -> None:
    path = tiny(tmp_path, "p.gem")
    assert meeple.check(path) == []
    state = meeple.load(path, players=2).new_game(seed=1)
    state.apply("take").apply("wait")
    assert not state.is_over and state.scores == {Player(0): 0, Player(1): 0}
    assert outcome(state, 2) == [1.0, 0.0]


def test_a_bad_estimate_is_reported_where_it_is_written(tmp_path: Path) -> None:
    path = tiny(tmp_path, "p.diamonds")
    line = path.read_text(encoding="utf-8").splitlines().index('  estimate: "p.diamonds"') + 1
    problems = meeple.check(path)
    assert problems and problems[0].span is not None and problems[0].span.line == line
    assert "diamonds" in problems[0].message


def test_k2_estimates_the_climb_that_its_score_cannot_see() -> None:
    game = meeple.load("k2", players=2)
    state = game.new_game(seed=1)
    estimate = game.definition.estimate
    assert estimate is not None
    start = [estimate(state, {"p": p}) for p in state.players]
    assert start == [10 * state.scores[p] for p in state.players]  # both climbers at the base
