"""Instructions per decision, counted by valgrind: a measure of a change that the machine's speed cannot move.

    python benchmarks/instructions.py 246a671              # that commit against the work tree, every game
    python benchmarks/instructions.py HEAD --game connect_four.yaml --seeds 100

Timings on a shared machine swing from process to process (this one's by up to 1.7x); the number of machine
instructions a game takes does not. Each side (a git revision, or the work tree `.`) is made importable under
a name of its own, as `ab.py` does, with a cache of loads of its own. For every game the side plays the seeds
once outside valgrind (so what a load keeps is kept), then a child Python under `valgrind --tool=cachegrind`
loads the game and plays them, and another only loads it: the difference, divided by the decisions made, is
the instructions per decision. Hash randomization is off in the children: a count repeats to within about
0.1% at the default number of games (1% with 20 games of tic-tac-toe). Prints both sides and the ratio
base/new (above 1, the new side takes fewer instructions). Instructions are not time (a cache miss or a
branch mispredicted costs more than one): check a change's time with `ab.py` too. Needs valgrind (Debian's
package `valgrind`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ab import GAMES, add_revisions, package_sides

_CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
import importlib
from ab import rule_file
from playout_speed import random_game
module = importlib.import_module(sys.argv[2])
name, players, seeds = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
game = module.load(rule_file(module, name), players=players)
print(sum(random_game(game, seed + 1) for seed in range(seeds)))
"""
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def child(folder: Path, side: str, name: str, players: int, seeds: int) -> tuple[list[str], dict[str, str]]:
    """The command and environment of a child loading the game and playing `seeds` games: hash
    randomization off, each side with a cache of loads of its own (a load keeps what it used)."""
    command = [sys.executable, "-c", _CHILD, str(folder), side, name, str(players), str(seeds)]
    env = dict(
        os.environ,
        PYTHONHASHSEED="0",
        PYTHONPATH=str(Path(__file__).resolve().parent),  # ab.py and playout_speed.py, beside this one
        MEEPLE_CACHE_DIR=str(folder / f"cache_{side}"),
    )
    return command, env


def counted(folder: Path, side: str, name: str, players: int, seeds: int) -> tuple[int, int]:
    """(instructions, decisions) of the child, run under valgrind."""
    command, env = child(folder, side, name, players, seeds)
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    found = _REFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{side} {name}: the child failed:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.strip().splitlines()[-1])


def per_decision(folder: Path, side: str, name: str, players: int, seeds: int) -> tuple[float, int]:
    command, env = child(folder, side, name, players, seeds)
    subprocess.run(command, capture_output=True, env=env, check=False)  # what a load keeps, kept first
    start, _ = counted(folder, side, name, players, 0)
    whole, decisions = counted(folder, side, name, players, seeds)
    return (whole - start) / max(decisions, 1), decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_revisions(parser)
    parser.add_argument(
        "--game",
        action="append",
        help="a game of ab.py's list, or the end of its name (repeatable; default all)",
    )
    parser.add_argument("--seeds", type=int, help="games per side (default: a quarter of ab.py's)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print(
            "instructions.py: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr
        )
        return 2
    names = [g for g in GAMES if not args.game or any(g.endswith(x) for x in args.game)]
    if not names:
        parser.error(f"no game of {sorted(GAMES)} matches {args.game}")
    with tempfile.TemporaryDirectory(prefix="meeple-ir-") as folder:
        into = Path(folder)
        if not package_sides(args.base, args.new, into, "instructions.py"):
            return 2
        print(
            f"base {args.base}, new {'the work tree' if args.new == '.' else args.new}:"
            " instructions per decision"
        )
        print(f"{'game':36} {'decisions':>9} {'base':>10} {'new':>10} {'base/new':>9}")
        for name in names:
            players, seeds = GAMES[name]
            seeds = args.seeds or max(seeds // 4, 1)
            base, made_a = per_decision(into, "meeple_a", name, players, seeds)
            new, made_b = per_decision(into, "meeple_b", name, players, seeds)
            same = "" if made_a == made_b else f"  (different games: {made_a:,} and {made_b:,} decisions)"
            print(f"{name:36} {made_b:>9,} {base:>10,.0f} {new:>10,.0f} {base / new:>9.3f}{same}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
