"""Option values of the wrong type are usage errors naming the option and its type, on the command line
and in `meeple.load(..., options=...)`, never a failure later in the game."""

from __future__ import annotations

import pytest

import meeple
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
