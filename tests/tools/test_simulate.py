"""The balance report of many games: every game counted once, lengths and unused actions consistent."""

from __future__ import annotations

import json

import pytest

import meeple
from meeple.tools.simulate import Report, format_report, simulate

GAMES = 4


@pytest.fixture(scope="module")
def game() -> meeple.Game:
    return meeple.load("climbers_of_verdon", players=2)


@pytest.fixture(scope="module")
def report(game: meeple.Game) -> Report:
    return simulate(game, GAMES, seed=1)


def test_every_game_is_an_outright_win_a_shared_win_or_no_win(report: Report) -> None:
    assert sum(s.wins for s in report.seats) + report.shared_wins + report.no_winner == GAMES


def test_win_percentages_follow_the_win_counts(report: Report) -> None:
    assert [s.win_pct for s in report.seats] == [round(100 * s.wins / GAMES, 1) for s in report.seats]


def test_wins_by_agent_add_up_the_seats_of_each_agent(report: Report) -> None:
    assert report.wins_by_agent == {"random": sum(s.wins for s in report.seats)}


def test_game_lengths_are_within_their_minimum_and_maximum(report: Report) -> None:
    for spread in (report.actions, report.turns):
        assert 0 < spread.min <= spread.mean <= spread.max


def test_never_taken_actions_are_the_defined_actions_no_game_used(report: Report, game: meeple.Game) -> None:
    defined = list(game.definition.actions)
    assert set(report.never_taken) <= set(defined)
    assert [a for a in defined if a not in report.action_counts] == report.never_taken


def test_pseudo_actions_are_counted_but_never_listed_as_unused(report: Report) -> None:
    assert {"end_turn", "skip"} <= set(report.pseudo_actions)
    assert not set(report.pseudo_actions) & set(report.never_taken)
    assert report.action_counts.get("end_turn", 0) > 0


def test_the_same_seeds_give_the_same_report(report: Report, game: meeple.Game) -> None:
    again = simulate(game, GAMES, seed=1).to_dict()
    assert {**again, "seconds": 0} == {**report.to_dict(), "seconds": 0}


def test_the_report_converts_to_json(report: Report) -> None:
    data = json.loads(json.dumps(report.to_dict()))
    assert data["games"] == GAMES and [s["seat"] for s in data["seats"]] == ["p1", "p2"]


def test_the_text_report_has_a_row_per_seat_and_names_the_unused_actions(report: Report) -> None:
    text = format_report(report)
    assert "Wins by seat" in text and "Game length" in text and "Actions never taken" in text
    assert all(f"  {s.seat} " in text for s in report.seats)


def test_mixed_agents_are_reported_by_seat_and_by_agent(game: meeple.Game) -> None:
    mixed = simulate(game, 1, seed=3, agents=["greedy", "random"], rotate=False)
    assert [s.agent for s in mixed.seats] == ["greedy", "random"]
    assert set(mixed.wins_by_agent) == {"greedy", "random"}


def test_simulate_needs_at_least_one_game(game: meeple.Game) -> None:
    with pytest.raises(ValueError):
        simulate(game, 0)


def test_simulating_in_two_worker_processes_gives_the_same_report_as_one():
    game = meeple.load("pluvionauts", players=2)
    one = simulate(game, 6, seed=3, workers=1).to_dict()
    two = simulate(game, 6, seed=3, workers=2).to_dict()
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_simulate_takes_a_number_of_workers_on_the_command_line(capsys):
    from meeple.tools.cli import main

    assert main(["simulate", "k2", "-n", "4", "--workers", "2", "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    outcomes = sum(s["wins"] for s in report["seats"]) + report["shared_wins"] + report["no_winner"]
    assert report["games"] == 4 and outcomes == 4
