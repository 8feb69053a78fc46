"""A misspelt `name=` is a located error: a piece's field in `place`, an action's input in `grant`, a
built-in's argument. Before, each was silently ignored in play (found by the mutation suite)."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple

VERDON = (Path(__file__).resolve().parents[2] / "games" / "climbers_of_verdon.yaml").read_text(
    encoding="utf-8"
)


def only_error(tmp_path: Path, old: str, new: str) -> tuple[meeple.Diagnostic, str]:
    assert old in VERDON, old
    path = tmp_path / "verdon.yaml"
    path.write_text(VERDON.replace(old, new, 1), encoding="utf-8")
    [d] = meeple.check(path)
    assert d.span is not None
    return d, path.read_text().splitlines()[d.span.line - 1][d.span.col - 1 :]


@pytest.mark.parametrize(
    ("old", "new", "wrong", "hint"),
    [
        (
            "effect: [place project at corner with home=tile]",
            "effect: [place project at corner with hom=tile]",
            "a project has no field 'hom'",
            "home",
        ),
        (
            "grant accept_trade(partner=me,",
            "grant accept_trade(partnr=me,",
            "no input or parameter 'partnr'",
            "partner",
        ),
        (
            "pieces('project', owner=me)",
            "pieces('project', ownr=me)",
            "pieces has no argument 'ownr'",
            "owner",
        ),
    ],
    ids=["place-field", "grant-input", "builtin-argument"],
)
def test_a_misspelt_keyword_is_an_error_at_the_keyword_with_the_right_name_as_hint(
    tmp_path: Path, old: str, new: str, wrong: str, hint: str
) -> None:
    d, at = only_error(tmp_path, old, new)

    assert d.code == "name/unknown-keyword" and wrong in d.message
    assert d.hint == f"did you mean '{hint}'?"
    assert at.startswith(wrong.split("'")[1] + "=")


@pytest.mark.parametrize(
    ("call", "complaint"),
    [("first()", "missing a required argument: 'xs'"), ("pieces('project', me, 3)", "too many positional")],
)
def test_a_builtin_given_the_wrong_number_of_arguments_is_a_located_error(
    tmp_path: Path, call: str, complaint: str
) -> None:
    d, at = only_error(tmp_path, "first(pieces_at(path)) == none", f"{call} == none")

    assert d.code == "type/arity" and complaint in d.message and at.startswith(call)


def test_a_grant_may_bind_a_parameter_as_well_as_an_input(tmp_path: Path) -> None:
    path = tmp_path / "verdon.yaml"
    path.write_text(
        VERDON.replace("[grant move_token]", "[grant move_token(tile=token)]", 1), encoding="utf-8"
    )

    assert meeple.check(path) == []
