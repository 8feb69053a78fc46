"""MCTS against random players in each seed game: win rates with 95% Wilson intervals, run by hand.

One MCTS agent sits at the table with random players, its seat turning from game to game (seat rotation of
`meeple simulate`), for N games per seed game; random players alone play the same seeds and more, for the
rate at which a random player wins from a seat. The MCTS agent beats random with a significant margin
when the low end of its interval is above the high end of the random baseline's (played over more games,
`--baseline-games`, as random games are cheap).

    python benchmarks/agents_vs_random.py                  # every seed game, the default budgets below
    python benchmarks/agents_vs_random.py --games 20 --only k2,pluvionauts --workers 2
    python benchmarks/agents_vs_random.py --agent mcts:iterations=100:depth=20
    python benchmarks/agents_vs_random.py --only pluvionauts --budget pluvionauts=mcts:iterations=50:depth=6

A win is an outright win; a shared win (several winners) is reported apart and counts as no win here, so a
game where every random game ends in a tie (K2: both climbers stay at the foot, 2 points each) has a
random baseline of zero.
"""

from __future__ import annotations

import argparse
import time

import meeple
from meeple.tools.simulate import simulate
from meeple.tools.tournament import AgentResult, wilson

# Each seed game at a player count, and the MCTS budget that finishes in a few minutes on a slow machine.
GAMES: dict[str, tuple[int, str]] = {
    "pluvionauts": (2, "mcts:iterations=20:depth=8"),
    "caravan_conquest": (2, "mcts:iterations=20:depth=8"),
    "tabletop_climber": (3, "mcts:iterations=20:depth=8"),
    "climbers_of_verdon": (2, "mcts:iterations=20:depth=8"),
    "k2": (2, "mcts:iterations=40:depth=10"),
}


def baseline(game: meeple.Game, n: int, seed: int, workers: int) -> tuple[int, int]:
    """Outright wins of a random player per seat taken, in `n` games of random players only."""
    report = simulate(game, n, seed, ["random"], workers=workers)
    return sum(s.wins for s in report.seats), n * game.players


def pct(low: float, high: float) -> str:
    return f"{100 * low:5.1f}-{100 * high:5.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="games per seed game (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default: %(default)s)")
    parser.add_argument("--only", default="", help="comma-separated seed games (default: all)")
    parser.add_argument("--agent", default="", help="one agent spec for every game instead of the budgets")
    parser.add_argument("--workers", type=int, default=1, help="processes (default: %(default)s)")
    parser.add_argument(
        "--baseline-games",
        type=int,
        default=300,
        help="random-only games for the baseline, cheap, so its interval is narrow (default: %(default)s)",
    )
    parser.add_argument(
        "--budget", action="append", default=[], metavar="GAME=SPEC", help="one game's agent (repeatable)"
    )
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(GAMES)
    print(
        f"{'game':<20} {'agent':<28} {'wins':>9} {'95% interval':>14} {'shared':>6}  "
        f"{'random baseline':>22}  {'margin':<11} time"
    )
    for name in names:
        players, spec = GAMES[name]
        budgets = dict(b.split("=", 1) for b in args.budget)
        spec = budgets.get(name) or args.agent or spec
        game = meeple.load(name, players=players)
        n = max(players, args.games - args.games % players)  # a multiple of the seats: each seat equally
        start = time.perf_counter()
        report = simulate(game, n, args.seed, [spec] + ["random"] * (players - 1), workers=args.workers)
        mcts: AgentResult = report.by_agent[0]
        base_wins, base_seats = baseline(game, max(n, args.baseline_games), args.seed, args.workers)
        base_low, base_high = wilson(base_wins, base_seats)
        significant = mcts.low_pct / 100 > base_high
        print(
            f"{name:<20} {spec:<28} {mcts.wins:>3}/{mcts.seats:<5} "
            f"{pct(mcts.low_pct / 100, mcts.high_pct / 100):>14} {mcts.shared_wins:>6}  "
            f"{base_wins:>3}/{base_seats:<4} {pct(base_low, base_high)}  "
            f"{'significant' if significant else 'not shown':<11} {time.perf_counter() - start:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
