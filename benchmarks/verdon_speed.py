"""Random-playout speed of Climbers of Verdon: games and actions per second, and the compile time.

    python benchmarks/verdon_speed.py [-n 50] [--players 4]

When catanatron is installed (`pip install catanatron`), its random 4-player Catan games are timed in
the same process and the ratio printed: DESIGN.md asks Verdon to be at least as fast.
"""

from __future__ import annotations

import argparse
import time

from playout_speed import best_load_seconds, playouts


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
    load = best_load_seconds("climbers_of_verdon", 4)
    speed = playouts("climbers_of_verdon", args.players, args.n)
    games, acts, length = speed.games_per_s, speed.actions_per_s, speed.actions_per_game
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
