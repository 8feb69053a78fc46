"""A rule file composed section by section gives exactly what the whole text gives, or is composed whole;
the schema checks sections on their own only where its top level leaves each section to its subschema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.errors import RulesError
from meeple.rules import conformance, loader, sections, validate

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted((ROOT / "games").glob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))


def same_as_whole(text: str) -> bool:
    """Whether the text was cut into sections, asserting that what they give is what the whole gives."""
    cut = loader._by_sections(text, "t.yaml", [])
    if cut is None:
        return False
    data, index = loader._whole(text, "t.yaml")
    assert cut[0] == data
    assert list(cut[1].entries) == list(index.entries)
    assert cut[1].entries == index.entries
    return True


def test_a_file_is_cut_before_each_key_at_column_0_and_the_pieces_join_to_it() -> None:
    text = "# prelude\n\ngame:\n  name: x\n# between\nactions:\n  a: {}\nflow: []"
    pieces = sections.split(text)
    assert pieces == [
        (0, "# prelude\n\ngame:\n  name: x\n# between\n"),
        (5, "actions:\n  a: {}\n"),
        (7, "flow: []"),
    ]
    assert "".join(piece for _, piece in pieces) == text


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\n---\nb: 2\n",  # a second document
        "a:\n- 1\nb: 2\n",  # a list item at column 0
        "a: [1,\n2]\nb: 2\n",  # a flow list carried on at column 0
        "%YAML 1.1\n---\na: 1\nb: 2\n",  # a directive
        "a: 1\rb: 2\n",  # a line break YAML counts and str.split does not
        "a: 1\u2028b: 2\n",
        "a: 1\n",  # one section: nothing to gain
        "'a': 1\nb: 2\n",  # a quoted key
    ],
)
def test_a_text_whose_lines_do_not_show_its_sections_is_not_cut(text: str) -> None:
    assert sections.split(text) is None
    assert not same_as_whole(text)


@pytest.mark.parametrize(
    "text",
    [
        'a: "one\nb: two"\nc: 1\n',  # a quoted string carried on to a line that looks like a key
        "a: &x [1, 2]\nb: *x\n",  # an alias of another section's anchor
        "a: 1\nb: 2\na: 3\n",  # a key written twice, in two sections
        "a: 1\nb: !odd 2\n",  # a diagnostic inside one section
    ],
)
def test_sections_that_are_not_independent_are_composed_whole(text: str) -> None:
    assert sections.split(text) is not None
    assert not same_as_whole(text)


def test_a_string_carried_on_to_a_key_like_line_loads_as_the_whole_text_reads_it() -> None:
    data, _ = loader.load_text('a: "one\nb: two"\nc: 1\n', "t.yaml")
    assert data == {"a": "one b: two", "c": 1}


def test_a_key_written_twice_across_sections_is_reported_as_before() -> None:
    with pytest.raises(RulesError) as error:
        loader.load_text("a: 1\nb: 2\na: 3\n", "t.yaml")
    (diagnostic,) = error.value.diagnostics
    assert (diagnostic.code, diagnostic.span.line, diagnostic.span.col) == ("yaml/duplicate-key", 3, 1)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_each_rule_file_cut_into_sections_loads_as_the_whole_text(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert same_as_whole(text)
    assert same_as_whole("# a comment first\n\n" + text.replace("\n", "\r\n"))


def test_positions_inside_a_later_sections_strings_point_into_the_file() -> None:
    text = "game:\n  name: x\n\nactions:\n  step:\n    effect: |\n      me.score += n\n      win me\n"
    data, index = loader.load_text(text, "t.yaml")
    span = index.locate(("actions", "step", "effect"), data["actions"]["step"]["effect"].index("win"))
    assert (span.line, span.col) == (8, 7)


# --------------------------------------------------------------------------- the schema, section by section


def test_section_errors_found_on_their_own_are_the_ones_the_whole_check_finds() -> None:
    text = (ROOT / "games" / "k2.yaml").read_text(encoding="utf-8")
    broken = text.replace("flow:\n", "flow:\n  - phase: 7\n    turns: sideways\n", 1)
    broken = broken.replace("game:\n", "game:\n  colour: blue\n", 1)
    data, index = loader.load_text(broken, "k2.yaml")
    schema = meeple.schema()

    found = conformance.problems(data, index, schema, "no load kept this")

    assert found == validate.validate(data, index, schema)
    assert [(d.code, d.span.line if d.span else 0) for d in found] == [
        ("schema/additionalProperties", 9),  # `colour`, in `game`
        ("schema/required", 385),  # the new phase in `flow`: no `do`,
        ("schema/type", 385),  # a number for its name
        ("schema/enum", 386),  # and turns no one takes
    ]


def test_a_schema_asking_more_of_the_top_level_is_checked_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    data, index = loader.load_text((ROOT / "games" / "k2.yaml").read_text(encoding="utf-8"), "k2.yaml")
    schema: dict[str, Any] = {**meeple.schema(), "maxProperties": 3}
    checked: list[str] = []
    monkeypatch.setattr(validate, "validate_sections", lambda *args: checked.append("sections"))

    found = conformance.problems(data, index, schema, "no load kept this")

    assert [(d.code, d.message) for d in found] == [
        ("schema/maxProperties", "expected at most 3 keys, got 15 keys")
    ]
    assert not checked
