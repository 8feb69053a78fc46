"""meeple against peer engines, side by side in one process: random legal actions per second and the ratio.

    python benchmarks/compare_peers.py [--seconds 3 | --games N] [--passes 3] [--pairs verdon,climber,...]

Each pair times a meeple game and a peer's comparable game on the same machine, in the same process:

    verdon        Climbers of Verdon, 4 players   vs  catanatron 3.2.1 Catan, 4 RandomPlayers
    climber       Tabletop Climber, 3 players     vs  rlcard Dou Dizhu, the game object (no observations)
    tic_tac_toe   examples/classic/tic_tac_toe    vs  OpenSpiel tic_tac_toe
    connect_four  examples/classic/connect_four   vs  OpenSpiel connect_four

Both sides play whole games of uniform random legal actions in a plain Python loop, each with its own
seeded RNG, and count one action per decision (a chance event is no decision). A pass times side A and
then side B, each for the same budget (whole games until `--seconds` have gone by, or exactly `--games`
games); the passes alternate A B A B and each side's figure is the median of its passes. Two ratios are
printed: that of the two medians, and the median of the passes' own ratios ("paired"), which a change of
the machine's speed between passes does not move. Setting a game
up (meeple's new_game, catanatron's Game(), rlcard's init_game, OpenSpiel's new_initial_state) is timed
as part of the game; loading and compiling a rule file is not. A peer that is not installed is skipped
with what to install (`pip install 'meeple[bench]'` installs all three).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from playout_speed import random_game

import meeple

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "examples" / "classic"
BENCH_EXTRA = "pip install 'meeple[bench]'"


class Skip(Exception):
    """A side that cannot be timed here (a peer not installed, a rule file missing); the message says why."""


@dataclass
class Side:
    """One engine's game: `play(seed)` plays one whole random game and returns the decisions taken."""

    label: str
    play: Callable[[int], int]
    notes: Callable[[], str] = field(default=lambda: "")


@dataclass(frozen=True)
class Run:
    games: int
    actions: int
    seconds: float

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


@dataclass(frozen=True)
class Result:
    label: str
    runs: list[Run]

    @property
    def actions_per_s(self) -> float:
        return statistics.median(r.actions_per_s for r in self.runs)

    @property
    def games_per_s(self) -> float:
        return statistics.median(r.games_per_s for r in self.runs)

    @property
    def actions_per_game(self) -> float:
        return sum(r.actions for r in self.runs) / sum(r.games for r in self.runs)

    def figures(self) -> str:
        return (
            f"{self.actions_per_s:>10,.0f} actions/s {self.games_per_s:>10,.2f} games/s "
            f"{self.actions_per_game:>7,.1f} actions/game"
        )


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


# --- meeple ----------------------------------------------------------------------------------------


def meeple_side(label: str, game: str | Path, players: int) -> Side:
    if isinstance(game, Path) and not game.is_file():
        raise Skip(f"{game.relative_to(ROOT)} is missing (not written yet)")
    try:
        compiled = meeple.load(game, players=players)
    except meeple.MeepleError as e:
        raise Skip(f"{game} does not load: {str(e).splitlines()[0]}") from e

    return Side(f"meeple {label}", lambda seed: random_game(compiled, seed))


# --- peers -----------------------------------------------------------------------------------------


def catanatron_side() -> Side:
    try:
        from catanatron import Color, Game, RandomPlayer  # type: ignore[import-not-found]
        from catanatron.game import TURNS_LIMIT  # type: ignore[import-not-found]
    except Exception as e:  # any failure to import means the peer is not usable here
        raise Skip(f"catanatron not importable ({e}): {BENCH_EXTRA} or pip install catanatron==3.2.1") from e
    colors = list(Color)[:4]
    truncated = [0]

    def play(seed: int) -> int:
        # Game(seed=0) would pick a random seed (`seed or randrange`): seeds here start at 1. Game() seeds
        # the global `random`, which RandomPlayer, the dice and the map draw from: catanatron's own RNG.
        game = Game([RandomPlayer(c) for c in colors], seed=seed)
        # Game.play()'s loop without its two whole-game copies; each play_tick is one decision and
        # appends exactly one action to state.actions.
        while game.winning_color() is None and game.state.num_turns < TURNS_LIMIT:
            game.play_tick()
        if game.winning_color() is None:
            truncated[0] += 1
        return len(game.state.actions)

    def notes() -> str:
        return f"{truncated[0]} games cut at {TURNS_LIMIT} turns" if truncated[0] else ""

    return Side(f"catanatron {version('catanatron')} Catan, 4 players", play, notes)


def rlcard_doudizhu_side() -> Side:
    try:
        import numpy as np
        from rlcard.games.doudizhu import Game  # type: ignore[import-not-found]
    except Exception as e:
        raise Skip(f"rlcard not importable ({e}): {BENCH_EXTRA} or pip install rlcard") from e
    game = Game()
    # rlcard 1.2's DoudizhuGame has no get_legal_actions (the env builds them from game.state['actions'],
    # which init_game and step fill in); use the method if a later version has it.
    if hasattr(game, "get_legal_actions"):
        legal: Callable[[], list[str]] = game.get_legal_actions
    else:

        def legal() -> list[str]:
            return game.state["actions"]

    def play(seed: int) -> int:
        # The deal, the landlord and the players share the game's np_random, read by init_game.
        game.np_random = np.random.RandomState(seed)
        rng = random.Random(seed)
        game.init_game()
        n = 0
        while not game.is_over():
            game.step(rng.choice(legal()))
            n += 1
        return n

    return Side(f"rlcard {version('rlcard')} Dou Dizhu game", play)


def openspiel_side(name: str) -> Side:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except Exception as e:
        raise Skip(f"OpenSpiel not importable ({e}): {BENCH_EXTRA} or pip install open_spiel") from e
    game = pyspiel.load_game(name)
    deterministic = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    def play_with_chance(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return Side(f"OpenSpiel {version('open_spiel')} {name}", play if deterministic else play_with_chance)


# --- the pairs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    key: str
    meeple: Callable[[], Side]
    peer: Callable[[], Side]


PAIRS = [
    Pair(
        "verdon",
        lambda: meeple_side("Climbers of Verdon, 4 players", "climbers_of_verdon", 4),
        catanatron_side,
    ),
    Pair(
        "climber",
        lambda: meeple_side("Tabletop Climber, 3 players", "tabletop_climber", 3),
        rlcard_doudizhu_side,
    ),
    Pair(
        "tic_tac_toe",
        lambda: meeple_side("tic-tac-toe", CLASSIC / "tic_tac_toe.yaml", 2),
        lambda: openspiel_side("tic_tac_toe"),
    ),
    Pair(
        "connect_four",
        lambda: meeple_side("connect four", CLASSIC / "connect_four.yaml", 2),
        lambda: openspiel_side("connect_four"),
    ),
]


def timed(side: Side, first_seed: int, games: int | None, seconds: float) -> Run:
    """Whole games from `first_seed` on: exactly `games` of them, or as many as start within `seconds`."""
    gc.collect()
    n = actions = 0
    start = time.perf_counter()
    while True:
        actions += side.play(first_seed + n)
        n += 1
        elapsed = time.perf_counter() - start
        if (n >= games) if games else (elapsed >= seconds):
            return Run(n, actions, elapsed)


def ratio(meeple_side: Result, peer: Result) -> float:
    """meeple's median actions/s over the peer's: above 1, meeple is the faster."""
    return meeple_side.actions_per_s / peer.actions_per_s


def paired(meeple_side: Result, peer: Result) -> float:
    """The median of the passes' own ratios: each pass times the two sides back to back, so a change of the
    machine's speed between passes (another job starting) cancels in its ratio, where the ratio of the two
    medians may pair one side's fast pass with the other's slow one."""
    return statistics.median(x.actions_per_s / y.actions_per_s for x, y in zip(meeple_side.runs, peer.runs))


def measure(pair: Pair, args: argparse.Namespace) -> tuple[Result, Result] | str:
    """Time the pair's two sides, or say why not: "skipped" (not installed, no rule file) or "failed"."""
    sides: list[Side] = []
    for make in (pair.peer, pair.meeple):
        try:
            sides.insert(0, make())
        except Skip as e:
            print(f"[{pair.key}] skipped: {e}")
    if len(sides) < 2:
        return "skipped"
    try:
        return alternate(pair.key, sides, args)
    except Exception as e:  # an engine's error fails its pair, not the whole comparison
        print(f"[{pair.key}] failed: {type(e).__name__}: {e}")
        return "failed"


def alternate(key: str, sides: list[Side], args: argparse.Namespace) -> tuple[Result, Result]:
    for side in sides:  # one untimed game each: first-call caches and imports out of the figures
        side.play(args.seed)
    runs: list[list[Run]] = [[], []]
    next_seed = [args.seed, args.seed]
    for p in range(args.passes):
        for i, side in enumerate(sides):  # A B A B ...
            run = timed(side, next_seed[i], args.games, args.seconds)
            next_seed[i] += run.games  # each pass plays new games
            runs[i].append(run)
            print(
                f"[{key}] pass {p + 1}/{args.passes} {side.label}: {run.games} games, "
                f"{run.actions:,} actions in {run.seconds:.2f} s = {run.actions_per_s:,.0f} actions/s",
                flush=True,
            )
    a, b = (Result(side.label, r) for side, r in zip(sides, runs))
    print(f"[{key}] {a.label:<44} {a.figures()}")
    print(f"[{key}] {b.label:<44} {b.figures()}")
    per_pass = ", ".join(f"{x.actions_per_s / y.actions_per_s:.3g}" for x, y in zip(*runs))
    print(
        f"[{key}] ratio meeple/peer, actions/s: {ratio(a, b):.3g} of the medians, "
        f"{paired(a, b):.3g} the median of the passes (one by one: {per_pass})"
    )
    for side in sides:
        if note := side.notes():
            print(f"[{key}] note ({side.label}): {note}")
    return a, b


def main() -> None:
    keys = [p.key for p in PAIRS]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="pairs: " + ", ".join(keys))
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time budget per side per pass, whole games (default 3)"
    )
    parser.add_argument("--games", type=int, help="play exactly this many games per side per pass instead")
    parser.add_argument(
        "--passes", type=int, default=3, help="passes per side; figures are medians (default 3)"
    )
    parser.add_argument("--pairs", default=",".join(keys), help="comma-separated pairs to run (default: all)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (>= 1; default 1)")
    args = parser.parse_args()
    chosen = [k.strip() for k in args.pairs.split(",") if k.strip()]
    unknown = [k for k in chosen if k not in keys]
    if unknown:
        parser.error(f"unknown pair(s) {', '.join(unknown)}; choose from {', '.join(keys)}")
    if args.passes < 1 or (args.games is not None and args.games < 1) or args.seconds <= 0 or args.seed < 1:
        parser.error("--passes and --games must be at least 1, --seconds above 0, --seed at least 1")

    budget = f"{args.games} games" if args.games else f"{args.seconds:g} s"
    print(
        f"meeple {version('meeple')} ({Path(meeple.__file__).parent}), "
        f"Python {platform.python_version()}, {os.cpu_count()} cores; "
        f"{args.passes} passes of {budget} per side, medians"
    )
    results = {pair.key: measure(pair, args) for pair in PAIRS if pair.key in chosen}

    print()
    head = (
        f"{'pair':<13} {'meeple actions/s':>16} {'peer actions/s':>15} {'meeple/peer':>11} "
        f"{'peer/meeple':>11} {'paired':>7}  peer"
    )
    print(head)
    print("-" * len(head))
    for key, got in results.items():
        if isinstance(got, str):
            print(f"{key:<13} {got:>16}")
            continue
        a, b = got
        print(
            f"{key:<13} {a.actions_per_s:>16,.0f} {b.actions_per_s:>15,.0f} "
            f"{ratio(a, b):>11.3g} {1 / ratio(a, b):>11,.1f} {paired(a, b):>7.3g}  {b.label}"
        )
    print(
        "meeple/peer: the ratio of the two medians; paired: the median of the passes' own ratios, "
        "the steadier figure on a machine whose speed changes between passes"
    )
    if "failed" in results.values():
        raise SystemExit(1)


if __name__ == "__main__":
    main()
