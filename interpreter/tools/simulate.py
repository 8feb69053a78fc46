"""Play many games: a balance report (wins by seat and agent, length, actions never taken), smoke playouts."""

from __future__ import annotations

import multiprocessing
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from tqdm import tqdm

from meeple.agents import MAX_ACTIONS, GameTooLong, PlayError, RandomAgent, make_agents, play_game
from meeple.api import Game
from meeple.errors import Diagnostic, RuleRuntimeError, RulesError, SourceSpan
from meeple.runtime.engine import SKIP


@dataclass
class Spread:
    """Mean, least and most of a quantity over the games."""

    mean: float
    min: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        return cls(round(statistics.fmean(values), 2), min(values), max(values))


@dataclass
class SeatReport:
    """How one seat fared: outright wins, wins shared with others, and its mean final score."""

    seat: str
    agent: str
    wins: int
    win_pct: float
    shared_wins: int
    mean_score: float


@dataclass
class Report:
    """The balance report of `games` games played from seeds first_seed .. first_seed + games - 1.

    Every game counts once: an outright win of one seat, a shared win (several winners) or no winner, so
    `sum(seat.wins) + shared_wins + no_winner == games`.
    """

    game: str
    players: int
    games: int
    first_seed: int
    agents: list[str]
    options: dict[str, Any]
    seats: list[SeatReport]
    shared_wins: int
    no_winner: int
    wins_by_agent: dict[str, int]
    actions: Spread
    turns: Spread
    action_counts: dict[str, int]
    never_taken: list[str]
    pseudo_actions: list[str]
    seconds: float = field(default=0.0)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Tally:
    wins: Counter[int] = field(default_factory=Counter)
    shared: Counter[int] = field(default_factory=Counter)
    score_sums: Counter[int] = field(default_factory=Counter)
    shared_games: int = 0
    no_winner: int = 0
    lengths: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    used: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class _Played:
    """What the report needs of one finished game (plain data, so a worker process can send it back)."""

    winners: tuple[int, ...]
    scores: dict[int, Any]
    actions: int
    turns: int
    used: tuple[str, ...]


def simulate(
    game: Game,
    n: int,
    seed: int = 0,
    agents: Sequence[str] = ("random",),
    progress: bool = False,
    max_actions: int = MAX_ACTIONS,
    workers: int = 1,
) -> Report:
    """Play `n` games (seeds seed .. seed + n - 1) with the named agents and report on them.

    With `workers` > 1 the games are shared out among that many processes; each game depends only on its
    seed and the games are tallied in seed order, so the report is the same whatever the number of workers.
    """
    if n < 1:
        raise ValueError("simulate needs at least one game")
    names = list(agents) * game.players if len(agents) == 1 else list(agents)
    tally = _Tally()
    started = time.perf_counter()
    bar = tqdm(total=n, desc=game.id, unit="game", file=sys.stderr, disable=None if progress else True)
    with bar:
        for played in _play_all(game, range(seed, seed + n), names, max_actions, workers, bar.update):
            _count(tally, played)
    return _report(game, n, seed, names, tally, time.perf_counter() - started)


def _play_one(game: Game, seed: int, names: list[str], max_actions: int) -> _Played:
    state, actions = play_game(game, seed, make_agents(names, game.players), max_actions=max_actions)
    return _Played(
        winners=tuple(int(w) for w in state.winners or ()),
        scores={int(p): v for p, v in state.scores.items()},
        actions=len(actions),
        turns=state.turn_no,
        used=tuple(a.name for a in actions if not a.partial),
    )


def _count(tally: _Tally, played: _Played) -> None:
    if not played.winners:
        tally.no_winner += 1
    elif len(played.winners) == 1:
        tally.wins[played.winners[0]] += 1
    else:
        tally.shared_games += 1
        tally.shared.update(played.winners)
    tally.score_sums.update(played.scores)
    tally.lengths.append(played.actions)
    tally.turns.append(played.turns)
    tally.used.update(played.used)


# The game a worker process plays: inherited from the parent when the pool forks.
_WORKER_GAME: Game | None = None


def _play_chunk(seeds: range, names: list[str], max_actions: int) -> list[_Played]:
    assert _WORKER_GAME is not None
    return [_play_one(_WORKER_GAME, s, names, max_actions) for s in seeds]


def _play_all(game: Game, seeds: range, names: list[str], max_actions: int, workers: int, done: Any) -> Any:
    """Each game's result in seed order, from this process or from `workers` forked ones."""
    if workers <= 1 or len(seeds) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for s in seeds:
            yield _play_one(game, s, names, max_actions)
            done(1)
        return
    global _WORKER_GAME
    _WORKER_GAME = game
    size = max(1, min(25, len(seeds) // (workers * 4)))
    chunks = [seeds[i : i + size] for i in range(0, len(seeds), size)]
    context = multiprocessing.get_context("fork")
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [pool.submit(_play_chunk, chunk, names, max_actions) for chunk in chunks]
            for future in futures:  # in seed order; the pool works ahead
                results = future.result()
                done(len(results))
                yield from results
    finally:
        _WORKER_GAME = None


def pseudo_actions(game: Game) -> list[str]:
    """Names the engine offers that no rule defines: `skip` and each `choose … until:` name."""
    actions = game.definition.actions
    names = {
        step.until
        for phase in game.definition.phases
        for step in phase.steps
        if step.until and step.until not in actions
    }
    return sorted(names | {SKIP})


def _report(game: Game, n: int, seed: int, names: list[str], tally: _Tally, seconds: float) -> Report:
    seats = [
        SeatReport(
            seat=f"p{i + 1}",
            agent=names[i],
            wins=tally.wins[i],
            win_pct=round(100 * tally.wins[i] / n, 1),
            shared_wins=tally.shared[i],
            mean_score=round(tally.score_sums[i] / n, 2),
        )
        for i in range(game.players)
    ]
    by_agent: Counter[str] = Counter()
    for seat in seats:
        by_agent[seat.agent] += seat.wins
    defined = list(game.definition.actions)
    return Report(
        game=game.id,
        players=game.players,
        games=n,
        first_seed=seed,
        agents=names,
        options=game.options,
        seats=seats,
        shared_wins=tally.shared_games,
        no_winner=tally.no_winner,
        wins_by_agent=dict(by_agent),
        actions=Spread.of(tally.lengths),
        turns=Spread.of(tally.turns),
        action_counts=dict(tally.used.most_common()),
        never_taken=[a for a in defined if not tally.used[a]],
        pseudo_actions=pseudo_actions(game),
        seconds=round(seconds, 2),
    )


# ---------------------------------------------------------------- text


def format_report(r: Report) -> str:
    """The report as the few short tables a designer reads."""
    last = r.first_seed + r.games - 1
    options = ", ".join(f"{k}={v}" for k, v in r.options.items()) or "defaults"
    lines = [
        f"{r.game}: {r.games} game{'s' if r.games != 1 else ''}, {r.players} players, "
        f"seeds {r.first_seed}..{last}, options {options} ({r.seconds:.1f} s)",
        "",
        "Wins by seat",
        f"  {'seat':<5} {'agent':<10} {'wins':>6} {'%':>7} {'shared':>7} {'mean score':>11}",
    ]
    lines += [
        f"  {s.seat:<5} {s.agent:<10} {s.wins:>6} {s.win_pct:>6.1f}% {s.shared_wins:>7} {s.mean_score:>11.2f}"
        for s in r.seats
    ]
    lines.append(f"  shared wins: {r.shared_wins}   no winner: {r.no_winner}")
    if len(r.wins_by_agent) > 1:
        lines += ["", "Wins by agent"]
        lines += [f"  {name:<10} {wins:>6}" for name, wins in r.wins_by_agent.items()]
    lines += ["", "Game length"]
    for label, spread in (("actions", r.actions), ("turns", r.turns)):
        lines.append(f"  {label:<8} mean {spread.mean:>8.1f}   min {spread.min:>6}   max {spread.max:>6}")
    lines += ["", "Actions never taken: " + (", ".join(r.never_taken) or "none")]
    lines.append(f"  ({', '.join(r.pseudo_actions)}: pseudo-actions, not rules; not listed)")
    return "\n".join(lines)


# ---------------------------------------------------------------- smoke playouts (meeple check --playouts)


def playout_problems(
    game: Game, path: str, n: int, seed: int = 1, max_actions: int = MAX_ACTIONS, progress: bool = False
) -> list[Diagnostic]:
    """Play `n` random games; each distinct failure once, saying in how many games it came."""
    failures: dict[tuple[Any, ...], tuple[Diagnostic, int, int]] = {}
    seeds = tqdm(
        range(seed, seed + n),
        desc=path,
        unit="game",
        file=sys.stderr,
        disable=not progress or None,
        leave=False,
    )
    for s in seeds:
        problem = playout(game, s, max_actions)
        if problem is not None:
            key = (problem.code, problem.message, problem.span)
            d, count, first = failures.get(key, (problem, 0, s))
            failures[key] = (d, count + 1, first)
            if problem.code == "playout/no-end":
                break  # every further game would run just as long
    return [
        Diagnostic(
            d.code,
            f"random {game.players}-player playout failed (seed {first}"
            f"{f', and {count - 1} more of {n}' if count > 1 else ''}): {d.message}",
            d.span or SourceSpan(path, 1, 1),
            d.hint or f"see it with: meeple run {path} --players {game.players} --seed {first}",
        )
        for d, count, first in failures.values()
    ]


def playout(game: Game, seed: int, max_actions: int = MAX_ACTIONS) -> Diagnostic | None:
    """None when a random game from `seed` ends normally; otherwise what went wrong."""
    try:
        play_game(game, seed, [RandomAgent() for _ in range(game.players)], max_actions=max_actions)
    except RulesError as err:
        return err.diagnostics[0] if err.diagnostics else Diagnostic("playout/crash", str(err))
    except RuleRuntimeError as err:
        return runtime_diagnostic(err)
    except PlayError as err:
        return Diagnostic("playout/no-end" if isinstance(err, GameTooLong) else "playout/stalled", str(err))
    except Exception as err:  # a smoke test reports every failure as a finding, whatever its kind
        return Diagnostic("playout/crash", f"{type(err).__name__}: {err}")
    return None


def runtime_diagnostic(err: RuleRuntimeError) -> Diagnostic:
    """A rule that failed while running, named by its path and at the place it is written."""
    message = f"in {err.rule}: {err.message}" if err.rule else err.message
    return Diagnostic("rules/runtime", message, err.span)
