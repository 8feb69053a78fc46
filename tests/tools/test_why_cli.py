"""`meeple why GAME [--state FILE [--step N]] ACTION`: 0 legal, 1 illegal with the reason, 2 bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import meeple
from meeple.compile.builtins import BUILTINS
from meeple.tools.cli import main

GAME = "climbers_of_verdon"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("why") / "game.json"
    assert main(["run", GAME, "--players", "2", "--seed", "1", "--quiet", "--save", str(path)]) == 0
    return path


def test_a_legal_action_at_the_start_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["why", GAME, "place_start(corner=c0, tile=t0, path=c0-c3)"]) == 0
    assert (
        capsys.readouterr().out.strip() == "place_start(corner=c0, tile=t0, path=c0-c3) is legal for p1 now"
    )


def test_an_illegal_action_after_two_saved_actions_exits_1_with_the_breakdown(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """After p1's start (a project and its resource), p2 may not start next to p1's project."""
    first = json.loads(saved.read_text())["actions"][0]
    corner = first.split("corner=")[1].split(",")[0]
    state = meeple.load(GAME, players=2).new_game(seed=1)
    beside = BUILTINS["neighbours"](state, corner)[0]
    tile = BUILTINS["tiles_of"](state, beside)[0]
    path = BUILTINS["sides_of"](state, beside)[0]
    action = f"place_start(corner={beside}, tile={tile}, path={path})"
    assert main(["why", GAME, "--state", str(saved), "--step", "2", action]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{action} is not legal for p2: far_enough({beside}) is false"
    lines = (Path(__file__).parents[2] / "games" / f"{GAME}.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "when: far_enough(corner)" in text)
    assert out[1].startswith("  at ") and out[1].endswith(f"climbers_of_verdon.yaml:{line}:11")
    assert out[-1].startswith(f"  building({corner}) == none is false: building({corner}) is project#")


def test_a_saved_state_json_is_read_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = meeple.load(GAME, players=2).new_game(seed=3)
    path = tmp_path / "state.json"
    path.write_text(state.to_json())
    assert main(["why", GAME, "--state", str(path), str(state.legal_actions()[0])]) == 0
    capsys.readouterr()
    assert main(["why", GAME, "--state", str(path), "build_rope(path=c0-c3)", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["legal"] is False and data["kind"] == "not-offered" and data["player"] == "p1"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["biuld_rope(path=c0-c3)"], "did you mean 'build_rope'"),
        (["build_rope(pth=c0-c3)"], "did you mean 'path'"),
        (["build_rope(path=c0-c3"], "cannot read the action"),
        (["--state", "no-such-file.json", "end_turn"], "cannot read 'no-such-file.json'"),
        (["--step", "3", "end_turn"], "--step needs --state"),
    ],
)
def test_bad_input_is_a_usage_error_without_a_traceback(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["why", GAME, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_file_that_is_neither_a_game_nor_a_state_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    assert main(["why", GAME, "--state", str(path), "end_turn"]) == 2
    assert "is not a saved game" in capsys.readouterr().err


def test_a_step_beyond_the_saved_game_is_a_usage_error(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["why", GAME, "--state", str(saved), "--step", "999999", "end_turn"]) == 2
    assert "has only" in capsys.readouterr().err


def test_why_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["why", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: meeple why") and "--state FILE" in out and "--step N" in out
