"""A field read that nothing in the game has (no player, piece, card, terrain, site, table row, nor a field a
statement sets) is a located error with a did-you-mean hint. Before, a misspelt `route.hom` read none in play
and the rule silently changed meaning (found by the mutation suite)."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple

VERDON = (Path(__file__).resolve().parents[2] / "games" / "climbers_of_verdon.yaml").read_text(
    encoding="utf-8"
)


def checked(tmp_path: Path, *edits: tuple[str, str]) -> tuple[list[meeple.Diagnostic], list[str]]:
    text = VERDON
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "verdon.yaml"
    path.write_text(text, encoding="utf-8")
    return meeple.check(path), text.splitlines()


@pytest.mark.parametrize(
    ("old", "new", "wrong", "hint"),
    [
        ("route.home != token", "route.hom != token", "hom", "home"),
        ("climb_cost[project.home.terrain]", "climb_cost[project.home.terain]", "terain", "terrain"),
        ("t.terrain.produces to b.owner", "t.terrain.prodces to b.owner", "prodces", "produces"),
        ("b.income * (2 if", "b.incme * (2 if", "incme", "income"),
    ],
    ids=["condition", "nested-field", "resource-key-of-gain", "statement-expression"],
)
def test_a_misspelt_field_is_an_error_at_the_field_with_the_right_name_as_hint(
    tmp_path: Path, old: str, new: str, wrong: str, hint: str
) -> None:
    [d], lines = checked(tmp_path, (old, new))

    assert d.code == "name/unknown-field" and d.severity == "error"
    assert d.message == f"nothing in the game has a field '{wrong}'"
    assert d.hint == f"did you mean '{hint}'?"
    assert d.span is not None
    assert lines[d.span.line - 1][d.span.col - 1 :].startswith(wrong)


def test_a_field_only_a_statement_sets_may_be_read(tmp_path: Path) -> None:
    read = ("route.home != token\n", "route.home != token and route.visited != true\n")
    set_it = (
        "      - add me to route.repeaters\n",
        "      - add me to route.repeaters\n      - set route.visited = true\n",
    )

    assert checked(tmp_path, read, set_it)[0] == []
    [d], _ = checked(tmp_path, read)
    assert d.code == "name/unknown-field" and "'visited'" in d.message


def test_a_misspelt_field_a_statement_sets_is_an_error_at_the_field(tmp_path: Path) -> None:
    """Setting a field nothing has nor reads changes nothing in play (found by the slow mutation run)."""
    [d], lines = checked(
        tmp_path, ("      - add me to route.repeaters\n", "      - add me to route.repeatrs\n")
    )

    assert (
        d.code == "name/unknown-field" and d.message == "nothing in the game has or reads a field 'repeatrs'"
    )
    assert d.hint == "did you mean 'repeaters'?"
    assert d.span is not None and lines[d.span.line - 1][d.span.col - 1 :] == "repeatrs"


def test_a_field_set_but_never_read_nor_declared_is_an_error(tmp_path: Path) -> None:
    set_it = (
        "      - add me to route.repeaters\n",
        "      - add me to route.repeaters\n      - set route.visited = true\n",
    )

    [d], _ = checked(tmp_path, set_it)
    assert d.code == "name/unknown-field" and "'visited'" in d.message and "has or reads" in d.message


def test_the_cli_reports_a_misspelt_field_with_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meeple.tools.cli import main

    path = tmp_path / "verdon.yaml"
    path.write_text(VERDON.replace("route.home != token", "route.hom != token", 1), encoding="utf-8")

    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "error[name/unknown-field]: nothing in the game has a field 'hom' (did you mean 'home'?)" in out
