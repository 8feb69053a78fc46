"""Two versions of meeple in one process, timed round by round on new seeds: a change with its spread.

    python benchmarks/ab_rounds.py a29a25c                      # that commit against the work tree, Verdon
    python benchmarks/ab_rounds.py a29a25c HEAD --game k2 --rounds 12 --games 20

Each side is made importable under a name of its own, as `ab.py` does. After a few untimed games each, the
two sides play rounds: in each, the same new seeds on both sides, one side after the other, the order
alternated from round to round (the side that plays the same seeds second runs up to a tenth faster on
this machine, so a fixed order would favour one). Times are the process's CPU time. Prints each round's
ratio new/base and their geometric mean, the figure to quote: a change of a few percent is within the
spread of one round, not of twenty.
"""

from __future__ import annotations

import argparse
import importlib
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ab import GAMES, add_revisions, package_sides, rule_file
from playout_speed import random_game


def rate(game: Any, seeds: range) -> float:
    """Actions a second of CPU time over whole random games of these seeds."""
    start = time.process_time()
    actions = sum(random_game(game, seed) for seed in seeds)
    return actions / (time.process_time() - start)


def rounds(name: str, players: int, count: int, games: int) -> tuple[list[float], dict[str, list[float]]]:
    """Each round's ratio new/base, and each side's actions a second by round (the two sides importable as
    `meeple_a` and `meeple_b`)."""
    _drop_sides()  # not two packages of an earlier call in the same process
    sides = {"base": importlib.import_module("meeple_a"), "new": importlib.import_module("meeple_b")}
    loaded = {side: m.load(rule_file(m, name), players=players) for side, m in sides.items()}
    for game in loaded.values():
        rate(game, range(900, 900 + min(games, 10)))  # warm: imports, caches
    ratios: list[float] = []
    figures: dict[str, list[float]] = {"base": [], "new": []}
    for k in range(count):
        seeds = range(10_000 + k * games, 10_000 + (k + 1) * games)
        order = ("base", "new") if k % 2 else ("new", "base")
        took = {side: rate(loaded[side], seeds) for side in order}
        for side in took:
            figures[side].append(took[side])
        ratios.append(took["new"] / took["base"])
    return ratios, figures


def _drop_sides() -> None:
    for module in [m for m in sys.modules if m.split(".")[0] in ("meeple_a", "meeple_b")]:
        del sys.modules[module]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_revisions(parser)
    parser.add_argument("--game", default="climbers_of_verdon", choices=sorted(GAMES), help="the game")
    parser.add_argument("--rounds", type=int, default=24, help="rounds (default 24)")
    parser.add_argument("--games", type=int, default=30, help="games a side plays in a round (default 30)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="meeple-rounds-") as folder:
        if not package_sides(args.base, args.new, Path(folder), "ab_rounds.py"):
            return 2
        sys.path.insert(0, folder)
        try:
            ratios, figures = rounds(args.game, GAMES[args.game][0], args.rounds, args.games)
        finally:  # in a process that goes on (a test), the two packages go with their folder
            sys.path.remove(folder)
            _drop_sides()
    mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"{args.game}, {args.rounds} rounds of {args.games} games: new/base by round")
    print("  " + ", ".join(f"{r:.3f}" for r in ratios))
    print(
        f"geometric mean {mean:.3f}; actions/s (medians) base {statistics.median(figures['base']):,.0f}"
        f" new {statistics.median(figures['new']):,.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
