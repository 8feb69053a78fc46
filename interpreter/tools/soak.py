"""Soak a game: many random games, the rule file's invariants checked after every action, figures kept."""

from __future__ import annotations

import functools
import sys
import time
from dataclasses import dataclass, field

from tqdm import tqdm

from meeple.agents import MAX_ACTIONS, PlayError, RandomAgent, play_game
from meeple.api import Game
from meeple.compile.expressions import RuleRuntimeError
from meeple.errors import RulesError
from meeple.runtime.invariants import InvariantBroken, Watch
from meeple.tools.simulate import in_workers, runtime_diagnostic

# A soak keeps the text of this many distinct failures (every failed game is counted).
KEPT_FAILURES = 20


@dataclass(frozen=True)
class Played:
    """One soak game: how many actions it took, and what went wrong (None when nothing did)."""

    seed: int
    actions: int
    failure: str | None = None


@dataclass
class SoakReport:
    """Figures of a soak of one game at one player count."""

    game: str
    players: int
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    failed_games: int = 0
    failures: list[str] = field(default_factory=list)  # distinct failures, the first seed of each

    def add(self, played: Played) -> None:
        self.games += 1
        self.actions += played.actions
        if played.failure is not None:
            self.failed_games += 1
            if len(self.failures) < KEPT_FAILURES and played.failure not in self.failures:
                self.failures.append(played.failure)


def soak(
    game: Game,
    n: int,
    seed: int = 0,
    workers: int = 1,
    max_actions: int = MAX_ACTIONS,
    progress: bool = False,
) -> SoakReport:
    """Play `n` random games (seeds seed .. seed + n - 1), checking the invariants after every action.

    A broken invariant, a rule that fails at run time, a game that stalls or runs past `max_actions` ends
    that game as a failure, reported with the rule file's line, the seed and the step.
    """
    report = SoakReport(game.id, game.players)
    started = time.perf_counter()
    play = functools.partial(play_checked, max_actions=max_actions)
    label = f"{game.id} {game.players}p"
    with tqdm(total=n, desc=label, unit="game", file=sys.stderr, disable=None if progress else True) as bar:
        for played in in_workers(game, range(seed, seed + n), play, workers, bar.update):
            report.add(played)
    report.seconds = time.perf_counter() - started
    return report


def play_checked(game: Game, seed: int, max_actions: int = MAX_ACTIONS) -> Played:
    """One random game (RandomAgent in every seat) with every state checked against the invariants."""
    watch = Watch(f"{game.id} {game.players}p", seed)
    try:
        watch(game.new_game(seed=seed))
        agents = [RandomAgent() for _ in range(game.players)]
        _, actions = play_game(game, seed, agents, max_actions=max_actions, on_action=watch)
    except InvariantBroken as err:
        return Played(seed, watch.step, "\n".join(d.headline() for d in err.diagnostics))
    except RuleRuntimeError as err:
        where = f"{watch.label} seed {seed}, in step {watch.step + 1}, after {watch.last}"
        return Played(seed, watch.step, f"{runtime_diagnostic(err).headline()} ({where})")
    except (PlayError, RulesError) as err:
        return Played(seed, watch.step, f"{type(err).__name__}: {err}")
    return Played(seed, len(actions))


def format_table(reports: list[SoakReport]) -> str:
    """One line per game and player count, then the totals."""
    names = ("players", 7), ("games", 8), ("actions", 11), ("seconds", 9), ("games/s", 8), ("failed", 7)
    lines = [f"{'game':<20} " + " ".join(f"{name:>{width}}" for name, width in names)]
    for r in reports:
        lines.append(_row(r.game, str(r.players), r.games, r.actions, r.seconds, r.failed_games))
    if len(reports) > 1:
        lines.append(
            _row(
                "total",
                "",
                sum(r.games for r in reports),
                sum(r.actions for r in reports),
                sum(r.seconds for r in reports),
                sum(r.failed_games for r in reports),
            )
        )
    return "\n".join(lines)


def _row(game: str, players: str, games: int, actions: int, seconds: float, failed: int) -> str:
    rate = games / seconds if seconds else 0.0
    return f"{game:<20} {players:>7} {games:>8} {actions:>11} {seconds:>9.1f} {rate:>8.1f} {failed:>7}"
