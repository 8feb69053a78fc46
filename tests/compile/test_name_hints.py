"""The hint on an unknown name points at what the designer meant: a player variable written bare is read
from a player, and a name is never offered as the spelling of itself."""

from __future__ import annotations

from pathlib import Path

import meeple

RULES = """\
game:
  name: Hints
  players: {min: 2, max: 2}
vars:
  player: {score: 0}
actions:
  step:
    effect:
      - if: "{condition}"
        then: [win me]
flow:
  - phase: race
    turns: clockwise
    repeat: true
    do:
      - choose: [step]
"""


def diagnostics(tmp_path: Path, condition: str) -> list[meeple.errors.Diagnostic]:
    path = tmp_path / "hints.yaml"
    path.write_text(RULES.replace("{condition}", condition), encoding="utf-8")
    return meeple.check(path)


def test_a_player_variable_written_bare_is_read_from_a_player(tmp_path: Path) -> None:
    (found,) = diagnostics(tmp_path, "score >= 5")

    assert (found.code, found.message) == ("name/unknown-name", "unknown name 'score'")
    assert found.hint == "'score' is a player variable: read it from a player, as me.score or p.score"
    assert (found.span.line, found.span.col) == (9, 14)


def test_a_function_named_as_a_value_is_not_offered_as_its_own_spelling(tmp_path: Path) -> None:
    (found,) = diagnostics(tmp_path, "len >= 5")

    assert found.code == "name/unknown-name"
    assert found.hint is None or "'len'" not in found.hint


def test_a_misspelt_name_still_gets_the_closest_spelling(tmp_path: Path) -> None:
    (found,) = diagnostics(tmp_path, "playrs == 2")

    assert found.hint == "did you mean 'players'?"
