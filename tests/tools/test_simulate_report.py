"""The designer's report: JSON keys, rule coverage, workers, --compare and the HTML page.

tests/tools/rules/race.yaml is a small race made for these tests: its `rest` action is never legal, a d3
never shows the 4 its table and one `if:` wait for, and its jinx card lies in no zone, so the coverage
must name exactly those. race_short.yaml extends it with a far lower target.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import meeple
from meeple.agents import make_agents, play_game
from meeple.compile.coverage import CountingTable
from meeple.tools.cli import main
from meeple.tools.compare import compare
from meeple.tools.report_html import report_html
from meeple.tools.simulate import Report, instrumented, simulate

RULES = Path(__file__).resolve().parent / "rules"
RACE, SHORT = str(RULES / "race.yaml"), str(RULES / "race_short.yaml")
PIG = str(Path(__file__).resolve().parents[2] / "examples" / "tutorial" / "pig.yaml")

TOP_KEYS = {
    "report_version", "game", "players", "games", "first_seed", "agents", "options", "seats", "shared_wins",
    "no_winner", "wins_by_agent", "first_player", "seat_balance", "actions", "turns", "margin", "branching",
    "action_counts", "never_taken", "pseudo_actions", "coverage", "seconds", "rotated", "by_agent",
}  # fmt: skip
AGENT_KEYS = {
    "agent", "seats", "wins", "win_pct", "low_pct", "high_pct", "shared_wins", "win_share", "mean_score",
}  # fmt: skip
SEAT_KEYS = {
    "seat", "agent", "wins", "shared_wins", "win_share", "win_rate", "win_low", "win_high", "win_pct",
    "mean_score", "score_sd",
}  # fmt: skip
DISTRIBUTION_KEYS = {"mean", "mean_low", "mean_high", "sd", "min", "q1", "median", "q3", "max", "histogram"}
TEST_KEYS = {"statistic", "p", "significant", "approximate"}
COVERAGE_KEYS = {"recorded", "actions", "cards", "branches", "tables", "awards", "never"}
NEVER_KEYS = {"actions", "actions_never_offered", "cards", "branches", "tables", "awards"}


@pytest.fixture(scope="module")
def race() -> meeple.Game:
    return meeple.load(RACE, players=2)


@pytest.fixture(scope="module")
def race_report(race: meeple.Game) -> Report:
    return simulate(race, 60, seed=1)


def without_time(report: Report) -> dict[str, object]:
    return {**report.to_dict(), "seconds": 0}


# ---------------------------------------------------------------- JSON


def test_the_json_report_has_its_documented_keys(race_report: Report) -> None:
    data = json.loads(json.dumps(race_report.to_dict()))
    assert set(data) == TOP_KEYS and data["report_version"] == 3
    assert all(set(seat) == SEAT_KEYS for seat in data["seats"])
    assert data["by_agent"] and all(set(agent) == AGENT_KEYS for agent in data["by_agent"])
    assert set(data["actions"]) == set(data["turns"]) == set(data["margin"]) == DISTRIBUTION_KEYS
    assert set(data["first_player"]) == set(data["seat_balance"]) == TEST_KEYS
    assert set(data["branching"]) == {"decisions", "mean", "max"}
    assert set(data["coverage"]) == COVERAGE_KEYS and set(data["coverage"]["never"]) == NEVER_KEYS


def test_win_rates_add_up_to_the_games_someone_won(race_report: Report) -> None:
    decided = race_report.games - race_report.no_winner
    assert sum(s.win_share for s in race_report.seats) == pytest.approx(decided)
    for s in race_report.seats:
        assert s.win_low <= s.win_rate <= s.win_high


TIE = """
game: {name: Tie, players: {min: 2, max: 2}}
components: {resources: [point]}
actions:
  call_it_a_draw: {effect: [end game]}
flow:
  - phase: once
    turns: clockwise
    repeat: true
    do:
      - choose: [call_it_a_draw]
scoring:
  score: p.point
"""


def test_a_shared_win_counts_a_part_to_each_winner(tmp_path: Path) -> None:
    tie = tmp_path / "tie.yaml"  # the first move ends the game level: the two seats share the win
    tie.write_text(TIE)
    report = simulate(meeple.load(str(tie), players=2), 4, seed=1)
    assert report.shared_wins == 4 and [s.wins for s in report.seats] == [0, 0]
    assert [s.win_share for s in report.seats] == [2.0, 2.0] and [s.shared_wins for s in report.seats] == [
        4,
        4,
    ]
    assert [s.win_rate for s in report.seats] == [0.5, 0.5] and not report.first_player.significant


def test_the_length_distribution_agrees_with_the_samples(race_report: Report) -> None:
    lengths = race_report.samples["actions"]
    d = race_report.actions
    assert (d.min, d.max) == (min(lengths), max(lengths)) and d.mean_low <= d.mean <= d.mean_high
    assert sum(c for _, _, c in d.histogram) == len(lengths) == race_report.games
    assert d.q1 <= d.median <= d.q3


def test_branching_counts_every_decision(race_report: Report) -> None:
    # In the race only `step` is ever legal, so every decision offers one action and every action is one.
    assert race_report.branching == {"decisions": sum(race_report.samples["actions"]), "mean": 1.0, "max": 1}


def test_a_first_seat_that_wins_most_races_is_flagged() -> None:
    # Moving first in a race to 4 points wins far more than half the games (80% over 200).
    report = simulate(meeple.load(SHORT, players=2), 200, seed=1)
    assert report.seats[0].win_rate > 0.7 and report.first_player.significant


# ---------------------------------------------------------------- coverage


def test_coverage_names_exactly_the_rules_that_never_fired(race_report: Report) -> None:
    never = race_report.coverage["never"]
    assert never["actions"] == ["rest"] and never["actions_never_offered"] == ["rest"]
    assert never["cards"] == ["jinx"]
    assert never["branches"] == ["actions.step.effect[3] then", "setup[0] else"]
    assert never["tables"] == ["stride[4]"]
    cov = race_report.coverage
    assert cov["actions"]["step"]["taken"] == sum(race_report.samples["actions"])
    assert cov["cards"]["boost"]["moved"] > 0 and cov["cards"]["boost"]["effect"] == 0
    assert cov["branches"]["actions.step.effect[3] else"]["where"].endswith("race.yaml:28")


def test_set_up_rules_are_counted_in_every_game(race_report: Report) -> None:
    branches = race_report.coverage["branches"]
    assert branches["setup[0] then"]["count"] == race_report.games and branches["setup[0] else"]["count"] == 0


def test_branch_and_table_counts_add_up_to_the_steps_taken(race_report: Report) -> None:
    cov, steps = race_report.coverage, race_report.coverage["actions"]["step"]["taken"]
    branch = cov["branches"]
    assert (
        branch["actions.step.effect[2] then"]["count"] + branch["actions.step.effect[2] else"]["count"]
        == steps
    )
    assert sum(cov["tables"][f"stride[{k}]"]["count"] for k in (1, 2, 3)) == steps
    assert cov["tables"]["stride[3]"]["count"] == branch["actions.step.effect[2] then"]["count"]


def test_the_text_report_lists_what_never_fired(race_report: Report) -> None:
    from meeple.tools.simulate import format_report

    text = format_report(race_report)
    assert re.search(r"actions\s+1/2\s+never: rest", text)
    assert re.search(r"table entries\s+3/4\s+never: stride\[4\]", text) and "never: jinx" in text


@pytest.mark.parametrize(
    ("name", "players"), [("climbers_of_verdon", 3), ("tabletop_climber", 3), ("caravan_conquest", 2)]
)
def test_the_counting_game_plays_exactly_the_plain_one(name: str, players: int) -> None:
    game = meeple.load(name, players=players)
    counted = instrumented(game)
    for seed in (1, 2):
        plain = play_game(game, seed, make_agents(["random"], players))
        other = play_game(counted.game, seed, make_agents(["random"], players))
        assert [str(a) for a in plain[1]] == [str(a) for a in other[1]]
        assert plain[0].winners == other[0].winners and plain[0].scores == other[0].scores


def test_a_plain_compile_has_no_counters(race: meeple.Game) -> None:
    assert type(race.definition.sym.tables["stride"]) is dict
    assert isinstance(instrumented(race).game.definition.sym.tables["stride"], CountingTable)


def test_greedy_look_ahead_is_not_counted_as_play() -> None:
    # Greedy tries both of Pig's actions on clones before each choice; replaying only the actions it chose
    # on a fresh counting game must run exactly what the report counted.
    game = meeple.load(PIG, players=2)
    report = simulate(game, 1, seed=5, agents=["greedy"])
    _, actions = play_game(game, 5, make_agents(["greedy"], 2))
    replayed = instrumented(game)
    assert replayed.coverage is not None
    state = replayed.game.new_game(seed=5)
    for a in actions:
        state.apply(a)
    hits = replayed.coverage.take()
    counted = {b: v["count"] for b, v in report.coverage["branches"].items()}
    assert counted == {b: hits[("branch", b)] for b in counted} and sum(counted.values()) > 0
    assert report.branching["max"] >= 2  # roll_die, hold (and end_turn): greedy looks ahead


def test_awards_count_changes_of_hands() -> None:
    report = simulate(meeple.load("climbers_of_verdon", players=2), 2, seed=1)
    awards = report.coverage["awards"]
    assert set(awards) == {"most_popular_climber", "explorer"}
    assert all(v["games_held_at_end"] <= 2 for v in awards.values())
    assert set(report.coverage["never"]["awards"]) == {a for a, v in awards.items() if not v["changes"]}


# ---------------------------------------------------------------- workers


def test_the_report_is_the_same_whatever_the_number_of_workers(race: meeple.Game) -> None:
    one = simulate(race, 30, seed=3, workers=1)
    three = simulate(race, 30, seed=3, workers=3)
    assert without_time(one) == without_time(three)
    assert one.samples == three.samples


def test_the_coverage_is_the_same_whatever_the_number_of_workers() -> None:
    game = meeple.load("tabletop_climber", players=3)  # deals at set-up: set-up rules counted in every game
    assert without_time(simulate(game, 4, seed=1, workers=1)) == without_time(
        simulate(game, 4, seed=1, workers=2)
    )


# ---------------------------------------------------------------- compare


def test_compare_finds_that_a_lower_target_shortens_the_race(race_report: Report) -> None:
    short = simulate(meeple.load(SHORT, players=2), race_report.games, seed=1)
    c = compare(race_report, short)
    found = {d.what: d for d in c.differences}
    assert found["mean actions"].significant and found["mean actions"].difference < 0
    assert found["mean score p1"].significant


def test_compare_flags_nothing_when_the_variant_is_the_same_file(
    race: meeple.Game, race_report: Report
) -> None:
    again = simulate(meeple.load(RACE, players=2), race_report.games, seed=1)
    c = compare(race_report, again)
    assert c.significant == [] and all(d.difference == 0 and d.p == 1.0 for d in c.differences)


def test_compare_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", RACE, "-n", "40", "-q", "--json", "--compare", SHORT]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"base", "variant", "differences", "significant"}
    assert data["variant"]["options"] == {"target": 4} and "mean actions" in data["significant"]
    assert main(["simulate", RACE, "-n", "10", "-q", "--compare", SHORT]) == 0
    assert "Significant at 5% (*): " in capsys.readouterr().out


def test_compare_with_a_missing_variant_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", RACE, "-n", "2", "-q", "--compare", "no_such_variant.yaml"]) == 2
    assert "no_such_variant" in capsys.readouterr().err


# ---------------------------------------------------------------- HTML


def test_the_html_page_is_well_formed_and_self_contained(race_report: Report) -> None:
    short = simulate(meeple.load(SHORT, players=2), race_report.games, seed=1)
    page = report_html(race_report, compare(race_report, short), (RACE, SHORT))
    assert page.startswith("<!DOCTYPE html>\n")
    root = ET.fromstring(page.split("\n", 1)[1])  # the rest parses as XML: every tag closed
    xhtml, svg = "{http://www.w3.org/1999/xhtml}", "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{xhtml}html"
    assert len(list(root.iter(f"{svg}svg"))) >= 5  # win rates, two lengths, scores, lead, comparison
    assert not list(root.iter(f"{xhtml}script")) and not list(root.iter(f"{xhtml}link"))
    assert not re.search(r"\b(src|href)=", page) and "url(" not in page
    assert set(re.findall(r"https?://[^\"' ]+", page)) <= {
        "http://www.w3.org/1999/xhtml",
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
    }  # namespace names only: nothing is fetched
    text = "".join(root.itertext())
    assert "stride[4]" in text and "rest" in text and "mean actions" in text


def test_simulate_html_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    assert main(["simulate", RACE, "-n", "5", "-q", "--html", str(out)]) == 0
    captured = capsys.readouterr()
    assert "Wins by seat" in captured.out and f"Wrote {out}" in captured.err
    assert "<svg" in out.read_text(encoding="utf-8")


def test_simulate_html_to_a_folder_that_does_not_exist_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", RACE, "-n", "2", "-q", "--html", str(tmp_path / "none" / "r.html")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_quiet_leaves_stderr_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", RACE, "-n", "3", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
