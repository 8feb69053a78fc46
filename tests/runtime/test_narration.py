"""The log narrated seat by seat on a small inline game: what a seat is told of another player's draws,
secret choices, cards shown face up, and lines written under a condition it may not know."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_rules import load_tiny

import meeple
from meeple.runtime.narration import Line, narrated
from meeple.tools.cli import main

PEEK = """
game:
  name: Peek
  players: {min: 2, max: 3}
components:
  cards:
    ace: {count: 4}
    king: {count: 4}
  zones:
    deck: {visibility: hidden, fill: cards}
    hand: {per: player, visibility: owner}
    table: {}
vars:
  player:
    mood: {value: calm, visibility: owner}
actions:
  take:
    effect:
      - draw 1 from deck to me.hand as got
      - log '{me} draws {got}'
      - for: c in me.hand
        do: ["log '{me} holds {c}'"]
      - if: "'ace' in me.hand"
        then: ["log '{me} smiles'"]
      - log '{me} holds {size(me.hand)} cards'
  feel:
    params: {how: "['calm', 'bold']"}
    effect:
      - set me.mood = how
      - log '{me} feels {me.mood}'
  show:
    params: {card: distinct(me.hand)}
    effect:
      - move card card from me.hand to table
      - log '{me} shows {card}'
flow:
  - phase: main
    turns: clockwise
    repeat: true
    until: size(deck) == 0
    do:
      - choose: [take, feel, show]
scoring:
  score: size(p.hand)
"""


@pytest.fixture
def peek(tmp_path: Path) -> meeple.Game:
    return load_tiny(tmp_path, PEEK, 2)


def told(s: meeple.State, seat: int, since: int) -> list[str]:
    """The lines told to `seat` since line `since`, turn headers left out."""
    return [line for line in narrated(s.log[since:], seat) if not line.startswith("--")]


def test_another_players_draw_is_told_as_a_card_and_lines_about_its_hand_are_left_out(
    peek: meeple.Game,
) -> None:
    s = peek.new_game(seed=3, narrate=True)
    since = len(s.log)
    s.apply("take")
    drawn = next(iter(s.zones["hand#0"]))
    assert told(s, 0, since) == [
        "p1: take",
        f"  1 card drawn from deck to p1.hand: {drawn}",
        f"  p1 draws {drawn}",
        f"  p1 holds {drawn}",
        *(["  p1 smiles"] if drawn == "ace" else []),
        "  p1 holds 1 cards",
    ]
    assert told(s, 1, since) == [
        "p1: take",
        "  1 card drawn from deck to p1.hand",
        "  p1 draws a card",
        "  p1 holds 1 cards",  # a hand's size is public
    ]
    assert all(isinstance(line, Line) for line in s.log[since + 1 :] if line.startswith("  p1"))


def test_a_card_shown_face_up_is_told_to_everyone(peek: meeple.Game) -> None:
    s = peek.new_game(seed=3, narrate=True)
    s.apply("take")
    s.apply("take")  # p2
    card = next(iter(s.zones["hand#0"]))
    since = len(s.log)
    s.apply(f"show(card={card})")
    assert told(s, 1, since) == [f"p1: show(card={card})", f"  p1 shows {card}"]


def test_a_choice_written_to_a_private_variable_is_told_to_its_player_only(peek: meeple.Game) -> None:
    s = peek.new_game(seed=3, narrate=True)
    since = len(s.log)
    s.apply("feel(how=bold)")
    assert told(s, 0, since) == ["p1: feel(how=bold)", "  p1 feels bold"]
    assert told(s, 1, since) == ["p1: feel(how=?)", "  p1 feels ?"]


def test_a_game_not_narrated_keeps_plain_lines(peek: meeple.Game) -> None:
    s = peek.new_game(seed=3, log=True)
    s.apply("take")
    assert not any(isinstance(line, Line) for line in s.log)
    assert s.narrated is None and s.unit is None


def test_run_seat_prints_the_game_as_that_player_sees_it(
    tmp_path: Path, peek: meeple.Game, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "tiny.yaml")
    assert main(["run", path, "--seed", "5", "--seat", "p2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The game as p2 sees it")
    assert "  p1 draws a card" in out or "p1: take" not in out
    assert "p1 holds ace" not in out and "p1 holds king" not in out
    assert "Final scores" in out


def test_run_seat_saves_only_the_seats_view_and_log(
    tmp_path: Path, peek: meeple.Game, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    path, saved = str(tmp_path / "tiny.yaml"), tmp_path / "seen.json"
    assert main(["run", path, "--seed", "5", "--seat", "2", "-q", "--save", str(saved)]) == 0
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["seat"] == "p2" and "seed" not in record and "actions" not in record
    view = peek.state_from_json(json.dumps(record["view"]))
    assert view.viewer == 1 and set(view.zones["hand#0"]) <= {"?"}
    assert not any(f"p1 holds {card}" in line for line in record["log"] for card in ("ace", "king"))
    assert any("p1 draws a card" in line for line in record["log"])


@pytest.mark.parametrize("seat", ["0", "p4", "two"])
def test_run_seat_out_of_range_is_a_usage_error(
    tmp_path: Path, peek: meeple.Game, seat: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", str(tmp_path / "tiny.yaml"), "--seat", seat]) == 2
    assert "--seat must be a player from p1 to p2" in capsys.readouterr().err


@pytest.mark.parametrize("body", ["first(p.hand)", "{value: first(p.hand), doc: a card the player holds}"])
def test_a_def_is_looked_into_whether_or_not_it_carries_notes(tmp_path: Path, body: str) -> None:
    rules = PEEK.replace("actions:\n", f"defs:\n  top(p): {body}\nactions:\n", 1).replace(
        "log '{me} holds {size(me.hand)} cards'", "log '{me} holds {top(me)} on top'"
    )
    s = load_tiny(tmp_path, rules, 2).new_game(seed=3, narrate=True)
    since = len(s.log)
    s.apply("take")
    drawn = next(iter(s.zones["hand#0"]))

    assert told(s, 0, since)[-1] == f"  p1 holds {drawn} on top"
    assert told(s, 1, since)[-1] == "  p1 holds a card on top"  # the def reads a hidden hand
