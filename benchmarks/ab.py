"""Two versions of meeple in one process, timed alternately on the same seeds: what a change bought.

    python benchmarks/ab.py 246a671                  # that commit against the work tree, every game
    python benchmarks/ab.py 246a671 HEAD --game climbers_of_verdon --game k2
    python benchmarks/ab.py 4e33517 --game k2 --any  # an old engine with its own rule files

Each side is a copy of the project at a git revision (or the work tree, `.`) made importable under a name of
its own (`meeple_a`, `meeple_b`), so both load in one interpreter and are timed under the same machine
load. Every game is played seed by seed, the two sides alternating (and which goes first alternating too),
three times each; a side's time is the sum over seeds of its best CPU time. With `--fresh` each pass plays
new seeds and the times add up, so what a game leaves in a cache is not found ready by the next pass. Both
sides must make the same number of decisions (the same games), unless `--any` (rule files that changed).
Prints each side's actions/s and the ratio new/base (above 1, the new side is faster). Nothing is asserted
about speed.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

from playout_speed import random_game  # the benchmarks' own module, beside this script

ROOT = Path(__file__).resolve().parents[1]
# game (a seed game's name, or a rule file under the project) -> players, seeds
GAMES: dict[str, tuple[int, int]] = {
    "climbers_of_verdon": (4, 12),
    "tabletop_climber": (3, 12),
    "k2": (3, 24),
    "pluvionauts": (3, 8),
    "caravan_conquest": (3, 8),
    "examples/classic/tic_tac_toe.yaml": (2, 600),
    "examples/classic/connect_four.yaml": (2, 200),
}
# Where the package's parts live in the project (pyproject.toml's package-dir).
PARTS = {"interpreter": "", "grammar": "data/grammar", "schema": "data/schema", "games": "data/games"}
_IMPORT = re.compile(r"^(\s*)(from|import) meeple\b", re.MULTILINE)


def export(revision: str, into: Path) -> Path:
    """The project's files at a git revision (`.`: the work tree as it is) in a new folder."""
    tree = into / "tree"
    tree.mkdir(parents=True)
    if revision == ".":
        for part in PARTS:
            shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
        return tree
    archive = subprocess.run(
        ["git", "archive", revision, *PARTS], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        try:
            tar.extractall(tree, filter="data")
        except TypeError:  # a Python without extraction filters (before 3.10.12 and 3.11.4)
            tar.extractall(tree)
    return tree


def package(revision: str, name: str, into: Path) -> None:
    """Make `revision` importable as the package `name` from the folder `into`."""
    tree = export(revision, into / f"src_{name}")
    target = into / name
    for part, where in PARTS.items():
        shutil.copytree(tree / part, target / where if where else target, dirs_exist_ok=True)
    # `meeple.x` where x is one of its modules or subpackages (not `meeple.lark`, the grammar's file name)
    inner = sorted({p.stem for p in target.iterdir() if p.suffix == ".py" or p.is_dir()} - {"__pycache__"})
    dotted = re.compile(rf"\bmeeple\.(?=(?:{'|'.join(map(re.escape, inner))})\b)")
    for source in target.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        text = dotted.sub(f"{name}.", _IMPORT.sub(rf"\1\2 {name}", text))
        source.write_text(text, encoding="utf-8")


def add_revisions(parser: argparse.ArgumentParser) -> None:
    """The two revisions compared: `base`, and `new` (default: the work tree, `.`)."""
    parser.add_argument("base", help="git revision of the base side")
    parser.add_argument(
        "new", nargs="?", default=".", help="git revision of the new side (default: work tree)"
    )


def package_sides(base: str, new: str, into: Path, tool: str) -> bool:
    """The two revisions importable as `meeple_a` and `meeple_b` from `into`; False, the reason printed,
    when git cannot export one."""
    try:
        package(base, "meeple_a", into)
        package(new, "meeple_b", into)
    except subprocess.CalledProcessError as err:
        print(f"{tool}: git could not export a revision: {err.stderr.decode().strip()}", file=sys.stderr)
        return False
    return True


def rule_file(module: Any, name: str) -> Path:
    """A seed game's rule file as the side's own revision has it (a name alone would be looked up in the
    current folder first, in the project the work tree's `games/`); any other file from the work tree."""
    if name.endswith(".yaml"):
        return ROOT / name
    return Path(module.__file__).parent / PARTS["games"] / f"{name}.yaml"


def compare(
    sides: dict[str, Any],
    name: str,
    players: int,
    seeds: int,
    same_games: bool,
    fresh: bool = False,
    warm: int = 1,
) -> str:
    games = {side: module.load(rule_file(module, name), players=players) for side, module in sides.items()}
    for game in games.values():
        for k in range(warm):  # warm up: caches, imports made on first use (and caches full, with --warm)
            random_game(game, 100_000 + k)
    best: dict[str, list[float]] = {side: [float("inf")] * seeds for side in games}
    actions = {side: 0 for side in games}
    for rep in range(3):
        for seed in range(seeds):
            order = ("base", "new") if (seed + rep) % 2 else ("new", "base")
            for side in order:
                gc.collect()  # each game starts with nothing left for the collector by the one before
                start = time.process_time()
                made = random_game(games[side], seed + 1 + (1000 * rep + 1000 if fresh else 0))
                took = time.process_time() - start
                if fresh:  # every game new to both sides: their times add up
                    best[side][seed] = took + (best[side][seed] if rep else 0.0)
                else:
                    best[side][seed] = min(best[side][seed], took)
                if rep == 0 or fresh:
                    actions[side] += made
    if same_games and actions["base"] != actions["new"]:
        raise SystemExit(f"{name}: the two sides played different games ({actions}); use --any if meant")
    rate = {side: actions[side] / sum(best[side]) for side in games}
    return (
        f"{name:36} {actions['base']:>8,} {actions['new']:>8,} {rate['base']:>10,.0f} {rate['new']:>10,.0f}"
        f" {rate['new'] / rate['base']:>9.3f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_revisions(parser)
    parser.add_argument(
        "--game", action="append", choices=sorted(GAMES), help="a game (repeatable; default all)"
    )
    parser.add_argument("--any", action="store_true", help="allow the sides to play different games")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="play new seeds in each of the three passes and add up the times, instead of the best of "
        "three on the same seeds (work remembered across games, such as trail searches, is then not "
        "found ready in the later passes)",
    )
    parser.add_argument(
        "--warm",
        type=int,
        default=1,
        metavar="N",
        help="games each side plays before the timed ones (default 1): many, as in a long simulate, fill "
        "the caches a game keeps up to their bounds",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="meeple-ab-") as folder:
        into = Path(folder)
        if not package_sides(args.base, args.new, into, "ab.py"):
            return 2
        sys.path.insert(0, folder)
        sides = {"base": importlib.import_module("meeple_a"), "new": importlib.import_module("meeple_b")}
        passes = "three passes of new seeds" if args.fresh else "best of 3 per seed"
        print(f"base {args.base}, new {'the work tree' if args.new == '.' else args.new}; {passes}")
        print(f"{'game':36} {'base n':>8} {'new n':>8} {'base a/s':>10} {'new a/s':>10} {'new/base':>9}")
        for name in args.game or list(GAMES):
            players, seeds = GAMES[name]
            print(compare(sides, name, players, seeds, not args.any, args.fresh, args.warm), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
