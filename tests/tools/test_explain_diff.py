"""`meeple explain VARIANT --diff`: what a variant changes against its base, each change at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple.tools.cli import main

QUICK = Path(__file__).resolve().parents[2] / "examples" / "variants" / "verdon_quick.yaml"


def test_the_diff_lists_each_change_at_the_variants_line_in_line_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["explain", str(QUICK), "--diff"]) == 0
    head, *rows = capsys.readouterr().out.splitlines()
    assert head.endswith("climbers_of_verdon.yaml: 10 changes")
    lines = [int(row.split(":")[1]) for row in rows]
    assert lines == sorted(lines)
    text = QUICK.read_text().splitlines()
    assert any(
        r.endswith("verdon_quick.yaml:7: changed game.options.target_vp.default (13 -> 10)") for r in rows
    )
    assert "offer_trade" in text[19 - 1] and any(
        r.endswith("removed flow.climbing.do.main.choose: offer_trade") for r in rows
    )
    assert any(r.endswith("removed actions.accept_trade") for r in rows)


def test_the_diff_as_json_gives_both_files_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(QUICK), "--diff", "--json"]) == 0
    diff = json.loads(capsys.readouterr().out)["diff"]
    assert diff["variant"] == str(QUICK) and Path(diff["base"]).name == "climbers_of_verdon.yaml"
    target = next(c for c in diff["changes"] if c["path"] == "game.options.target_vp.default")
    assert (target["kind"], target["line"], target["base_line"], target["old"], target["new"]) == (
        "changed",
        7,
        10,
        13,
        10,
    )
    dropped = next(c for c in diff["changes"] if c["item"] == "offer_trade")
    assert (dropped["kind"], dropped["line"], dropped["path"]) == (
        "removed",
        19,
        "flow.climbing.do.main.choose",
    )


def test_a_variant_of_a_variant_lists_only_its_own_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    top = tmp_path / "quicker.yaml"
    top.write_text(f"extends: {QUICK}\ngame:\n  options:\n    target_vp: {{default: 8}}\n", encoding="utf-8")
    assert main(["explain", str(top), "--diff"]) == 0
    head, *rows = capsys.readouterr().out.splitlines()
    assert head.endswith("verdon_quick.yaml: 1 change")
    assert rows == [f"  {top}:4: changed game.options.target_vp.default (10 -> 8)"]


def test_the_diff_of_a_game_that_extends_nothing_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "k2", "--diff"]) == 2
    assert "extends no other rules file" in capsys.readouterr().err
