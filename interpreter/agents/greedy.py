"""An agent that looks one action ahead and takes the one that leaves its player best placed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from meeple.runtime.state import State
from meeple.values import Action

WIN = float("inf")


class GreedyAgent:
    """Try each legal action on a clone and keep the best for the mover; ties broken by `rng`.

    A position is judged by the rule file's `bots: {greedy: {eval: …}}` expression for the mover `p`, or by
    the mover's score when the file has none; a won game is worth more than any position, a lost one less.
    A step of a stepwise action is worth its best completion. Each clone gets a fresh RNG drawn from `rng`,
    so the look-ahead cannot peek at the real dice or deck. With more than `max_branching` legal actions it
    picks at random instead, to stay fast.
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
            if value > best_value or not best:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[rng.randrange(len(best))]

    def value_after(self, state: State, action: Action, mover: Any, rng: random.Random) -> float:
        trial = state.clone()
        trial.rng = random.Random(rng.getrandbits(64))
        trial.apply(action)
        if action.partial and not trial.is_over and trial.to_move == mover:
            rest = trial.legal_actions()  # the mover goes on deciding the same action
            if 0 < len(rest) <= self.max_branching:
                return max(self.value_after(trial, a, mover, rng) for a in rest)
        return value_of(trial, mover)


def value_of(state: Any, mover: Any) -> float:
    """How good `state` is for `mover`: a win, a loss, or the game's greedy evaluation (else the score)."""
    if state.is_over and state.winners:
        return WIN if mover in state.winners else -WIN
    evaluate = state.game.bots.get("greedy")
    if evaluate is None:
        return float(state.scores[mover])
    return float(evaluate(state, {"p": mover}))
