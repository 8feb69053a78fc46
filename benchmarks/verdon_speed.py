"""Random-playout speed of Climbers of Verdon: games and actions per second, and the compile time.

    python benchmarks/verdon_speed.py [-n 50] [--players 4]

When catanatron is installed (`pip install catanatron`), its random 4-player Catan games are timed in
the same process and the ratio printed: DESIGN.md asks Verdon to be at least as fast.
"""

from __future__ import annotations

import argparse
import random
import time

import meeple


def meeple_playouts(n: int, players: int) -> tuple[float, float, float]:
    game = meeple.load("climbers_of_verdon", players=players)
    actions = 0
    start = time.perf_counter()
    for seed in range(n):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, actions / elapsed, actions / n


def compile_seconds(repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        meeple.load("climbers_of_verdon", players=4)
        best = min(best, time.perf_counter() - start)
    return best


def catanatron_playouts(n: int) -> tuple[float, float] | None:
    try:
        from catanatron import Color, Game, RandomPlayer  # type: ignore[import-not-found]
    except ImportError:
        return None
    colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
    actions = 0
    start = time.perf_counter()
    for seed in range(n):
        g = Game([RandomPlayer(c) for c in colors], seed=seed)
        g.play()
        actions += len(g.state.actions)
    elapsed = time.perf_counter() - start
    return n / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=50, help="games to play (default 50)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    load = compile_seconds()
    games, acts, length = meeple_playouts(args.n, args.players)
    print(f"load+check+compile: {load * 1000:.0f} ms (bar: 300 ms, ratio {load / 0.3:.2f})")
    print(
        f"meeple Verdon, {args.players} random players: {games:.2f} games/s, {acts:,.0f} actions/s, "
        f"{length:.0f} actions/game"
    )
    baseline = catanatron_playouts(args.n)
    if baseline is None:
        print("catanatron not installed: no same-process baseline (pip install catanatron)")
        return
    cat_games, cat_acts = baseline
    print(f"catanatron Catan, 4 random players: {cat_games:.2f} games/s, {cat_acts:,.0f} actions/s")
    print(f"ratio meeple/catanatron: games {games / cat_games:.2f}, actions {acts / cat_acts:.2f}")


if __name__ == "__main__":
    main()
