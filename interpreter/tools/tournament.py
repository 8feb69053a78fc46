"""Agents against each other: seats rotated game by game, each agent's win rate with a 95% interval."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from meeple.tools.stats import wilson


def seating(names: Sequence[str], seed: int, rotate: bool) -> tuple[str, ...]:
    """Who sits where in the game of `seed`: with `rotate`, the list turned by `seed` places, so that over
    any run of as many consecutive seeds as there are seats every agent sits in every seat once."""
    if not rotate or not names:
        return tuple(names)
    turn = seed % len(names)
    return tuple(names[(seat + turn) % len(names)] for seat in range(len(names)))


@dataclass
class AgentResult:
    """How one agent fared over all the seats it took: outright wins with a 95% Wilson interval of their
    rate, wins shared with others, its win share (1/k of a win shared by k) and its mean final score."""

    agent: str
    seats: int
    wins: int
    win_pct: float
    low_pct: float
    high_pct: float
    shared_wins: int
    win_share: float
    mean_score: float


def agent_results(
    games: Iterable[tuple[Sequence[str], Sequence[int], dict[int, float]]],
    order: Sequence[str] = (),
) -> list[AgentResult]:
    """Each agent's results from per-game records (who sat where, the winning seats, the seats' scores),
    the agents of `order` first, in that order. An agent in several seats of one game counts each seat."""
    seats: dict[str, int] = dict.fromkeys(order, 0)
    wins: dict[str, int] = {}
    shared: dict[str, int] = {}
    share: dict[str, float] = {}
    scores: dict[str, float] = {}
    for sitting, winners, score in games:
        for seat, agent in enumerate(sitting):
            seats[agent] = seats.get(agent, 0) + 1
            scores[agent] = scores.get(agent, 0.0) + float(score.get(seat, 0))
            if seat in winners:
                outright = len(winners) == 1
                wins[agent] = wins.get(agent, 0) + outright
                shared[agent] = shared.get(agent, 0) + (not outright)
                share[agent] = share.get(agent, 0.0) + 1 / len(winners)
    results = []
    for agent, n in seats.items():
        if not n:
            continue
        low, high = wilson(wins.get(agent, 0), n)
        results.append(
            AgentResult(
                agent=agent,
                seats=n,
                wins=wins.get(agent, 0),
                win_pct=round(100 * wins.get(agent, 0) / n, 1),
                low_pct=round(100 * low, 1),
                high_pct=round(100 * high, 1),
                shared_wins=shared.get(agent, 0),
                win_share=round(share.get(agent, 0.0), 2),
                mean_score=round(scores.get(agent, 0.0) / n, 2),
            )
        )
    return results


def format_agents(results: Sequence[AgentResult], rotated: bool) -> list[str]:
    """The per-agent table, for a report with more than one kind of agent."""
    if len(results) < 2:
        return []
    lines = [
        "Wins by agent" + (" (seats rotated game by game)" if rotated else " (fixed seats)"),
        f"  {'agent':<24} {'seats':>6} {'wins':>6} {'%':>7}  {'95% interval':<16} {'shared':>7} "
        f"{'win share':>9} {'mean score':>11}",
    ]
    for r in results:
        interval = f"[{r.low_pct:.1f}%, {r.high_pct:.1f}%]"
        lines.append(
            f"  {r.agent:<24} {r.seats:>6} {r.wins:>6} {r.win_pct:>6.1f}%  {interval:<16} "
            f"{r.shared_wins:>7} {r.win_share:>9.2f} {r.mean_score:>11.2f}"
        )
    return lines
