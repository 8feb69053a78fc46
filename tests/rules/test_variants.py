"""Variants merged by name: named list items, `+name`/`-name` edits, `remove:` paths into lists, the
changes each variant makes (with its lines), and notes on base lines that a variant's change broke."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.errors import RulesError, SourceSpan
from meeple.rules.loader import load_rules, load_text
from meeple.rules.variants import identity, is_edit_list

BASE = """\
flow:
  - phase: setup
    do:
      - choose: [place]
  - phase: main
    repeat: true
    do:
      - step: [roll]
      - name: turn
        choose: [build, trade, offer]
        until: end_turn
layout:
  - {name: terrain, set: terrain, shuffle: [a, b, c]}
  - {set: number, shuffle: [2, 3, 4]}
resources: [wood, ore]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def games(tmp_path: Path) -> Path:
    write(tmp_path, "base.yaml", BASE)
    return tmp_path


def merged(games: Path, text: str) -> Any:
    return load_rules(write(games, "v.yaml", "extends: base\n" + text), [])


def problems(games: Path, text: str) -> list[tuple[str, int, int, str | None]]:
    with pytest.raises(RulesError) as raised:
        merged(games, text)
    return [(d.code, d.span.line, d.span.col, d.hint) for d in raised.value.diagnostics if d.span]


def names(items: list[dict[str, Any]]) -> list[str]:
    return [identity(item)[1] for item in items]  # type: ignore[index]


# --------------------------------------------------------------------------- named lists


def test_a_phase_named_in_the_variant_merges_into_the_base_phase_key_by_key(games: Path) -> None:
    rules = merged(games, "flow:\n  - phase: main\n    repeat: false\n")
    main = rules.data["flow"][1]
    assert names(rules.data["flow"]) == ["setup", "main"]
    assert main["repeat"] is False and main["do"][1]["choose"] == ["build", "trade", "offer"]
    assert rules.index.value_span(("flow", 1, "repeat")).file == str(games / "v.yaml")
    assert rules.index.value_span(("flow", 1, "do", 0)).file == str(games / "base.yaml")


def test_a_new_named_item_goes_after_the_variant_item_listed_before_it(games: Path) -> None:
    rules = merged(games, "flow:\n  - phase: setup\n  - phase: draft\n    do: [{choose: [pick]}]\n")
    assert names(rules.data["flow"]) == ["setup", "draft", "main"]
    assert rules.index.value_span(("flow", 1, "do", 0, "choose", 0)) == SourceSpan(
        str(games / "v.yaml"), 5, 20, 5, 24
    )
    assert rules.index.value_span(("flow", 2, "do", 1, "name")).file == str(games / "base.yaml")


def test_new_items_listed_first_go_before_the_first_matched_one_and_others_at_the_end(games: Path) -> None:
    rules = merged(games, "flow:\n  - phase: intro\n  - phase: main\n")
    assert names(rules.data["flow"]) == ["setup", "intro", "main"]
    rules = merged(games, "flow:\n  - phase: epilogue\n")
    assert names(rules.data["flow"]) == ["setup", "main", "epilogue"]


def test_a_list_whose_items_are_not_all_named_or_is_empty_replaces_the_base_list(games: Path) -> None:
    rules = merged(games, "flow:\n  - phase: only\n    do: [{step: [x]}, {choose: [y]}]\n")
    assert rules.data["flow"][2]["do"] == [{"step": ["x"]}, {"choose": ["y"]}]
    assert merged(games, "layout: []\n").data["layout"] == []
    assert merged(games, "resources: [stone]\n").data["resources"] == ["stone"]


def test_a_named_step_inside_a_named_phase_is_reached_and_its_choose_list_edited(games: Path) -> None:
    rules = merged(
        games, "flow:\n  - phase: main\n    do:\n      - name: turn\n        choose: [-offer, +climb]\n"
    )
    step = rules.data["flow"][1]["do"][1]
    assert step == {"name": "turn", "choose": ["build", "trade", "climb"], "until": "end_turn"}
    variant, base = str(games / "v.yaml"), str(games / "base.yaml")
    # a kept item points at the base, an added one at the name after its `+`
    assert rules.index.value_span(("flow", 1, "do", 1, "choose", 1)) == SourceSpan(base, 10, 25, 10, 30)
    assert rules.index.value_span(("flow", 1, "do", 1, "choose", 2)) == SourceSpan(variant, 6, 27, 6, 32)


def test_named_layout_steps_merge_and_unnamed_ones_are_kept(games: Path) -> None:
    rules = merged(games, "layout:\n  - {name: terrain, shuffle: [d, e, f]}\n  - {name: extra, set: camp}\n")
    assert rules.data["layout"] == [
        {"name": "terrain", "set": "terrain", "shuffle": ["d", "e", "f"]},
        {"name": "extra", "set": "camp"},
        {"set": "number", "shuffle": [2, 3, 4]},
    ]


# --------------------------------------------------------------------------- edits


def test_plus_and_minus_edit_any_list_of_names(games: Path) -> None:
    assert merged(games, "resources: [+stone, -wood]\n").data["resources"] == ["ore", "stone"]


def test_a_minus_drops_a_named_item_from_a_list_of_mappings(games: Path) -> None:
    assert names(merged(games, "flow: [-setup]\n").data["flow"]) == ["main"]


def test_an_edit_of_a_list_the_base_does_not_have_adds_its_plus_items(games: Path) -> None:
    rules = merged(games, "colours: [+red, +blue]\n")
    assert rules.data["colours"] == ["red", "blue"]
    assert rules.index.value_span(("colours", 1)) == SourceSpan(str(games / "v.yaml"), 2, 18, 2, 22)


def test_dropping_a_name_the_list_lacks_and_adding_one_it_has_are_located_errors(games: Path) -> None:
    found = problems(games, "resources: [-wod, +ore, -iron]\n")
    assert found == [
        ("rules/edit-missing", 2, 13, "did you mean 'wood'?"),
        ("rules/edit-duplicate", 2, 19, None),
        ("rules/edit-missing", 2, 25, "the list holds wood, ore"),
    ]


def test_an_item_named_twice_in_the_base_cannot_be_merged_by_name(games: Path) -> None:
    write(games, "base.yaml", "flow:\n  - phase: a\n  - phase: a\n")
    assert [p[:2] for p in problems(games, "flow:\n  - phase: a\n    repeat: true\n")] == [
        ("rules/extends-ambiguous", 3)
    ]


def test_an_item_named_twice_in_the_variant_is_an_error(games: Path) -> None:
    found = problems(games, "flow:\n  - phase: main\n  - phase: main\n  - phase: new\n  - phase: new\n")
    assert [p[:2] for p in found] == [("rules/extends-twice", 4), ("rules/extends-twice", 6)]


@pytest.mark.parametrize(
    ("value", "edit"),
    [
        (["+a", "-b"], True),
        (["+ a"], True),
        ([], False),
        (["+a", "b"], False),
        (["-1"], False),
        ("+a", False),
    ],
)
def test_only_a_list_of_plus_and_minus_names_is_an_edit(value: Any, edit: bool) -> None:
    assert is_edit_list(value) is edit


# --------------------------------------------------------------------------- remove


def test_remove_reaches_into_lists_by_name_position_and_value(games: Path) -> None:
    rules = merged(
        games,
        "remove:\n  - flow.main.do.turn.choose.trade\n  - flow.setup\n  - layout.1.shuffle.0\n",
    )
    assert names(rules.data["flow"]) == ["main"]
    assert rules.data["flow"][0]["do"][1]["choose"] == ["build", "offer"]
    assert rules.data["layout"][1]["shuffle"] == [3, 4]
    # the index moved with the items: 'offer' and the main phase keep their own lines
    base = str(games / "base.yaml")
    assert rules.index.value_span(("flow", 0, "do", 1, "choose", 1)) == SourceSpan(base, 10, 32, 10, 37)
    assert rules.index.value_span(("flow", 0, "phase")) == SourceSpan(base, 5, 12, 5, 16)
    assert rules.index.value_span(("layout", 1, "shuffle", 0)) == SourceSpan(base, 14, 32, 14, 33)
    assert rules.index.value_span(("flow", 1)) is None


def test_a_remove_path_that_names_nothing_is_reported_with_a_suggestion(games: Path) -> None:
    found = problems(games, "remove:\n  - flow.mian.do\n  - flow.main.do.turn.choose.trad\n")
    assert found == [
        ("rules/remove-unknown", 3, 5, "did you mean 'main'?"),
        ("rules/remove-unknown", 4, 5, "did you mean 'trade'?"),
    ]


# --------------------------------------------------------------------------- changes


def test_every_change_is_recorded_with_the_variants_line_and_the_bases(games: Path) -> None:
    rules = merged(
        games,
        "flow:\n  - phase: main\n    repeat: false\n    do:\n      - name: turn\n        choose: [-offer]\n"
        "extra: 1\nremove: [layout.terrain]\n",
    )
    variant, base = str(games / "v.yaml"), str(games / "base.yaml")
    found = [(c.kind, c.target, c.where.line, c.was.line if c.was else None) for c in rules.changes]
    assert found == [
        ("changed", "flow.main.repeat", 4, 6),
        ("removed", "flow.main.do.turn.choose: offer", 7, 10),
        ("added", "extra", 8, None),
        ("removed", "layout.terrain", 9, 13),
    ]
    assert {c.where.file for c in rules.changes} == {variant} and rules.changes[0].was.file == base
    assert rules.changes[0].describe() == "changes flow.main.repeat from True to False"
    assert rules.changes[1].describe() == "drops 'offer' from flow.main.do.turn.choose"


def test_a_variant_of_a_variant_records_each_files_own_changes(games: Path) -> None:
    write(games, "mid.yaml", "extends: base\nresources: [+stone]\n")
    write(games, "top.yaml", "extends: mid\nresources: [-wood]\n")
    rules = load_rules(games / "top.yaml", [])
    assert rules.data["resources"] == ["ore", "stone"]
    assert rules.chain == [str(games / n) for n in ("top.yaml", "mid.yaml", "base.yaml")]
    assert [(c.kind, c.item, Path(c.where.file).name) for c in rules.changes] == [
        ("added", "stone", "mid.yaml"),
        ("removed", "wood", "top.yaml"),
    ]
    assert [c.item for c in rules.own_changes] == ["wood"]


# --------------------------------------------------------------------------- notes on base lines


def test_an_action_removed_while_the_bases_flow_still_offers_it_is_an_error_at_the_bases_line(
    tmp_path: Path,
) -> None:
    variant = write(tmp_path, "v.yaml", "extends: climbers_of_verdon\nremove: [actions.offer_trade]\n")
    (problem,) = meeple.check(variant)
    assert problem.code == "name/unknown-action" and "offer_trade" in problem.message
    assert Path(problem.span.file).name == "climbers_of_verdon.yaml"
    assert problem.notes == (f"{variant}:2:10: the variant removes actions.offer_trade",)


def test_a_removed_def_or_table_that_the_base_still_uses_gets_a_note_at_each_use(tmp_path: Path) -> None:
    variant = write(
        tmp_path, "v.yaml", 'extends: climbers_of_verdon\nremove: ["defs.producing(t)", tables.repeat_cost]\n'
    )
    found = {d.message: d.notes for d in meeple.check(variant)}
    assert found == {
        "unknown function 'producing'": (f"{variant}:2:10: the variant removes defs.producing(t)",),
        "unknown name 'repeat_cost'": (f"{variant}:2:31: the variant removes tables.repeat_cost",),
    }


def test_an_error_on_the_variants_own_line_has_no_note(tmp_path: Path) -> None:
    text = (
        "extends: climbers_of_verdon\nremove: [actions.offer_trade]\nflow:\n  - phase: climbing\n"
        "    do:\n      - name: main\n        choose: [-offer_trade, +fly]\n"
    )
    (problem,) = meeple.check(write(tmp_path, "v.yaml", text))
    assert (problem.code, problem.span.line, problem.span.col, problem.notes) == (
        "name/unknown-action",
        7,
        33,
        (),
    )


def test_the_note_reaches_the_command_line_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from meeple.tools.cli import main

    variant = write(tmp_path, "v.yaml", "extends: climbers_of_verdon\nremove: [actions.accept_trade]\n")
    assert main(["check", str(variant)]) == 1
    out = capsys.readouterr().out
    assert "climbers_of_verdon.yaml" in out and f"note: {variant}:2:10: the variant removes" in out


# --------------------------------------------------------------------------- provenance, as a property

NAMES = st.sampled_from(["a", "b", "c"])
SCALARS = st.one_of(st.integers(-5, 50), NAMES, st.booleans())
ITEMS = st.fixed_dictionaries({"name": NAMES}, optional={"x": SCALARS, "y": st.lists(NAMES, max_size=3)})
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(ITEMS, min_size=1, max_size=3),
        st.dictionaries(NAMES, inner, max_size=3),
        st.lists(inner, max_size=3),
    ),
    max_leaves=12,
)
DOCS = st.dictionaries(st.sampled_from(["p", "q"]), VALUES, max_size=2)


def _scalars(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        return [found for k, v in value.items() for found in _scalars(v, (*path, k))]
    if isinstance(value, list):
        return [found for i, v in enumerate(value) for found in _scalars(v, (*path, i))]
    return [(path, value)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=DOCS, over=DOCS)
def test_every_merged_scalar_points_at_a_line_that_writes_it(
    base: Any, over: Any, tmp_path_factory: Any
) -> None:
    folder = tmp_path_factory.mktemp("prop")
    texts = {
        "base.yaml": yaml.safe_dump(base),
        "v.yaml": "extends: base\n" + (yaml.safe_dump(over) if over else ""),
    }
    for name, text in texts.items():
        write(folder, name, text)
    try:
        rules = load_rules(folder / "v.yaml", [])
    except RulesError as err:  # a base named twice: the only merge error these documents can make
        assert {d.code for d in err.diagnostics} <= {"rules/extends-ambiguous", "rules/extends-twice"}
        return
    for path, value in _scalars(rules.data):
        span = rules.index.value_span(path)
        assert span is not None, path
        line = texts[Path(span.file).name].splitlines()[span.line - 1]
        written = line[span.col - 1 : span.end_col - 1 if span.end_line == span.line else None]
        assert load_text(written)[0] == value, (path, written)
