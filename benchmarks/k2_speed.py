"""Random-playout speed of K2 for 1 to 5 players on both sides, and its compile time, against a baseline.

    python benchmarks/k2_speed.py [-n 50] [--weather summer|winter]

Absolute figures depend on the machine, so (the house rule) each is also printed as a ratio against a
baseline timed in the same process, and nothing here asserts a time. The baseline is Climbers of Verdon,
4 random players, over the same number of games: the engine's reference game, whose own benchmark
(benchmarks/verdon_speed.py) sets the engine's speed bar. Both run on the same engine, so the ratio says
what K2's rules cost per decision and per game relative to Verdon's. In a profile of 4-player games about
two thirds of K2's time goes to listing the legal actions (the rule expressions behind `set_out`'s pairs
of cards and directions and `walk`'s neighbours a climber may enter), the rest to applying them.

The compile time is given twice: cold (the first load in the process, building the grammar's parser) and
warm (the best of five later loads, the parser cached), against Verdon's warm load.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from typing import Any

import meeple

GAME = "k2"
PLAYER_COUNTS = (1, 2, 3, 4, 5)
SIDES = ("easy", "hard")
BASELINE = "climbers_of_verdon"
BASELINE_PLAYERS = 4


@dataclass(frozen=True)
class Speed:
    games_per_s: float
    actions_per_s: float
    actions_per_game: float

    def ratio(self, base: Speed) -> str:
        games, actions = self.games_per_s / base.games_per_s, self.actions_per_s / base.actions_per_s
        return f"games {games:.2f}, actions {actions:.2f}"


def playouts(name: str, players: int, n: int, options: dict[str, Any] | None = None) -> Speed:
    """Play `n` seeded random games (a uniform random choice among the legal actions) and time them."""
    game = meeple.load(name, players=players, options=options)
    actions = 0
    start = time.perf_counter()
    for seed in range(n):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    return Speed(n / elapsed, actions / elapsed, actions / n)


def load_seconds(name: str, players: int) -> float:
    start = time.perf_counter()
    meeple.load(name, players=players)
    return time.perf_counter() - start


def best_load_seconds(name: str, players: int, repeat: int = 5) -> float:
    return min(load_seconds(name, players) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=50, help="games to play per table (default 50)")
    parser.add_argument("--weather", choices=("summer", "winter"), default="summer", help="weather tiles")
    args = parser.parse_args()

    cold = load_seconds(GAME, 4)
    warm, base_warm = best_load_seconds(GAME, 4), best_load_seconds(BASELINE, BASELINE_PLAYERS)
    print(
        f"load+check+compile {GAME}: cold {cold * 1000:.0f} ms, warm {warm * 1000:.0f} ms "
        f"({BASELINE} warm {base_warm * 1000:.0f} ms, ratio {warm / base_warm:.2f})"
    )
    base = playouts(BASELINE, BASELINE_PLAYERS, args.n)
    print(
        f"baseline {BASELINE}, {BASELINE_PLAYERS} random players: {base.games_per_s:.2f} games/s, "
        f"{base.actions_per_s:,.0f} actions/s, {base.actions_per_game:.0f} actions/game"
    )
    for side in SIDES:
        for players in PLAYER_COUNTS:
            speed = playouts(GAME, players, args.n, {"board": side, "weather": args.weather})
            seats = f"{players} random player{'s' if players > 1 else ''}"
            print(
                f"{GAME} {side} board, {args.weather}, {seats}: {speed.games_per_s:.2f} games/s, "
                f"{speed.actions_per_s:,.0f} actions/s, {speed.actions_per_game:.0f} actions/game; "
                f"ratio to baseline: {speed.ratio(base)}"
            )


if __name__ == "__main__":
    main()
