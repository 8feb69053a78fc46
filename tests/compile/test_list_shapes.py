"""Game variables that always hold lists are found from the whole rule file (meeple.compile.shapes) and read
without tests of their type; a write not understood, or a name that may hide the variable, leaves it alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import meeple
from meeple.compile.shapes import list_depths

ROOT = Path(__file__).resolve().parents[2]


def def_texts(defs: dict[str, Any]) -> dict[str, tuple[tuple[str, ...], str]]:
    """Each def's name -> (parameters, body), as the compiler hands them over."""
    out = {}
    for head, body in defs.items():
        name, params = head.split("(")
        out[name] = (tuple(p.strip() for p in params.rstrip(")").split(",") if p.strip()), body)
    return out


def depths(
    effects: list[Any], game_vars: dict[str, Any], defs: dict[str, str] | None = None
) -> dict[str, int]:
    data = {"actions": {"go": {"effect": effects}}, "defs": defs or {}}
    return list_depths(data, game_vars, set(), def_texts(defs or {}))


def test_connect_four_grid_is_lists_of_lists() -> None:
    data = yaml.safe_load((ROOT / "examples/classic/connect_four.yaml").read_text(encoding="utf-8"))
    game_vars = {name: tuple(value) for name, value in data["vars"]["game"].items()}
    defs = def_texts(data["defs"])
    assert list_depths(data, game_vars, set(), defs) == {"rows": 2, "columns": 2, "lines": 2}


def test_a_list_given_lists_of_lists() -> None:
    assert depths(
        ["set grid = [[c for c in row] for row in rows()]"], {"grid": ()}, {"rows()": "[[1, 2]]"}
    ) == {"grid": 2}
    assert depths(["set seen = [1, 2] + [3]", "seen += [4]", "add 5 to seen"], {"seen": ()}) == {"seen": 1}
    assert depths(["set seen = 1..3 if true else [x for x in 0..2]"], {"seen": (1,)}) == {"seen": 1}
    noted = {"f()": {"value": "[[1]]", "doc": "a def written with notes"}}
    assert depths(["set grid = f()"], {"grid": ()}, noted) == {"grid": 2}


@pytest.mark.parametrize(
    ("effects", "why"),
    [
        (["set grid = 3"], "given a number"),
        (["set grid = some_def()"], "given what a def of unknown value gives"),
        (["set grid = [1] if true else none"], "given none on one branch"),
        (["let grid = 5", "set grid = [1]"], "a name bound by let hides it"),
        (["set grid = [1]", {"for": "grid in [[1]]", "do": ["log 'x'"]}], "a name bound by for: hides it"),
        (["set grid = [1]", "log 'set grid = later'"], "a text that mentions a write and is no plain write"),
    ],
)
def test_any_doubt_leaves_the_variable_unknown(effects: list[str], why: str) -> None:
    assert depths(effects, {"grid": ()}, {"some_def()": "1"}) == {}, why


def test_not_a_list_to_start_with_a_hidden_one_or_a_parameter_of_that_name() -> None:
    assert depths(["set grid = [1]"], {"grid": 0}) == {}
    assert list_depths({"actions": {"go": {"effect": ["set grid = [1]"]}}}, {"grid": ()}, {"grid"}, {}) == {}
    data = {"actions": {"go": {"params": {"grid": "[1]"}, "effect": ["set grid = [1]"]}}}
    assert list_depths(data, {"grid": ()}, set(), {}) == {}
    assert depths(["set grid = [1]"], {"grid": ()}, {"f(grid)": "grid[0]"}) == {}


def test_a_list_variable_plays_as_before(tmp_path: Path) -> None:
    """A list of lists read by index and looped over in a rule: the same answers, and a wrong index is still a
    located error of the rule file."""
    rules = tmp_path / "lists.yaml"
    rules.write_text(
        """\
game:
  name: Lists
  players: {min: 2, max: 2}
vars:
  game: {grid: [], pick: 0}
  player: {score: 0}
setup:
  - set grid = [[x * 10 + y for y in 0..2] for x in 0..3]
actions:
  take:
    params: {col: "[x for x in 0..(len(grid) - 1) if len(grid[x]) > 0]"}
    effect:
      - set me.score = me.score + sum(grid[col]) + grid[col][0]
      - set grid = [grid[x] if x != col else [] for x in 0..(len(grid) - 1)]
      - if: me.score > 1000
        then: ["set pick = grid[pick][7]"]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: all(len(row) == 0 for row in grid)
    do:
      - choose: [take]
scoring:
  score: p.score
""",
        encoding="utf-8",
    )
    game = meeple.load(rules, players=2)
    s = game.new_game(seed=1)
    assert [str(a) for a in s.legal_actions()] == ["take(col=0)", "take(col=1)", "take(col=2)", "take(col=3)"]
    s.apply("take(col=2)")
    assert s.pv[0]["score"] == 20 + 21 + 22 + 20
    assert [str(a) for a in s.legal_actions()] == ["take(col=0)", "take(col=1)", "take(col=3)"]
    s.apply("take(col=3)")
    assert s.pv[1]["score"] == 30 + 31 + 32 + 30
    s.apply("take(col=0)")
    s.apply("take(col=1)")
    assert s.is_over
    assert s.pv[1]["score"] == (30 + 31 + 32 + 30) + (10 + 11 + 12 + 10)

    broken = tmp_path / "broken.yaml"
    broken.write_text(
        rules.read_text(encoding="utf-8").replace("me.score > 1000", "me.score > 0"), encoding="utf-8"
    )
    s = meeple.load(broken, players=2).new_game(seed=1)
    with pytest.raises(meeple.errors.RuleRuntimeError) as err:
        s.apply("take(col=0)")
    assert "index out of range" in err.value.message
    assert err.value.span is not None and err.value.span.file.endswith("broken.yaml")
    assert err.value.rule is not None and err.value.rule.startswith("actions.take.effect")
