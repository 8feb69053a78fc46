"""An agent that looks one action ahead and takes the one that leaves its player best placed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from meeple.runtime.engine import SKIP
from meeple.runtime.simultaneous import tentative
from meeple.runtime.state import State
from meeple.values import Action

WIN = float("inf")


class GreedyAgent:
    """Try each legal action on a clone and keep the best for the mover; ties broken by `rng`.

    A position is judged by the rule file's `bots: {greedy: {eval: …}}` expression for the mover `p`, or by
    the mover's score when the file has none; a won game is worth more than any position, a lost one less.
    A step of a stepwise action is worth its best completion. Each clone gets a fresh RNG drawn from `rng`,
    so the look-ahead cannot peek at the real dice or deck. With more than `max_branching` legal actions it
    picks at random instead, to stay fast. After `max_turn_decisions` decisions in one turn it ends the
    step when it can (its `until` action, or `skip`): a look-ahead that samples the next player's dice may
    find ending the turn worse than any idle action, and would otherwise never end it.
    """

    name = "greedy"

    def __init__(self, max_branching: int = 60, max_turn_decisions: int = 40) -> None:
        self.max_branching = max_branching
        self.max_turn_decisions = max_turn_decisions
        self.turn: tuple[int, int] = (-1, -1)  # the game and turn it decided in last, and how often there
        self.decisions = 0

    def choose(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.too_long(state):  # a look-ahead that keeps finding the turn's end worse must not loop
            enders = [a for a in legal if ends_step(state, a)]
            if enders:
                return enders[rng.randrange(len(enders))]
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

    def too_long(self, state: State) -> bool:
        """Whether this bot has decided more than `max_turn_decisions` times in the current turn."""
        turn = (id(state.game), state.turn_no)
        self.decisions = self.decisions + 1 if turn == self.turn else 1
        self.turn = turn
        return self.decisions > self.max_turn_decisions

    def value_after(self, state: State, action: Action, mover: Any, rng: random.Random) -> float:
        trial = state.clone()
        trial.rng = random.Random(rng.getrandbits(64))
        trial.apply(action)
        if action.partial and not trial.is_over and trial.to_move == mover:
            rest = trial.legal_actions()  # the mover goes on deciding the same action
            if 0 < len(rest) <= self.max_branching:
                return max(self.value_after(trial, a, mover, rng) for a in rest)
        return value_of(tentative(trial, mover), mover)  # a secret choice: judged as the mover expects it


def ends_step(state: Any, action: Action) -> bool:
    """Whether `action` ends the decision on top of the flow: `skip`, or the `until` of a `choose` (or
    `simultaneous`) step."""
    if action.name == SKIP:
        return True
    stack = getattr(state, "stack", None)
    if not stack or stack[-1].get("k") not in ("choose", "simul"):
        return False
    f = stack[-1]
    return bool(action.name == state.game.phases[f["ph"]].steps[f["st"]].until)


def value_of(state: Any, mover: Any) -> float:
    """How good `state` is for `mover`: a win, a loss, or the game's greedy evaluation (else the score)."""
    if state.is_over and state.winners:
        return WIN if mover in state.winners else -WIN
    evaluate = state.game.bots.get("greedy")
    if evaluate is None:
        return float(state.scores[mover])
    return float(evaluate(state, {"p": mover}))
