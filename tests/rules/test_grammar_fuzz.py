"""Fuzzing the rule language (STYLE.md "Tests" item 6).

Any text parses or raises ExprSyntaxError at a place inside it; a rule file with one corrupted expression gets
located diagnostics from `meeple.check`, never a traceback.
"""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.errors import Diagnostic
from meeple.rules.syntax import ExprSyntaxError, parse

START_RULES = ["expr", "stmt"]

NAMES = [
    "me",
    "p",
    "x",
    "tile",
    "tiles",
    "rope",
    "chalk",
    "token",
    "option",
    "count",
    "sum",
    "first",
    "_a",
    "b2",
]
NUMBERS = ["0", "1", "2", "13", "007", "2d6", "1d6", "99999999999999999999"]
OPERATORS = [
    "+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "=", "+=", "-=",
    ".", ",", ":", "(", ")", "[", "]", "{", "}", "$", "'", '"', "'a'", '"b c"', "#", "\\", "\n", "\t",
]  # fmt: skip
KEYWORDS = [
    "and", "or", "not", "in", "if", "else", "for", "gain", "pay", "set", "place", "grant", "at", "to", "from",
    "with", "as", "times", "by", "free", "optional", "roll", "move", "card", "draw", "remove", "replace",
    "transfer", "lose", "let", "add", "perform", "log", "win", "end", "game", "turn", "none", "true", "false",
]  # fmt: skip
TOKENS = st.sampled_from(NAMES + NUMBERS + OPERATORS + KEYWORDS)
TOKEN_TEXT = st.lists(TOKENS, max_size=14).flatmap(
    lambda tokens: st.lists(st.sampled_from(["", " "]), min_size=len(tokens), max_size=len(tokens)).map(
        lambda gaps: "".join(gap + token for gap, token in zip(gaps, tokens, strict=True))
    )
)


def parses_or_fails_inside(text: str, start: str) -> None:
    """Parse `text`; a failure must be our ExprSyntaxError at an offset inside the text."""
    try:
        parse(text, start=start)
    except ExprSyntaxError as err:
        assert isinstance(err.offset, int), repr(err.offset)
        assert 0 <= err.offset <= len(text), f"offset {err.offset} outside {text!r}"


@pytest.mark.parametrize("start", START_RULES)
@settings(deadline=None, max_examples=300)
@given(text=st.text())
def test_any_text_parses_or_raises_a_syntax_error_inside_it(start, text):
    parses_or_fails_inside(text, start)


@pytest.mark.parametrize("start", START_RULES)
@settings(deadline=None, max_examples=500)
@given(text=TOKEN_TEXT)
def test_any_string_of_grammar_tokens_parses_or_raises_a_syntax_error_inside_it(start, text):
    parses_or_fails_inside(text, start)


# --------------------------------------------------------------------------- corrupted rule files


def expression_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) character ranges of every string value in a YAML text, inside any quotes or header."""
    spans = []

    def walk(node: yaml.Node) -> None:
        if isinstance(node, yaml.MappingNode):
            for _, value in node.value:
                walk(value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item)
        elif isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:str" and node.value:
            start, end = node.start_mark.index, node.end_mark.index
            if node.style in ("'", '"'):
                start, end = start + 1, end - 1
            elif node.style in (">", "|"):
                start = text.index("\n", start) + 1
            if start < end:
                spans.append((start, end))

    walk(yaml.compose(text))
    return spans


INSERTED = st.sampled_from(list("()[]{}.,:'\"+-*/<>=!_ $#xz09") + ["\n"])
FILE_FUZZ = settings(
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def corrupted_copy(game_file, tmp_path, data):
    """Write the rule file with one character deleted from or inserted into one of its strings."""
    text = game_file.read_text(encoding="utf-8")
    start, end = data.draw(st.sampled_from(expression_spans(text)), label="expression")
    at = data.draw(st.integers(min_value=start, max_value=end - 1), label="position")
    if data.draw(st.booleans(), label="delete"):
        mutated = text[:at] + text[at + 1 :]
    else:
        mutated = text[:at] + data.draw(INSERTED, label="inserted") + text[at:]
    path = tmp_path / game_file.name
    path.write_text(mutated, encoding="utf-8")
    return path, mutated


@FILE_FUZZ
@given(data=st.data())
def test_checking_a_rule_file_with_a_corrupted_expression_returns_diagnostics_and_never_raises(
    game_file, tmp_path, data
):
    path, _ = corrupted_copy(game_file, tmp_path, data)

    diagnostics = meeple.check(path)

    assert isinstance(diagnostics, list)
    assert all(isinstance(d, Diagnostic) for d in diagnostics), diagnostics


@settings(FILE_FUZZ, max_examples=25)
@given(data=st.data())
def test_every_diagnostic_of_a_corrupted_rule_file_points_at_a_line_of_it(game_file, tmp_path, data):
    path, mutated = corrupted_copy(game_file, tmp_path, data)
    lines = len(mutated.splitlines())

    for d in meeple.check(path):
        assert d.span is not None, d.headline()
        assert 1 <= d.span.line <= lines, d.headline()
