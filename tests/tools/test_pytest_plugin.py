"""The pytest plugin (meeple.tools.pytest_plugin), run by pytester in a folder of rule files: `--meeple-rules`
and the `meeple_rules` ini setting collect a check item and playout batches per rule file, pass on the seed
games, and fail on a broken copy with the located diagnostics as the failure text."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
PIG = ROOT / "examples" / "tutorial" / "pig.yaml"
# Where meeple is installed, the outer pytest has loaded the plugin through its entry point already, and
# the inner run (in the same process) would warn that the module cannot be rewritten: not the point here.
PLUGIN = [
    "-p",
    "meeple.tools.pytest_plugin",
    "-p",
    "no:cacheprovider",
    "-W",
    "ignore::pytest.PytestAssertRewriteWarning",
]

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def no_installed_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The inner runs load the plugin from this checkout by `-p`, never an installed copy by entry point."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def copy_rules(pytester: pytest.Pytester, *paths: Path) -> Path:
    folder = pytester.path / "rules"
    folder.mkdir()
    for path in paths:
        shutil.copy(path, folder / path.name)
    return folder


def test_the_seed_games_pass_as_a_check_and_playout_batches_each(pytester: pytest.Pytester) -> None:
    copy_rules(pytester, *sorted(GAMES.glob("*.yaml")))
    (pytester.path / "rules" / "notes.yaml").write_text("just: board data\n", encoding="utf-8")
    result = pytester.runpytest(*PLUGIN, "--meeple-rules", "rules", "--meeple-playouts", "1", "-v")
    result.assert_outcomes(passed=10)
    result.stdout.fnmatch_lines(
        [
            "rules/climbers_of_verdon.yaml::check PASSED*",
            "rules/climbers_of_verdon.yaml::playouts[[]1[]] PASSED*",
        ]
    )
    assert "notes.yaml" not in result.stdout.str()  # not a rule file


def test_a_broken_rule_file_fails_with_its_located_diagnostics_not_a_traceback(
    pytester: pytest.Pytester,
) -> None:
    folder = copy_rules(pytester, GAMES / "climbers_of_verdon.yaml")
    path = folder / "climbers_of_verdon.yaml"
    text = path.read_text(encoding="utf-8").replace("cost: 1 rope + 1 bolt", "cost: 1 ropez + 1 bolt")
    path.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "ropez" in t)
    result = pytester.runpytest(*PLUGIN, "--meeple-rules", "rules", "--meeple-playouts", "1", "-rs")
    result.assert_outcomes(failed=1, skipped=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*_ check _*",
            f"rules/climbers_of_verdon.yaml:{line}:13: error[[]name/unknown-resource[]]: unknown resource "
            "'ropez' (did you mean 'rope'?)",
            "    cost: 1 ropez + 1 bolt",
            "            ^",
        ]
    )
    assert "Traceback" not in out and "def runtest" not in out and "RuleFailure" not in out
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_the_ini_setting_names_the_rule_folder_and_the_number_of_playouts(pytester: pytest.Pytester) -> None:
    copy_rules(pytester, PIG)
    pytester.makeini("[pytest]\nmeeple_rules = rules\nmeeple_playouts = 25\n")
    result = pytester.runpytest(*PLUGIN, "--collect-only", "-q")
    result.stdout.fnmatch_lines(
        ["rules/pig.yaml::check", "rules/pig.yaml::playouts[[]1-10[]]", "rules/pig.yaml::playouts[[]21-25[]]"]
    )
    result = pytester.runpytest(*PLUGIN, "-k", "check")
    result.assert_outcomes(passed=1, deselected=3)


def test_semantic_warnings_pass_the_check_and_show_as_pytest_warnings(pytester: pytest.Pytester) -> None:
    folder = copy_rules(pytester, PIG)
    path = folder / "pig.yaml"
    text = path.read_text(encoding="utf-8").replace("actions:\n", "actions:\n  orphan: {}\n")
    path.write_text(text, encoding="utf-8")
    result = pytester.runpytest(*PLUGIN, "--meeple-rules", "rules", "--meeple-playouts", "0")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(["*RuleWarning*warning[[]lint/action-never-offered[]]*'orphan'*"])


def test_without_a_rule_folder_the_plugin_collects_nothing(pytester: pytest.Pytester) -> None:
    copy_rules(pytester, PIG)
    result = pytester.runpytest(*PLUGIN, "rules")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_a_rule_folder_that_does_not_exist_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(*PLUGIN, "--meeple-rules", "nowhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--meeple-rules: no such folder or file:*nowhere*"])


def test_the_plugin_is_declared_as_a_pytest11_entry_point_of_the_package() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["entry-points"]["pytest11"] == {"meeple": "meeple.tools.pytest_plugin"}
    assert "meeple.tools" in project["tool"]["setuptools"]["packages"]  # the module ships in the wheel


@pytest.mark.parametrize(
    "nested", ["[" * 60_000 + "]" * 60_000, "\n    " + "- " * 60_000 + "x"], ids=["brackets", "dashes"]
)
def test_which_yaml_files_are_rule_files_is_told_without_a_crash(tmp_path: Path, nested: str) -> None:
    from meeple.tools.check import is_rule_file

    deep = tmp_path / "deep.yaml"
    deep.write_text(f"game:\n  deep: {nested}\n", encoding="utf-8")
    data = tmp_path / "data.yaml"
    data.write_text("tiles: [a, b]\n", encoding="utf-8")
    rules = tmp_path / "rules.yaml"
    rules.write_text("game: {name: x}\n", encoding="utf-8")
    # a file too deep to read counts as a rule file, so that the check reports it
    assert (is_rule_file(deep), is_rule_file(data), is_rule_file(rules)) == (True, False, True)
