"""A rule file as a PettingZoo AEC environment: `env('k2', players=2)`.

Agents are `player_0` .. `player_{n-1}` (meeple's p1 .. pn), stepping in the order the rules give the
turns (one player may act several times in a row). Each observation is a dict: `observation`, the
generic encoding of the agent's view (meeple.interop.core.Encoder, float32), and `action_mask`, int8 over
the bounded action index (meeple.interop.core.ActionIndex; the action space is Discrete of its size).
Chance is meeple's own: `reset(seed=...)` seeds the game, and the same seed and actions replay the same
game. Rewards come once, when the game ends (zero-sum, see meeple.interop.core.returns); a game longer
than `max_game_length` decisions, or one where nobody can move, is truncated with no rewards.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "meeple.interop.pettingzoo needs PettingZoo and Gymnasium: pip install 'meeple[pettingzoo]'"
    ) from err

from meeple.interop import core
from meeple.runtime.state import State
from meeple.values import Action


def env(
    name: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    num_distinct_actions: int = 0,
    max_game_length: int = 10_000,
    render_mode: str | None = None,
) -> MeepleEnv:
    """The AEC environment of a rule file (a path, or a seed game's name)."""
    return MeepleEnv(core.setup(name, players, options, num_distinct_actions, max_game_length), render_mode)


class MeepleEnv(AECEnv):  # type: ignore[misc]
    """One meeple game as a PettingZoo AEC environment."""

    def __init__(self, setup: core.Setup, render_mode: str | None = None) -> None:
        super().__init__()
        self.setup = setup
        self.metadata = {
            "name": f"meeple_{setup.game.id}",
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.render_mode = render_mode
        n = setup.game.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        size = setup.index.size
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (setup.encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state_now: State | None = None
        self.seed_used: int | None = None
        self._decisions = 0
        self._legal: dict[int, Action] = {}

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the AEC cycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            self.seed_used = seed
        else:
            self.seed_used = self._seeds.randrange(2**31)
        self.state_now = self.setup.game.new_game(seed=self.seed_used)
        self._decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_move()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.state_now
        assert s is not None, "reset() the environment before stepping it"
        chosen = self._legal.get(int(action))
        if chosen is None:
            raise ValueError(f"action {int(action)} is not legal for {agent} now (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        s.apply(chosen)
        self._decisions += 1
        self._clear_rewards()
        self._after_move()
        self._accumulate_rewards()

    def _after_move(self) -> None:
        """Select the next agent; at the end, hand out the returns and end every agent."""
        s = self.state_now
        assert s is not None
        legal = [] if s.is_over else s.legal_actions()
        if s.is_over:
            for agent, value in zip(self.possible_agents, core.returns(s)):
                self.rewards[agent] = value
                self.terminations[agent] = True
        elif not legal or self._decisions >= self.setup.max_game_length:
            for agent in self.agents:
                self.truncations[agent] = True
        if s.is_over or not legal or self._decisions >= self.setup.max_game_length:
            self._legal = {}
            if s.to_move is not None:
                self.agent_selection = self.possible_agents[int(s.to_move)]
            elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
            return
        self._legal = self.setup.index.ids(legal)
        self.agent_selection = self.possible_agents[int(s.to_move)]  # type: ignore[arg-type]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        s = self.state_now
        assert s is not None, "reset() the environment before observing it"
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.setup.index.size, np.int8)
        if agent == self.agent_selection and not s.is_over:
            for action_id in self._legal:
                mask[action_id] = 1
        return {"observation": self.setup.encoder.tensor(s, seat), "action_mask": mask}

    def render(self) -> str | None:
        if self.state_now is None:
            return None
        text = self.setup.encoder.text(self.state_now, None)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self.state_now = None

    def __str__(self) -> str:
        return str(self.metadata["name"])
