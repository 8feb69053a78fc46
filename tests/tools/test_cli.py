"""The `meeple` command line, driven through main([...]) and once through the installed script."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import meeple
from meeple.tools import cli, simulate
from meeple.tools.cli import main
from meeple.tools.drawing import PLAYER_COLOURS

GAME = "climbers_of_verdon"
GAME_FILE = Path(__file__).resolve().parents[2] / "games" / f"{GAME}.yaml"
BROKEN = "game:\n  name: Broken\n  players: {min: 2, max: 4]\nboard: {}\n"  # a mapping closed by ']'


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "game.json"
    assert main(["run", GAME, "--players", "2", "--seed", "1", "--quiet", "--save", str(path)]) == 0
    return path


def write_record(tmp_path: Path, saved: Path, **changes: object) -> Path:
    record = {**json.loads(saved.read_text()), **changes}
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(record))
    return path


# ---------------------------------------------------------------- general


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("meeple ")


@pytest.mark.parametrize(
    "command", [[], ["check"], ["run"], ["simulate"], ["replay"], ["explain"], ["render"], ["schema"]]
)
def test_every_command_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: meeple")


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "required" in capsys.readouterr().err


def test_the_installed_script_prints_help_listing_the_commands() -> None:
    script = shutil.which("meeple")
    assert script is not None, "the meeple console script is not installed"
    done = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    commands = ("check", "run", "simulate", "replay", "explain", "render", "schema")
    assert all(c in done.stdout for c in commands)


def test_python_dash_m_meeple_is_the_same_command(broken: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "meeple", "check", str(broken)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert f"{broken}:3:" in done.stdout
    usage = subprocess.run([sys.executable, "-m", "meeple"], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: meeple")


# ---------------------------------------------------------------- check


def test_check_of_a_clean_file_exits_0_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(GAME_FILE)]) == 0
    assert capsys.readouterr().out.strip() == "1 file is clean."


def test_check_of_a_broken_file_exits_1_with_a_located_error_and_a_caret(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    assert re.search(rf"^{re.escape(str(broken))}:\d+:\d+: error\[yaml/", out, re.M)
    assert re.search(r"^\s*\^+$", out, re.M)
    assert out.rstrip().endswith("Found 1 error in 1 file.")


def test_check_shows_relative_paths_as_given(
    broken: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(broken.parent)
    assert main(["check", "broken.yaml"]) == 1
    assert capsys.readouterr().out.startswith("broken.yaml:")


def test_check_expands_folders_to_sorted_yaml_files_skipping_hidden_folders_and_yml_workflows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("b.yaml", "sub/a.yaml", ".hidden/c.yaml", "workflow.yml"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(BROKEN)
    (tmp_path / "notes.txt").write_text(BROKEN)
    assert main(["check", str(tmp_path), "--format", "json"]) == 1
    files = [d["file"] for d in json.loads(capsys.readouterr().out)]
    assert files == [str(tmp_path / "b.yaml"), str(tmp_path / "sub" / "a.yaml")]


def test_check_counts_every_clean_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("one.yaml", "two.yaml"):
        shutil.copy(GAME_FILE, tmp_path / name)
    assert main(["check", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "All 2 files are clean."


def test_check_json_format_is_a_list_of_diagnostic_records(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(broken), "--format", "json"]) == 1
    [record] = json.loads(capsys.readouterr().out)
    assert record["code"].startswith("yaml/") and record["file"] == str(broken) and record["line"] >= 1


def test_check_github_format_prints_an_error_annotation_per_problem(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(broken), "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.startswith(f"::error file={broken},line=") for line in lines)


@pytest.mark.parametrize("path", ["missing/file.yaml", "no_such_game"])
def test_check_of_a_path_or_game_that_does_not_exist_is_a_usage_error(
    path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", path]) == 2
    assert path in capsys.readouterr().err


def test_check_playouts_of_a_clean_game_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(GAME_FILE), "--playouts", "1", "--no-warn"]) == 0
    assert capsys.readouterr().out.strip() == "1 file is clean (1 random playout each)."


def test_check_playouts_report_a_game_that_crashes_as_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def crash(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(simulate, "play_game", crash)
    assert main(["check", str(GAME_FILE), "--playouts", "3", "--format", "json"]) == 1
    [record] = json.loads(capsys.readouterr().out)
    assert record["code"] == "playout/crash" and record["file"] == str(GAME_FILE)
    assert "ZeroDivisionError" in record["message"] and "2 more of 3" in record["message"]


# ---------------------------------------------------------------- run


def test_run_narrates_the_game_and_ends_with_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", GAME, "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("-- ") and any(line.startswith("p1: ") for line in out)
    assert re.fullmatch(r"Winners?: p\d(, p\d)*( \(shared\))?|No winner\.", out[-1])


def test_run_quiet_prints_only_scores_and_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", GAME, "--players", "2", "--seed", "2", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Final scores") and len(out) == 2 + 2


def test_run_json_reports_the_options_scores_and_winners(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", GAME, "-p", "2", "-s", "3", "--json", "-o", "target_vp=6"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["options"]["target_vp"] == 6 and set(result["scores"]) == {"p1", "p2"}
    assert result["winners"] and all(result["scores"][w] >= 6 for w in result["winners"])


@pytest.mark.parametrize(
    "args",
    [
        ["run", "no_such_game"],
        ["run", GAME, "--players", "9"],
        ["run", GAME, "--players", "0"],
        ["run", GAME, "-o", "no_such_option=1"],
        ["run", GAME, "-o", "target_vp=999"],
        ["run", GAME, "-o", "target_vp"],
        ["run", GAME, "--agents", "robot"],
        ["run", GAME, "--players", "2", "--agents", "random,random,greedy"],
        ["simulate", GAME, "-n", "0"],
        ["explain", GAME, "--players", "9"],
    ],
)
def test_bad_command_lines_are_usage_errors_without_a_traceback(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err and "Traceback" not in err


def test_run_of_a_broken_rule_file_prints_located_diagnostics_not_a_traceback(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(broken)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{broken}:") and "^" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "shows_traceback"),
    [(["run", GAME], False), (["--debug", "run", GAME], True), (["run", GAME, "--debug"], True)],
)
def test_internal_errors_show_a_traceback_only_with_debug(
    args: list[str],
    shows_traceback: bool,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def bug(*args: object, **kwargs: object) -> None:
        raise KeyError("oops")

    monkeypatch.setattr(cli, "play_game", bug)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert ("Traceback" in err) is shows_traceback
    assert shows_traceback or "internal error: KeyError" in err


# ---------------------------------------------------------------- replay


def test_a_saved_game_replays_and_matches_its_final_state(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(saved)]) == 0
    assert "replays identically" in capsys.readouterr().out


def test_a_game_saved_from_a_rule_file_replays_from_another_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(GAME_FILE, tmp_path / "mine.yaml")
    (tmp_path / "saves").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["run", "mine.yaml", "--seed", "4", "--quiet", "--save", "saves/game.json"]) == 0
    monkeypatch.chdir(tmp_path / "saves")
    assert main(["replay", "game.json"]) == 0
    assert "replays identically" in capsys.readouterr().out


def test_replay_detects_a_final_state_that_differs(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    final = json.loads(saved.read_text())["final"]
    changed = write_record(tmp_path, saved, final={**final, "turn_no": final["turn_no"] + 1})
    assert main(["replay", str(changed)]) == 1
    out = capsys.readouterr().out
    assert "the final state differs" in out
    assert re.search(rf"turn_no +{final['turn_no'] + 1} -> {final['turn_no']}\n", out)


def test_replay_names_the_first_action_that_is_not_legal(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = json.loads(saved.read_text())["actions"]
    changed = write_record(tmp_path, saved, actions=[*moves[:5], "fly(to=moon)", *moves[6:]])
    assert main(["replay", str(changed)]) == 1
    assert (
        f"diverges at step 6 of {len(moves)}: p2 fly(to=moon) is no longer legal" in capsys.readouterr().out
    )


def test_replay_of_a_file_that_is_not_a_saved_game_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nonsense.json"
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 2
    assert "not a saved game" in capsys.readouterr().err


# ---------------------------------------------------------------- simulate, explain, schema


def test_simulate_json_counts_every_game_once_and_lists_real_unused_actions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", GAME, "-n", "2", "-p", "2", "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sum(s["wins"] for s in report["seats"]) + report["shared_wins"] + report["no_winner"] == 2
    actions = meeple.load(GAME).definition.actions
    assert set(report["never_taken"]) <= set(actions)


def test_simulate_prints_a_readable_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", GAME, "-n", "1", "-p", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Wins by seat" in out and "Game length" in out and "Actions never taken" in out


def test_explain_shows_the_phases_and_the_action_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", GAME, "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "placement: turns in snake order" in out and "until end_turn" in out
    assert re.search(r"^  build_rope\s+atomic\s+chosen in climbing$", out, re.M)
    assert re.search(r"^      partner\s+input", out, re.M)


def test_schema_prints_the_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == meeple.schema()


# ---------------------------------------------------------------- render


def test_render_draws_every_tile_the_dice_and_the_buildings_as_svg(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert main(["render", "pluvionauts", "--seed", "3", "--moves", "60", "-O", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "</svg>" in svg
    assert svg.count("<path") >= 37  # one hexagon per cell
    for terrain in ("sky", "plain", "forest", "mountain"):
        assert f">{terrain}<" in svg
    colours = meeple.load("pluvionauts", players=2).definition.render["pieces"]
    assert svg.count(f'fill="{colours["weather_die"]}" stroke="white"') == 2  # the two weather dice
    assert svg.count(f'fill="{colours["balloon"]}" stroke="white"') == 1


def test_render_draws_a_grid_board_cell_by_cell_with_its_chests_caravans_and_legend(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert main(["render", "caravan_conquest", "--players", "3", "--seed", "1", "-O", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    state = meeple.load("caravan_conquest", players=3).new_game(seed=1)
    assert svg.count("<rect") >= 1 + 80  # the background and one square per cell
    for cell in ("a1", "j1", "a8", "j8"):
        assert f">{cell}<" in svg
    terrains = {rec["terrain"] for rec in state.sites.values()}
    for terrain in terrains:
        assert f">{terrain.replace('_', ' ')}<" in svg  # on its cells and in the legend
    chest = meeple.load("caravan_conquest", players=3).definition.render["pieces"]["chest"]
    assert svg.count(f'fill="{chest}" stroke="white"') == 4
    for colour in PLAYER_COLOURS[:3]:  # the caravans, at the Start, each in its player's colour
        assert svg.count(f'fill="{colour}" stroke="white"') == 1
    assert all(f">p{n}<" in svg for n in (1, 2, 3))  # the legend names the players' colours


def test_render_of_the_same_seed_is_the_same_picture(tmp_path: Path) -> None:
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    assert main(["render", "pluvionauts", "--seed", "5", "-O", str(a)]) == 0
    assert main(["render", "pluvionauts", "--seed", "5", "-O", str(b)]) == 0
    assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8")
    assert main(["render", "pluvionauts", "--seed", "6", "-O", str(b)]) == 0
    assert a.read_text(encoding="utf-8") != b.read_text(encoding="utf-8")


def test_render_of_a_game_without_anything_to_draw_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "bare.yaml"
    rules.write_text(
        "game: {name: Bare, players: {min: 2, max: 2}}\nactions: {pass: {}}\n"
        "flow: [{phase: play, turns: clockwise, do: [{choose: [pass]}]}]\n"
        "scoring: {score: 0}\nend: {win: 'false'}\n",
        encoding="utf-8",
    )
    assert main(["check", str(rules)]) == 0
    assert main(["render", str(rules), "-O", str(tmp_path / "x.svg")]) == 2
    assert "has no board, zones or resources to draw" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()
