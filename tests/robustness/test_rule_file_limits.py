"""Bounds on what a rule file may ask for: each oversized file or value is a located error, found quickly.

Every case here once made `meeple check` run for minutes, exhaust memory or crash (see the commit log).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import meeple
from meeple.rules.loader import MAX_FILE_CHARS, MAX_NODES

GAMES = Path(__file__).resolve().parents[2] / "games"
VERDON = (GAMES / "climbers_of_verdon.yaml").read_text(encoding="utf-8")
CLIMBER = (GAMES / "tabletop_climber.yaml").read_text(encoding="utf-8")


def edited(tmp_path: Path, text: str, old: str, new: str) -> Path:
    assert old in text, old
    path = tmp_path / "edited.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def one_error(path: Path, seconds: float = 10.0) -> meeple.Diagnostic:
    """The single located error `check` reports, found within `seconds`."""
    started = time.perf_counter()
    found = meeple.check(path)
    assert time.perf_counter() - started < seconds
    assert len(found) == 1, [d.headline() for d in found]
    d = found[0]
    assert d.span is not None and d.span.file == str(path), d.headline()
    return d


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# --------------------------------------------------------------------------- the YAML itself


def test_a_file_of_five_megabytes_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(VERDON + "\n# " + "x" * 5_000_000 + "\n", encoding="utf-8")

    d = one_error(path, seconds=1)

    assert d.code == "yaml/too-large" and (d.span.line, d.span.col) == (1, 1)


def test_a_file_just_over_the_character_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: 1\n" + "#" * MAX_FILE_CHARS + "\n", encoding="utf-8")

    assert one_error(path, seconds=2).code == "yaml/too-large"


def test_exponentially_expanding_aliases_stop_at_the_node_budget_at_a_line_of_the_file(
    tmp_path: Path,
) -> None:
    names = "abcdefghij"
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    lines += [f"{b}: &{b} [{', '.join(['*' + a] * 9)}]" for a, b in zip(names, names[1:], strict=False)]
    path = tmp_path / "laughs.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    d = one_error(path, seconds=5)

    assert d.code == "yaml/too-large" and 1 <= d.span.line <= len(lines)
    assert f"{MAX_NODES:,}" in d.message


def test_a_file_of_too_many_values_stops_where_the_budget_runs_out(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text("a: [" + "1, " * (MAX_NODES + 10) + "1]\n", encoding="utf-8")

    d = one_error(path, seconds=10)

    assert d.code == "yaml/too-large" and d.span.line == 1 and d.span.col > 1


def test_a_nul_character_is_named_by_its_own_code(tmp_path: Path) -> None:
    path = tmp_path / "nul.yaml"
    path.write_text("game: {name: x\x00}\n", encoding="utf-8")

    d = one_error(path)

    assert d.code == "yaml/syntax" and "#x0000" in d.message and (d.span.line, d.span.col) == (1, 15)


@pytest.mark.parametrize(
    "nested",
    [
        "[" * 60_000 + "]" * 60_000,  # brackets
        "\n  " + "- " * 60_000 + "x",  # lists in lists on one line
    ],
    ids=["brackets", "dashes"],
)
def test_yaml_nested_sixty_thousand_deep_is_a_located_error_not_a_crash(tmp_path: Path, nested: str) -> None:
    # libyaml's composer, which reads most files, recursed in C and crashed the process on these
    path = edited(
        tmp_path, VERDON, "  name: Climbers of Verdon", "  name: Climbers of Verdon\n  deep: " + nested
    )

    d = one_error(path)

    assert d.code == "yaml/too-deep"


# --------------------------------------------------------------------------- expressions


def test_an_expression_nested_too_deeply_is_a_syntax_error_not_a_recursion_error(tmp_path: Path) -> None:
    path = edited(tmp_path, VERDON, "when: give != get", "when: " + "not " * 300 + "give != get")

    d = one_error(path)

    assert d.code == "syntax/invalid" and "nests too deeply" in d.message
    assert d.span.line == line_of(path, "not not")


def test_a_long_chain_of_additions_is_refused_for_its_depth(tmp_path: Path) -> None:
    path = edited(tmp_path, VERDON, "when: give != get", "when: 0 < 1" + " + 1" * 1000)

    assert "nests too deeply" in one_error(path).message


def test_an_expression_of_more_than_ten_thousand_characters_is_refused(tmp_path: Path) -> None:
    long_list = "[" + ", ".join(["1"] * 4000) + "]"
    path = edited(tmp_path, VERDON, "when: give != get", f"when: 1 in {long_list}")

    d = one_error(path)

    assert d.code == "syntax/invalid" and "too long" in d.message


def test_an_expression_nested_just_under_the_limit_checks_and_plays(tmp_path: Path) -> None:
    deep = "(" * 95 + "me.repeat_vp" + " + 1)" * 95
    path = edited(tmp_path, VERDON, "when: give != get", f"when: give != get and 0 < {deep}")

    assert meeple.check(path) == []
    state = meeple.replay(meeple.load(path, players=2), 1, [])
    assert state.legal_actions()


def test_a_constant_range_of_a_billion_numbers_is_a_located_error(tmp_path: Path) -> None:
    path = edited(tmp_path, VERDON, "when: give != get", "when: give != get and 5 in 1..1000000000")

    d = one_error(path)

    assert d.code == "type/range" and d.span.line == line_of(path, "1..1000000000")


def test_a_range_computed_in_play_is_bounded_too() -> None:
    from meeple.compile.codegen import MAX_RANGE, number_range
    from meeple.compile.expressions import RuleRuntimeError

    assert len(number_range(1, MAX_RANGE)) == MAX_RANGE
    with pytest.raises(RuleRuntimeError, match="more than"):
        number_range(0, MAX_RANGE)


# --------------------------------------------------------------------------- numbers that become things


def test_a_card_count_of_a_hundred_million_is_a_located_error(tmp_path: Path) -> None:
    path = edited(tmp_path, VERDON, "count: 14", "count: 100000000")

    d = one_error(path)

    assert d.code in ("schema/maximum", "type/count") and d.span.line == line_of(path, "count: 100000000")


def test_a_family_of_a_hundred_million_cards_is_a_located_error(tmp_path: Path) -> None:
    path = edited(tmp_path, CLIMBER, "n: 1..7", "n: 1..100000000")

    d = one_error(path)

    assert d.code == "type/range" and d.span.line == line_of(path, "n: 1..100000000")


def test_a_family_whose_loops_multiply_past_ten_thousand_cards_is_a_located_error(tmp_path: Path) -> None:
    path = edited(tmp_path, CLIMBER, "n: 1..7", "n: 1..9000")

    d = one_error(path)

    assert d.code == "type/family-size" and d.span.line == line_of(path, "n: 1..9000")


def test_dice_beyond_a_hundred_are_a_located_error(tmp_path: Path) -> None:
    path = edited(tmp_path, VERDON, "roll 2d6 as", "roll 2000000000d6 as")

    d = one_error(path)

    assert d.code == "rules/dice" and d.span.line == line_of(path, "2000000000d6")


def test_a_die_of_no_sides_is_a_located_error(tmp_path: Path) -> None:
    path = edited(tmp_path, VERDON, "roll 2d6 as", "roll 2d0 as")

    assert one_error(path).code == "rules/dice"


def test_a_layout_bag_of_three_hundred_million_tiles_is_a_located_error(tmp_path: Path) -> None:
    path = edited(tmp_path, VERDON, "mountain: 3, big_wall", "mountain: 300000000, big_wall")

    d = one_error(path, seconds=2)

    assert d.code in ("schema/maximum", "rules/layout-bag")
    assert d.span.line == line_of(path, "mountain: 300000000")


@pytest.mark.parametrize("radius", ["2000", "-1", ".inf", "2.5", "'two'"])
def test_a_hex_radius_out_of_range_is_one_located_error(tmp_path: Path, radius: str) -> None:
    path = edited(tmp_path, VERDON, "hex: {radius: 2}", f"hex: {{radius: {radius}}}")

    d = one_error(path, seconds=2)

    assert d.span.line == line_of(path, "hex: {radius:")


@pytest.mark.parametrize("product", ["'ab' * 10000000000", "[1, 2] * (100000 * 100000)", "100000000 * 'x'"])
def test_repeating_a_text_or_list_into_billions_of_items_is_a_located_error(
    tmp_path: Path, product: str
) -> None:
    path = edited(tmp_path, VERDON, "when: give != get", f"when: give != get and {product} == 'x'")

    d = one_error(path, seconds=2)

    assert d.code == "type/operands" and d.span.line == line_of(path, product)


def test_a_file_that_is_not_utf8_is_located_at_its_first_bad_byte_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meeple.tools.cli import main

    path = tmp_path / "latin1.yaml"
    path.write_bytes("game:\n  name: Caf\u00e9\n".encode("latin-1"))

    assert main(["check", str(path)]) == 1

    out = capsys.readouterr().out
    assert out.startswith(f"{path}:2:12: error[io/not-utf8]:") and "0xe9" in out


# --------------------------------------------------------------------------- players


@pytest.mark.parametrize(
    ("spec", "code", "message"),
    [
        ("{min: 2, max: 1000000000}", "schema/maximum", "expected a number <= 100, got integer 1000000000"),
        ("{min: 1000000, max: 4}", "schema/maximum", "expected a number <= 100, got integer 1000000"),
        ("{min: 5, max: 4}", "rules/players", "game.players: min 5 is more than max 4"),
    ],
    ids=["huge-max", "huge-min", "min-above-max"],
)
def test_a_player_range_that_cannot_be_played_is_a_located_rules_error_in_check_load_and_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, code: str, message: str
) -> None:
    """A billion seats made `check --playouts` and `run` build a billion players (a MemoryError at best);
    a minimum above the maximum was a usage error (exit 2) of `check --playouts` (found by the mutants)."""
    from meeple.tools.cli import main

    path = edited(tmp_path, VERDON, "players: {min: 2, max: 4}", f"players: {spec}")

    d = one_error(path)
    assert (d.code, d.message) == (code, message) and d.span.line == line_of(path, "players:")
    with pytest.raises(meeple.RulesError):
        meeple.load(path)
    assert main(["check", str(path), "--playouts", "1"]) == 1
    assert main(["run", str(path), "--quiet"]) == 1
    assert message in capsys.readouterr().err
