"""Start-up: `import meeple`, and loading each seed game (read, check, compile), in fresh processes.

Each figure is one new Python process, timed inside it with `time.perf_counter`: the import of meeple,
then `meeple.load`. A load is timed five ways, the runs of each game alternating between them:

- no cache: `MEEPLE_CACHE_DIR` empty, every result worked out (what a load cost before `meeple.cache`;
  the grammar's parser tables too, for a version of meeple that does not ship them);
- first: into a cache directory holding nothing but what the grammar's parser needs, worked out and
  written (a file never loaded before);
- kept: the cache written by the load before (every later load of the unchanged file);
- edited: a copy of the file loaded once, then changed (a comment added at its end) and loaded again: the
  least a designer waits for on `meeple check` after an edit, every text of the rules still known to the
  cache (an edit of a rule parses and compiles that rule's text again too);
- section: the same, the comment added inside the file's largest top-level section (`actions:`, say)
  after its first line: that section's YAML is composed again and the sections after it move down a line.

    python benchmarks/load_speed.py               # every seed game, 5 runs of each kind
    python benchmarks/load_speed.py --runs 9 k2

Prints the best and the median of the runs per game and kind. The machine's speed moves between runs, so
compare figures from one sitting; the ratios are what the script is for.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GAMES = {
    "climbers_of_verdon": 4,
    "tabletop_climber": 3,
    "k2": 3,
    "pluvionauts": 3,
    "caravan_conquest": 3,
}

PROBE = """
import sys, time
start = time.perf_counter()
import meeple
loaded = time.perf_counter()
meeple.load(sys.argv[1], players=int(sys.argv[2]))
print(loaded - start, time.perf_counter() - loaded)
"""


def one_run(game: str, players: int, cache_dir: str) -> tuple[float, float]:
    """(import seconds, load seconds) of one fresh process."""
    env = {**os.environ, "MEEPLE_CACHE_DIR": cache_dir}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, game, str(players)], env=env, capture_output=True, text=True, check=True
    )
    imported, loaded = out.stdout.split()
    return float(imported), float(loaded)


def measure(game: str, players: int, runs: int) -> dict[str, list[float]]:
    kinds = ("import", "no cache", "first", "kept", "edited", "section")
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as fresh:
            # the grammar's tables are ready in every kind but "no cache": they are not what is compared
            grammar_tables(fresh)
            imported, none = one_run(game, players, "")
            times["import"].append(imported)
            times["no cache"].append(none)
            times["first"].append(one_run(game, players, fresh)[1])
            times["kept"].append(one_run(game, players, fresh)[1])
            times["edited"].append(edited_run(game, players, fresh, at_end))
            times["section"].append(edited_run(game, players, fresh, in_largest_section))
    return times


EDIT = "# an edit: the file is not the one loaded before"


def at_end(text: str) -> str:
    return f"{text}\n{EDIT}\n"


def in_largest_section(text: str) -> str:
    """The text with a comment line after the first line of its longest top-level section."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line[:1].isalpha()] + [len(lines)]
    first = max(zip(starts, starts[1:]), key=lambda bounds: bounds[1] - bounds[0])[0]
    return "\n".join([*lines[: first + 1], f"  {EDIT}", *lines[first + 1 :]])


def edited_run(game: str, players: int, cache_dir: str, edit: Callable[[str], str]) -> float:
    """The load seconds of a copy of the seed game's file, loaded once and then edited (a comment added)."""
    text = (ROOT / "games" / f"{game}.yaml").read_text(encoding="utf-8")
    copy = Path(cache_dir) / "edited" / f"{game}.yaml"
    copy.parent.mkdir(exist_ok=True)
    copy.write_text(text, encoding="utf-8")
    one_run(str(copy), players, cache_dir)
    copy.write_text(edit(text), encoding="utf-8")
    return one_run(str(copy), players, cache_dir)[1]


def grammar_tables(folder: str) -> None:
    """Make the grammar's parser ready for the cache directory `folder`, loading no rule file: nothing to do
    where meeple ships its tables; a version that does not has Lark build them there. (Lark stamps its
    file with its own path: a copy made elsewhere would be built again.)"""
    env = {**os.environ, "MEEPLE_CACHE_DIR": folder}
    subprocess.run(
        [sys.executable, "-c", "from meeple.rules.lark_parser import parser; parser()"], env=env, check=True
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="seed games (default: all five)")
    ap.add_argument("--runs", type=int, default=5, help="fresh processes per game and kind (default 5)")
    args = ap.parse_args()
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        ap.error(f"not a seed game: {', '.join(unknown)} (one of {', '.join(GAMES)})")
    chosen = args.games or list(GAMES)
    kinds = ("import", "no cache", "first", "kept", "edited", "section")
    print(f"{'game':20} " + " ".join(f"{k:>14}" for k in kinds) + "   (best / median s)")
    for game in chosen:
        times = measure(game, GAMES[game], args.runs)
        cells = " ".join(f"{min(v):6.3f}/{statistics.median(v):6.3f}" for v in times.values())
        print(f"{game:20} {cells}", flush=True)


if __name__ == "__main__":
    main()
