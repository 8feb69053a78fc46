"""Play many games and report on them for a designer: wins by seat with intervals, length, scores, rule
coverage and branching; and smoke playouts for `meeple check --playouts`.

Shared wins count fractionally: a game won by k seats together gives each of them 1/k of a win (its
`win_share`), so the win rates of the seats add up to the share of games someone won. `wins` counts
outright wins only and `shared_wins` the shared games a seat took part in.
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from meeple.agents import MAX_ACTIONS, Agent, GameTooLong, PlayError, RandomAgent, make_agents, play_game
from meeple.api import Game
from meeple.compile.coverage import BRANCH, CARD, MOVED, TABLE, Coverage
from meeple.compile.game import GameCompiler
from meeple.errors import Diagnostic, RuleRuntimeError, RulesError, SourceSpan
from meeple.runtime.engine import SKIP
from meeple.runtime.invariants import Watch
from meeple.runtime.state import State
from meeple.tools import stats
from meeple.tools.tournament import AgentResult, agent_results, format_agents, seating
from meeple.values import Action

REPORT_VERSION = 3


# ---------------------------------------------------------------- the report


@dataclass
class Distribution:
    """A quantity over the games: mean with its 95% interval, spread, quartiles and a histogram."""

    mean: float
    mean_low: float
    mean_high: float
    sd: float
    min: float
    q1: float
    median: float
    q3: float
    max: float
    histogram: list[tuple[float, float, int]]

    @classmethod
    def of(cls, values: Sequence[float], bins: int = 10) -> Distribution:
        mean, low, high = stats.mean_interval(values)
        q1, median, q3 = stats.quartiles(values)
        return cls(
            mean=round(mean, 3),
            mean_low=round(low, 3),
            mean_high=round(high, 3),
            sd=round(statistics.stdev(values), 3) if len(values) > 1 else 0.0,
            min=min(values),
            q1=q1,
            median=median,
            q3=q3,
            max=max(values),
            histogram=[(round(lo, 3), round(hi, 3), c) for lo, hi, c in stats.histogram(values, bins)],
        )


@dataclass
class SeatReport:
    """How one seat fared: its wins, its win rate with a 95% Wilson interval, and its final scores."""

    seat: str
    agent: str
    wins: int
    shared_wins: int
    win_share: float
    win_rate: float
    win_low: float
    win_high: float
    win_pct: float
    mean_score: float | None
    score_sd: float | None


@dataclass
class TestResult:
    """A two-sided test: its statistic, p-value, and whether the difference is significant at 5%."""

    statistic: float
    p: float
    significant: bool
    approximate: bool = False  # fewer than five expected counts: the approximation is rough

    @classmethod
    def of(cls, test: stats.Test, approximate: bool = False) -> TestResult:
        return cls(round(test.statistic, 4), round(test.p, 6), test.significant, approximate)


@dataclass
class Report:
    """The balance report of `games` games played from seeds first_seed .. first_seed + games - 1.

    Every game counts once: an outright win of one seat, a shared win (several winners) or no winner, so
    `sum(seat.wins) + shared_wins + no_winner == games`. `samples` keeps the per-game figures (for plots
    and comparisons); it is not part of the JSON.
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
    first_player: TestResult
    seat_balance: TestResult
    actions: Distribution
    turns: Distribution
    margin: Distribution | None
    branching: dict[str, float]
    action_counts: dict[str, int]
    never_taken: list[str]
    pseudo_actions: list[str]
    coverage: dict[str, Any]
    seconds: float = 0.0
    report_version: int = REPORT_VERSION
    samples: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    rotated: bool = False
    by_agent: list[AgentResult] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["samples"]
        return data


# ---------------------------------------------------------------- what one game leaves


@dataclass(frozen=True)
class _Played:
    """What the report needs of one finished game (plain data, so a worker process can send it back)."""

    winners: tuple[int, ...]
    scores: tuple[Any, ...]
    actions: int
    turns: int
    used: tuple[str, ...]
    offered: dict[str, int]  # action name -> decisions it was offered at
    decisions: int
    branching_sum: int
    branching_max: int
    cards: dict[str, int]  # card kind -> taken actions naming it
    rules: dict[tuple[str, str], int]  # (category, name) -> runs, from the coverage recorder
    award_changes: dict[str, int]
    award_holders: dict[str, int | None]
    seating: tuple[str, ...] = ()  # the agent in each seat


@dataclass
class _Subject:
    """The game to play, compiled with a coverage recorder when its rule source is known."""

    game: Game
    coverage: Coverage | None
    cards: frozenset[str]


def instrumented(game: Game) -> _Subject:
    """The same game compiled again with coverage counters (a game without its source: none)."""
    cards = frozenset(game.definition.sym.constants.get("cards", ()))
    if game.source is None:
        return _Subject(game, None, cards)
    coverage = Coverage()
    definition = GameCompiler(game.source.data, game.source.index, coverage).compile(
        game.id, game.players, game.definition.options
    )
    counted = Game(definition, game.source)
    counted._start_known = True  # every game runs its set-up, so set-up rules are counted in each
    return _Subject(counted, coverage, cards)


class _Watcher:
    """Wraps a seat's agent: counts the decisions and what was offered, keeps look-ahead out of coverage."""

    def __init__(self, agent: Agent, record: _Record) -> None:
        self.agent, self.record = agent, record
        self.name = agent.name

    def choose(self, state: State, legal: Sequence[Action], rng: Any) -> Action:
        r = self.record
        r.decisions += 1
        r.branching_sum += len(legal)
        r.branching_max = max(r.branching_max, len(legal))
        r.offered.update({a.name for a in legal})
        coverage = r.coverage
        if coverage is None or isinstance(self.agent, RandomAgent):
            return self.agent.choose(state, legal, rng)
        real = coverage.take()
        try:
            return self.agent.choose(state, legal, rng)
        finally:
            coverage.take()  # what trying actions on clones ran is no part of the game
            coverage.hits.update(real)


@dataclass
class _Record:
    coverage: Coverage | None
    decisions: int = 0
    branching_sum: int = 0
    branching_max: int = 0
    offered: Counter[str] = field(default_factory=Counter)
    holders: dict[str, Any] = field(default_factory=dict)
    changes: Counter[str] = field(default_factory=Counter)

    def after(self, state: State, action: Action) -> None:
        if state.awards != self.holders:
            for name, holder in state.awards.items():
                if self.holders.get(name) != holder:
                    self.changes[name] += 1
            self.holders = dict(state.awards)


def _card_names(value: Any, cards: frozenset[str]) -> Iterator[str]:
    if isinstance(value, str):
        if value in cards:
            yield value
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _card_names(v, cards)
    elif hasattr(value, "items"):
        for k, count in value.items():
            if isinstance(k, str) and k in cards:
                yield from [k] * (count if isinstance(count, int) else 1)


def _play_one(
    subject: _Subject,
    seed: int,
    names: list[str],
    max_actions: int,
    rotate: bool = False,
    check: bool = False,
) -> _Played:
    game, coverage = subject.game, subject.coverage
    record = _Record(coverage)
    if coverage is not None:
        coverage.take()
    sitting = seating(names, seed, rotate)
    agents = [_Watcher(a, record) for a in make_agents(sitting, game.players)]
    watch = invariant_watch(game, seed) if check else None

    def after(state: State, action: Action) -> None:
        record.after(state, action)
        if watch is not None:
            watch(state, action)

    state, actions = play_game(game, seed, agents, max_actions=max_actions, on_action=after)
    scores = state.scores
    cards: Counter[str] = Counter()
    if subject.cards:
        for a in actions:
            for _, value in a.params:
                cards.update(_card_names(value, subject.cards))
    return _Played(
        winners=tuple(int(w) for w in state.winners or ()),
        scores=tuple(scores[p] for p in state.players),
        actions=len(actions),
        turns=state.turn_no,
        used=tuple(a.name for a in actions if not a.partial),
        offered=dict(record.offered),
        decisions=record.decisions,
        branching_sum=record.branching_sum,
        branching_max=record.branching_max,
        cards=dict(cards),
        rules=dict(coverage.take()) if coverage is not None else {},
        award_changes=dict(record.changes),
        award_holders={k: None if v is None else int(v) for k, v in state.awards.items()},
        seating=sitting,
    )


def invariant_watch(game: Game, seed: int) -> Watch | None:
    """An `on_action` hook checking the game's invariants after every action (None when it declares none);
    it has checked the starting state already. A broken invariant raises InvariantBroken."""
    if not game.definition.invariants:
        return None
    watch = Watch(f"{game.id} {game.players}p", seed)
    watch(game.new_game(seed=seed))
    return watch


# ---------------------------------------------------------------- playing them all


def simulate(
    game: Game,
    n: int,
    seed: int = 0,
    agents: Sequence[str] = ("random",),
    progress: bool = False,
    max_actions: int = MAX_ACTIONS,
    workers: int = 1,
    rotate: bool | None = None,
    check_invariants: bool = False,
    ray: str | None = None,
) -> Report:
    """Play `n` games (seeds seed .. seed + n - 1) with the named agents and report on them.

    The games are played by the game compiled again with coverage counters. With `workers` > 1 they are
    shared out among that many processes; each game depends only on its seed and the games are tallied in
    seed order, so the report is the same whatever the number of workers.

    With `rotate` (the default when the agents differ) the seats turn by one place from one seed to the
    next, so each agent plays each seat equally often over a multiple of `players` games. With
    `check_invariants` the rule file's invariants are checked after every action: the first broken one
    raises InvariantBroken, located in the rule file and naming the seed and the step. With `ray` (a
    cluster address, or "" for Ray's default) the same batches run as Ray tasks instead.
    """
    if n < 1:
        raise ValueError("simulate needs at least one game")
    names = list(agents) * game.players if len(agents) == 1 else list(agents)
    rotate = len(set(names)) > 1 if rotate is None else rotate
    subject = instrumented(game)
    started = time.perf_counter()
    from tqdm import tqdm  # imported by the commands that show a bar, not by every command's start

    bar = tqdm(total=n, desc=game.id, unit="game", file=sys.stderr, disable=None if progress else True)
    play = functools.partial(
        _play_one, names=names, max_actions=max_actions, rotate=rotate, check=check_invariants
    )
    with bar:
        seeds = range(seed, seed + n)
        if ray is not None:
            from meeple.tools.ray_backend import play_on_ray

            played = list(play_on_ray(game, seeds, play, ray or None, batches, bar.update))
        else:
            played = list(in_workers(subject, seeds, play, workers, bar.update))
    report = _report(subject, seed, names, played, time.perf_counter() - started)
    _add_agents(report, played, rotate)
    return report


def _add_agents(report: Report, played: Sequence[_Played], rotate: bool) -> None:
    """Each agent's results over the seats it took; with rotated seats, the seat table names no agent."""
    report.rotated = rotate
    games = (
        (p.seating, p.winners, {i: v for i, v in enumerate(p.scores) if _number(v) is not None})
        for p in played
    )
    report.by_agent = agent_results(games, report.agents)
    if rotate:
        for seat in report.seats:
            seat.agent = "rotated"
        report.wins_by_agent = {r.agent: r.wins for r in report.by_agent}


# What a worker process plays: the game and the function that plays one seed of it, inherited from the
# parent when the pool forks (so neither needs pickling).
_WORKER: tuple[Any, Callable[[Any, int], Any]] | None = None


def _play_chunk(seeds: range) -> list[Any]:
    assert _WORKER is not None
    game, play = _WORKER
    return [play(game, s) for s in seeds]


def in_workers(
    game: Any, seeds: range, play: Callable[[Any, int], Any], workers: int, done: Callable[[int], Any]
) -> Iterator[Any]:
    """`play(game, seed)` for each seed, yielded in seed order, from this process or `workers` forked ones.

    `done(k)` is told each time k more games are finished (for a progress bar).
    """
    import multiprocessing  # with the process pool: only when games are shared out
    from concurrent.futures import ProcessPoolExecutor

    if workers <= 1 or len(seeds) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for s in seeds:
            yield play(game, s)
            done(1)
        return
    global _WORKER
    _WORKER = (game, play)
    chunks = batches(seeds, workers)
    context = multiprocessing.get_context("fork")
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [pool.submit(_play_chunk, chunk) for chunk in chunks]
            for future in futures:  # in seed order; the pool works ahead
                results = future.result()
                done(len(results))
                yield from results
    finally:
        _WORKER = None


def batches(seeds: range, workers: int) -> list[range]:
    """The seeds cut into batches, about four per worker and at most 25 games each."""
    size = max(1, min(25, len(seeds) // (workers * 4)))
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


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


# ---------------------------------------------------------------- from the games to the report


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _report(subject: _Subject, seed: int, names: list[str], played: list[_Played], seconds: float) -> Report:
    game, n, k = subject.game, len(played), subject.game.players
    wins: Counter[int] = Counter()
    shared: Counter[int] = Counter()
    shares = [[0.0] * n for _ in range(k)]  # seat -> game -> its part of that game's win
    for g, p in enumerate(played):
        if len(p.winners) == 1:
            wins[p.winners[0]] += 1
        elif p.winners:
            shared.update(p.winners)
        for w in p.winners:
            shares[w][g] = 1 / len(p.winners)
    scores = [[_number(p.scores[i]) for p in played] for i in range(k)]
    numeric = all(v is not None for seat in scores for v in seat)
    score_values: list[list[float]] = [[v for v in seat if v is not None] for seat in scores]
    seats = []
    for i in range(k):
        share = sum(shares[i])
        low, high = stats.wilson(share, n)
        seats.append(
            SeatReport(
                seat=f"p{i + 1}",
                agent=names[i],
                wins=wins[i],
                shared_wins=shared[i],
                win_share=round(share, 4),
                win_rate=round(share / n, 4),
                win_low=round(low, 4),
                win_high=round(high, 4),
                win_pct=round(100 * wins[i] / n, 1),
                mean_score=round(statistics.fmean(score_values[i]), 3) if numeric else None,
                score_sd=round(statistics.stdev(score_values[i]), 3) if numeric and n > 1 else None,
            )
        )
    decided = sum(1 for p in played if p.winners)
    by_agent: Counter[str] = Counter()
    for seat in seats:
        by_agent[seat.agent] += seat.wins
    margins = [sorted(seat_scores, reverse=True) for seat_scores in zip(*score_values)] if numeric else []
    used: Counter[str] = Counter()
    for p in played:
        used.update(p.used)
    decisions = sum(p.decisions for p in played)
    defined = list(game.definition.actions)
    return Report(
        game=game.id,
        players=k,
        games=n,
        first_seed=seed,
        agents=names,
        options=game.options,
        seats=seats,
        shared_wins=sum(1 for p in played if len(p.winners) > 1),
        no_winner=n - decided,
        wins_by_agent=dict(by_agent),
        first_player=TestResult.of(
            stats.proportion_vs(sum(shares[0]), decided, 1 / k) if k > 1 else stats.Test(0.0, 1.0),
            approximate=decided / k < 5 or decided * (1 - 1 / k) < 5,
        ),
        seat_balance=TestResult.of(
            stats.chi_square_equal([sum(s) for s in shares]), approximate=decided / k < 5
        ),
        actions=Distribution.of([p.actions for p in played]),
        turns=Distribution.of([p.turns for p in played]),
        margin=Distribution.of([m[0] - m[1] for m in margins]) if margins and k > 1 else None,
        branching={
            "decisions": decisions,
            "mean": round(sum(p.branching_sum for p in played) / decisions, 3) if decisions else 0.0,
            "max": max((p.branching_max for p in played), default=0),
        },
        action_counts=dict(used.most_common()),
        never_taken=[a for a in defined if not used[a]],
        pseudo_actions=pseudo_actions(game),
        coverage=_coverage(subject, played, used),
        seconds=round(seconds, 2),
        samples={
            "actions": [p.actions for p in played],
            "turns": [p.turns for p in played],
            "shares": shares,
            "scores": score_values if numeric else None,
            "margins": [m[0] - m[1] for m in margins] if k > 1 else [],
        },
    )


def _coverage(subject: _Subject, played: list[_Played], used: Counter[str]) -> dict[str, Any]:
    """How often each action, card, branch, table entry and award fired, and the lists of those never."""
    game, coverage = subject.game, subject.coverage
    offered: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    rules: Counter[tuple[str, str]] = Counter()
    changes: Counter[str] = Counter()
    held: Counter[str] = Counter()
    for p in played:
        offered.update(p.offered)
        cards.update(p.cards)
        rules.update(p.rules)
        changes.update(p.award_changes)
        held.update(name for name, holder in p.award_holders.items() if holder is not None)
    parts = coverage.parts if coverage is not None else {BRANCH: {}, CARD: {}, TABLE: {}}
    constant = coverage.constant if coverage is not None else set()
    card_effects = parts[CARD]
    out: dict[str, Any] = {
        "recorded": coverage is not None,
        "actions": {a: {"taken": used[a], "offered": offered[a]} for a in game.definition.actions},
        "cards": {
            c: {
                "played": cards[c],
                "moved": rules[(MOVED, c)],
                "effect": rules[(CARD, c)] if c in card_effects else None,
            }
            for c in game.definition.sym.constants.get("cards", ())
        },
        "branches": {b: {"count": rules[(BRANCH, b)], "where": where} for b, where in parts[BRANCH].items()},
        "tables": {t: {"count": rules[(TABLE, t)], "constant": t in constant} for t in parts[TABLE]},
        "awards": {
            a.name: {"changes": changes[a.name], "games_held_at_end": held[a.name]}
            for a in game.definition.awards
        },
    }
    out["never"] = {
        "actions": [a for a, c in out["actions"].items() if not c["taken"]],
        "actions_never_offered": [a for a, c in out["actions"].items() if not c["offered"]],
        "cards": [c for c, v in out["cards"].items() if not (v["played"] or v["moved"] or v["effect"])],
        "branches": [b for b, v in out["branches"].items() if not v["count"]],
        "tables": [t for t, v in out["tables"].items() if not v["count"] and not v["constant"]],
        "awards": [a for a, v in out["awards"].items() if not v["changes"]],
    }
    return out


# ---------------------------------------------------------------- text


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _verdict(t: TestResult) -> str:
    word = "SIGNIFICANT at 5%" if t.significant else "not significant"
    return f"p = {stats.show_p(t.p)}, {word}{' (few games: rough)' if t.approximate else ''}"


def _figure(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def _distribution_line(label: str, d: Distribution) -> str:
    return (
        f"  {label:<8} mean {d.mean:.1f} [{d.mean_low:.1f}, {d.mean_high:.1f}]  sd {d.sd:.1f}  "
        f"min {_figure(d.min)}  q1 {_figure(d.q1)}  median {_figure(d.median)}  q3 {_figure(d.q3)}  "
        f"max {_figure(d.max)}"
    )


def text_histogram(d: Distribution, width: int = 40) -> list[str]:
    """One line per bin: its range, a bar of # scaled to the fullest bin, and its count."""
    most = max(c for _, _, c in d.histogram) or 1
    labels = [f"{_figure(lo)}-{_figure(hi)}" if lo != hi else _figure(lo) for lo, hi, _ in d.histogram]
    pad = max(len(x) for x in labels)
    return [
        f"    {label:>{pad}} {'#' * round(width * c / most):<{width}} {c}"
        for label, (_, _, c) in zip(labels, d.histogram)
    ]


def _never(names: list[str], limit: int = 12) -> str:
    if not names:
        return "none"
    more = f", … ({len(names) - limit} more)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def format_report(r: Report) -> str:
    """The report as the short tables a designer reads."""
    last = r.first_seed + r.games - 1
    options = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in r.options.items())
    options = options or "defaults"
    agents = ",".join(dict.fromkeys(r.agents))
    lines = [
        f"{r.game}: {r.games} game{'s' if r.games != 1 else ''}, {r.players} players, "
        f"seeds {r.first_seed}..{last}, options {options}, agents {agents} ({r.seconds:.1f} s)",
        "",
        "Wins by seat (95% Wilson interval; a win shared by k seats counts 1/k to each)",
        f"  {'seat':<5} {'agent':<10} {'wins':>6} {'shared':>7} {'win rate':>9} {'95% interval':>17}"
        f" {'mean score':>11} {'sd':>7}",
    ]
    for s in r.seats:
        interval = f"[{_pct(s.win_low)}, {_pct(s.win_high)}]"
        score = f"{s.mean_score:>11.2f} {s.score_sd or 0:>7.2f}" if s.mean_score is not None else f"{'-':>11}"
        lines.append(
            f"  {s.seat:<5} {s.agent:<10} {s.wins:>6} {s.shared_wins:>7} {_pct(s.win_rate):>9}"
            f" {interval:>17} {score}"
        )
    decided = r.games - r.no_winner
    lines.append(f"  shared wins: {r.shared_wins}   no winner: {r.no_winner}")
    if r.players > 1:
        share = r.seats[0].win_share / decided if decided else 0.0
        lines.append(
            f"  first player: {_pct(share)} of {decided} decided games against {_pct(1 / r.players)} "
            f"(z = {r.first_player.statistic:.2f}): {_verdict(r.first_player)}"
        )
        lines.append(
            f"  all seats alike: chi-square = {r.seat_balance.statistic:.2f} ({r.players - 1} df): "
            f"{_verdict(r.seat_balance)}"
        )
    table = format_agents(r.by_agent, r.rotated)
    lines += [""] + table if table else []
    lines += ["", "Game length (mean [95% interval])"]
    lines += [_distribution_line("actions", r.actions), _distribution_line("turns", r.turns)]
    lines += ["  actions per game:", *text_histogram(r.actions)]
    if r.margin is not None:
        m = r.margin
        lines += [
            "",
            "Score spread",
            f"  winner's lead over the runner-up: mean {m.mean:.2f} [{m.mean_low:.2f}, {m.mean_high:.2f}]  "
            f"median {_figure(m.median)}  min {_figure(m.min)}  max {_figure(m.max)}",
        ]
    b = r.branching
    lines += [
        "",
        f"Decisions: {b['decisions']:,}; legal actions per decision: mean {b['mean']:.1f}, max {b['max']}",
    ]
    lines += ["", *format_coverage(r.coverage)]
    lines += ["", "Actions never taken: " + (", ".join(r.never_taken) or "none")]
    lines.append(f"  ({', '.join(r.pseudo_actions)}: pseudo-actions, not rules; not listed)")
    return "\n".join(lines)


def format_coverage(c: dict[str, Any]) -> list[str]:
    """Per kind of rule part: how many fired, and which never did."""
    never = c["never"]
    lines = ["Rule coverage (fired / defined; never fired)"]
    rows = [("actions", "actions", "taken"), ("cards", "cards", None), ("branches", "branches", None)]
    rows += [("tables", "table entries", None), ("awards", "awards", None)]
    for key, label, _ in rows:
        total = len(c[key])
        if not total:
            continue
        if key == "tables":
            total -= sum(1 for v in c[key].values() if v["constant"])
        lines.append(f"  {label:<14} {total - len(never[key]):>4}/{total:<4} never: {_never(never[key])}")
        if key == "actions" and never["actions_never_offered"]:
            lines.append(f"  {'':<14} {'':>9} never even legal: {_never(never['actions_never_offered'])}")
    if not c["recorded"]:
        lines.append("  (branches, card effects and tables not recorded: the game has no rule source)")
    return lines


# ---------------------------------------------------------------- smoke playouts (meeple check --playouts)


def playout_problems(
    game: Game, path: str, n: int, seed: int = 1, max_actions: int = MAX_ACTIONS, progress: bool = False
) -> list[Diagnostic]:
    """Play `n` random games; each distinct failure once, saying in how many games it came."""
    outcomes = play_seeds(game, range(seed, seed + n), max_actions, progress, path)
    return summarise_failures(game, path, outcomes, n)


def play_seeds(
    game: Game, seeds: range, max_actions: int = MAX_ACTIONS, progress: bool = False, label: str = ""
) -> dict[int, Diagnostic | None]:
    """A random game from each seed in order: None when it ended normally, else what went wrong. Stops
    after a game that would not end, since every later one would run just as long."""
    outcomes: dict[int, Diagnostic | None] = {}
    from tqdm import tqdm

    bar = tqdm(seeds, desc=label, unit="game", file=sys.stderr, disable=not progress or None, leave=False)
    for s in bar:
        outcomes[s] = problem = playout(game, s, max_actions)
        if problem is not None and problem.code == "playout/no-end":
            break
    return outcomes


def summarise_failures(
    game: Game, path: str, outcomes: dict[int, Diagnostic | None], n: int
) -> list[Diagnostic]:
    """Each distinct failure among `outcomes` once, with its first seed and how many of `n` games it hit."""
    failures: dict[tuple[Any, ...], tuple[Diagnostic, int, int]] = {}
    for s, problem in outcomes.items():
        if problem is not None:
            key = (problem.code, problem.message, problem.span)
            d, count, first = failures.get(key, (problem, 0, s))
            failures[key] = (d, count + 1, first)
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
