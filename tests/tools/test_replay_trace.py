"""Trace regression: `meeple replay TRACE --rules FILE` replays a saved game against edited rules and reports
the first step where it diverges (an action no longer legal there, or another resulting state) with the
parts of the two states that differ; exit 1 then, 0 when it replays identically, 2 on usage errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.tools.cli import main
from meeple.tools.replay import changes, delta, grouped, patched

VERDON = Path(__file__).resolve().parents[2] / "games" / "climbers_of_verdon.yaml"
ROPE_COST = "    cost: 1 rope + 1 bolt\n"  # of build_rope, the only action with this cost


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-player game of Verdon saved as a golden trace."""
    path = tmp_path_factory.mktemp("trace") / "verdon.json"
    assert (
        main(["run", "climbers_of_verdon", "--players", "2", "--seed", "1", "--quiet", "--save", str(path)])
        == 0
    )
    return path


def first_step_of(trace: Path, action: str) -> int:
    """The 1-based step of the trace's first action named `action`."""
    actions = json.loads(trace.read_text())["actions"]
    return next(i for i, a in enumerate(actions, 1) if a.startswith(action + "("))


def edited(tmp_path: Path, old: str, new: str) -> Path:
    text = VERDON.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "verdon_edited.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def replay_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(["replay", *args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_trace_keeps_the_state_after_every_action(trace: Path) -> None:
    record = json.loads(trace.read_text())

    assert len(record["steps"]) == len(record["actions"]) > 100
    new_game = json.loads(meeple.load(VERDON, players=2).new_game(seed=1).to_json())
    assert record["start"] == {k: v for k, v in new_game.items() if k != "game"}
    state = record["start"]
    for step in record["steps"]:
        state = patched(state, step)
    assert state == {k: v for k, v in record["final"].items() if k != "game"}
    # one line per step, so a golden trace in version control diffs step by step
    lines = trace.read_text().splitlines()
    first = lines.index(' "steps": [') + 1
    assert [json.loads(line.rstrip(",")) for line in lines[first : first + len(record["steps"])]] == record[
        "steps"
    ]


def test_a_trace_replays_identically_against_an_unchanged_copy_of_its_rules(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = edited(tmp_path, ROPE_COST, ROPE_COST)  # the same rules under another file name

    assert main(["replay", str(trace), "--rules", str(copy)]) == 0
    assert (
        "It replays identically: the state after every action matches the saved one."
        in capsys.readouterr().out
    )
    code, report = replay_json(capsys, str(trace), "--rules", str(copy))
    assert code == 0 and report["identical"] and report["divergence"] is None
    assert report["replayed"] == report["actions"] > 100 and report["checked"] == "states"


def test_a_cheaper_rope_diverges_at_the_first_rope_built_with_the_bolt_it_no_longer_costs(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = edited(tmp_path, ROPE_COST, "    cost: 1 rope\n")
    step = first_step_of(trace, "build_rope")

    code, report = replay_json(capsys, str(trace), "--rules", str(rules))

    d = report["divergence"]
    assert code == 1 and not report["identical"] and report["replayed"] == step - 1
    assert d["step"] == step and d["kind"] == "state" and d["action"].startswith("build_rope(")
    [difference] = d["differences"]  # the builder keeps the bolt: nothing else differs
    seat = int(d["player"].removeprefix("p")) - 1
    assert difference["path"] == ["pv", seat, "bolt"] and difference["part"] == f"pv[{seat}].bolt"
    assert difference["now"] == difference["saved"] + 1

    assert main(["replay", str(trace), "--rules", str(rules)]) == 1
    out = capsys.readouterr().out
    assert (
        f"diverges at step {step} of {report['actions']}: {d['player']} {d['action']}: the state after" in out
    )
    assert f"pv[{seat}].bolt  {difference['saved']} -> {difference['now']}" in out


def test_a_rope_no_longer_allowed_diverges_at_the_first_rope_built_as_an_illegal_action(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = edited(tmp_path, "when: first(pieces_at(path)) == none and", "when: false and")
    step = first_step_of(trace, "build_rope")

    code, report = replay_json(capsys, str(trace), "--rules", str(rules))

    d = report["divergence"]
    assert code == 1 and d["step"] == step and d["kind"] == "illegal"
    assert d["legal"] and not any(a.startswith("build_rope(") for a in d["legal"])
    assert main(["replay", str(trace), "--rules", str(rules)]) == 1
    out = capsys.readouterr().out
    assert f"{d['action']} is no longer legal there." in out and "legal there now: " in out


def test_a_change_to_the_set_up_diverges_at_step_0(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = edited(tmp_path, "project:\n      supply: 5\n", "project:\n      supply: 6\n")

    code, report = replay_json(capsys, str(trace), "--rules", str(rules))

    d = report["divergence"]
    assert code == 1 and d["step"] == 0 and d["kind"] == "set-up" and d["action"] is None
    assert {(x["part"], x["saved"], x["now"]) for x in d["differences"]} == {
        ("supply[0].project", 5, 6),
        ("supply[1].project", 5, 6),
    }


def test_a_trace_without_states_is_compared_at_its_end(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(trace.read_text())
    old = tmp_path / "old.json"  # as `meeple run --save` wrote it before traces kept every state
    old.write_text(json.dumps({k: v for k, v in record.items() if k not in ("start", "steps")}))

    code, report = replay_json(capsys, str(old))
    assert code == 0 and report["checked"] == "final state"
    code, report = replay_json(
        capsys,
        str(old),
        "--rules",
        str(edited(tmp_path, "project:\n      supply: 5\n", "project:\n      supply: 6\n")),
    )
    assert code == 1 and report["divergence"]["kind"] == "final"
    assert {x["part"] for x in report["divergence"]["differences"]} == {
        "supply[0].project",
        "supply[1].project",
    }


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--rules", "no/such/rules.yaml"], "no/such/rules.yaml"),
        (["--format", "xml"], "invalid choice: 'xml'"),
        (["--rules"], "expected one argument"),
    ],
)
def test_a_bad_replay_command_line_is_a_usage_error(
    trace: Path, args: list[str], complaint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(trace), *args]) == 2
    assert complaint in capsys.readouterr().err


@pytest.mark.parametrize(
    "steps",
    [[[[["no", "such", "part"], 1]]], [[["not a path"]]], [[[["turn_no", 0, 1], 2]]]],
    ids=["missing-part", "bad-item", "into-a-number"],
)
def test_a_trace_whose_saved_states_do_not_fit_is_a_usage_error(
    trace: Path, tmp_path: Path, steps: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(trace.read_text())
    record["steps"][:1] = steps
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))

    assert main(["replay", str(broken)]) == 2
    assert "is not a saved game: step 1 of the saved states does not fit" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("cut", "complaint"),
    [({"steps": []}, "0 saved states for"), ({"start": None}, "saved states but no start state")],
    ids=["steps-missing", "start-missing"],
)
def test_a_trace_with_states_missing_is_a_usage_error(
    trace: Path, tmp_path: Path, cut: dict[str, Any], complaint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**json.loads(trace.read_text()), **cut}))

    assert main(["replay", str(broken)]) == 2
    assert complaint in capsys.readouterr().err


def test_replay_help_names_rules_and_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--rules FILE" in out and "--format {text,json}" in out


# --------------------------------------------------------------------------- differences between states

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=3), inner, max_size=4)
        | st.builds(lambda xs: {"$tuple": xs}, st.lists(inner, max_size=4))
    ),
    max_leaves=20,
)


@given(JSON, JSON)
def test_a_delta_turns_one_state_into_the_other_and_is_empty_only_between_equals(old: Any, new: Any) -> None:
    assert json.dumps(patched(old, delta(old, new)), sort_keys=True) == json.dumps(new, sort_keys=True)
    assert (delta(old, new) == []) == (json.dumps(old, sort_keys=True) == json.dumps(new, sort_keys=True))


@given(JSON, JSON)
def test_every_difference_is_a_part_where_the_two_values_differ(old: Any, new: Any) -> None:
    for path, a, b in changes(old, new):
        assert json.dumps(a, sort_keys=True, default=repr) != json.dumps(b, sort_keys=True, default=repr)
        assert path == () or isinstance(path[-1], str | int)


def test_many_differing_items_of_one_list_are_one_row_of_the_report() -> None:
    old = {"rng": {"$tuple": [3, {"$tuple": list(range(10))}, None]}, "turn_no": 4}
    new = {"rng": {"$tuple": [3, {"$tuple": [x + 1 for x in range(10)]}, None]}, "turn_no": 5}

    assert grouped(list(changes(old, new))) == [
        ("rng[1] (the random generator)", "10 items differ"),
        ("turn_no", "4 -> 5"),
    ]


def test_a_page_of_a_trace_against_edited_rules_shows_the_game_up_to_where_it_diverges(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = edited(tmp_path, "when: first(pieces_at(path)) == none and", "when: false and")
    step = first_step_of(trace, "build_rope")
    page = tmp_path / "page.html"

    assert main(["replay", str(trace), "--rules", str(rules), "--html", str(page)]) == 1

    out = capsys.readouterr().out
    assert f"diverges at step {step} of" in out
    assert f"Wrote {page} (its first {step - 1} actions, up to where it diverges)" in out
    text = page.read_text(encoding="utf-8")
    start = text.index('id="replay-data">') + len('id="replay-data">')
    steps = json.loads(text[start : text.index("</script>", start)])["steps"]
    assert len(steps) == step  # the start, then each action that still replays


def test_a_page_of_a_trace_against_unchanged_rules_shows_the_whole_game(
    trace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = edited(tmp_path, ROPE_COST, ROPE_COST)
    page = tmp_path / "page.html"

    code, report = replay_json(capsys, str(trace), "--rules", str(rules), "--html", str(page))

    assert code == 0 and report["identical"]  # the JSON report alone on standard output
    text = page.read_text(encoding="utf-8")
    start = text.index('id="replay-data">') + len('id="replay-data">')
    assert len(json.loads(text[start : text.index("</script>", start)])["steps"]) == report["actions"] + 1
