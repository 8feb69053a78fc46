"""`meeple check --guesses`: the `guess:` entries of rule files listed per file, with where each is written
and the path of the rule it qualifies; and the seed games state their guesses as data, not comments."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from meeple.tools.cli import main

GAMES = Path(__file__).resolve().parents[2] / "games"

RULES = """\
guess: the whole game is a reading of a picture
game:
  name: Guessed
  players: {min: 2, max: 2, guess: the book names no player count}
vars:
  game: {guess: 'a variable named guess, not a note'}
tables:
  price: {coin: 1, guess: prices from a photograph}
defs:
  twice(x):
    value: x * 2
    guess: doubling, not squaring
actions:
  earn:
    effect:
      - do: set guess = 'x'
        guess: setting a variable is how the book reads
    guess: earning is optional
flow:
  - phase: play
    do:
      - choose: [earn]
        guess: one action a turn
"""

EXPECTED = [
    ("(the whole file)", "the whole game is a reading of a picture"),
    ("game.players", "the book names no player count"),
    ("tables.price", "prices from a photograph"),
    ("defs.twice(x)", "doubling, not squaring"),
    ("actions.earn.effect[0]", "setting a variable is how the book reads"),
    ("actions.earn", "earning is optional"),
    ("flow[0].do[0]", "one action a turn"),
]


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    path = tmp_path / "guessed.yaml"
    path.write_text(RULES, encoding="utf-8")
    assert main(["check", str(path), "--no-warn"]) == 0  # a valid rule file
    return path


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_guesses_are_listed_in_file_order_with_their_place_and_the_rule_they_qualify(
    rules: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["check", "--guesses", str(rules)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{rules}: 7 guesses"
    listed = [re.match(r"^(.+):(\d+):(\d+): guess\[(.+?)\]: (.+)$", line) for line in lines[1:8]]
    assert all(listed)
    assert [(m[4], m[5]) for m in listed if m] == EXPECTED
    for m in listed:
        assert m is not None and m[1] == str(rules)
        assert int(m[2]) == line_of(rules, m[5].split(",")[0])  # the line that says `guess: …`
    assert lines[-1] == "7 guesses in 1 file."


def test_guesses_as_json_are_records_per_file(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["check", "--guesses", str(rules), "--format", "json"]) == 0
    [record] = json.loads(capsys.readouterr().out)
    assert record["file"] == str(rules)
    guesses: list[dict[str, Any]] = record["guesses"]
    assert [(g["path"], g["text"]) for g in guesses] == EXPECTED
    assert guesses[1]["line"] == line_of(rules, "the book names no player count")
    assert {g["file"] for g in guesses} == {str(rules)}


def test_guesses_of_a_file_that_does_not_load_are_an_error_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("game: {name: x\n", encoding="utf-8")
    assert main(["check", "--guesses", str(path)]) == 1
    assert re.search(rf"^{re.escape(str(path))}:\d+:\d+: error\[yaml/", capsys.readouterr().err, re.M)


def test_guesses_in_junit_is_a_usage_error(rules: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["check", "--guesses", str(rules), "--format", "junit"]) == 2
    assert "--guesses" in capsys.readouterr().err


# ---------------------------------------------------------------- the seed games


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_seed_game_states_its_guesses_as_data_not_comments(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    comments = [line.split("#", 1)[1] for line in path.read_text().splitlines() if "#" in line]
    assert [c for c in comments if re.search(r"^\s*guess\b|\(guess\b|\bguess\)", c)] == []
    assert main(["check", "--guesses", str(path), "--format", "json"]) == 0
    [record] = json.loads(capsys.readouterr().out)
    assert len(record["guesses"]) >= 5
    assert all(g["text"] and g["line"] and g["path"] != "(the whole file)" for g in record["guesses"])
