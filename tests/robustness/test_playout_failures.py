"""A rule file that checks clean but fails in play: `meeple check --playouts` names the rule, its line and the
seed, and `meeple run` with that seed shows the same failure (exit 1, never a Python traceback)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meeple.tools.cli import main

GAMES = Path(__file__).resolve().parents[2] / "games"
VERDON = (GAMES / "climbers_of_verdon.yaml").read_text(encoding="utf-8")
ZERO = "(me.repeat_vp - me.repeat_vp)"  # always 0, which no static check can see
WHEN, EFFECT = "    when: give != get\n", "    effect: [gain 1 get]"  # of the action trade


def edited(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    text = VERDON
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "broken_verdon.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def checked(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code = main(["check", str(path), "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("old", "new", "rule", "needle"),
    [
        (
            "    when: give != get\n",
            f"    when: give != get and 1 // {ZERO} > 0\n",
            "actions.trade.when",
            "1 //",
        ),
        (
            "    effect: [gain 1 get]",
            f"    effect: [gain (1 // {ZERO}) get]",
            "actions.trade.effect[0]",
            "1 //",
        ),
        (
            "    cost: (trade_rate(me, give)) give",
            f"    cost: (trade_rate(me, give) // {ZERO}) give",
            "actions.trade.cost",
            "trade_rate(me, give) //",
        ),
        (
            "  trade_rate(p, r): \"2 if r in camps_of(p) else (3 if 'generic' in camps_of(p) else 4)\"",
            '  trade_rate(p, r): "2 // (p.repeat_vp - p.repeat_vp)"',
            "defs.trade_rate(p, r)",
            "trade_rate(p, r):",
        ),
    ],
    ids=["when", "effect", "cost", "def"],
)
def test_a_rule_that_fails_in_play_is_reported_with_its_rule_line_and_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, rule: str, needle: str
) -> None:
    path = edited(tmp_path, (old, new))
    assert checked(path, capsys) == (0, [])  # clean to every static check

    code, found = checked(path, capsys, "--playouts", "3", "--seed", "5")

    assert code == 1
    [record] = found
    assert record["code"] == "rules/runtime" and record["file"] == str(path)
    if rule.startswith("defs.") and record["line"] != line_of(path, needle):
        # A small loop-free def is written out where it is called (compile/codegen.py), so its error is
        # located at the call: here the trade's cost.
        rule, needle = "actions.trade.cost", "cost: (trade_rate(me, give)) give"
    assert record["line"] == line_of(path, needle)
    assert f"in {rule}: ZeroDivisionError" in record["message"]
    assert "seed 5" in record["message"] and "--seed 5" in record["hint"]


def test_the_seed_a_playout_names_reproduces_the_failure_with_meeple_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = edited(tmp_path, (EFFECT, f"    effect: [gain (1 // {ZERO}) get]"))
    _, [record] = checked(path, capsys, "--playouts", "1")
    command = record["hint"].removeprefix("see it with: meeple ").split()

    assert main(command) == 1

    err = capsys.readouterr().err
    assert f"{path}:{record['line']}:{record['col']}: error[rules/runtime]" in err
    assert "Traceback" not in err and "internal error" not in err


def test_a_def_that_recurses_without_end_is_a_located_runtime_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = edited(
        tmp_path,
        (
            '  producing(t): "t != token and t.number != none"',
            '  producing(t): "t != token"\n  deep(x): deep(x + 1)',
        ),
        ("    when: give != get\n", "    when: give != get and deep(1) > 0\n"),
    )

    code, [record] = checked(path, capsys, "--playouts", "1")

    assert code == 1 and record["line"] == line_of(path, "deep(x):")
    assert "in defs.deep(x): RecursionError" in record["message"]


def test_standing_rules_that_never_settle_are_reported_at_the_standing_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = edited(
        tmp_path, ("setup:\n", "standing:\n  - set token = none if token != none else first(tiles)\nsetup:\n")
    )

    code, [record] = checked(path, capsys, "--playouts", "1")

    assert code == 1 and record["code"] == "rules/runtime"
    assert record["line"] == line_of(path, "standing:") + 1
    assert "in standing: the standing rules still change the game" in record["message"]


def test_the_closures_report_a_failing_rule_at_the_same_place_as_generated_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = edited(tmp_path, (WHEN, f"    when: give != get and 1 // {ZERO} > 0\n"))
    _, generated = checked(path, capsys, "--playouts", "1")

    monkeypatch.setenv("MEEPLE_CODEGEN", "0")
    _, closures = checked(path, capsys, "--playouts", "1")

    assert closures == generated and generated[0]["code"] == "rules/runtime"
