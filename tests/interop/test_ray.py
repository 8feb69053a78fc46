"""`meeple simulate --ray`: the same report as one process, from Ray tasks on a local Ray instance."""

from __future__ import annotations

import json
import logging
import sys

import pytest
from interop_files import K2, PIG

import meeple
from meeple.tools.cli import main
from meeple.tools.simulate import simulate

MISSING = "Ray is not installed (pip install 'meeple[ray]' to test simulation on Ray)"


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray", reason=MISSING)
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    yield ray
    ray.shutdown()


def _without_time(report):
    data = report.to_dict()
    data.pop("seconds")
    return data


@pytest.mark.parametrize(("path", "players", "games"), [(PIG, 2, 30), (K2, 2, 12)])
def test_ray_gives_the_report_of_one_process_and_of_worker_processes(local_ray, path, players, games):
    game = meeple.load(path, players=players)
    alone = _without_time(simulate(game, games, seed=11))
    on_ray = _without_time(simulate(game, games, seed=11, ray=""))
    assert on_ray == alone
    assert on_ray == _without_time(simulate(game, games, seed=11, workers=2))
    assert sum(s["wins"] for s in on_ray["seats"]) + on_ray["shared_wins"] + on_ray["no_winner"] == games


def test_simulate_command_runs_on_ray(local_ray, capsys):
    assert main(["simulate", PIG, "-n", "8", "--seed", "3", "--json", "--no-progress", "--ray"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main(["simulate", PIG, "-n", "8", "--seed", "3", "--json", "--no-progress"]) == 0
    alone = json.loads(capsys.readouterr().out)
    on_ray.pop("seconds")
    alone.pop("seconds")
    assert on_ray == alone and on_ray["games"] == 8


def test_without_ray_the_option_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    assert main(["simulate", PIG, "-n", "2", "--no-progress", "--ray"]) == 2
    assert "--ray needs Ray: pip install 'meeple[ray]'" in capsys.readouterr().err


def test_ray_and_workers_together_are_a_usage_error(capsys):
    assert main(["simulate", PIG, "-n", "2", "--no-progress", "--ray", "-w", "2"]) == 2
    assert "not both" in capsys.readouterr().err
