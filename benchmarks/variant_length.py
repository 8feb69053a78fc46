"""Game length of a variant against its base: mean turns and actions per random game, each with a 95%
confidence interval, and the difference of the means with its own interval.

    python benchmarks/variant_length.py [-n 200] [--players 4] [--base GAME] [--variant FILE]

By default it compares Climbers of Verdon with examples/variants/verdon_quick.yaml (10 VP, cheaper climbs,
no trades between players). Both play the same seeds 0..N-1 with random agents. The intervals use the
normal approximation (mean +- 1.96 standard errors), fair for a few dozen games or more.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import meeple
from meeple.agents import make_agents, play_game

VERDON_QUICK = Path(__file__).resolve().parents[1] / "examples" / "variants" / "verdon_quick.yaml"
Z95 = 1.96


@dataclass(frozen=True)
class Interval:
    """A mean and its 95% confidence interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        mean = statistics.fmean(values)
        half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
        return cls(mean, mean - half, mean + half)

    @classmethod
    def difference(cls, a: Sequence[float], b: Sequence[float]) -> Interval:
        """Mean of a minus mean of b, with the interval of two independent samples (Welch)."""
        mean = statistics.fmean(a) - statistics.fmean(b)
        half = Z95 * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
        return cls(mean, mean - half, mean + half)

    def __str__(self) -> str:
        return f"{self.mean:8.1f}  [{self.low:.1f}, {self.high:.1f}]"


@dataclass(frozen=True)
class Lengths:
    """Turns and actions of each game played."""

    name: str
    turns: list[int]
    actions: list[int]


def lengths(game: str | Path, players: int, n: int) -> Lengths:
    """Play seeds 0..n-1 with random agents; every game must end."""
    loaded = meeple.load(game, players=players)
    agents = make_agents(["random"], players)
    turns, actions = [], []
    for seed in range(n):
        state, taken = play_game(loaded, seed, agents)
        turns.append(state.turn_no)
        actions.append(len(taken))
    return Lengths(loaded.name, turns, actions)


def report(base: Lengths, variant: Lengths) -> str:
    n = len(base.turns)
    rows = [
        f"{n} random games each, seeds 0..{n - 1}; mean [95% confidence interval]",
        f"  {'':<34}{'turns':>8}{'':<18}{'actions':>8}",
    ]
    for side in (base, variant):
        rows.append(f"  {side.name:<34}{Interval.of(side.turns)!s:<26}{Interval.of(side.actions)!s}")
    turns = Interval.difference(variant.turns, base.turns)
    actions = Interval.difference(variant.actions, base.actions)
    rows.append(f"  {'variant - base':<34}{turns!s:<26}{actions!s}")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200, help="games of each (default 200)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--base", default="climbers_of_verdon", help="the base game")
    parser.add_argument("--variant", default=str(VERDON_QUICK), help="the variant's rule file")
    args = parser.parse_args(argv)
    print(report(lengths(args.base, args.players, args.n), lengths(args.variant, args.players, args.n)))


if __name__ == "__main__":
    main()
