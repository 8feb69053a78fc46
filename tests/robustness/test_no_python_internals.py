"""A rule file can reach nothing of Python: no `_` names, no format-string tricks, no YAML Python tags.

Each attempt is a located error from `meeple check`, so the file never compiles and never runs.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import meeple
from meeple.compile.game import fill_template
from meeple.rules.syntax import ExprSyntaxError, parse

GAMES = Path(__file__).resolve().parents[2] / "games"
VERDON = (GAMES / "climbers_of_verdon.yaml").read_text(encoding="utf-8")
CLIMBER = (GAMES / "tabletop_climber.yaml").read_text(encoding="utf-8")


def edited(tmp_path: Path, text: str, old: str, new: str) -> Path:
    assert old in text, old
    path = tmp_path / "edited.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def errors_on_line(path: Path, needle: str) -> list[meeple.Diagnostic]:
    """check's errors, asserting there is one and each is on the line holding `needle`."""
    found = meeple.check(path)
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text)
    assert found, "expected an error"
    assert all(d.span is not None and d.span.line == line for d in found), [d.headline() for d in found]
    return found


# --------------------------------------------------------------------------- names with underscores


@pytest.mark.parametrize(
    "text",
    [
        "me.__class__",
        "me._secret",
        "__import__('os')",
        "_x",
        "count(__builtins__)",
        "[c for c in tiles if c.__dict__]",
        "first(tiles).__class__.__mro__",
    ],
)
def test_a_name_beginning_with_an_underscore_is_a_syntax_error_at_the_name(text: str) -> None:
    with pytest.raises(ExprSyntaxError, match="reserved") as caught:
        parse(text)

    assert text[caught.value.offset] == "_"


@pytest.mark.parametrize(
    ("old", "new", "needle"),
    [
        ("when: give != get", "when: me.__class__ != get", "__class__"),
        ("when: give != get", "when: __import__('os') != get", "__import__"),
        ("effect: [gain 1 get]", "effect: [gain 1 get, \"log '{0.__class__}'\"]", "{0.__class__}"),
        ("effect: [gain 1 get]", "effect: [gain 1 get, \"log '{me.__init__.__globals__}'\"]", "__globals__"),
        ("effect: [gain 1 get]", "effect: [let _x = 1]", "let _x"),
        ("effect: [gain 1 get]", "effect: [set me.__class__ = 1]", "set me.__class__"),
        ("effect: [gain 1 get]", 'effect: ["grant __init__"]', "grant __init__"),
    ],
)
def test_an_underscore_name_in_an_expression_statement_or_log_brace_is_a_located_error(
    tmp_path: Path, old: str, new: str, needle: str
) -> None:
    path = edited(tmp_path, VERDON, old, new)

    found = errors_on_line(path, needle)

    assert any(d.code == "syntax/invalid" and "reserved" in d.message for d in found)


@pytest.mark.parametrize("name", ["getattr", "eval", "exec", "open", "globals", "type", "vars", "compile"])
def test_python_builtins_are_unknown_functions_and_names(tmp_path: Path, name: str) -> None:
    called = edited(tmp_path, VERDON, "when: give != get", f"when: {name}(me, 'x') != get")
    assert [d.code for d in errors_on_line(called, f"{name}(me")] == ["name/unknown-function"]

    bare = edited(tmp_path, VERDON, "when: give != get", f"when: {name} != get")
    assert [d.code for d in errors_on_line(bare, f"when: {name} ")] == ["name/unknown-name"]


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ("vars:\n  game: {token: none}", "vars:\n  game: {token: none, _hidden: 1}"),
        ("defs:\n", "defs:\n  _f(x): x\n"),
    ],
)
def test_a_rule_file_may_not_declare_a_name_beginning_with_an_underscore(
    tmp_path: Path, section: str, key: str
) -> None:
    path = edited(tmp_path, VERDON, section, key)

    found = errors_on_line(path, "_hidden" if "_hidden" in key else "_f(x)")

    assert all(d.code.startswith("schema/") for d in found)


# --------------------------------------------------------------------------- log text and name templates


def test_log_braces_are_expressions_not_python_format_fields(tmp_path: Path) -> None:
    path = edited(tmp_path, VERDON, "effect: [gain 1 get]", "effect: [gain 1 get, \"log '{get!r:>10}'\"]")

    found = errors_on_line(path, "{get!r")

    assert [d.code for d in found] == ["syntax/invalid"]


def test_a_log_with_plain_braces_shows_the_values(tmp_path: Path) -> None:
    path = edited(
        tmp_path, VERDON, "effect: [gain 1 get]", "effect: [gain 1 get, \"log 'got {get} of {0}'\"]"
    )
    game = meeple.load(path, players=2)
    state = game.new_game(seed=3, log=True)
    agent = random.Random(3)
    for _ in range(20_000):
        if state.is_over or any("got " in line for line in state.log or []):
            break
        legal = state.legal_actions()
        trades = [a for a in legal if a.name == "trade"]
        state.apply(agent.choice(trades or legal))

    shown = [line for line in state.log or [] if "got " in line]
    assert shown and re.fullmatch(r"got (rope|nut|bolt|crashpad|chalk) of 0", shown[0].strip())


@pytest.mark.parametrize(
    "template", ["{colour.__class__}_{n}", "{colour[0]}_{n}", "{n!r}_{colour}", "{n:>5}", "{0}", "{}", "x{"]
)
def test_a_family_name_template_takes_only_loop_names_in_braces(tmp_path: Path, template: str) -> None:
    path = edited(tmp_path, CLIMBER, '"{colour}_{n}"', f'"{template}"')

    found = errors_on_line(path, template)

    assert [d.code for d in found] == ["name/family-template"]


def test_a_family_name_template_fills_each_loop_name() -> None:
    assert fill_template("{colour}_{n}", {"colour": "red", "n": 3}) == "red_3"
    with pytest.raises(ValueError, match="not a loop name"):
        fill_template("{n.__class__}", {"n": 3})


# --------------------------------------------------------------------------- YAML tags


@pytest.mark.parametrize(
    "value",
    [
        "!!python/object/apply:os.system ['echo hacked']",
        "!!python/name:os.system",
        "!!python/object:argparse.Namespace {a: 1}",
        "!!python/module:os",
        "!!python/tuple [1, 2]",
        "!custom 1",
    ],
)
def test_a_python_yaml_tag_is_a_located_error_and_runs_nothing(tmp_path: Path, value: str) -> None:
    path = edited(tmp_path, VERDON, "version: 1", f"version: {value}")

    found = errors_on_line(path, "version:")

    assert [d.code for d in found] == ["yaml/unsupported-tag"]
