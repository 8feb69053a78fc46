"""Card families (`for:` entries with a name template), the `cards` list, zone `fill:` expressions, ranges
`a..b` and tables keyed by whole numbers, on small inline rule files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import meeple

HEAD = """
game:
  name: Tiny
  players: {min: 2, max: 4}
components:
  card_fields: {number: none, colours: [], icon: none, vp: 0, effect: none}
  cards:
"""

DECK = """
    start: {number: -1}
    low:
      for: {colour: colours, n: 1..3}
      name: "{colour}_{n}"
      number: n
      colours: "[colour]"
    high:
      for: {colour: colours, n: 4..5}
      name: "{colour}_{n}"
      count: n - 3
      number: n
      colours: "[colour]"
      icon: "icons[n]"
    wild:
      for: {n: 0..1}
      number: n
      colours: colours
    standard: {family: gold, vp: 5}
    climax: {family: gold, vp: 10}
"""

TAIL = """
  zones:
    main: {fill: low}
    extra: {fill: high + wild}
    pile: {fill: "[start]"}
    golds: {fill: gold}
    everything: {fill: cards}
tables:
  colours: [red, blue]
  icons: {4: "'cut'", 5: "'reverse'"}
actions:
  noop: {}
flow:
  - phase: play
    turns: none
    do: [{choose: [noop]}]
"""

RULES = HEAD + DECK + TAIL


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def deck(tmp_path: Path, extra: str = "") -> meeple.Game:
    path = write(tmp_path, RULES + extra)
    assert meeple.check(path) == []
    return meeple.load(path, players=2)


def evaluate(tmp_path: Path, **exprs: str) -> dict[str, Any]:
    """The value of each expression, set by the deck game's set-up into a game variable (lists as lists)."""
    names = ", ".join(f"{k}: none" for k in exprs)
    sets = "".join(f"  - set {k} = {v}\n" for k, v in exprs.items())
    game = deck(tmp_path, f"vars:\n  game: {{{names}}}\nsetup:\n{sets}")
    return {k: list(v) if isinstance(v, tuple) else v for k, v in game.new_game(seed=1).gv.items()}


def field(game: meeple.Game, card: str) -> dict[str, Any]:
    return game.definition.sym.definitions[card]


def places(tmp_path: Path, text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.col) for d in meeple.check(write(tmp_path, text)) if d.span]


def line_of(text: str, marker: str) -> int:
    (number,) = [i for i, line in enumerate(text.splitlines(), 1) if marker in line]
    return number


# --------------------------------------------------------------------------- families


def test_a_family_makes_one_card_per_combination_named_by_its_template(tmp_path: Path) -> None:
    values = evaluate(tmp_path, names="low")
    assert list(values["names"]) == ["red_1", "red_2", "red_3", "blue_1", "blue_2", "blue_3"]


def test_a_family_field_is_an_expression_over_the_loop_names(tmp_path: Path) -> None:
    game = deck(tmp_path)
    assert field(game, "blue_2")["number"] == 2
    assert tuple(field(game, "blue_2")["colours"]) == ("blue",)
    assert field(game, "red_4")["icon"] == "cut" and field(game, "red_5")["icon"] == "reverse"
    assert tuple(field(game, "wild_1")["colours"]) == ("red", "blue")


def test_a_family_card_takes_the_card_fields_defaults_and_knows_its_family(tmp_path: Path) -> None:
    game = deck(tmp_path)
    assert field(game, "red_1")["vp"] == 0 and field(game, "red_1")["icon"] is None
    assert field(game, "red_1")["family"] == "low"
    assert field(game, "start")["family"] is None


def test_without_a_template_a_family_card_is_named_by_the_family_and_its_values(tmp_path: Path) -> None:
    assert list(evaluate(tmp_path, names="wild")["names"]) == ["wild_0", "wild_1"]


def test_single_cards_with_family_are_listed_under_the_family_name(tmp_path: Path) -> None:
    game = deck(tmp_path)
    assert list(evaluate(tmp_path, golds="gold")["golds"]) == ["standard", "climax"]
    assert field(game, "climax")["family"] == "gold"


def test_cards_lists_every_card_once(tmp_path: Path) -> None:
    names = evaluate(tmp_path, names="cards")["names"]
    assert sorted(names) == sorted(
        ["start", "standard", "climax", "wild_0", "wild_1"]
        + [f"{c}_{n}" for c in ("red", "blue") for n in range(1, 6)]
    )


def test_family_cards_can_be_read_in_expressions(tmp_path: Path) -> None:
    values = evaluate(
        tmp_path, total="sum(c.number for c in low)", reds="[c for c in low if 'red' in c.colours]"
    )
    assert values["total"] == 12 and list(values["reds"]) == ["red_1", "red_2", "red_3"]


# --------------------------------------------------------------------------- fill


def test_fill_puts_each_named_card_in_the_zone_at_its_count(tmp_path: Path) -> None:
    zones = deck(tmp_path).new_game(seed=1).zones
    assert zones["main"] == {f"{c}_{n}": 1 for c in ("red", "blue") for n in (1, 2, 3)}
    assert zones["extra"] == {"red_4": 1, "red_5": 2, "blue_4": 1, "blue_5": 2, "wild_0": 1, "wild_1": 1}
    assert zones["pile"] == {"start": 1}
    assert zones["golds"] == {"standard": 1, "climax": 1}
    assert sum(zones["everything"].values()) == 1 + 6 + 6 + 2 + 2


def test_a_fill_naming_a_non_card_is_reported_at_the_fill(tmp_path: Path) -> None:
    text = RULES.replace('pile: {fill: "[start]"}', "pile: {fill: \"[start, 'joker']\"}")
    assert [(code, line) for code, line, _ in places(tmp_path, text)] == [
        ("name/unknown-card", line_of(text, "joker"))
    ]


def test_a_fill_with_an_unknown_name_is_reported_at_the_name(tmp_path: Path) -> None:
    text = RULES.replace("main: {fill: low}", "main: {fill: lo}")
    assert places(tmp_path, text) == [("name/unknown-name", line_of(text, "{fill: lo}"), 18)]  # `lo`


def test_a_fill_that_is_not_a_list_of_cards_is_a_diagnostic_not_a_crash(tmp_path: Path) -> None:
    text = RULES.replace("main: {fill: low}", "main: {fill: 3}")
    assert [line for _, line, _ in places(tmp_path, text)] == [line_of(text, "{fill: 3}")]


# --------------------------------------------------------------------------- counts


def test_a_family_count_below_one_is_reported(tmp_path: Path) -> None:
    text = RULES.replace("count: n - 3", "count: n - 4")
    assert [line for _, line, _ in places(tmp_path, text)] == [line_of(text, "count: n - 4")]


def test_a_single_card_count_may_be_an_expression_or_is_reported(tmp_path: Path) -> None:
    text = RULES.replace("start: {number: -1}", "start: {number: -1, count: 1 + 2}")
    path = write(tmp_path, text)
    if meeple.check(path):
        return
    assert meeple.load(path, players=2).new_game(seed=1).zones["pile"] == {"start": 3}


def test_a_family_card_effect_runs_when_performed(tmp_path: Path) -> None:
    text = RULES.replace("      colours: colours\n", "      colours: colours\n      effect: [gain 1 coin]\n")
    text = text.replace("components:\n", "components:\n  resources: [coin]\n")
    text = text.replace("  noop: {}", "  noop: {effect: [perform wild_1.effect]}")
    state = meeple.load(write(tmp_path, text), players=2).new_game(seed=1)
    state.apply("noop")
    assert state.pv[0]["coin"] == 1


# --------------------------------------------------------------------------- family diagnostics


def test_a_template_making_a_bad_name_is_reported_at_the_template(tmp_path: Path) -> None:
    text = RULES.replace('name: "{colour}_{n}"', 'name: "{colour}-{n}"', 1)
    assert places(tmp_path, text) == [("name/family-card", line_of(text, "{colour}-{n}"), 13)]


def test_a_template_making_an_existing_card_name_is_reported_at_the_template(tmp_path: Path) -> None:
    text = RULES.replace("    start: {number: -1}", "    start: {number: -1}\n    red_2: {}")
    low_template = text.splitlines().index('      name: "{colour}_{n}"') + 1
    assert places(tmp_path, text) == [("name/family-card", low_template, 13)]


def test_an_unknown_name_in_a_family_for_is_reported_at_the_name(tmp_path: Path) -> None:
    text = RULES.replace("for: {colour: colours, n: 1..3}", "for: {colour: colors, n: 1..3}")
    assert places(tmp_path, text) == [("name/unknown-name", line_of(text, "colors"), 21)]


def test_an_unknown_name_in_a_family_field_is_reported_once_at_the_name(tmp_path: Path) -> None:
    text = RULES.replace('icon: "icons[n]"', 'icon: "icon[n]"')
    assert places(tmp_path, text) == [("name/unknown-name", line_of(text, "icon[n]"), 14)]


def test_a_template_hole_naming_no_loop_is_reported_at_the_template(tmp_path: Path) -> None:
    text = RULES.replace('name: "{colour}_{n}"', 'name: "{color}_{n}"', 1)
    assert [line for _, line, _ in places(tmp_path, text)] == [line_of(text, "{color}_{n}")]


def test_a_family_field_that_fails_to_evaluate_is_reported_at_the_field(tmp_path: Path) -> None:
    text = RULES.replace('icon: "icons[n]"', 'icon: "icons[n] + 1"')
    assert [line for _, line, _ in places(tmp_path, text)] == [line_of(text, "icons[n] + 1")]


def test_a_family_field_dividing_by_zero_is_a_diagnostic_not_a_crash(tmp_path: Path) -> None:
    text = RULES.replace('icon: "icons[n]"', 'icon: "n // 0"')
    assert [line for _, line, _ in places(tmp_path, text)] == [line_of(text, "n // 0")]


def test_a_family_for_that_is_not_constant_is_reported_at_the_value(tmp_path: Path) -> None:
    text = RULES.replace("for: {n: 0..1}", "for: {n: size(main)}")
    assert places(tmp_path, text) == [("type/not-constant", line_of(text, "size(main)"), 16)]


# --------------------------------------------------------------------------- ranges


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("1..4", [1, 2, 3, 4]),
        ("3..3", [3]),
        ("3..1", []),
        ("-1..1", [-1, 0, 1]),
        ("1..2 + 1", [1, 2, 3]),
        ("2 in 1..3", True),
        ("4 in 1..3", False),
        ("[n * n for n in 1..3]", [1, 4, 9]),
        ("sum(n for n in 1..size(main))", 21),
        ("size(main)..7", [6, 7]),
    ],
)
def test_a_range_lists_the_whole_numbers_between_its_ends_both_included(
    tmp_path: Path, expr: str, value: Any
) -> None:
    assert evaluate(tmp_path, x=expr)["x"] == value


def range_setup(expr: str) -> str:
    return RULES + f"vars:\n  game: {{x: none}}\nsetup:\n  - set x = {expr}\n"


@pytest.mark.parametrize("expr", ["1..'3'", "'a'..3"])
def test_a_range_of_non_numbers_is_reported_at_the_range(tmp_path: Path, expr: str) -> None:
    text = range_setup(expr)
    assert places(tmp_path, text) == [("type/range", line_of(text, "set x"), 13)]


def test_a_range_ending_in_none_is_reported_at_the_range(tmp_path: Path) -> None:
    text = range_setup("1..none")
    assert places(tmp_path, text) == [("type/range", line_of(text, "set x"), 13)]


# --------------------------------------------------------------------------- tables


def test_a_table_key_written_as_a_whole_number_is_looked_up_by_number(tmp_path: Path) -> None:
    values = evaluate(tmp_path, cut="icons[4]", by_count="icons[size(golds) + 3]", missing="5 in icons")
    assert values == {"cut": "cut", "by_count": "reverse", "missing": True}
