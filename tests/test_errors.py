"""Diagnostics render as one line with an optional caret, as JSON and as GitHub annotations."""

from __future__ import annotations

import pytest

from meeple.errors import (
    Diagnostic,
    IllegalActionError,
    InternalError,
    MeepleError,
    RulesError,
    SourceSpan,
    did_you_mean,
)

SOURCE = "resources:\n  ropes: 3\ncost: {ropez: 1}\n"
UNKNOWN = Diagnostic(
    "name/unknown-resource",
    "unknown resource 'ropez'",
    SourceSpan("games/x.yaml", 3, 8, 3, 13),
    "did you mean 'ropes'?",
)


def test_format_gives_path_line_column_severity_code_message_and_hint() -> None:
    assert UNKNOWN.format() == (
        "games/x.yaml:3:8: error[name/unknown-resource]: unknown resource 'ropez' (did you mean 'ropes'?)"
    )


def test_format_leaves_out_the_parentheses_when_there_is_no_hint() -> None:
    diagnostic = Diagnostic("yaml/syntax", "bad", SourceSpan("a.yaml", 1, 2), severity="warning")
    assert diagnostic.format() == "a.yaml:1:2: warning[yaml/syntax]: bad"


def test_format_without_a_span_leaves_out_the_position() -> None:
    assert (
        Diagnostic("io/not-found", "no rules named 'k3'").format()
        == "error[io/not-found]: no rules named 'k3'"
    )


def test_format_with_source_underlines_a_one_line_span_with_carets() -> None:
    lines = UNKNOWN.format(SOURCE).splitlines()
    assert lines[1:] == ["cost: {ropez: 1}", "       ^^^^^"]


def test_format_with_source_marks_a_multi_line_span_with_one_caret() -> None:
    diagnostic = Diagnostic("schema/required", "missing", SourceSpan("x.yaml", 1, 1, 3, 1))
    assert diagnostic.format(SOURCE).splitlines()[1:] == ["resources:", "^"]


def test_format_keeps_tabs_before_the_caret_so_it_lines_up() -> None:
    diagnostic = Diagnostic("syntax/x", "m", SourceSpan("x", 1, 3))
    assert diagnostic.format("\tab c\n").splitlines()[2] == "\t ^"


def test_format_skips_the_source_line_when_the_line_is_out_of_range() -> None:
    diagnostic = Diagnostic("syntax/x", "m", SourceSpan("x", 9, 1))
    assert diagnostic.format(SOURCE) == diagnostic.format()


def test_to_dict_carries_every_field_for_json_output() -> None:
    assert UNKNOWN.to_dict() == {
        "code": "name/unknown-resource",
        "message": "unknown resource 'ropez'",
        "severity": "error",
        "file": "games/x.yaml",
        "line": 3,
        "col": 8,
        "end_line": 3,
        "end_col": 13,
        "hint": "did you mean 'ropes'?",
        "notes": [],
    }


def test_notes_follow_the_caret_and_go_into_json_and_github_output() -> None:
    noted = Diagnostic("name/x", "m", SourceSpan("x", 1, 1), notes=("v.yaml:4: the variant removes a",))
    assert noted.format("abc\n").splitlines() == [
        "x:1:1: error[name/x]: m",
        "abc",
        "^",
        "  note: v.yaml:4: the variant removes a",
    ]
    assert noted.format().splitlines()[-1] == "  note: v.yaml:4: the variant removes a"
    assert noted.to_dict()["notes"] == ["v.yaml:4: the variant removes a"]
    assert noted.format_github().endswith("::m%0Anote: v.yaml:4: the variant removes a")


def test_to_dict_without_a_span_has_empty_positions() -> None:
    record = Diagnostic("io/not-found", "gone").to_dict()
    assert (record["file"], record["line"], record["col"]) == (None, None, None)


def test_format_github_gives_a_workflow_annotation() -> None:
    diagnostic = Diagnostic("schema/type", "expected integer, got string 'x'", SourceSpan("g.yaml", 4, 9))
    assert diagnostic.format_github() == (
        "::error file=g.yaml,line=4,col=9,title=schema/type::expected integer, got string 'x'"
    )


def test_format_github_escapes_newlines_in_the_message_and_commas_in_properties() -> None:
    diagnostic = Diagnostic("yaml/syntax", "a\nb", SourceSpan("a,b.yaml", 1, 1))
    assert diagnostic.format_github() == "::error file=a%2Cb.yaml,line=1,col=1,title=yaml/syntax::a%0Ab"


def test_rules_error_str_is_every_diagnostic_one_per_line() -> None:
    other = Diagnostic("yaml/syntax", "bad", SourceSpan("x.yaml", 1, 1))
    error = RulesError([UNKNOWN, other])
    assert str(error).splitlines() == [UNKNOWN.format(), other.format()]
    assert error.diagnostics == [UNKNOWN, other]


def test_rules_error_render_shows_source_lines_from_the_sources_it_holds() -> None:
    error = RulesError([UNKNOWN], {"games/x.yaml": SOURCE})
    assert error.render() == UNKNOWN.format(SOURCE)


def test_rules_error_is_a_meeple_error() -> None:
    with pytest.raises(MeepleError):
        raise RulesError([UNKNOWN])


def test_internal_errors_are_not_rules_errors() -> None:
    assert issubclass(InternalError, MeepleError)
    assert not issubclass(InternalError, RulesError)


def test_illegal_action_error_keeps_its_message() -> None:
    error = IllegalActionError("'build_rope' is not legal now; legal: pass, trade")
    assert error.message == str(error) == "'build_rope' is not legal now; legal: pass, trade"


def test_did_you_mean_names_the_closest_candidate() -> None:
    assert did_you_mean("ropez", ["wood", "ropes", "stone"]) == "did you mean 'ropes'?"


def test_did_you_mean_gives_nothing_when_no_candidate_is_close() -> None:
    assert did_you_mean("xyz", ["wood", "ropes"]) is None
