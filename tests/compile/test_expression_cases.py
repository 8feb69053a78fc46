"""Expression cases as data (tests/cases/expressions.yaml) run through the parser and the compiler."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from meeple.compile.expressions import ExprCompiler
from meeple.compile.symbols import Sink, Symbols
from meeple.rules.loader import load_text
from meeple.values import Bundle

CASES = yaml.safe_load((Path(__file__).parents[1] / "cases" / "expressions.yaml").read_text())


def compile_one(text: str) -> tuple[Any, Sink]:
    quoted = text.replace("'", "''")
    data, index = load_text(f"expr: '{quoted}'\n", "case.yaml")
    sym = Symbols(resources=["rope", "nut", "chalk"])
    sink = Sink(index)
    ex = ExprCompiler(sym, sink, {})
    sym.tables["cost"] = {"a": Bundle({"rope": 2}), "b": Bundle({"nut": 1, "chalk": 1})}
    fn = ex.compile(data["expr"], ("expr",), {"x": None})
    return fn, sink


def expected(value: Any) -> Any:
    if isinstance(value, dict):
        return Bundle(value)
    return value


@pytest.mark.parametrize("case", [c for c in CASES if "value" in c], ids=lambda c: c["expr"])
def test_expression_evaluates_to_its_expected_value(case: dict[str, Any]) -> None:
    fn, sink = compile_one(case["expr"])
    assert sink.diagnostics == []
    result = fn(None, {"x": 3})
    if isinstance(result, tuple):
        result = list(result)
    assert result == expected(case["value"])


@pytest.mark.parametrize("case", [c for c in CASES if "error" in c], ids=lambda c: c["expr"])
def test_bad_expression_reports_its_error_category_at_the_column(case: dict[str, Any]) -> None:
    _, sink = compile_one(case["expr"])
    assert [d.code for d in sink.diagnostics][:1] == [case["error"]]
    span = sink.diagnostics[0].span
    # the YAML line is `expr: '<text>'`: the text starts at column 8
    assert span is not None and span.col - 7 == case["col"]
