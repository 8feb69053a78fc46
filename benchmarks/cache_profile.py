"""Instructions and cache misses per decision, meeple's Climbers of Verdon beside catanatron's Catan.

    python benchmarks/cache_profile.py                 # 12 games a side, about a minute
    python benchmarks/cache_profile.py --games 30 --l2-kb 512

`compare_peers.py` says how much faster one engine is; this says why, in the terms a processor spends its
time in. Each side plays whole random games (as compare_peers.py plays them) in a child Python under
valgrind's cachegrind with its cache and branch simulations on, and again only loading: the difference,
divided by the decisions made, is a decision's machine instructions, misses of the first-level instruction
and data caches and of the last level simulated (the core's own L2 by default, whose misses go to the
shared L3 or to memory), and branches mispredicted. The same games are timed outside valgrind, for the
nanoseconds an instruction takes: how many instructions a side runs and how well the processor runs them
are two different levers. (A few games timed in a process of their own is a rough time: compare_peers.py is
the measure of speed.) The simulated caches are set by the options (defaults: an AMD EPYC core's 32 KB L1i,
48 KB L1d and 1 MB L2), not read from the machine: a virtual machine reports its host's. Needs valgrind
(Debian's `valgrind`), and catanatron (`pip install '.[bench]'`) for the peer's row.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

_MEEPLE = """
import sys, time
from playout_speed import random_game
import meeple
game = meeple.load("climbers_of_verdon", players=4)
n = int(sys.argv[1])
start = time.perf_counter()
decisions = sum(random_game(game, seed) for seed in range(1, n + 1))
print(decisions, time.perf_counter() - start)
"""

_CATANATRON = """
import sys, time
from catanatron import Color, Game, RandomPlayer
from catanatron.game import TURNS_LIMIT
colors = list(Color)[:4]
n = int(sys.argv[1])
start = time.perf_counter()
decisions = 0
for seed in range(1, n + 1):
    game = Game([RandomPlayer(c) for c in colors], seed=seed)
    while game.winning_color() is None and game.state.num_turns < TURNS_LIMIT:
        game.play_tick()
    decisions += len(game.state.actions)
print(decisions, time.perf_counter() - start)
"""

# The counts cachegrind prints at the end (the first number of each line: the total, before its split
# into reads and writes).
_EVENTS = {
    "instructions": re.compile(r"I\s+refs:\s+([\d,]+)"),
    "L1i misses": re.compile(r"I1\s+misses:\s+([\d,]+)"),
    "L1d misses": re.compile(r"D1\s+misses:\s+([\d,]+)"),
    "last-level misses": re.compile(r"LL misses:\s+([\d,]+)"),
    "branches missed": re.compile(r"Mispredicts:\s+([\d,]+)"),
}


def parse(report: str) -> dict[str, int]:
    """Each event's count from the summary cachegrind writes to standard error."""
    counts = {}
    for name, pattern in _EVENTS.items():
        found = pattern.search(report)
        if found is None:
            raise SystemExit(f"cache_profile.py: no '{name}' in valgrind's report:\n{report[-2000:]}")
        counts[name] = int(found.group(1).replace(",", ""))
    return counts


def run(code: str, games: int, valgrind: list[str] | None) -> tuple[dict[str, int], int, float]:
    """The child's event counts (none without valgrind), decisions made and seconds of play."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(Path(__file__).resolve().parent))
    done = subprocess.run(
        [*(valgrind or []), sys.executable, "-c", code, str(games)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"cache_profile.py: the child failed:\n{done.stderr[-2000:]}")
    counts = parse(done.stderr) if valgrind else {}
    decisions, seconds = done.stdout.split()[-2:]
    return counts, int(decisions), float(seconds)


def profile(code: str, games: int, valgrind: list[str]) -> tuple[dict[str, float], float]:
    """Each event per decision (the games less a load alone), and nanoseconds per decision timed
    outside valgrind (the best of two runs)."""
    base, _, _ = run(code, 0, valgrind)
    whole, decisions, _ = run(code, games, valgrind)
    per = {name: (whole[name] - base[name]) / decisions for name in _EVENTS}
    seconds = min(run(code, games, None)[2] for _ in range(2))
    return per, seconds / decisions * 1e9


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games a side (default 12)")
    parser.add_argument("--l1i-kb", type=int, default=32, help="simulated L1 instruction cache (KB)")
    parser.add_argument("--l1d-kb", type=int, default=48, help="simulated L1 data cache (KB)")
    parser.add_argument("--l2-kb", type=int, default=1024, help="simulated last level (KB)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print(
            "cache_profile.py: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr
        )
        return 2
    valgrind = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=yes",
        "--branch-sim=yes",
        f"--I1={args.l1i_kb * 1024},8,64",
        f"--D1={args.l1d_kb * 1024},12,64",
        f"--LL={args.l2_kb * 1024},16,64",
        "--cachegrind-out-file=/dev/null",
    ]
    sides = [("meeple Climbers of Verdon, 4 players", _MEEPLE)]
    try:
        import catanatron  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        print("catanatron not importable: meeple alone (pip install '.[bench]')")
    else:
        sides.append(("catanatron Catan, 4 players", _CATANATRON))
    print(f"per decision, {args.games} random games a side (a load alone subtracted)")
    columns = ["ns", *_EVENTS, "ns/instruction"]
    print(f"{'':38}" + "".join(f"{c:>18}" for c in columns))
    rows = []
    for label, code in sides:
        per, ns = profile(code, args.games, valgrind)
        rows.append((per, ns))
        counts = "".join(f"{x:>18,.1f}" if x < 100 else f"{x:>18,.0f}" for x in [ns, *per.values()])
        print(f"{label:38}{counts}{ns / per['instructions']:>18.3f}", flush=True)
    if len(rows) == 2:
        (mine, my_ns), (peer, peer_ns) = rows
        print(
            f"catanatron/meeple: time {peer_ns / my_ns:.2f}, instructions "
            f"{peer['instructions'] / mine['instructions']:.2f}, time per instruction "
            f"{(peer_ns / peer['instructions']) / (my_ns / mine['instructions']):.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
