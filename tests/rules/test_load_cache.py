"""What a load works out from a rule file's text is kept on disk (`meeple.cache`): the next load of the same
file composes no YAML, checks no schema, parses no rule and compiles no source it has kept, and makes the
same game; an edited file works out again only what changed; a stale, damaged or missing store is worked
around, never an error; a broken file is never taken for a checked one."""

from __future__ import annotations

import builtins
import json
import os
import pickle
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple import cache
from meeple.rules import loader, sections, syntax, validate
from meeple.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
PARSE = syntax._parse  # kept in this process between loads (by text), unlike what the cache keeps

RULES = """\
game:
  name: Counting race
  players: {min: 2, max: 2}
vars:
  player: {score: 0}
defs:
  ahead(p): "p.score > max([q.score for q in players if q != p] + [0])"
actions:
  step:
    params: {n: "[1, 2]"}
    effect:
      - "me.score += n"
      - if: "me.score >= 5"
        then: [win me]
flow:
  - phase: race
    turns: clockwise
    repeat: true
    do:
      - choose: [step]
"""
SECTIONS = 5  # top-level keys of RULES: each is composed, and kept, on its own


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """A cache directory of the test's own, and a count of each piece of work the loads do."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    done: Counter[str] = Counter()

    def counted(name: str, fn: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            done[name] += 1
            return fn(*args, **kwargs)

        return call

    monkeypatch.setattr(loader, "_compose", counted("yaml", loader._compose))
    monkeypatch.setattr(loader, "_compose_section", counted("yaml", loader._compose_section))
    monkeypatch.setattr(validate, "validate", counted("schema", validate.validate))

    def sections_checked(data: Any, index: Any, schema: Any, names: list[str]) -> Any:
        done["schema"] += 1
        done.update(f"schema:{name}" for name in names)
        return check_sections(data, index, schema, names)

    check_sections = validate.validate_sections
    monkeypatch.setattr(validate, "validate_sections", sections_checked)
    monkeypatch.setattr(syntax, "_parse", counted("parse", syntax._parse))
    monkeypatch.setattr(builtins, "compile", counted("compile", builtins.compile))
    yield done


def fresh_process_state() -> None:
    """Forget what this process keeps of earlier loads: a later load sees only the disk."""
    PARSE.cache_clear()


def played(game: meeple.Game, seed: int = 3) -> list[str]:
    s = game.new_game(seed=seed)
    rng = random.Random(seed)
    out = []
    while not s.is_over:
        action = rng.choice(s.legal_actions())
        out.append(str(action))
        s.apply(action)
    return out


def rule_file(tmp_path: Path, text: str = RULES) -> Path:
    path = tmp_path / "race.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_second_load_of_the_same_file_does_none_of_the_work_and_makes_the_same_game(
    tmp_path: Path, work: Counter[str]
) -> None:
    path = rule_file(tmp_path)
    first = meeple.load(path, players=2)
    assert work["yaml"] == SECTIONS and work["schema"] == 1 and work["parse"] > 0 and work["compile"] > 0
    assert len(list((tmp_path / "cache" / "loads").glob("*.pickle"))) == 1

    work.clear()
    fresh_process_state()
    second = meeple.load(path, players=2)

    assert work == Counter()
    assert played(second) == played(first)
    assert played(second, seed=8) == played(first, seed=8)


def test_a_seed_game_loaded_again_plays_the_same_games(work: Counter[str]) -> None:
    first = meeple.load("tabletop_climber", players=3)
    fresh_process_state()
    work.clear()
    second = meeple.load("tabletop_climber", players=3)

    assert work["yaml"] == 0 and work["parse"] == 0 and work["compile"] == 0
    for seed in (1, 2):
        assert played(second, seed) == played(first, seed)


def test_an_edited_file_parses_again_only_the_rules_that_changed(tmp_path: Path, work: Counter[str]) -> None:
    path = rule_file(tmp_path)
    meeple.load(path, players=2)
    fresh_process_state()
    work.clear()
    rule_file(tmp_path, RULES.replace('"me.score >= 5"', '"me.score >= 6"'))

    game = meeple.load(path, players=2)

    assert work["yaml"] == 1 and work["schema"] == 1  # its one section, composed and checked again
    assert [key for key in work if key.startswith("schema:")] == ["schema:actions"]
    assert work["parse"] == 1  # the one rule whose text is new
    state = game.new_game(seed=0)
    for n in (2, 2, 2, 2, 1):
        state.apply(f"step(n={n})")
    assert not state.is_over  # the first player at 5: a win under the old rule, not the new one
    state.apply("step(n=2)")  # the second player at 6
    assert state.is_over and state.winners == [meeple.Player(1)]


def test_a_broken_file_is_reported_on_every_load(tmp_path: Path, work: Counter[str]) -> None:
    path = rule_file(tmp_path, RULES.replace("turns: clockwise", "turns: sideways"))
    for _ in range(2):
        fresh_process_state()
        with pytest.raises(meeple.RulesError) as err:
            meeple.load(path, players=2)
        assert "sideways" in str(err.value)
    assert work["schema"] == 2


def test_a_store_made_by_other_code_is_ignored_and_replaced(tmp_path: Path, work: Counter[str]) -> None:
    path = rule_file(tmp_path)
    meeple.load(path, players=2)
    (store,) = (tmp_path / "cache" / "loads").glob("*.pickle")
    kept = pickle.loads(store.read_bytes())
    store.write_bytes(pickle.dumps({**kept, "stamp": "made by another version"}))
    fresh_process_state()
    work.clear()

    meeple.load(path, players=2)

    assert work["yaml"] == SECTIONS and work["parse"] > 0
    assert pickle.loads(store.read_bytes())["stamp"] == cache.stamp()


@pytest.mark.parametrize("damage", [b"", b"not a pickle \x00\x01", pickle.dumps(["a", "list"])])
def test_a_damaged_store_is_worked_around_and_written_again(
    tmp_path: Path, work: Counter[str], damage: bytes
) -> None:
    path = rule_file(tmp_path)
    expected = played(meeple.load(path, players=2))
    (store,) = (tmp_path / "cache" / "loads").glob("*.pickle")
    store.write_bytes(damage)
    fresh_process_state()

    assert played(meeple.load(path, players=2)) == expected
    assert pickle.loads(store.read_bytes())["stamp"] == cache.stamp()


def test_a_damaged_entry_is_worked_out_again(tmp_path: Path, work: Counter[str]) -> None:
    path = rule_file(tmp_path)
    expected = played(meeple.load(path, players=2))
    (store,) = (tmp_path / "cache" / "loads").glob("*.pickle")
    kept = pickle.loads(store.read_bytes())
    for key in kept["kept"]:
        if key[0] in ("yaml", "yaml-section", "code"):
            kept["kept"][key] = b"\x00garbage"
    store.write_bytes(pickle.dumps(kept))
    fresh_process_state()
    work.clear()

    assert played(meeple.load(path, players=2)) == expected
    assert work["yaml"] == SECTIONS and work["compile"] > 0


def test_check_keeps_its_work_too_and_finds_the_same(tmp_path: Path, work: Counter[str]) -> None:
    broken = rule_file(tmp_path, RULES.replace("me.score += n", "scor[me] += n"))
    first = meeple.check(broken)
    fresh_process_state()
    work.clear()

    assert meeple.check(broken) == first
    assert first and work["yaml"] == 0 and work["parse"] == 0


def test_an_empty_setting_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_CACHE_DIR", "")
    monkeypatch.chdir(tmp_path)
    meeple.load(rule_file(tmp_path), players=2)

    assert cache.directory() is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race.yaml"]


def test_a_cache_directory_that_cannot_be_made_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(blocker / "cache"))

    assert played(meeple.load(rule_file(tmp_path), players=2))


def test_only_the_most_recently_used_stores_are_kept(tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"{i}.pickle").write_bytes(b"x")
        os.utime(tmp_path / f"{i}.pickle", ns=(i * 10**9, i * 10**9))
    (tmp_path / "other.txt").write_text("not a store")

    cache.let_go(tmp_path, 4)

    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "2.pickle",
        "3.pickle",
        "4.pickle",
        "5.pickle",
        "other.txt",
    ]


def test_a_new_process_finds_what_the_last_one_kept(tmp_path: Path) -> None:
    probe = (
        "import sys, builtins, meeple; from meeple.rules import loader; n = []; "
        "c = loader._compose_section; loader._compose_section = lambda t: n.append(1) or c(t); "
        "g = meeple.load(sys.argv[1], players=3); print(len(n), g.name)"
    )
    env = {**os.environ, "MEEPLE_CACHE_DIR": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", probe, "k2"], env=env, capture_output=True, text=True, check=True, cwd=ROOT
        ).stdout.split()
        for _ in range(2)
    ]
    k2_sections = sections.split((ROOT / "games" / "k2.yaml").read_text(encoding="utf-8"))
    assert k2_sections is not None
    assert runs[0][0] == str(len(k2_sections)) and runs[1][0] == "0"  # each of K2's sections, then none
    assert runs[0][1:] == runs[1][1:]


def test_a_name_no_file_can_have_is_reported_as_not_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    with pytest.raises(meeple.RulesError) as err:
        meeple.load("x" * 5000, players=2)
    assert err.value.diagnostics[0].code == "io/not-found"


def test_no_cache_on_the_command_line_reads_and_keeps_nothing(
    tmp_path: Path, work: Counter[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = rule_file(tmp_path)
    assert main(["check", str(path)]) == 0
    assert work["yaml"] == SECTIONS  # the check and its warnings share one reading
    (store,) = (tmp_path / "cache" / "loads").glob("*.pickle")
    kept = store.read_bytes()
    fresh_process_state()
    work.clear()

    assert main(["--no-cache", "check", str(path)]) == 0
    assert main(["check", "--no-cache", str(path)]) == 0

    assert work["yaml"] == 4 * SECTIONS and work["parse"] > 0  # the check and the warnings read it, twice
    assert store.read_bytes() == kept  # and nothing written
    assert "clean" in capsys.readouterr().out


def test_the_cache_command_shows_what_is_kept_and_clears_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "cache"
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(folder))
    meeple.load(rule_file(tmp_path), players=2)
    (folder / "mine.txt").write_text("not meeple's")
    capsys.readouterr()

    assert main(["cache", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["directory"] == str(folder) and shown["rule_files"] == 1
    assert shown["bytes"] >= sum(p.stat().st_size for p in (folder / "loads").glob("*.pickle")) > 0

    assert main(["cache", "--clear"]) == 0
    assert capsys.readouterr().out.startswith("removed ")
    assert not list((folder / "loads").glob("*")) and (folder / "mine.txt").exists()
    assert main(["cache"]) == 0
    assert "0 rule files kept" in capsys.readouterr().out


def test_the_cache_command_without_a_cache_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEEPLE_CACHE_DIR", "")
    assert main(["cache"]) == 0
    assert capsys.readouterr().out.startswith("no cache")


def test_a_variant_finds_what_its_base_file_kept(tmp_path: Path, work: Counter[str]) -> None:
    base = rule_file(tmp_path)
    variant = tmp_path / "longer_race.yaml"
    variant.write_text(
        "extends: race.yaml\n"
        "actions:\n"
        "  step:\n"
        "    effect:\n"
        '      - "me.score += n"\n'
        '      - if: "me.score >= 7"\n'
        "        then: [win me]\n",
        encoding="utf-8",
    )
    meeple.load(base, players=2)
    fresh_process_state()
    work.clear()

    game = meeple.load(variant, players=2)

    assert work["yaml"] == 2  # the variant's own two sections; the base's were kept by the base's load
    assert work["parse"] == 1  # the variant's one new rule
    state = game.new_game(seed=0)
    for n in (2, 2, 2, 2, 2, 2):
        state.apply(f"step(n={n})")
    assert not state.is_over  # both at 6: the variant's 7 not reached
    state.apply("step(n=1)")
    assert state.is_over and state.winners == [meeple.Player(0)]

    (tmp_path / "cache" / "loads" / f"{cache.file_key(base.resolve())}.pickle").unlink()  # the base's store
    fresh_process_state()
    work.clear()
    meeple.load(variant, players=2)
    assert work == Counter()  # the variant's own store now holds all it used


def test_a_seed_game_by_name_and_by_path_share_one_store(work: Counter[str]) -> None:
    meeple.load("k2", players=3)
    fresh_process_state()
    work.clear()

    meeple.load(ROOT / "games" / "k2.yaml", players=3)

    assert work["parse"] == 0 and work["compile"] == 0 and work["schema"] == 0


def test_a_comment_added_at_the_end_composes_the_last_section_alone_and_checks_nothing(
    tmp_path: Path, work: Counter[str]
) -> None:
    path = rule_file(tmp_path)
    meeple.load(path, players=2)
    fresh_process_state()
    work.clear()
    rule_file(tmp_path, RULES + "# a note to self\n")

    meeple.load(path, players=2)

    assert work["yaml"] == 1  # `flow`, the section the comment joined
    assert work["schema"] == 0 and work["parse"] == 0  # no section's value changed


def test_lines_added_above_a_kept_section_move_its_positions(tmp_path: Path, work: Counter[str]) -> None:
    broken = RULES.replace('"me.score += n"', '"scor[me] += n"')
    path = rule_file(tmp_path, broken)
    before = meeple.check(path)
    fresh_process_state()
    work.clear()
    rule_file(tmp_path, "# Counting race\n# two lines added at the top\n" + broken)

    after = meeple.check(path)

    assert work["yaml"] == 1  # the first section; `actions`, two lines further down, came from the cache
    (was,) = [d for d in before if "scor" in d.message]
    (now,) = [d for d in after if "scor" in d.message]
    assert now.span == replace(was.span, line=was.span.line + 2)
    assert (now.span.line, now.span.col) == (14, 10)  # `scor` in line 12 of RULES, counted by hand
    with cache.off():
        assert meeple.check(path) == after


def test_sections_are_kept_by_a_load_that_found_the_whole_text_kept(
    tmp_path: Path, work: Counter[str]
) -> None:
    path = rule_file(tmp_path)
    meeple.load(path, players=2)
    (store,) = (tmp_path / "cache" / "loads").glob("*.pickle")
    kept = pickle.loads(store.read_bytes())
    kept["kept"] = {key: value for key, value in kept["kept"].items() if key[0] != "code"}
    store.write_bytes(pickle.dumps(kept))
    fresh_process_state()
    meeple.load(path, players=2)  # the text kept, the code compiled again: the store is written anew
    assert any(key[0] == "code" for key in pickle.loads(store.read_bytes())["kept"])
    fresh_process_state()
    work.clear()
    rule_file(tmp_path, RULES.replace('"me.score >= 5"', '"me.score >= 6"'))

    meeple.load(path, players=2)

    assert work["yaml"] == 1 and work["schema"] == 1
    assert [key for key in work if key.startswith("schema:")] == ["schema:actions"]
