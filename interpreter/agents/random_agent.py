"""An agent that picks uniformly among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from meeple.runtime.state import State
from meeple.values import Action


class RandomAgent:
    """Uniform over the legal actions: the baseline every balance report starts from."""

    name = "random"

    def choose(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]
