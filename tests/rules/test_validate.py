"""Schema validation: each jsonschema error becomes a diagnostic with a stable code at the right place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meeple.errors import Diagnostic
from meeple.rules.loader import load_rules, load_text
from meeple.rules.validate import validate

ACTION = {
    "type": "object",
    "required": ["cost"],
    "additionalProperties": False,
    "properties": {
        "cost": {"type": "integer", "minimum": 0},
        "kind": {"enum": ["build", "trade", "move"]},
        "when": {"anyOf": [{"type": "string"}, {"type": "array"}]},
    },
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string"},
        "players": {"type": "integer"},
        "actions": {"type": "object", "additionalProperties": ACTION},
        "setup": {
            "anyOf": [
                {"type": "string"},
                {"type": "object", "required": ["board"], "properties": {"board": {"type": "string"}}},
            ]
        },
    },
}


def check(source: str) -> list[Diagnostic]:
    data, index = load_text(source, "g.yaml")
    return validate(data, index, SCHEMA)


def places(diagnostics: list[Diagnostic]) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.col) for d in diagnostics if d.span]


def test_valid_rules_give_no_diagnostics() -> None:
    assert check("name: k2\nplayers: 2\nactions:\n  build: {cost: 1, kind: build, when: 'x > 1'}\n") == []


def test_a_wrong_type_is_reported_at_the_value() -> None:
    (diagnostic,) = check("name: k2\nplayers: three\n")
    assert places([diagnostic]) == [("schema/type", 2, 10)]
    assert diagnostic.message == "expected integer, got string 'three'"


def test_a_missing_required_key_is_reported_at_the_key_of_the_mapping_lacking_it() -> None:
    (diagnostic,) = check("name: k2\nactions:\n  build_rope:\n    kind: build\n")
    assert places([diagnostic]) == [("schema/required", 3, 3)]
    assert "'cost'" in diagnostic.message


def test_a_missing_top_level_key_is_reported_at_the_start_of_the_document() -> None:
    (diagnostic,) = check("players: 2\n")
    assert places([diagnostic]) == [("schema/required", 1, 1)]
    assert "'name'" in diagnostic.message


def test_an_unknown_key_is_reported_at_the_key_with_a_did_you_mean_hint() -> None:
    (diagnostic,) = check("name: k2\nactions:\n  build_rope:\n    cost: 1\n    kindd: build\n")
    assert places([diagnostic]) == [("schema/additionalProperties", 5, 5)]
    assert "'kindd'" in diagnostic.message
    assert diagnostic.hint == "did you mean 'kind'?"


def test_each_unknown_key_gets_its_own_diagnostic() -> None:
    diagnostics = check("name: k2\nactions:\n  a:\n    cost: 1\n    x: 1\n    y: 2\n")
    assert places(diagnostics) == [
        ("schema/additionalProperties", 5, 5),
        ("schema/additionalProperties", 6, 5),
    ]


def test_a_value_outside_an_enum_is_reported_at_the_value_with_a_hint() -> None:
    (diagnostic,) = check("name: k2\nactions:\n  a: {cost: 1, kind: trde}\n")
    assert places([diagnostic]) == [("schema/enum", 3, 22)]
    assert diagnostic.hint == "did you mean 'trade'?"


def test_a_bound_is_reported_with_the_limit() -> None:
    (diagnostic,) = check("name: k2\nactions:\n  a: {cost: -1}\n")
    assert places([diagnostic]) == [("schema/minimum", 3, 13)]
    assert diagnostic.message == "expected a number >= 0, got integer -1"


def test_an_any_of_failure_reports_the_best_matching_alternative() -> None:
    (diagnostic,) = check("name: k2\nsetup:\n  tiles: 3\n")
    assert places([diagnostic]) == [("schema/required", 2, 1)]
    assert "'board'" in diagnostic.message


def test_an_any_of_over_types_names_every_allowed_type() -> None:
    (diagnostic,) = check("name: k2\nactions:\n  a: {cost: 1, when: 5}\n")
    assert diagnostic.code == "schema/type"
    assert diagnostic.message == "expected string or list, got integer 5"


def test_diagnostics_are_sorted_by_position() -> None:
    diagnostics = check("actions:\n  a: {cost: x}\nplayers: many\n")
    assert places(diagnostics) == [("schema/required", 1, 1), ("schema/type", 2, 13), ("schema/type", 3, 10)]


def test_diagnostics_of_a_variant_point_into_the_file_that_wrote_each_value(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("name: k2\nplayers: two\n", encoding="utf-8")
    (tmp_path / "v.yaml").write_text("extends: base\nactions:\n  a: {cost: no}\n", encoding="utf-8")
    rules = load_rules(tmp_path / "v.yaml", [])
    diagnostics = validate(rules.data, rules.index, SCHEMA)
    assert [(d.span.file, d.span.line) for d in diagnostics if d.span] == [
        (str(tmp_path / "base.yaml"), 2),
        (str(tmp_path / "v.yaml"), 3),
    ]
