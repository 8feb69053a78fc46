"""An agent that looks one action ahead and takes the one that scores its player the most."""

from __future__ import annotations

import random
from collections.abc import Sequence

from meeple.runtime.state import State
from meeple.values import Action

WIN = float("inf")


class GreedyAgent:
    """Try each legal action on a clone and keep the best for the mover; ties broken by `rng`.

    Each clone gets a fresh RNG drawn from `rng`, so the look-ahead cannot peek at the real dice or deck.
    With more than `max_branching` legal actions it picks at random instead, to stay fast.
    """

    name = "greedy"

    def __init__(self, max_branching: int = 60) -> None:
        self.max_branching = max_branching

    def choose(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if len(legal) > self.max_branching:
            return legal[rng.randrange(len(legal))]
        mover = state.to_move
        best: list[Action] = []
        best_value = -WIN
        for action in legal:
            value = self.value_after(state, action, mover, rng)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[rng.randrange(len(best))]

    @staticmethod
    def value_after(state: State, action: Action, mover: object, rng: random.Random) -> float:
        trial = state.clone()
        trial.rng = random.Random(rng.getrandbits(64))
        trial.apply(action)
        if trial.is_over and trial.winners and mover in trial.winners:
            return WIN
        return float(trial.scores[mover])  # type: ignore[index]
