"""What the per-game speed scripts share: timed random playouts and load times, printed as ratios against
a baseline (Climbers of Verdon, 4 random players) timed in the same process, never asserted.

The baseline is the engine's reference game, whose own benchmark (verdon_speed.py) sets the engine's speed
bar. Every game runs on the same engine, so a ratio says what a game's rules cost per decision and per game
relative to Verdon's, not how the engine compares with a hand-written simulator; for that, verdon_speed.py
times catanatron when it is installed. A load is timed cold (the first in the process, building the
grammar's parser) and warm (the best of five later loads), against Verdon's warm load.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

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

    def figures(self) -> str:
        return (
            f"{self.games_per_s:.2f} games/s, {self.actions_per_s:,.0f} actions/s, "
            f"{self.actions_per_game:.0f} actions/game"
        )


def random_game(game: Any, seed: int) -> int:
    """Play one seeded game of uniform random legal actions (`game`: a loaded meeple game, of any version
    with `new_game`); the number of decisions made."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    actions = 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        actions += 1
    return actions


def playouts(name: str, players: int, n: int, options: dict[str, Any] | None = None) -> Speed:
    """Play `n` seeded random games (a uniform random choice among the legal actions) and time them."""
    import meeple  # where used: `random_game` serves scripts that import meeple under other names (ab.py)

    game = meeple.load(name, players=players, options=options)
    start = time.perf_counter()
    actions = sum(random_game(game, seed) for seed in range(n))
    elapsed = time.perf_counter() - start
    return Speed(n / elapsed, actions / elapsed, actions / n)


def load_seconds(name: str, players: int) -> float:
    import meeple

    start = time.perf_counter()
    meeple.load(name, players=players)
    return time.perf_counter() - start


def best_load_seconds(name: str, players: int, repeat: int = 5) -> float:
    return min(load_seconds(name, players) for _ in range(repeat))


def parser(doc: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("-n", type=int, default=50, help="games to play per table (default 50)")
    return p


def compare(game: str, n: int, tables: Iterable[tuple[str, int, dict[str, Any] | None]]) -> None:
    """Print the load times, the baseline, then each table (label, players, options) with its ratios."""
    cold = load_seconds(game, 4)
    warm, base_warm = best_load_seconds(game, 4), best_load_seconds(BASELINE, BASELINE_PLAYERS)
    print(
        f"load+check+compile {game}: cold {cold * 1000:.0f} ms, warm {warm * 1000:.0f} ms "
        f"({BASELINE} warm {base_warm * 1000:.0f} ms, ratio {warm / base_warm:.2f})"
    )
    base = playouts(BASELINE, BASELINE_PLAYERS, n)
    print(f"baseline {BASELINE}, {BASELINE_PLAYERS} random players: {base.figures()}")
    for label, players, options in tables:
        speed = playouts(game, players, n, options)
        print(f"{label}: {speed.figures()}; ratio to baseline: {speed.ratio(base)}")
