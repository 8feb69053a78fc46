"""Broken and edited copies of the seed rule files, loaded section by section (`meeple.rules.sections`): each
gives exactly the values, positions and schema diagnostics its whole text gives, or is composed whole.

The copies are the robustness suite's mutants (rule_mutants.py) and raw edits of the text: characters YAML
treats specially (a tab, a quote, a bracket, an anchor, a document marker) put anywhere, lines copied,
dropped, indented or moved to column 0. MEEPLE_MUTANTS copies of each seed game by default (20 unless
set); `pytest -m slow` loads 1,000 of each.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import rule_mutants as rm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.errors import RulesError
from meeple.rules import conformance, loader, validate

PER_GAME = int(os.environ.get("MEEPLE_MUTANTS", "20"))
COPIES = settings(
    deadline=None,
    max_examples=PER_GAME,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SPECIAL = ["\t", ":", '"', "'", "[", "]", "{", "}", "- ", "&a ", "*a", "#", "\n", " ", "|", ">", "? ", "! "]
SPECIAL += ["---\n", "...\n", "%", "\r", "\r\n", "<<: ", "key: 1\n", "\n x", "\u2028", ",", "@", "\\"]
BREAKS = ["\r", "\x85", "\u2028", "\u2029", "\x0b", "\x0c", "\x1c"]


def edited(text: str, rng: random.Random) -> str:
    """The text with one raw edit."""
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    how = rng.randrange(8)
    if how == 0:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(SPECIAL) + text[i:]
    if how == 1:
        i = rng.randrange(len(text) + 1)
        return text[:i] + text[i + rng.randrange(1, 40) :]
    if how == 2:
        lines.insert(at, rng.choice(lines))
    elif how == 3:
        del lines[at]
    elif how == 4:
        lines[at] = lines[at].lstrip(" ")
    elif how == 5:
        lines[at] = " " * rng.randrange(1, 4) + lines[at]
    elif how == 6:  # a top-level key written again somewhere
        lines.insert(at, rng.choice([line for line in lines if line[:1].isalpha()] or [""]))
    else:  # a line break Python's str.split does not see
        return "\n".join(lines[:at]) + rng.choice(BREAKS) + "\n".join(lines[at:])
    return "\n".join(lines)


def copy_of(game_file: Path, rng: random.Random, kind: str | None) -> str | None:
    """A mutant of the kind given (None: raw edits of the text); None when it is not UTF-8 text."""
    if kind is None:
        text = game_file.read_text(encoding="utf-8")
        for _ in range(rng.randrange(1, 4)):
            text = edited(text, rng)
        return text
    try:
        return rm.mutant(kind, game_file, rng).files[rm.MAIN].decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None


def assert_sections_load_as_the_whole(game_file: Path, rng: random.Random, kind: str | None) -> None:
    """A copy (`copy_of`), cut into sections, gives what its whole text gives, or is not cut."""
    text = copy_of(game_file, rng, kind)
    if text is None or len(text) > loader.MAX_FILE_CHARS:
        return
    cut = loader._by_sections(text, rm.MAIN, [])
    if cut is None:
        return
    try:
        whole = loader._whole(text, rm.MAIN)
    except RulesError as err:
        pytest.fail(f"cut into sections, a text the whole rejects loads: {err.diagnostics[0]}")
    assert cut[0] == whole[0]
    assert list(cut[1].entries) == list(whole[1].entries)
    assert cut[1].entries == whole[1].entries
    schema = meeple.schema()
    found = conformance.problems(whole[0], whole[1], schema, "no load kept this")
    assert found == validate.validate(whole[0], whole[1], schema)


@COPIES
@given(kind=st.none() | st.sampled_from(sorted(rm.KINDS)), rng=st.randoms(use_true_random=True))
def test_a_copy_cut_into_sections_loads_as_its_whole_text(
    game_file: Path, kind: str | None, rng: random.Random
) -> None:
    assert_sections_load_as_the_whole(game_file, rng, kind)


@pytest.mark.slow
@settings(COPIES, max_examples=1000)
@given(kind=st.none() | st.sampled_from(sorted(rm.KINDS)), rng=st.randoms(use_true_random=True))
def test_a_thousand_copies_of_each_seed_game_cut_into_sections_load_as_their_whole_texts(
    game_file: Path, kind: str | None, rng: random.Random
) -> None:
    assert_sections_load_as_the_whole(game_file, rng, kind)
