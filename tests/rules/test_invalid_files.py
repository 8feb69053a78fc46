"""Broken rule files in tests/invalid/: `meeple.check` reports exactly what `<name>.expected` lists.

Each `<name>.expected` lists one diagnostic per line as `code line:col` (1-based; for a mistake inside an
expression string, the column of the offending character inside the YAML string). Message wording is
never compared.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple

INVALID = Path(__file__).resolve().parents[1] / "invalid"

# Fixtures whose .expected says what check should report but check does not report yet. Each is a strict
# xfail: once the bug is fixed the test passes unexpectedly and fails, so remove its entry here.
KNOWN_BUGS: dict[str, str] = {}

Place = tuple[str, int, int]


def expected_places(path: Path) -> list[Place]:
    places = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        code, position = line.split()
        row, col = position.split(":")
        places.append((code, int(row), int(col)))
    return places


def reported_places(path: Path) -> list[Place]:
    return [(d.code, d.span.line, d.span.col) if d.span else (d.code, 0, 0) for d in meeple.check(path)]


def cases() -> list[object]:
    params = []
    for path in sorted(INVALID.glob("*.yaml")):
        bug = KNOWN_BUGS.get(path.stem)
        marks = [pytest.mark.xfail(reason=bug, strict=True)] if bug else []
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


@pytest.mark.parametrize("path", cases())
def test_check_reports_exactly_the_expected_codes_and_places(path: Path) -> None:
    assert reported_places(path) == expected_places(path.with_suffix(".expected"))


def test_every_broken_file_has_an_expected_file_and_every_expected_file_a_broken_file() -> None:
    yamls = {p.stem for p in INVALID.glob("*.yaml")}
    expected = {p.stem for p in INVALID.glob("*.expected")}
    assert yamls == expected
    assert len(yamls) >= 10


def test_every_expected_file_lists_at_least_one_diagnostic() -> None:
    empty = [p.name for p in sorted(INVALID.glob("*.expected")) if not expected_places(p)]
    assert empty == []
