"""Soak every seed game: random games at every player count, the rule file's invariants checked after every
action; prints games, actions, time and failures per game and player count.

    python benchmarks/soak.py                      # 10,000 games of each seed game at each player count
    python benchmarks/soak.py --games 200 --workers 2 --game k2 --game pluvionauts
    python benchmarks/soak.py --game caravan_conquest --players 3 --players 4

Exit status 1 when any game failed (a broken invariant, a rule failing at run time, a stalled game).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import meeple
from meeple.data import data_dir
from meeple.tools.soak import format_table, soak


def seed_games() -> list[str]:
    return sorted(p.stem for p in Path(data_dir("games")).glob("*.yaml"))


def player_counts(name: str) -> range:
    spec = (meeple.api.read_rules(name).data.get("game") or {}).get("players") or {}
    return range(int(spec.get("min", 1)), int(spec.get("max", 1)) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--games", type=int, default=10_000, help="games per game and player count")
    parser.add_argument("-w", "--workers", type=int, default=1, help="processes to play in (default 1)")
    parser.add_argument("-s", "--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("-g", "--game", action="append", help="a seed game (repeatable; default: all)")
    parser.add_argument(
        "-p", "--players", type=int, action="append", help="a player count (repeatable; default: every one)"
    )
    parser.add_argument("--progress", action="store_true", help="a progress bar on stderr")
    args = parser.parse_args(argv)
    reports = []
    print(format_table([]), flush=True)
    for name in args.game or seed_games():
        for players in player_counts(name):
            if args.players and players not in args.players:
                continue
            game = meeple.load(name, players=players)
            report = soak(game, args.games, args.seed, args.workers, progress=args.progress)
            reports.append(report)
            print(format_table([report]).splitlines()[1], flush=True)
            for failure in report.failures:
                print("    " + failure.replace("\n", "\n    "), flush=True)
    print(format_table(reports).splitlines()[-1], flush=True)
    return 1 if any(r.failed_games for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
