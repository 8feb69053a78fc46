"""The rule-file schema (schema/game.schema.json): well formed, met by every game, strict where needed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

import meeple
from meeple.errors import Diagnostic, SourceSpan
from meeple.rules.loader import NodePath, SourceIndex, load_file, load_rules
from meeple.rules.validate import validate

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
VERDON = GAMES / "climbers_of_verdon.yaml"
SCHEMA = meeple.schema()


def rule_files() -> list[Path]:
    """Every rule file under games/ (a mapping with `game` or `extends`; board data files are not)."""
    found = []
    for path in sorted([*GAMES.rglob("*.yaml"), *GAMES.rglob("*.yml")]):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and ("game" in data or "extends" in data):
            found.append(path)
    return found


# --------------------------------------------------------------------------- the schema itself


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)


def test_the_schema_names_its_draft_id_and_title() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"]
    assert SCHEMA["title"]
    assert SCHEMA["description"]


def described_properties(node: Any, where: str) -> Iterator[tuple[str, bool]]:
    """(where, has help text) for every named property in the schema, a `$ref` lending its target's text."""
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            target = SCHEMA["$defs"][sub["$ref"].rsplit("/", 1)[1]] if "$ref" in sub else {}
            yield f"{where}.{name}", bool(sub.get("description") or target.get("description"))
        for key, sub in node.items():
            yield from described_properties(sub, f"{where}.{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from described_properties(sub, f"{where}[{i}]")


def test_every_property_has_a_description_for_editors() -> None:
    undescribed = [where for where, described in described_properties(SCHEMA, "#") if not described]
    assert undescribed == []


def test_every_section_of_a_rule_file_is_described_by_the_schema() -> None:
    sections = {
        "game",
        "components",
        "board",
        "tables",
        "vars",
        "defs",
        "setup",
        "actions",
        "flow",
        "scoring",
        "end",
        "routines",
        "metrics",
        "standing",
        "invariants",
        "render",
        "bots",
        "extends",
        "remove",
        "doc",
        "guess",
    }
    assert set(SCHEMA["properties"]) == sections


# --------------------------------------------------------------------------- the games meet it


@pytest.mark.parametrize("path", rule_files(), ids=lambda p: p.stem)
def test_every_rule_file_in_games_meets_the_schema(path: Path) -> None:
    rules = load_rules(path, [GAMES])
    assert validate(rules.data, rules.index, SCHEMA) == []


def test_the_games_folder_has_at_least_climbers_of_verdon() -> None:
    assert VERDON in rule_files()


# --------------------------------------------------------------------------- mutations of Verdon


Mutation = Callable[[dict[str, Any], SourceIndex], None]


def at(data: dict[str, Any], path: NodePath) -> Any:
    for key in path:
        data = data[key]
    return data


def put(path: NodePath, value: Any) -> Mutation:
    """Set the value at `path` (which keeps the position of the value it replaces)."""

    def mutate(data: dict[str, Any], index: SourceIndex) -> None:
        at(data, path[:-1])[path[-1]] = value

    return mutate


def drop(path: NodePath) -> Mutation:
    def mutate(data: dict[str, Any], index: SourceIndex) -> None:
        del at(data, path[:-1])[path[-1]]

    return mutate


def rename(path: NodePath, new: str) -> Mutation:
    """Rename the key at `path` in place, as if the file had spelled it `new` (positions move along)."""

    def mutate(data: dict[str, Any], index: SourceIndex) -> None:
        owner = at(data, path[:-1])
        items = [(new if key == path[-1] else key, value) for key, value in owner.items()]
        owner.clear()
        owner.update(items)
        moved = (*path[:-1], new)
        for old_path, entry in list(index.entries.items()):
            if old_path[: len(path)] == path:
                index.entries[moved + old_path[len(path) :]] = entry

    return mutate


def key_of(path: NodePath) -> Callable[[SourceIndex], SourceSpan | None]:
    return lambda index: index.key_span(path)


def value_of(path: NodePath) -> Callable[[SourceIndex], SourceSpan | None]:
    return lambda index: index.value_span(path)


CARD = ("components", "cards", "fan_club")
BUILD_ROPE = ("actions", "build_rope")

MUTATIONS: dict[str, tuple[Mutation, str, Callable[[SourceIndex], SourceSpan | None]]] = {
    "a card count that is a word": (
        put((*CARD, "count"), "three"),
        "schema/type",
        value_of((*CARD, "count")),
    ),
    "a card count of zero": (put((*CARD, "count"), 0), "schema/minimum", value_of((*CARD, "count"))),
    "an unknown turn order": (
        put(("flow", 0, "turns"), "snak"),
        "schema/enum",
        value_of(("flow", 0, "turns")),
    ),
    "an unknown win check": (put(("end", "check"), "always"), "schema/enum", value_of(("end", "check"))),
    "a cost given as a number": (
        put((*BUILD_ROPE, "cost"), 3),
        "schema/type",
        value_of((*BUILD_ROPE, "cost")),
    ),
    "a when given as a list": (
        put((*BUILD_ROPE, "when"), ["a"]),
        "schema/type",
        value_of((*BUILD_ROPE, "when")),
    ),
    "a misspelled action key": (
        rename((*BUILD_ROPE, "cost"), "cots"),
        "schema/additionalProperties",
        key_of((*BUILD_ROPE, "cots")),
    ),
    "a misspelled top-level key": (
        rename(("scoring",), "scorng"),
        "schema/additionalProperties",
        key_of(("scorng",)),
    ),
    "a game without a name": (drop(("game", "name")), "schema/required", key_of(("game",))),
    "zero players": (
        put(("game", "players", "min"), 0),
        "schema/minimum",
        value_of(("game", "players", "min")),
    ),
    "an unknown zone visibility": (
        put(("components", "zones", "hand", "visibility"), "secret"),
        "schema/enum",
        value_of(("components", "zones", "hand", "visibility")),
    ),
    "a resource listed twice": (
        put(("components", "resources"), ["rope", "rope"]),
        "schema/uniqueItems",
        value_of(("components", "resources")),
    ),
    "an action name with a space": (
        rename(BUILD_ROPE, "build rope"),
        "schema/pattern",
        key_of(("actions", "build rope")),
    ),
    "a definition head without parentheses": (
        rename(("defs", "producing(t)"), "producing"),
        "schema/pattern",
        key_of(("defs", "producing")),
    ),
    "a statement that is a number": (
        put(("actions", "rivalry", "effect", 0), 3),
        "schema/type",
        value_of(("actions", "rivalry", "effect", 0)),
    ),
    "an award without points": (
        drop(("scoring", "awards", "explorer", "points")),
        "schema/required",
        key_of(("scoring", "awards", "explorer")),
    ),
    "a flow step that is neither step nor choose": (
        rename(("flow", 0, "do", 0, "choose"), "chose"),
        "schema/additionalProperties",
        key_of(("flow", 0, "do", 0, "chose")),
    ),
    "an if item whose then is misspelled": (
        rename(("actions", "rivalry", "effect", 2, "then"), "than"),
        "schema/additionalProperties",
        key_of(("actions", "rivalry", "effect", 2, "than")),
    ),
}


def diagnose(mutate: Mutation) -> tuple[list[Diagnostic], SourceIndex]:
    data, index = load_file(VERDON)
    mutate(data, index)
    return validate(data, index, SCHEMA), index


@pytest.mark.parametrize("mistake", list(MUTATIONS))
def test_a_mistake_in_verdon_is_reported_with_its_code_at_its_place(mistake: str) -> None:
    mutate, code, where = MUTATIONS[mistake]
    diagnostics, index = diagnose(mutate)
    span = where(index)
    assert span is not None
    assert (code, span.line, span.col) in [(d.code, d.span.line, d.span.col) for d in diagnostics if d.span]


@pytest.mark.parametrize(
    "mistake", ["a card count that is a word", "an unknown turn order", "a cost given as a number"]
)
def test_a_single_mistake_gives_a_single_diagnostic(mistake: str) -> None:
    mutate, code, _ = MUTATIONS[mistake]
    diagnostics, _ = diagnose(mutate)
    assert [d.code for d in diagnostics] == [code]


def test_a_misspelled_key_is_reported_with_the_key_it_resembles() -> None:
    diagnostics, _ = diagnose(rename((*BUILD_ROPE, "cost"), "cots"))
    assert [d.hint for d in diagnostics] == ["did you mean 'cost'?"]


def test_an_unknown_turn_order_suggests_the_close_one() -> None:
    diagnostics, _ = diagnose(put(("flow", 0, "turns"), "snak"))
    assert [d.hint for d in diagnostics] == ["did you mean 'snake'?"]


# --------------------------------------------------------------------------- what the schema allows


@pytest.mark.parametrize(
    "change",
    [
        put(("extends",), "climbers_of_verdon"),
        put(("remove",), ["actions.offer_trade", "components.cards.write_a_book"]),
        put(("doc",), "a note for readers"),
        put((*BUILD_ROPE, "guess"), "the book is silent; DATA.md default"),
        put((*BUILD_ROPE, "when"), True),
        put(("scoring", "score"), 0),
        put(("end", "win"), False),
        put((*BUILD_ROPE, "effect"), "place fixed_rope at path"),
        put(("components", "cards", "write_a_book", "artist"), "someone"),
        put(("components", "terrains", "cave", "colour"), "grey"),
        put(("flow", 1, "do", 0, "doc"), "income from the dice"),
    ],
    ids=[
        "extends",
        "remove",
        "top-level doc",
        "guess on an action",
        "when as a boolean",
        "score as a number",
        "win as a boolean",
        "effect as one statement",
        "a designer field on a card",
        "a designer field on a terrain",
        "doc on a flow step",
    ],
)
def test_the_schema_accepts(change: Mutation) -> None:
    diagnostics, _ = diagnose(change)
    assert diagnostics == []


def test_remove_must_be_a_list_of_dotted_paths() -> None:
    diagnostics, _ = diagnose(put(("remove",), "actions.trade"))
    assert [d.code for d in diagnostics] == ["schema/type"]
