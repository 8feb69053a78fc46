"""A top-level section of the wrong shape (a string, a list or a number where a mapping belongs) is a located
schema error from `meeple check`, never an internal error: `game:` and `defs:` once were."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import meeple
from meeple.tools.cli import main

CARAVAN = Path(__file__).resolve().parents[2] / "games" / "caravan_conquest.yaml"
TEXT = CARAVAN.read_text(encoding="utf-8")
SECTIONS = re.findall(r"^([a-z_]+):", TEXT, flags=re.MULTILINE)


def with_section(key: str, value: str) -> str:
    """The rule file with the top-level section `key` (its indented body too) replaced by `key: value`."""
    lines = TEXT.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{key}:"))
    end = start + 1
    while end < len(lines) and (not lines[end] or lines[end][0] in " #"):
        end += 1
    return "\n".join([*lines[:start], f"{key}: {value}", *lines[end:]])


def test_the_file_has_the_sections_this_test_replaces() -> None:
    assert {"game", "defs", "actions", "flow", "components", "board"} <= set(SECTIONS)


@pytest.mark.parametrize("value", ["'3 rope +'", "[1, 2]", "7"])
@pytest.mark.parametrize("key", SECTIONS)
def test_a_section_of_the_wrong_shape_is_a_located_error(tmp_path: Path, key: str, value: str) -> None:
    path = tmp_path / "shape.yaml"
    path.write_text(with_section(key, value), encoding="utf-8")
    problems = meeple.check(path)
    assert problems, f"{key}: {value} checked clean"
    assert any(p.span is not None and p.span.line is not None for p in problems)


def test_check_of_a_game_section_that_is_a_number_exits_1_with_the_place(tmp_path: Path, capsys) -> None:
    path = tmp_path / "shape.yaml"
    path.write_text(with_section("game", "7"), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr()
    assert "internal error" not in out.err + out.out and "shape.yaml:" in out.out + out.err


def test_a_constant_domain_holding_a_mapping_fails_in_play_at_its_place(tmp_path: Path, capsys) -> None:
    # The slow mutation run's `tables.goods.0: 'spice' -> {}`: a table may hold anything, but a domain of
    # values that cannot be told apart by hashing used to crash the compiler's generated source.
    path = tmp_path / "shape.yaml"
    path.write_text(TEXT.replace("  goods: [spice, silk]", "  goods: [{}, silk]", 1), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert main(["check", str(path), "--playouts", "2"]) == 1
    out = capsys.readouterr().out
    assert "internal error" not in out and "shape.yaml:" in out and "goods" in out
