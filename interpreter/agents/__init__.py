"""Agents that play games: one interface, a registry by name, and a driver that plays a game to its end."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from meeple.agents.base import Agent, GameStalled, GameTooLong, PlayError
from meeple.agents.greedy import GreedyAgent
from meeple.agents.mcts import ISMCTSAgent, MCTSAgent
from meeple.agents.random_agent import RandomAgent
from meeple.agents.spec import build, split_specs
from meeple.api import Game
from meeple.runtime.state import State
from meeple.values import Action

AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "ismcts": ISMCTSAgent,
}

MAX_ACTIONS = 200_000


def make_agent(spec: str) -> Agent:
    """The agent an agent spec names: a registry name, with options after colons (`mcts:iterations=50`)."""
    agent: Agent = build(spec, AGENTS)
    return agent


def make_agents(names: Sequence[str], players: int) -> list[Agent]:
    """One agent per seat from agent specs: a single spec fills every seat, otherwise one per seat."""
    agents = [make_agent(n) for n in names]
    if len(names) == 1:
        return [agents[0]] + [make_agent(names[0]) for _ in range(players - 1)]
    if len(names) != players:
        raise ValueError(f"{len(names)} agents given for {players} players; give one, or one per seat")
    return agents


def play_game(
    game: Game,
    seed: int,
    agents: Sequence[Agent],
    *,
    max_actions: int = MAX_ACTIONS,
    log: bool = False,
    on_action: Callable[[State, Action], None] | None = None,
    narrate: bool | Sequence[int] = False,
) -> tuple[State, list[Action]]:
    """Play one game from `seed` to its end; seat i decides with its own `random.Random(seed * 1000 + i)`.

    `on_action(state, action)` is called after every action (to stream `state.log`, say); `narrate` keeps
    the log seat by seat (see Game.new_game). Raises PlayError
    (GameTooLong) when the game has not ended after `max_actions` actions, or (GameStalled) when it stalls
    with nothing legal to do.
    """
    if len(agents) != game.players:
        raise ValueError(f"{len(agents)} agents for a {game.players}-player game")
    state = game.new_game(seed=seed, log=log, narrate=narrate)
    rngs = [random.Random(seed * 1000 + seat) for seat in range(game.players)]
    actions: list[Action] = []
    while not state.is_over:
        if len(actions) >= max_actions:
            raise GameTooLong(
                f"{game.id} (seed {seed}) did not end within {max_actions} actions "
                f"(turn {state.turn_no}, last action {actions[-1] if actions else 'none'})"
            )
        mover, legal = state.to_move, state.legal_actions()
        if mover is None or not legal:
            raise GameStalled(
                f"{game.id} (seed {seed}) stalled at turn {state.turn_no} after {len(actions)} "
                f"actions: the game is not over but {'no one' if mover is None else mover} "
                "has nothing legal to do"
            )
        action = agents[mover].choose(state, legal, rngs[mover])
        state.apply(action)
        actions.append(action)
        if on_action is not None:
            on_action(state, action)
    return state, actions


__all__ = [
    "AGENTS",
    "Agent",
    "GameStalled",
    "GameTooLong",
    "GreedyAgent",
    "ISMCTSAgent",
    "MCTSAgent",
    "MAX_ACTIONS",
    "PlayError",
    "RandomAgent",
    "make_agent",
    "make_agents",
    "play_game",
    "split_specs",
]
