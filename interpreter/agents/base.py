"""The one interface every agent implements, and the errors of driving a game with agents."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from meeple.errors import MeepleError
from meeple.runtime.state import State
from meeple.values import Action


@runtime_checkable
class Agent(Protocol):
    """Picks one of the legal actions; all its randomness comes from `rng`, never the global `random`."""

    name: str

    def choose(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action: ...


class PlayError(MeepleError):
    """A game could not be played to its end: it ran too long, or stalled with nothing legal to do."""


class GameTooLong(PlayError):
    """The game had not ended after the allowed number of actions."""


class GameStalled(PlayError):
    """The game is not over, yet no one has a legal action."""
