"""Typed options: values converted to the option's type and checked, on every command and in
`meeple.load(..., options=...)`; a wrong one is a usage error naming the option and its type, never a
failure later in the game. Wrong declarations are located rules errors. `explain --options` lists them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.compile.options import OptionSpec, OptionValueError, inferred_type
from meeple.tools.cli import main


@pytest.mark.parametrize(
    ("game", "option", "value", "kind"),
    [
        ("climbers_of_verdon", "target_vp", "abc", "a whole number"),
        ("pluvionauts", "miss_percent", True, "a whole number"),
        ("caravan_conquest", "countdown", 2.5, "a whole number"),
    ],
)
def test_an_option_of_the_wrong_type_is_a_located_usage_error_in_the_api(game, option, value, kind):
    with pytest.raises(meeple.RulesError) as raised:
        meeple.load(game, options={option: value})
    (problem,) = raised.value.diagnostics
    assert problem.code == "usage/option-type"
    assert option in problem.message and kind in problem.message
    assert problem.span is not None and problem.span.line > 0


def test_an_option_of_the_wrong_type_exits_2_on_every_game_command(capsys):
    for command in (["run"], ["simulate", "-n", "1"], ["explain"]):
        assert main([*command, "climbers_of_verdon", "-o", "target_vp=abc"]) == 2
        assert "usage/option-type" in capsys.readouterr().err


def test_an_option_of_the_right_type_is_taken(capsys):
    assert main(["run", "climbers_of_verdon", "--seed", "2", "--quiet", "-o", "target_vp=5"]) == 0
    game = meeple.load("climbers_of_verdon", options={"target_vp": 5})
    assert game.options["target_vp"] == 5


# --------------------------------------------------------------------------- types, conversion, ranges

LEVEL = OptionSpec("level", "integer", 3, min=1, max=9)
RATE = OptionSpec("rate", "number", 0.5, min=0, max=1)
FAST = OptionSpec("fast", "boolean", False)
SIDE = OptionSpec("side", "choice", "easy", choices=("easy", "hard", 7))
TITLE = OptionSpec("title", "string", "x")


@pytest.mark.parametrize(
    ("spec", "given", "taken"),
    [
        (LEVEL, "4", 4),
        (LEVEL, 9, 9),
        (LEVEL, " 2 ", 2),
        (RATE, "0.25", 0.25),
        (RATE, "1", 1),
        (RATE, 0, 0),
        (FAST, "yes", True),
        (FAST, "False", False),
        (FAST, True, True),
        (SIDE, "hard", "hard"),
        (SIDE, "7", 7),
        (SIDE, 7, 7),
        (TITLE, "10", "10"),
        (TITLE, 10, "10"),
    ],
)
def test_a_value_is_converted_to_the_options_type(spec, given, taken):
    value = spec.convert(given)
    assert value == taken and type(value) is type(taken)


@pytest.mark.parametrize(
    ("spec", "given", "code"),
    [
        (LEVEL, "4.5", "usage/option-type"),
        (LEVEL, True, "usage/option-type"),
        (LEVEL, 4.0, "usage/option-type"),
        (LEVEL, "10", "usage/option-range"),
        (LEVEL, 0, "usage/option-range"),
        (RATE, "nan", "usage/option-type"),
        (RATE, "1.5", "usage/option-range"),
        (FAST, "maybe", "usage/option-type"),
        (FAST, 1, "usage/option-type"),
        (SIDE, "medium", "usage/option-choice"),
        (SIDE, True, "usage/option-choice"),
        (TITLE, False, "usage/option-type"),
        (TITLE, None, "usage/option-type"),
    ],
)
def test_a_wrong_value_fails_with_the_check_it_failed(spec, given, code):
    with pytest.raises(OptionValueError) as raised:
        spec.convert(given)
    assert raised.value.code == code


@given(st.integers(-1000, 1000))
def test_an_integer_option_takes_exactly_the_whole_numbers_of_its_range(n):
    if 1 <= n <= 9:
        assert LEVEL.convert(str(n)) == n == LEVEL.convert(n)
    else:
        with pytest.raises(OptionValueError, match="an integer"):
            LEVEL.convert(str(n))


@given(st.text(max_size=8))
def test_a_boolean_option_takes_only_the_words_for_true_and_false(text):
    words = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
    if text.strip().lower() in words:
        assert FAST.convert(text) is words[text.strip().lower()]
    else:
        with pytest.raises(OptionValueError):
            FAST.convert(text)


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ({"default": 13, "min": 3}, "integer"),
        ({"default": 0.5}, "number"),
        ({"default": False, "choices": [True, False]}, "boolean"),
        ({"default": "easy", "choices": ["easy", "hard"]}, "choice"),
        ({"default": 2, "choices": [2, 3]}, "choice"),
        ({"default": "text"}, "string"),
        ({"default": 1, "type": "number"}, "number"),
    ],
)
def test_the_type_is_told_by_the_default_when_not_declared(spec, kind):
    assert inferred_type(spec) == kind


@pytest.mark.parametrize(
    ("game", "types"),
    [
        ("climbers_of_verdon", {"target_vp": "integer"}),
        ("k2", {"board": "choice", "weather": "choice", "red_figure": "boolean", "family": "boolean"}),
        ("caravan_conquest", {"movement": "choice", "start_gold": "integer"}),
    ],
)
def test_the_seed_games_options_get_their_types_without_declaring_them(game, types, capsys):
    assert main(["explain", game, "--options", "--json"]) == 0
    found = {o["name"]: o["type"] for o in json.loads(capsys.readouterr().out)["options"]}
    assert types.items() <= found.items()


def test_a_number_option_declared_with_its_type_takes_decimals(tmp_path):
    rules = write_pig(
        tmp_path, "    goal: {default: 50, min: 10, max: 200}\n    edge: {type: number, default: 1}\n"
    )
    game = meeple.load(rules, players=2, options={"edge": "0.75"})
    assert game.options["edge"] == 0.75 and game.options["goal"] == 50


PIG = Path(__file__).resolve().parents[2] / "examples" / "tutorial" / "pig.yaml"


def write_pig(folder: Path, options: str) -> Path:
    """The pig tutorial with its options replaced by `options` (lines under `options:`)."""
    lines = PIG.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == "options:")
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("    "))
    path = folder / "pig.yaml"
    path.write_text("".join(lines[: start + 1]) + options + "".join(lines[end:]), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("options", "code", "line_offset"),
    [
        ("    goal: {default: 5, min: 10, max: 200}\n", "rules/option-default", 0),
        ("    goal: {type: integer, default: fifty}\n", "rules/option-default", 0),
        ("    goal: {default: 50, min: 300, max: 200}\n", "rules/option-spec", 0),
        ("    goal: {type: choice, default: a}\n", "rules/option-spec", 0),
        ("    goal: 50\n    name:\n      default: x\n      max: 3\n", "rules/option-spec", 3),
        ("    goal: {type: integer, default: 2, choices: [2, three]}\n", "rules/option-spec", 0),
    ],
)
def test_a_wrong_option_declaration_is_a_located_rules_error(tmp_path, options, code, line_offset):
    path = write_pig(tmp_path, options)
    found = [d for d in meeple.check(path) if d.code.startswith("rules/option")]
    first = next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.strip() == "options:")
    assert [d.code for d in found] == [code]
    assert found[0].span.line == first + 1 + line_offset and "'" in found[0].message


def test_an_unknown_option_type_is_a_schema_error(tmp_path):
    path = write_pig(tmp_path, "    goal: {type: whole, default: 50}\n")
    assert [d.code for d in meeple.check(path)] == ["schema/enum"]


# --------------------------------------------------------------------------- every command


@pytest.mark.parametrize(
    "command",
    [
        ["run", "k2"],
        ["simulate", "k2", "-n", "1", "--no-progress"],
        ["explain", "k2"],
        ["explain", "k2", "--options"],
        ["render", "k2", "-O", "-"],
        ["check", "k2"],
        ["check", "k2", "--playouts", "1"],
    ],
)
@pytest.mark.parametrize(
    ("option", "code"),
    [
        ("board=medium", "usage/option-choice"),
        ("family=maybe", "usage/option-type"),
        ("bored=hard", "usage/unknown-option"),
    ],
)
def test_a_wrong_option_is_a_usage_error_on_every_command(command, option, code, capsys):
    assert main([*command, "-o", option]) == 2
    err = capsys.readouterr().err
    name = option.partition("=")[0]
    assert code in err and f"'{name}'" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "command",
    [
        ["run", "k2", "--quiet"],
        ["simulate", "k2", "-n", "1", "--no-progress"],
        ["explain", "k2"],
        ["check", "k2", "--playouts", "1"],
    ],
)
def test_a_right_option_is_taken_on_every_command(command, capsys):
    assert main([*command, "-o", "weather=winter", "-o", "family=yes"]) == 0
    out = capsys.readouterr().out.replace(" = ", "=")
    if command[0] in ("simulate", "explain"):
        assert "weather=winter" in out and "family=true" in out


def test_check_of_several_files_gives_each_the_options_it_declares(capsys):
    assert main(["check", "climbers_of_verdon", "k2", "-o", "target_vp=8", "-o", "weather=winter"]) == 0
    assert main(["check", "climbers_of_verdon", "k2", "-o", "target_vp=80"]) == 2
    assert "usage/option-range" in capsys.readouterr().err
    assert main(["check", "climbers_of_verdon", "k2", "-o", "wether=winter"]) == 2
    assert "no rule file declares option 'wether' (did you mean 'weather'?)" in capsys.readouterr().err


def test_a_saved_game_keeps_its_options_converted_and_replays(tmp_path, capsys):
    saved = tmp_path / "game.json"
    assert main(["run", "k2", "--quiet", "-o", "family=yes", "-o", "board=hard", "--save", str(saved)]) == 0
    assert json.loads(saved.read_text())["options"] == {"family": True, "board": "hard"}
    assert main(["replay", str(saved)]) == 0


def test_render_writes_its_svg_with_capital_o_and_explains_a_stray_lower_o(tmp_path, capsys):
    out = tmp_path / "k2.svg"
    assert main(["render", "pluvionauts", "-O", str(out), "-o", "miss_percent=0"]) == 0
    assert "<svg" in out.read_text()
    assert main(["render", "pluvionauts", "-o", "board.svg"]) == 2
    assert "-O/--output" in capsys.readouterr().err


# --------------------------------------------------------------------------- explain --options


def test_explain_options_lists_type_default_range_choices_and_doc(capsys):
    assert main(["explain", "caravan_conquest", "--options", "-o", "start_gold=20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Options of Caravan Conquest (-o NAME=VALUE)"
    rows = {line.split()[0]: line for line in out[2:]}
    assert rows["movement"].split()[:4] == ["movement", "choice", "destination", "destination,"]
    assert "gold each caravan starts with" in rows["start_gold"]
    assert rows["start_gold"].split()[1:6] == ["integer", "10", "(now", "20)", "0..200"]


def test_explain_options_as_json_carries_every_field(capsys):
    assert main(["explain", "climbers_of_verdon", "--options", "--json"]) == 0
    (option,) = json.loads(capsys.readouterr().out)["options"]
    assert option == {
        "name": "target_vp",
        "type": "integer",
        "default": 13,
        "value": 13,
        "min": 3,
        "max": 30,
        "choices": None,
        "doc": "victory points that win the game",
    }


def test_explain_json_without_a_listing_is_a_usage_error(capsys):
    assert main(["explain", "k2", "--json"]) == 2
    assert "--json needs --options or --diff" in capsys.readouterr().err
