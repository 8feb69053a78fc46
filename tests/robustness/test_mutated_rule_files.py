"""Mutated seed rule files (rule_mutants.py): `meeple check` answers each one quickly, as the CLI does, with
exit 0 or 1, located diagnostics and never a traceback; a mutant an oracle calls broken is exit 1; a clean
one played by `check --playouts` fails, if it does, at a rule's line with its seed.

The default run checks MEEPLE_MUTANTS mutants of each seed game (20 unless set); `pytest -m slow` runs
1,000 of each. The session ends by printing how many were tried (tests/robustness/conftest.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rule_mutants as rm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.tools.cli import main

SECONDS = 30  # far above the worst case seen (about 4 s on a busy machine), far below a hang
PLAYOUT_ACTIONS = 1500
PER_GAME = int(os.environ.get("MEEPLE_MUTANTS", "20"))
FUZZ = settings(
    deadline=None,
    max_examples=PER_GAME,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)


class Hang(Exception):
    """The check ran past SECONDS."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def cli(*args: str) -> tuple[int, str, str, float]:
    """`meeple ARGS` in this process: exit code, stdout, stderr and seconds taken."""
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    with time_limit(SECONDS), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - started


def write(m: rm.Mutant, folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name, content in m.files.items():
        (folder / name).write_bytes(content)
    return folder / rm.MAIN


YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # a lone CR, NEL, LS and PS end a line too


def lines_of(content: bytes) -> int:
    """The lines of a file as YAML (and an editor, and `str.splitlines`) count them."""
    text = content.decode("utf-8", "replace")
    breaks = YAML_BREAK.findall(text)
    return max(1, len(breaks) + (0 if YAML_BREAK.search(text[-1:] or "x") else 1))


def assert_located(records: list[dict[str, Any]], m: rm.Mutant, folder: Path) -> None:
    """Every diagnostic names one of the mutant's files and a line and column inside it."""
    files = {str(folder / name): content for name, content in m.files.items()}
    for d in records:
        assert d["file"] in files, f"{m}: {d}"
        assert 1 <= d["line"] <= lines_of(files[d["file"]]) and d["col"] >= 1, f"{m}: {d}"


def check_mutant(m: rm.Mutant, folder: Path, play: bool) -> None:
    path = write(m, folder)
    code, out, err, seconds = cli("check", str(path), "--format", "json")
    rm.TRIED[m.kind] += 1
    rm.MUST_FAIL[m.kind] += m.must_fail
    assert "Traceback" not in err and "internal error" not in err, f"{m}:\n{err}"
    assert code in (0, 1) and not err, f"{m}: exit {code}\n{err}"
    assert seconds < SECONDS / 2, f"{m}: {seconds:.1f} s"
    records = json.loads(out)
    assert_located(records, m, folder)
    if m.must_fail:
        assert code == 1 and any(d["severity"] == "error" for d in records), f"{m}: checked clean"
    if code == 0 and play:
        rm.PLAYED[m.kind] += 1
        check_playout(m, folder, path)


def check_playout(m: rm.Mutant, folder: Path, path: Path) -> None:
    """A clean mutant played once: it ends, or its failure names a rule (or the game's length) and a seed."""
    code, out, err, _ = cli(
        "check", str(path), "--playouts", "1", "--max-actions", str(PLAYOUT_ACTIONS), "--format", "json"
    )
    assert "Traceback" not in err and "internal error" not in err, f"{m}:\n{err}"
    assert code in (0, 1), f"{m}: exit {code}\n{err}"
    if not out:  # a file that compiles for no player count: the error is on stderr, located
        assert err.startswith(str(folder)), f"{m}:\n{err}"
        return
    records = json.loads(out)
    assert_located(records, m, folder)
    for d in records:
        assert d["code"] != "playout/crash", f"{m}: {d}"
        if d["severity"] == "warning":  # a lint finding of the playouts (a card whose effect never ran)
            continue
        assert "seed 1" in d["message"], f"{m}: {d}"
        if d["code"] == "rules/runtime":
            assert " in " in d["message"] and d["line"] >= 1, f"{m}: {d}"


def unique_folder(tmp_path: Path) -> Path:
    return tmp_path / f"m{len(list(tmp_path.iterdir()))}"


@FUZZ
@given(kind=st.sampled_from(sorted(rm.KINDS)), rng=st.randoms(use_true_random=True), play=st.booleans())
def test_check_answers_every_mutant_of_a_seed_game_in_time_located_and_without_a_traceback(
    game_file: Path, tmp_path: Path, kind: str, rng: random.Random, play: bool
) -> None:
    m = rm.mutant(kind, game_file, rng)
    check_mutant(m, unique_folder(tmp_path), play and rng.random() < 0.3)


@pytest.mark.slow
@settings(FUZZ, max_examples=1000)
@given(kind=st.sampled_from(sorted(rm.KINDS)), rng=st.randoms(use_true_random=True))
def test_a_thousand_mutants_of_each_seed_game_check_in_time_and_located(
    game_file: Path, tmp_path: Path, kind: str, rng: random.Random
) -> None:
    check_mutant(rm.mutant(kind, game_file, rng), unique_folder(tmp_path), play=True)


# --------------------------------------------------------------------------- the oracles themselves


def test_every_expression_the_schema_marks_in_the_seed_games_parses_with_its_rule(game_file: Path) -> None:
    s = rm.seed(game_file)

    assert len(s.expressions) > 20
    for path, rule in s.expressions:
        assert rm.parses(rm.get(s.data, path), rule), (path, rule)


def test_a_seed_game_written_back_by_the_mutator_checks_clean(game_file: Path, tmp_path: Path) -> None:
    m = rm.from_data("unchanged", rm.seed(game_file).data, "written back")
    path = write(m, tmp_path / "copy")

    assert not m.must_fail
    assert cli("check", str(path))[0] == 0


def test_each_kind_of_mutant_is_made_from_each_seed_game(game_file: Path) -> None:
    for name in rm.KINDS:
        made = rm.mutant(name, game_file, random.Random(1))
        assert made.kind == name and rm.MAIN in made.files


# --------------------------------------------------------------------------- in a process of its own


MEMORY = 2 * 1024**3  # bytes of address space the checking process may use


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


# The kinds that could cost time or memory, each made from two seed games (a process start is ~0.7 s).
SAMPLE = [
    (kind, i)
    for kind in (
        "laughs",
        "huge-file",
        "binary",
        "extends-cycle",
        "deep-expression",
        "huge-number",
        "broken-expression",
        "wrong-type",
    )
    for i in range(2)
]


@pytest.mark.parametrize(("kind", "i"), SAMPLE, ids=[f"{k}-{i}" for k, i in SAMPLE])
def test_meeple_check_in_its_own_process_answers_within_time_and_memory(
    tmp_path: Path, kind: str, i: int
) -> None:
    seed_file = rm.SEED_FILES[i % len(rm.SEED_FILES)]
    m = rm.mutant(kind, seed_file, random.Random(i))
    path = write(m, tmp_path / "m")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}

    done = subprocess.run(
        [sys.executable, "-m", "meeple.tools.cli", "check", str(path), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=SECONDS * 2,
        preexec_fn=limited,
        env=env,
        check=False,
    )

    rm.TRIED[kind] += 1
    assert done.returncode in (0, 1) and not done.stderr, f"{m}: exit {done.returncode}\n{done.stderr}"
    assert_located(json.loads(done.stdout), m, tmp_path / "m")
    if m.must_fail:
        assert done.returncode == 1, str(m)
