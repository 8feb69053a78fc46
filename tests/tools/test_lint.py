"""Semantic warnings of `meeple check` (tools/lint.py), each shown on a small rule file made for it: where it
is reported, that it leaves the exit code alone, and the rules that rightly keep it quiet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meeple.tools.cli import main

GAMES = Path(__file__).resolve().parents[2] / "games"

HEAD = """\
game:
  name: Tiny
  players: {min: 2, max: 2}
"""

FLOW = """\
flow:
  - phase: play
    do:
      - choose: [earn]
"""


def write(tmp_path: Path, text: str, name: str = "tiny.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def check_json(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[dict[str, Any]]:
    assert main(["check", str(path), "--format", "json", *extra]) == 0
    return list(json.loads(capsys.readouterr().out))


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# ---------------------------------------------------------------- actions


def test_an_action_no_step_offers_is_a_warning_at_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(
        tmp_path,
        HEAD + "actions:\n  earn: {}\n  orphan: {}\n" + FLOW,
    )
    [record] = check_json(path, capsys)
    assert record["severity"] == "warning" and record["code"] == "lint/action-never-offered"
    assert "'orphan'" in record["message"]
    assert (record["line"], record["col"]) == (line_of(path, "orphan:"), 3)


def test_an_action_granted_by_a_rule_or_ending_a_step_is_offered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = HEAD + (
        "actions:\n  earn: {effect: [grant bonus]}\n  bonus: {}\n  done: {}\n"
        "flow:\n  - phase: play\n    do:\n      - choose: [earn]\n        until: done\n"
    )
    assert check_json(write(tmp_path, text), capsys) == []


# ---------------------------------------------------------------- resources


RESOURCES_RULES = """\
components:
  resources: [coin, gem, ore, dust]
actions:
  earn:
    cost: 1 gem
    effect: [gain 1 coin, gain 1 ore]
scoring:
  score: p.coin
"""
RESOURCES = HEAD + RESOURCES_RULES + FLOW


def test_resources_nothing_produces_or_nothing_uses_are_warnings_at_their_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, RESOURCES)
    records = check_json(path, capsys)
    found = {r["code"]: r["message"] for r in records}
    assert found == {
        "lint/resource-never-produced": found["lint/resource-never-produced"],
        "lint/resource-never-used": found["lint/resource-never-used"],
        "lint/unused-resource": found["lint/unused-resource"],
    }
    assert "'gem'" in found["lint/resource-never-produced"]
    assert "'ore'" in found["lint/resource-never-used"]
    assert "'dust'" in found["lint/unused-resource"]
    declared = line_of(path, "resources:")
    assert {r["line"] for r in records} == {declared}
    assert sorted(r["col"] for r in records) == [21, 26, 31]  # gem, ore, dust in `[coin, gem, ore, dust]`


def test_a_computed_gain_or_a_read_of_all_resources_keeps_the_resource_warnings_quiet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = RESOURCES.replace("effect: [gain 1 coin, gain 1 ore]", "effect: [gain 1 coin, 'gain 1 [kind]']")
    text = text.replace("  earn:\n", "  earn:\n    params: {kind: resources}\n")
    assert check_json(write(tmp_path, text), capsys) == []


def test_a_resource_set_by_an_assignment_counts_as_produced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = HEAD + (
        "components:\n  resources: [coin]\nactions:\n  earn:\n    effect: [me.coin += 2]\n"
        "scoring:\n  score: p.coin\n" + FLOW
    )
    assert check_json(write(tmp_path, text), capsys) == []


# ---------------------------------------------------------------- endless phases


ENDLESS_RULES = """\
actions:
  earn: {}
flow:
  - phase: forever
    repeat: true
    do:
      - choose: [earn]
"""
ENDLESS = HEAD + ENDLESS_RULES


def test_a_phase_that_repeats_with_no_way_out_is_a_warning_at_its_repeat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, ENDLESS)
    [record] = check_json(path, capsys)
    assert record["code"] == "lint/endless-phase" and "'forever'" in record["message"]
    assert (record["line"], record["col"]) == (line_of(path, "repeat: true"), 5)


@pytest.mark.parametrize(
    "way_out",
    [
        "    until: false\n",  # not a way out: still a warning
        "    until: size(players) > 1\n",
        "",  # with an end condition below
        "",  # with an `end game` statement below
    ],
    ids=["until-false", "until", "end-win", "end-game"],
)
def test_until_an_end_condition_or_an_end_game_statement_is_a_way_out(
    way_out: str, request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = ENDLESS.replace("    repeat: true\n", "    repeat: true\n" + way_out)
    case = request.node.callspec.id
    if case == "end-win":
        text += "end:\n  win: 'false'\n"
    if case == "end-game":
        text = text.replace("  earn: {}\n", "  earn: {effect: [end game]}\n")
    records = check_json(write(tmp_path, text), capsys)
    assert [r["code"] for r in records] == (["lint/endless-phase"] if case == "until-false" else [])


# ---------------------------------------------------------------- cards in playouts


CARDS_RULES = """\
vars:
  game: {plays: 0}
components:
  card_fields: {playable: true}
  cards:
    bright: {effect: [plays += 1]}
    dull: {playable: false, effect: [plays += 1]}
  zones:
    table: {fill: cards}
actions:
  play:
    params: {card: "[c for c in distinct(table) if c.playable]"}
    effect: [perform card.effect]
flow:
  - phase: play
    do:
      - choose: [play]
"""
CARDS = HEAD + CARDS_RULES


def test_a_card_whose_effect_never_ran_in_the_playouts_is_a_warning_at_the_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, CARDS)
    assert check_json(path, capsys) == []  # measured only when games are played
    [record] = check_json(path, capsys, "--playouts", "3")
    assert record["code"] == "lint/card-never-played" and "'dull'" in record["message"]
    assert "3 random 2-player playouts" in record["message"]
    assert record["line"] == line_of(path, "dull:")


def test_warnings_leave_the_exit_code_at_0_unless_strict_and_no_warn_hides_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, ENDLESS)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}:{line_of(path, 'repeat: true')}:5: warning[lint/endless-phase]: " in out
    assert out.rstrip().endswith("1 file is clean (1 warning).")
    assert main(["check", str(path), "--strict"]) == 1
    capsys.readouterr()
    assert main(["check", str(path), "--no-warn"]) == 0
    assert capsys.readouterr().out.strip() == "1 file is clean."


def test_github_format_annotates_a_warning_as_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, ENDLESS)
    assert main(["check", str(path), "--format", "github"]) == 0
    assert capsys.readouterr().out.startswith(f"::warning file={path},line=")


def test_the_seed_games_check_with_no_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(GAMES), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
