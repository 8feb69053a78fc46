"""Tournaments: seats rotate game by game, each agent's wins come with a 95% Wilson interval."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.agents import make_agent, make_agents, split_specs
from meeple.agents.spec import parse_spec
from meeple.tools.cli import main
from meeple.tools.simulate import format_report, simulate
from meeple.tools.tournament import agent_results, seating, wilson

MCTS = "mcts:iterations=4:depth=2"


@pytest.fixture(scope="module")
def pig() -> meeple.Game:
    return meeple.load("examples/tutorial/pig.yaml")


# ---------------------------------------------------------------- intervals and seats


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (45, 100, 0.3561, 0.5476)],
)
def test_wilson_intervals_match_the_textbook_values(wins: int, n: int, low: float, high: float) -> None:
    assert wilson(wins, n) == pytest.approx((low, high), abs=1e-4)


@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_a_wilson_interval_holds_the_observed_rate(case: tuple[int, int]) -> None:
    wins, n = case
    low, high = wilson(wins, n)
    assert 0 <= low <= wins / n <= high <= 1


@given(st.lists(st.sampled_from(["a", "b", "c"]), min_size=2, max_size=5), st.integers(0, 1000))
def test_rotated_seats_give_every_agent_every_seat_equally_often(names: list[str], first: int) -> None:
    players = len(names)
    seats: Counter[tuple[int, str]] = Counter()
    for seed in range(first, first + 3 * players):
        for seat, agent in enumerate(seating(names, seed, rotate=True)):
            seats[seat, agent] += 1
    for agent, copies in Counter(names).items():
        assert all(seats[seat, agent] == 3 * copies for seat in range(players))


def test_without_rotation_the_seats_stay_as_given() -> None:
    assert seating(["a", "b", "c"], 7, rotate=False) == ("a", "b", "c")


def test_agent_results_count_wins_shares_and_scores_per_seat_taken() -> None:
    games = [
        (("m", "r"), (0,), {0: 5, 1: 1}),
        (("r", "m"), (0, 1), {0: 2, 1: 2}),
        (("r", "m"), (), {0: 0, 1: 3}),
    ]
    m, r = agent_results(games)
    assert (m.agent, m.seats, m.wins, m.shared_wins, m.win_share, m.mean_score) == ("m", 3, 1, 1, 1.5, 3.33)
    assert (r.agent, r.seats, r.wins, r.shared_wins, r.win_share) == ("r", 3, 0, 1, 0.5)
    assert (m.low_pct, m.high_pct) == (round(100 * wilson(1, 3)[0], 1), round(100 * wilson(1, 3)[1], 1))


# ---------------------------------------------------------------- agent specs


def test_agent_specs_split_on_commas_and_carry_their_options() -> None:
    assert split_specs("mcts:iterations=200,depth=20,random") == ["mcts:iterations=200:depth=20", "random"]
    assert split_specs(" greedy , random ") == ["greedy", "random"]
    assert parse_spec("mcts:iterations=50:c=0.5:determinize=no:depth=none") == (
        "mcts",
        {"iterations": 50, "c": 0.5, "determinize": False, "depth": None},
    )


def test_an_agent_is_made_with_its_options_and_named_by_its_spec() -> None:
    agent = make_agent("mcts:iterations=7:depth=3")
    assert agent.name == "mcts:iterations=7:depth=3"
    assert (agent.iterations, agent.depth) == (7, 3)  # type: ignore[attr-defined]
    assert make_agent("greedy:max_branching=5").max_branching == 5  # type: ignore[attr-defined]
    assert [a.name for a in make_agents(["mcts", "random"], 2)] == ["mcts", "random"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("random:speed=3", "agent 'random' has no option 'speed' (it takes no options)"),
        ("mcts:iteration=3", "agent 'mcts' has no option 'iteration' (its options are iterations,"),
        ("mcts:iterations=0", "agent 'mcts:iterations=0': iterations must be a whole number of at least 1"),
        ("mcts:fast", "agent 'mcts:fast': expected NAME=VALUE after ':', got 'fast'"),
        ("robot", "unknown agent 'robot' (known: random, greedy, mcts, ismcts)"),
    ],
)
def test_a_bad_agent_spec_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        make_agent(text)


def test_an_option_before_any_agent_is_refused() -> None:
    with pytest.raises(ValueError, match="comes before any agent"):
        split_specs("depth=3,mcts")


# ---------------------------------------------------------------- simulate


def test_mixed_agents_rotate_by_default_and_each_takes_every_seat(pig: meeple.Game) -> None:
    report = simulate(pig, 4, seed=1, agents=[MCTS, "random"])
    assert report.rotated and [s.agent for s in report.seats] == ["rotated", "rotated"]
    by_agent = {r.agent: r for r in report.by_agent}
    assert set(by_agent) == {MCTS, "random"} and all(r.seats == 4 for r in by_agent.values())
    outright = sum(s.wins for s in report.seats)
    assert sum(r.wins for r in report.by_agent) == outright
    assert report.wins_by_agent == {r.agent: r.wins for r in report.by_agent}


def test_rotation_can_be_turned_off_and_on(pig: meeple.Game) -> None:
    fixed = simulate(pig, 2, seed=1, agents=[MCTS, "random"], rotate=False)
    assert not fixed.rotated and [s.agent for s in fixed.seats] == [MCTS, "random"]
    same = simulate(pig, 2, seed=1, agents=["random"], rotate=True)
    assert same.rotated and [r.agent for r in same.by_agent] == ["random"]


def test_a_tournament_gives_the_same_report_in_one_or_two_processes(pig: meeple.Game) -> None:
    one = simulate(pig, 4, seed=5, agents=[MCTS, "random"]).to_dict()
    two = simulate(pig, 4, seed=5, agents=[MCTS, "random"], workers=2).to_dict()
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_the_text_report_shows_each_agent_with_its_interval(pig: meeple.Game) -> None:
    text = format_report(simulate(pig, 2, seed=1, agents=[MCTS, "random"]))
    assert "Wins by agent (seats rotated game by game)" in text and "95% interval" in text
    row = next(line for line in text.splitlines() if line.strip().startswith(MCTS))
    assert "%" in row and re.search(r"\[\d+\.\d%, \d+\.\d%\]", row)


def test_the_cli_runs_a_tournament_and_reports_agents_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "simulate",
            "examples/tutorial/pig.yaml",
            "-n",
            "2",
            "--no-progress",
            "--json",
            "-a",
            f"{MCTS},random",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["rotated"] is True
    assert [r["agent"] for r in data["by_agent"]] == [MCTS, "random"]
    assert all({"low_pct", "high_pct", "win_share"} <= set(r) for r in data["by_agent"])


def test_the_cli_keeps_fixed_seats_with_no_rotate(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "examples/tutorial/pig.yaml", "-n", "1", "--no-progress", "--json", "--no-rotate"]
    assert main([*args, "-a", "random,greedy"]) == 0
    assert json.loads(capsys.readouterr().out)["rotated"] is False


@pytest.mark.parametrize("agents", ["mcts:iterations=0,random", "mcts:bogus=1", "robot"])
def test_the_cli_refuses_a_bad_agent_spec_with_a_usage_error(
    agents: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "examples/tutorial/pig.yaml", "-n", "1", "-a", agents]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--agents" in err
