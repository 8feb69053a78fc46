"""Agents choose among legal actions with their own RNG; play_game drives a game to its end."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import meeple
from meeple.agents import AGENTS, GreedyAgent, PlayError, RandomAgent, make_agents, play_game
from meeple.agents.base import Agent
from meeple.values import Action, Player


@pytest.fixture(scope="module")
def game() -> meeple.Game:
    return meeple.load("climbers_of_verdon", players=2)


class FakeState:
    """One decision: each action adds its points to the mover's score; 'win' also ends the game for them."""

    def __init__(self, points: dict[str, int], seed: int = 0) -> None:
        self.points = points
        self.to_move = Player(0)
        self.score = 0
        self.is_over = False
        self.winners: list[Player] | None = None
        self.rng = random.Random(seed)
        self.draws: list[float] = []
        self.clones = 0
        self.game = SimpleNamespace(bots={})  # no `bots:` section: the greedy agent goes by the score
        self.turn_no = 1
        self.stack: list[dict[str, object]] = []

    def clone(self) -> FakeState:
        self.clones += 1
        c = FakeState(self.points)
        c.rng.setstate(self.rng.getstate())
        c.draws = self.draws
        return c

    def apply(self, action: Action) -> FakeState:
        self.draws.append(self.rng.random())
        self.score += self.points[action.name]
        if action.name == "win":
            self.is_over, self.winners = True, [self.to_move]
        return self

    @property
    def scores(self) -> dict[Player, int]:
        return {Player(0): self.score, Player(1): 0}


def actions(*names: str) -> list[Action]:
    return [Action(n) for n in names]


def test_the_registry_names_random_greedy_and_search_agents_that_follow_the_interface() -> None:
    made = {name: factory() for name, factory in AGENTS.items()}
    assert set(made) == {"random", "greedy", "mcts", "ismcts"}
    assert all(isinstance(agent, Agent) and agent.name == name for name, agent in made.items())


def test_random_agent_draws_only_from_the_rng_it_is_given() -> None:
    legal = actions("a", "b", "c")
    random.seed(5)
    before = random.getstate()
    picks = [RandomAgent().choose(None, legal, random.Random(9)) for _ in range(3)]  # type: ignore[arg-type]
    assert random.getstate() == before
    assert len(set(picks)) == 1


def test_random_agent_reaches_every_legal_action() -> None:
    legal, rng = actions("a", "b", "c"), random.Random(1)
    picks = {RandomAgent().choose(None, legal, rng) for _ in range(200)}  # type: ignore[arg-type]
    assert picks == set(legal)


def test_greedy_agent_takes_the_action_that_scores_its_player_the_most() -> None:
    state = FakeState({"low": 1, "high": 5, "none": 0})
    pick = GreedyAgent().choose(state, actions("low", "high", "none"), random.Random(0))  # type: ignore[arg-type]
    assert pick == Action("high")


def test_greedy_agent_prefers_a_winning_action_over_points() -> None:
    state = FakeState({"win": 0, "many": 50})
    assert GreedyAgent().choose(state, actions("many", "win"), random.Random(0)) == Action("win")  # type: ignore[arg-type]


def test_greedy_agent_breaks_ties_with_its_rng() -> None:
    legal = actions("x", "y")
    picks = {GreedyAgent().choose(FakeState({"x": 2, "y": 2}), legal, random.Random(s)) for s in range(20)}  # type: ignore[arg-type]
    assert picks == set(legal)


def test_greedy_agent_chooses_at_random_above_sixty_legal_actions() -> None:
    state = FakeState({f"a{i}": i for i in range(61)})
    pick = GreedyAgent().choose(state, actions(*state.points), random.Random(0))  # type: ignore[arg-type]
    assert state.clones == 0
    assert pick.name in state.points


def test_greedy_lookahead_does_not_see_the_real_states_dice() -> None:
    state = FakeState({"x": 1, "y": 1}, seed=3)
    real_next = random.Random(3).random()
    GreedyAgent().choose(state, actions("x", "y"), random.Random(0))  # type: ignore[arg-type]
    assert state.draws and real_next not in state.draws


def test_greedy_agent_picks_a_legal_action_in_the_real_game(game: meeple.Game) -> None:
    state, rng = game.new_game(seed=2), random.Random(2)
    while len(state.legal_actions()) > 60:
        state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    assert GreedyAgent().choose(state, legal, random.Random(0)) in legal


def test_make_agents_fills_every_seat_from_a_single_name() -> None:
    assert [a.name for a in make_agents(["greedy"], 3)] == ["greedy"] * 3


@pytest.mark.parametrize("names", [["random", "greedy"], ["robot"]])
def test_make_agents_rejects_unknown_names_and_wrong_counts(names: list[str]) -> None:
    with pytest.raises(ValueError):
        make_agents(names, 3)


def test_play_game_plays_to_the_end_and_its_actions_replay_to_the_same_state(game: meeple.Game) -> None:
    state, taken = play_game(game, 1, make_agents(["random"], 2))
    assert state.is_over and state.winners
    assert meeple.replay(game, 1, taken).to_json() == state.to_json()


def test_play_game_gives_each_seat_its_own_rng_seeded_from_the_game_seed(game: meeple.Game) -> None:
    first: dict[int, object] = {}

    class Recorder(RandomAgent):
        def choose(self, state, legal, rng):  # type: ignore[no-untyped-def]
            first.setdefault(int(state.to_move), rng.getstate())
            return super().choose(state, legal, rng)

    play_game(game, 7, [Recorder(), Recorder()], max_actions=20_000)
    assert first == {seat: random.Random(7 * 1000 + seat).getstate() for seat in (0, 1)}


def test_play_game_stops_with_a_clear_error_past_max_actions(game: meeple.Game) -> None:
    with pytest.raises(PlayError, match="did not end within 5 actions"):
        play_game(game, 1, make_agents(["random"], 2), max_actions=5)


def test_play_game_needs_one_agent_per_seat(game: meeple.Game) -> None:
    with pytest.raises(ValueError, match="3 agents"):
        play_game(game, 1, make_agents(["random"], 3))
