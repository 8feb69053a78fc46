"""The YAML loader: plain values, key and value positions, positions inside strings, and variants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from meeple.errors import RulesError, SourceSpan
from meeple.rules import loader
from meeple.rules.loader import LoadedRules, SourceIndex, load_file, load_rules, load_text

NESTED = """\
name: k2
actions:
  build_rope:
    cost: {wood: 2}
    when: "phase == 'build'"
  steps:
    - roll
    - {move: 3}
"""


def codes_and_places(error: pytest.ExceptionInfo[RulesError]) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.col) for d in error.value.diagnostics if d.span]


def text_at(source: str, span: SourceSpan, length: int) -> str:
    return source.splitlines()[span.line - 1][span.col - 1 : span.col - 1 + length]


# --------------------------------------------------------------------------- values


def test_scalars_become_ints_floats_bools_nulls_and_strings() -> None:
    data, _ = load_text("a: 3\nb: 1.5\nc: true\nd: ~\ne: hello\nf: '7'\n", "t.yaml")
    assert data == {"a": 3, "b": 1.5, "c": True, "d": None, "e": "hello", "f": "7"}


def test_mapping_keys_are_kept_as_the_text_written() -> None:
    data, _ = load_text("yes: 1\n2: b\nnull: c\n", "t.yaml")
    assert list(data) == ["yes", "2", "null"]


def test_dates_stay_as_their_text() -> None:
    data, _ = load_text("released: 2024-05-01\n", "t.yaml")
    assert data == {"released": "2024-05-01"}


def test_an_empty_document_loads_as_none() -> None:
    data, index = load_text("# nothing\n", "t.yaml")
    assert data is None
    assert index.nearest_span(("anything",)) == SourceSpan("t.yaml", 1, 1)


def test_aliases_are_expanded_into_copies_with_their_own_paths() -> None:
    data, index = load_text("base: &b {wood: 1}\nother: *b\n", "t.yaml")
    assert data == {"base": {"wood": 1}, "other": {"wood": 1}}
    assert data["base"] is not data["other"]
    assert index.value_span(("other", "wood")) == SourceSpan("t.yaml", 1, 17, 1, 18)


def test_merge_keys_bring_in_an_anchored_mapping_and_explicit_keys_win() -> None:
    data, index = load_text("base: &b {wood: 1, ore: 2}\nmine:\n  <<: *b\n  ore: 5\n", "t.yaml")
    assert data["mine"] == {"wood": 1, "ore": 5}
    assert index.key_span(("mine", "ore")) == SourceSpan("t.yaml", 4, 3, 4, 6)


# --------------------------------------------------------------------------- positions


def test_value_span_of_a_nested_value_covers_the_value() -> None:
    _, index = load_text(NESTED, "k2.yaml")
    assert index.value_span(("actions", "build_rope", "cost", "wood")) == SourceSpan("k2.yaml", 4, 18, 4, 19)


def test_key_span_points_at_the_key_naming_the_last_path_element() -> None:
    _, index = load_text(NESTED, "k2.yaml")
    assert index.key_span(("actions", "build_rope", "cost")) == SourceSpan("k2.yaml", 4, 5, 4, 9)


def test_sequence_items_are_indexed_by_their_position() -> None:
    _, index = load_text(NESTED, "k2.yaml")
    assert index.value_span(("actions", "steps", 1, "move")) == SourceSpan("k2.yaml", 8, 14, 8, 15)


def test_key_span_of_a_sequence_item_is_none() -> None:
    _, index = load_text(NESTED, "k2.yaml")
    assert index.key_span(("actions", "steps", 0)) is None


def test_nearest_span_walks_up_to_the_closest_known_ancestor() -> None:
    _, index = load_text(NESTED, "k2.yaml")
    expected = index.value_span(("actions", "build_rope", "cost"))
    assert index.nearest_span(("actions", "build_rope", "cost", "ore", 3)) == expected


# --------------------------------------------------------------------------- locate() inside strings

LOCATE_CASES = {
    "plain": ("k: cost >= 3 and ropes\n", "ropes", "ropes"),
    "single-quoted": ("k: 'it''s ropes'\n", "ropes", "ropes"),
    "single-quoted after an escaped quote": ("k: 'a''b ropes'\n", "b", "b"),
    "double-quoted": ('k: "cost >= 3"\n', "3", "3"),
    "double-quoted after escapes": ('k: "a\\tb \\u00e9 ropes"\n', "ropes", "ropes"),
    "literal block": ("k: |\n  first\n    ropes > 2\n  last\n", "ropes", "ropes"),
    "literal block last line": ("k: |\n  first\n    ropes > 2\n  last\n", "last", "last"),
    "folded block": ("k: >\n  alpha beta\n  gamma\n\n  delta\n", "delta", "delta"),
    "folded block joined line": ("k: >\n  alpha beta\n  gamma\n\n  delta\n", "gamma", "gamma"),
    "plain multi-line": ("k: a and\n  b or\n\n  ropes\n", "ropes", "ropes"),
    "double-quoted multi-line": ('k: "a and\n   ropes"\n', "ropes", "ropes"),
    "double-quoted escaped line break": ('k: "a and \\\n   ropes"\n', "ropes", "ropes"),
    "nested block in a sequence": ("k:\n  - x: |\n      go ropes\n", "ropes", "ropes"),
}


@pytest.mark.parametrize(("source", "needle", "written"), LOCATE_CASES.values(), ids=LOCATE_CASES.keys())
def test_locate_points_at_the_character_inside_the_yaml_string(
    source: str, needle: str, written: str
) -> None:
    data, index = load_text(source, "t.yaml")
    path: tuple[str | int, ...] = ("k", 0, "x") if isinstance(data["k"], list) else ("k",)
    value = data["k"][0]["x"] if isinstance(data["k"], list) else data["k"]
    span = index.locate(path, value.index(needle))
    assert text_at(source, span, len(written)) == written


def test_a_byte_order_mark_takes_no_column() -> None:
    _, index = load_text("\ufeffa: 1\n", "t.yaml")
    assert index.value_span(("a",)) == SourceSpan("t.yaml", 1, 4, 1, 5)


def test_locate_gives_line_and_column_of_a_block_scalar_content_line() -> None:
    _, index = load_text("k: |\n  first\n    ropes > 2\n", "t.yaml")
    assert index.locate(("k",), len("first\n  ")) == SourceSpan("t.yaml", 3, 5)


def test_locate_with_an_end_spans_the_token() -> None:
    source = "when: 'wood >= 2'\n"
    _, index = load_text(source, "t.yaml")
    assert index.locate(("when",), 8, 9) == SourceSpan("t.yaml", 1, 16, 1, 17)


def test_locate_at_the_end_of_a_string_points_just_after_it() -> None:
    _, index = load_text('k: "ab"\n', "t.yaml")
    assert index.locate(("k",), 2) == SourceSpan("t.yaml", 1, 7)


def test_locate_in_a_number_counts_from_its_start() -> None:
    _, index = load_text("k: 12345\n", "t.yaml")
    assert index.locate(("k",), 3) == SourceSpan("t.yaml", 1, 7)


def test_locate_on_an_unknown_path_falls_back_to_the_nearest_ancestor() -> None:
    _, index = load_text("k:\n  a: 1\n", "t.yaml")
    assert index.locate(("k", "zz"), 4) == index.nearest_span(("k",))


# --------------------------------------------------------------------------- problems


def test_a_duplicate_key_is_reported_at_the_second_key() -> None:
    with pytest.raises(RulesError) as error:
        load_text("a: 1\nb:\n  c: 1\n  c: 2\n", "t.yaml")
    assert codes_and_places(error) == [("yaml/duplicate-key", 4, 3)]
    assert error.value.diagnostics[0].hint == "first defined at line 3, column 3"


def test_every_duplicate_key_in_a_file_is_reported_together() -> None:
    with pytest.raises(RulesError) as error:
        load_text("a: 1\na: 2\nb: {x: 1, x: 2}\n", "t.yaml")
    assert codes_and_places(error) == [("yaml/duplicate-key", 2, 1), ("yaml/duplicate-key", 3, 11)]


def test_a_syntax_error_is_reported_at_the_problem_mark() -> None:
    with pytest.raises(RulesError) as error:
        load_text("a: 1\nb: [1, 2\nc: 3\n", "t.yaml")
    (diagnostic,) = error.value.diagnostics
    assert (diagnostic.code, diagnostic.span) == ("yaml/syntax", SourceSpan("t.yaml", 3, 2))


def test_a_syntax_error_keeps_the_source_for_caret_rendering() -> None:
    with pytest.raises(RulesError) as error:
        load_text("a: b: c\n", "t.yaml")
    assert error.value.render().splitlines()[1:] == ["a: b: c", "    ^"]


def test_a_tab_used_for_indentation_is_a_syntax_error_on_its_line() -> None:
    with pytest.raises(RulesError) as error:
        load_text("a:\n\tb: 1\n", "t.yaml")
    assert codes_and_places(error) == [("yaml/syntax", 2, 1)]


def test_an_alias_to_its_own_container_is_a_diagnostic() -> None:
    with pytest.raises(RulesError) as error:
        load_text("a: &x [1, *x]\n", "t.yaml")
    assert [d.code for d in error.value.diagnostics] == ["yaml/recursive-alias"]


def test_custom_tags_are_not_supported() -> None:
    with pytest.raises(RulesError) as error:
        load_text("a: !python/name:os.system x\n", "t.yaml")
    assert codes_and_places(error) == [("yaml/unsupported-tag", 1, 4)]


def test_a_scalar_that_does_not_fit_its_explicit_tag_is_a_diagnostic() -> None:
    with pytest.raises(RulesError) as error:
        load_text("a: !!int three\n", "t.yaml")
    assert codes_and_places(error) == [("yaml/bad-scalar", 1, 4)]


def test_load_file_names_spans_after_the_path_given(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("title: Ünïcode\n", encoding="utf-8")
    data, index = load_file(path)
    assert data == {"title": "Ünïcode"}
    assert index.value_span(("title",)) == SourceSpan(str(path), 1, 8, 1, 15)


def test_load_file_of_a_missing_file_is_io_not_found(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as error:
        load_file(tmp_path / "missing.yaml")
    assert [d.code for d in error.value.diagnostics] == ["io/not-found"]


# --------------------------------------------------------------------------- variants

BASE = """\
name: base
players: 2
actions:
  build_rope:
    cost: {wood: 2, ore: 1}
    kind: build
  offer_trade:
    kind: trade
board: [a, b, c]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def games(tmp_path: Path) -> Path:
    write(tmp_path, "base.yaml", BASE)
    return tmp_path


def test_a_name_is_looked_up_in_the_search_dirs(games: Path) -> None:
    rules = load_rules("base", [games])
    assert isinstance(rules, LoadedRules)
    assert rules.data["name"] == "base"
    assert rules.index.value_span(("players",)) == SourceSpan(str(games / "base.yaml"), 2, 10, 2, 11)


def test_an_unknown_name_suggests_a_close_one(games: Path) -> None:
    with pytest.raises(RulesError) as error:
        load_rules("bass", [games])
    (diagnostic,) = error.value.diagnostics
    assert (diagnostic.code, diagnostic.hint) == ("io/not-found", "did you mean 'base'?")


def test_a_missing_path_is_io_not_found(games: Path) -> None:
    with pytest.raises(RulesError) as error:
        load_rules(games / "nope.yaml", [])
    assert [d.code for d in error.value.diagnostics] == ["io/not-found"]


def test_extends_merges_mappings_key_by_key_and_the_variant_wins(games: Path) -> None:
    write(games, "v.yaml", "extends: base\nactions:\n  build_rope:\n    cost: {wood: 3}\n")
    data = load_rules(games / "v.yaml", []).data
    assert data["actions"]["build_rope"] == {"cost": {"wood": 3, "ore": 1}, "kind": "build"}
    assert data["actions"]["offer_trade"] == {"kind": "trade"}


def test_extends_replaces_lists_and_scalars_whole(games: Path) -> None:
    write(games, "v.yaml", "extends: base\nplayers: 4\nboard: [z]\n")
    data = load_rules(games / "v.yaml", []).data
    assert (data["players"], data["board"]) == (4, ["z"])


def test_extends_keeps_the_base_key_order_and_appends_new_keys(games: Path) -> None:
    write(games, "v.yaml", "extends: base\nextra: 1\nplayers: 3\n")
    assert list(load_rules(games / "v.yaml", []).data) == ["name", "players", "actions", "board", "extra"]


def test_the_merged_index_points_each_value_to_the_file_it_came_from(games: Path) -> None:
    write(games, "v.yaml", "extends: base\nactions:\n  build_rope:\n    cost: {wood: 3}\n")
    index = load_rules(games / "v.yaml", []).index
    base_file, variant_file = str(games / "base.yaml"), str(games / "v.yaml")
    assert index.value_span(("actions", "build_rope", "cost", "wood")) == SourceSpan(
        variant_file, 4, 18, 4, 19
    )
    assert index.value_span(("actions", "build_rope", "cost", "ore")) == SourceSpan(base_file, 5, 26, 5, 27)
    assert index.key_span(("actions", "offer_trade")) == SourceSpan(base_file, 7, 3, 7, 14)


def test_extends_and_remove_are_dropped_from_the_merged_data_and_index(games: Path) -> None:
    write(games, "v.yaml", "extends: base\nremove: [board]\n")
    rules = load_rules(games / "v.yaml", [])
    assert {"extends", "remove", "board"}.isdisjoint(rules.data)
    assert rules.index.value_span(("remove",)) is None
    assert rules.index.value_span(("board", 0)) is None


def test_remove_deletes_dotted_paths_after_merging(games: Path) -> None:
    write(
        games, "v.yaml", "extends: base\nremove:\n  - actions.offer_trade\n  - actions.build_rope.cost.ore\n"
    )
    data = load_rules(games / "v.yaml", []).data
    assert data["actions"] == {"build_rope": {"cost": {"wood": 2}, "kind": "build"}}


def test_removing_an_unknown_path_is_reported_at_its_list_item(games: Path) -> None:
    variant = write(games, "v.yaml", "extends: base\nremove:\n  - actions.offer_trad\n  - rules.nothing\n")
    with pytest.raises(RulesError) as error:
        load_rules(variant, [])
    assert codes_and_places(error) == [("rules/remove-unknown", 3, 5), ("rules/remove-unknown", 4, 5)]
    assert error.value.diagnostics[0].span.file == str(variant)
    assert error.value.diagnostics[0].hint == "did you mean 'offer_trade'?"


def test_extends_accepts_a_path_relative_to_the_variant(games: Path) -> None:
    (games / "variants").mkdir()
    write(games, "variants/v.yaml", "extends: ../base.yaml\nplayers: 5\n")
    assert load_rules(games / "variants" / "v.yaml", []).data["players"] == 5


def test_extends_chains_through_several_files(games: Path) -> None:
    write(games, "mid.yaml", "extends: base\nplayers: 3\nname: mid\n")
    write(games, "top.yaml", "extends: mid\nname: top\n")
    rules = load_rules("top", [games])
    assert (rules.data["name"], rules.data["players"], rules.data["board"]) == ("top", 3, ["a", "b", "c"])
    assert rules.index.value_span(("players",)).file == str(games / "mid.yaml")
    assert set(rules.sources) == {str(games / n) for n in ("top.yaml", "mid.yaml", "base.yaml")}


def test_an_extends_cycle_is_reported_at_the_extends_value(games: Path) -> None:
    write(games, "a.yaml", "extends: b\nx: 1\n")
    write(games, "b.yaml", "extends: a\ny: 2\n")
    with pytest.raises(RulesError) as error:
        load_rules("a", [games])
    (diagnostic,) = error.value.diagnostics
    assert (diagnostic.code, diagnostic.span.file, diagnostic.span.line) == (
        "rules/extends-cycle",
        str(games / "b.yaml"),
        1,
    )


def test_extending_a_missing_base_is_reported_at_the_extends_value(games: Path) -> None:
    variant = write(games, "v.yaml", "players: 1\nextends: basse\n")
    with pytest.raises(RulesError) as error:
        load_rules(variant, [])
    (diagnostic,) = error.value.diagnostics
    assert (diagnostic.code, diagnostic.span, diagnostic.hint) == (
        "io/not-found",
        SourceSpan(str(variant), 2, 10, 2, 15),
        "did you mean 'base'?",
    )


def test_an_error_in_a_base_file_carries_that_files_source(games: Path) -> None:
    write(games, "broken.yaml", "a: 1\na: 2\n")
    variant = write(games, "v.yaml", "extends: broken\n")
    with pytest.raises(RulesError) as error:
        load_rules(variant, [])
    assert error.value.diagnostics[0].span.file == str(games / "broken.yaml")
    assert str(games / "broken.yaml") in error.value.sources


def test_the_top_level_must_be_a_mapping(games: Path) -> None:
    variant = write(games, "v.yaml", "- just\n- a list\n")
    with pytest.raises(RulesError) as error:
        load_rules(variant, [])
    assert codes_and_places(error) == [("yaml/not-a-mapping", 1, 1)]


def test_a_source_index_without_entries_falls_back_to_the_start_of_its_file() -> None:
    assert SourceIndex("x.yaml").nearest_span(("a", 1)) == SourceSpan("x.yaml", 1, 1)


@pytest.mark.parametrize("text", ["a:\t1\n", "a: 1\t# why\n", "a: [1,\n\t2]\n", "a: {x: 1,\t y: 2}\n"])
def test_a_tab_where_pyyaml_allows_none_is_a_syntax_error(text: str) -> None:
    # libyaml's parser accepts each of these; a text with a tab is therefore always composed by PyYAML's
    # own loader (see `_quick_compose` and benchmarks/README.md).
    with pytest.raises(RulesError) as error:
        load_text(text, "t.yaml")
    assert [d.code for d in error.value.diagnostics] == ["yaml/syntax"]


@pytest.mark.parametrize(
    "text", ["a: [b?c]\n", "a: {b: c?}\n", "a: |#note\n  b\n", "a: >-#note\n  b\n", "a: b\n\ufeff\n"]
)
def test_what_pyyaml_refuses_and_libyaml_takes_is_still_a_syntax_error(text: str) -> None:
    with pytest.raises(RulesError) as error:
        load_text(text, "t.yaml")
    assert [d.code for d in error.value.diagnostics] == ["yaml/syntax"]


def test_a_byte_order_mark_inside_the_text_is_counted_as_pyyaml_counts_it() -> None:
    _, index = load_text("a: b\ufeffc\n", "t.yaml")
    span = index.value_span(("a",))
    assert (span.col, span.end_col) == (4, 6)  # no column for the mark, as PyYAML counts (libyaml: one)


def test_a_text_without_a_last_newline_ends_where_pyyaml_ends_it() -> None:
    _, index = load_text("a:\n  b: {x: 1}", "t.yaml")
    span = index.value_span(("a",))
    assert (span.end_line, span.end_col) == (2, 12)


def test_a_missing_value_between_brackets_is_placed_where_pyyaml_places_it() -> None:
    data, index = load_text("a: {b: 1, c: , d: 2}\n", "t.yaml")
    assert data == {"a": {"b": 1, "c": None, "d": 2}}
    assert (index.value_span(("a", "c")).line, index.value_span(("a", "c")).col) == (1, 13)


def _shape(node: Any) -> Any:
    """A composed node as plain tuples: its kind, tag, value (or children), places and scalar style."""
    marks = (node.start_mark.line, node.start_mark.column, node.end_mark.line, node.end_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.value, marks, node.style or None)
    if isinstance(node, yaml.SequenceNode):
        return ("seq", node.tag, marks, [_shape(child) for child in node.value])
    return ("map", node.tag, marks, [(_shape(k), _shape(v)) for k, v in node.value])


RULE_FILES = sorted((Path(__file__).parents[2] / "games").glob("*.yaml")) + sorted(
    (Path(__file__).parents[2] / "examples" / "classic").glob("*.yaml")
)


@pytest.mark.skipif(loader._CLoader is None, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_libyaml_composes_each_rule_file_as_pyyaml_does(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    quick = loader._quick_compose(text)
    assert quick is not None, "libyaml's composer is not used for a seed file"
    node, count, shared = quick
    bounded = loader._BoundedLoader(text)
    try:
        expected = bounded.get_single_node()
    finally:
        bounded.dispose()
    assert _shape(node) == _shape(expected)
    assert count == loader.MAX_NODES - bounded.nodes_left
    assert not shared


@pytest.mark.skipif(loader._CLoader is None, reason="PyYAML was built without libyaml")
def test_a_section_with_an_alias_is_left_to_the_whole_file() -> None:
    node, count = loader._compose_section("a:\n  b: &x [1, 2]\n  c: *x\n")
    assert node is None and count == 9  # eight nodes written and the alias, as PyYAML counts them
    data, _ = load_text("a:\n  b: &x [1, 2]\n  c: *x\n", "t.yaml")
    assert data == {"a": {"b": [1, 2], "c": [1, 2]}}
