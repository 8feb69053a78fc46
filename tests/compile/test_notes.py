"""Notes for readers (`guess:` and `doc:`) next to the rules they qualify: a `do:` group of statements, a def
written as `{value: …}`, the note keys of a table, and a guess on a card, piece or terrain, on small inline
rule files. A note never changes what the game does."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple

RULES = """
game:
  name: Notes
  players: {min: 2, max: 2, guess: the book names no player count}
components:
  resources: [coin]
  terrains:
    field: {count: 1, guess: one field only}
  pieces:
    pawn: {supply: 1, guess: one pawn each}
  cards:
    ace: {vp: 1, guess: worth one point}
tables:
  price: {cheap: 1, dear: 5, guess: prices read from a picture, doc: what things cost}
  nested:
    outer: {inner: 3, guess: a note inside a nested table}
vars:
  game: {seen: 0, double: 0}
defs:
  twice(x):
    value: x * 2
    guess: doubling, not squaring
setup:
  - guess: the first player starts with the pot
    do:
      - let pot = price['dear'] + nested['outer']['inner']
      - gain (pot) coin to first(players)
  - set seen = pot
  - set double = twice(pot)
actions:
  noop: {}
flow:
  - phase: play
    turns: none
    do: [{choose: [noop]}]
"""


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> meeple.State:
    path = tmp_path_factory.mktemp("notes") / "notes.yaml"
    path.write_text(RULES, encoding="utf-8")
    assert meeple.check(path) == []
    return meeple.load(path, players=2).new_game(seed=1)


def test_a_do_group_runs_its_statements_in_place_and_its_lets_stay_visible_after_it(
    state: meeple.State,
) -> None:
    assert state.pv[0]["coin"] == 8 and state.pv[1]["coin"] == 0
    assert state.gv["seen"] == 8


def test_a_def_written_with_value_and_guess_is_its_value(state: meeple.State) -> None:
    assert state.gv["double"] == 16


def test_the_notes_of_a_table_are_not_entries(state: meeple.State) -> None:
    tables = state.game.sym.tables
    assert tables["price"] == {"cheap": 1, "dear": 5}
    assert tables["nested"] == {"outer": {"inner": 3}}


def test_a_guess_on_a_card_piece_or_terrain_is_not_one_of_its_fields(state: meeple.State) -> None:
    definitions = state.game.sym.definitions
    assert definitions["ace"]["vp"] == 1 and "guess" not in definitions["ace"]
    assert definitions["pawn"]["supply"] == 1 and "guess" not in definitions["pawn"]
    assert definitions["field"]["count"] == 1 and "guess" not in definitions["field"]


def test_a_do_group_with_an_unknown_key_is_a_located_schema_error(tmp_path: Path) -> None:
    text = RULES.replace("  - guess: the first player starts with the pot\n", "  - gues: typo\n")
    path = tmp_path / "typo.yaml"
    path.write_text(text, encoding="utf-8")
    [problem] = meeple.check(path)
    assert problem.code == "schema/additionalProperties" and "'gues'" in problem.message
    assert problem.span is not None and problem.span.line == text.splitlines().index("  - gues: typo") + 1


def test_a_def_mapping_without_a_value_is_a_schema_error(tmp_path: Path) -> None:
    path = tmp_path / "novalue.yaml"
    path.write_text(RULES.replace("    value: x * 2\n", ""), encoding="utf-8")
    [problem] = meeple.check(path)
    assert problem.code == "schema/required" and "'value'" in problem.message
