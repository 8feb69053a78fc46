"""The greedy bot's `bots:` section: checked and compiled like any expression, used to judge positions,
and, in every seed game, good enough that greedy beats random players clearly."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
import yaml

import meeple
from meeple.agents import GreedyAgent, make_agents, play_game

GAMES = Path(__file__).resolve().parents[2] / "games"

GOLD = """game:
  name: Gold
  players: {min: 2, max: 2}
components:
  resources: [gold, junk]
actions:
  take:
    params: {res: resources}
    effect: [gain 1 res]
  pick:
    stepwise: true
    params: {a: "[1, 2, 3]", b: "[3, 1, 2]"}
    effect: [gain (a * b) gold]
flow:
  - phase: main
    turns: clockwise
    do:
      - choose: [take, pick]
scoring:
  score: p.junk
"""
EVAL = "bots:\n  greedy:\n    eval: p.gold\n"
BOTS_LINE = len(GOLD.splitlines()) + 1  # where a `bots:` section appended to GOLD starts


def load(tmp_path: Path, text: str) -> meeple.Game:
    path = tmp_path / "gold.yaml"
    path.write_text(text, encoding="utf-8")
    return meeple.load(path, players=2)


def picks(state: meeple.State, seeds: int = 12) -> set[str]:
    legal = state.legal_actions()
    return {str(GreedyAgent().choose(state, legal, random.Random(seed))) for seed in range(seeds)}


def test_without_a_bots_section_greedy_goes_by_the_score(tmp_path: Path) -> None:
    assert picks(load(tmp_path, GOLD).new_game(seed=1)) == {"take(res=junk)"}


def test_the_evaluation_of_the_bots_section_decides(tmp_path: Path) -> None:
    state = load(tmp_path, GOLD + EVAL).new_game(seed=1)
    assert picks(state) == {"pick(…)"}  # worth its best completion: 3 * 3 gold


def test_each_step_of_a_stepwise_action_is_worth_its_best_completion(tmp_path: Path) -> None:
    state = load(tmp_path, GOLD + EVAL).new_game(seed=1).apply("pick(…)")
    assert picks(state) == {"pick(a=3, …)"}
    state.apply("pick(a=3, …)")
    assert picks(state) == {"pick(a=3, b=3)"}


IDLE = """game:
  name: Idle
  players: {min: 2, max: 2}
components:
  resources: [gold]
actions:
  idle:
    effect: [gain 1 gold]
flow:
  - phase: main
    turns: clockwise
    repeat: true
    until: "sum(p.gold for p in players) >= 30"
    do:
      - choose: [idle]
        until: end_turn
scoring:
  score: p.gold
"""


def test_a_bot_that_keeps_deciding_in_one_turn_ends_it_after_enough_decisions(tmp_path: Path) -> None:
    path = tmp_path / "idle.yaml"
    path.write_text(IDLE, encoding="utf-8")
    game = meeple.load(path, players=2)
    state, actions = play_game(
        game, 1, [GreedyAgent(max_turn_decisions=5), GreedyAgent(max_turn_decisions=5)]
    )
    assert [str(a) for a in actions[:12]] == (["idle"] * 5 + ["end_turn"]) * 2
    assert state.is_over


def test_a_mistake_in_the_evaluation_is_located(tmp_path: Path) -> None:
    path = tmp_path / "gold.yaml"
    path.write_text(GOLD + "bots:\n  greedy:\n    eval: p.gould + 1\n", encoding="utf-8")
    found = meeple.check(path)
    assert [(d.code, d.span.line, d.span.col) for d in found if d.span] == [
        ("name/unknown-player-field", BOTS_LINE + 2, 13)
    ]
    assert "did you mean 'gold'" in (found[0].hint or "")


@pytest.mark.parametrize(
    ("section", "code"),
    [
        ("bots:\n  greedy:\n    evaluate: p.gold\n", "schema/"),
        ("bots:\n  greedie: {eval: p.gold}\n", "schema/"),
    ],
)
def test_a_misshapen_bots_section_is_a_schema_error(tmp_path: Path, section: str, code: str) -> None:
    path = tmp_path / "gold.yaml"
    path.write_text(GOLD + section, encoding="utf-8")
    found = meeple.check(path)
    assert found and all(d.code.startswith(code) for d in found)
    assert found[0].span is not None and found[0].span.line in (BOTS_LINE + 1, BOTS_LINE + 2)


def test_every_seed_game_has_a_greedy_evaluation() -> None:
    for path in sorted(GAMES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert "eval" in ((data.get("bots") or {}).get("greedy") or {}), path.name


# ---------------------------------------------------------------- greedy against random


def upper_tail(wins: int, n: int, p: float) -> float:
    """P(X >= wins) for X ~ Binomial(n, p): how likely a random seat wins this often."""
    return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(wins, n + 1))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (wins + z * z / 2) / (n + z * z)
    half = z * math.sqrt(wins * (n - wins) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def greedy_sole_wins(name: str, players: int, games: int, options: dict[str, object]) -> int:
    """Games won by greedy alone, its seat rotated, every other seat random; seeds 1..games."""
    game = meeple.load(name, players=players, options=options)
    wins = 0
    for i in range(games):
        names = ["random"] * players
        names[i % players] = "greedy"
        state, _ = play_game(game, i + 1, make_agents(names, players))
        wins += state.winners == [i % players]
    return wins


# (game, players, games, options): small enough to run in every test session.
FAST = [
    ("climbers_of_verdon", 2, 12, {}),
    ("tabletop_climber", 3, 12, {}),
    ("pluvionauts", 2, 12, {}),
    ("k2", 2, 12, {}),
    ("caravan_conquest", 2, 12, {}),
]


def check_beats_random(name: str, players: int, games: int, options: dict[str, object], alpha: float) -> None:
    wins = greedy_sole_wins(name, players, games, options)
    p_value = upper_tail(wins, games, 1 / players)
    low, high = wilson(wins, games)
    assert p_value < alpha, (
        f"{name}: greedy won {wins} of {games} ({low:.2f}..{high:.2f} at 95%) against a chance of "
        f"{1 / players:.2f}; p = {p_value:.3f}"
    )


@pytest.mark.parametrize(("name", "players", "games", "options"), FAST, ids=[g[0] for g in FAST])
def test_greedy_beats_random_players(name: str, players: int, games: int, options: dict[str, object]) -> None:
    check_beats_random(name, players, games, options, alpha=0.05)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), [(g[0], g[1]) for g in FAST], ids=[g[0] for g in FAST])
def test_greedy_beats_random_players_over_many_games(name: str, players: int) -> None:
    check_beats_random(name, players, 60, {}, alpha=0.001)


def test_the_binomial_tail_and_interval() -> None:
    assert upper_tail(0, 10, 0.3) == pytest.approx(1.0)
    assert upper_tail(10, 10, 0.5) == pytest.approx(1 / 1024)
    low, high = wilson(30, 40)
    assert 0.59 < low < 0.62 and 0.85 < high < 0.87
