"""`meeple check --format junit`: JUnit XML with one test suite, a test case per file and per batch of
random playouts, failures carrying the located diagnostics."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from meeple.tools import simulate
from meeple.tools.cli import main

GAME_FILE = Path(__file__).resolve().parents[2] / "games" / "climbers_of_verdon.yaml"


def junit(args: list[str], capsys: pytest.CaptureFixture[str], code: int) -> ET.Element:
    assert main(["check", *args, "--format", "junit"]) == code
    return ET.fromstring(capsys.readouterr().out)


def cases(root: ET.Element) -> dict[tuple[str, str], ET.Element]:
    return {(c.get("classname", ""), c.get("name", "")): c for c in root.iter("testcase")}


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.yaml"
    text = GAME_FILE.read_text(encoding="utf-8").replace("cost: 1 rope + 1 bolt", "cost: 1 ropez + 1 bolt")
    path.write_text(text, encoding="utf-8")
    return path


def test_a_clean_file_is_one_suite_with_a_case_for_the_check_and_each_batch_of_playouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = junit([str(GAME_FILE), "--playouts", "12", "--no-warn"], capsys, 0)
    [suite] = root.findall("testsuite")
    assert suite.get("tests") == "3" and suite.get("failures") == "0" and suite.get("skipped") == "0"
    assert list(cases(root)) == [
        (str(GAME_FILE), "check"),
        (str(GAME_FILE), "playouts[1-10]"),
        (str(GAME_FILE), "playouts[11-12]"),
    ]
    assert all(c.find("failure") is None and float(c.get("time", "-1")) >= 0 for c in root.iter("testcase"))


def test_a_broken_file_fails_its_check_case_with_the_located_error_and_skips_its_playouts(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = junit([str(broken), str(GAME_FILE), "--playouts", "1", "--no-warn"], capsys, 1)
    [suite] = root.findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("4", "1", "1")
    by_name = cases(root)
    failure = by_name[(str(broken), "check")].find("failure")
    assert failure is not None and failure.get("type") == "name/unknown-resource"
    line = next(i for i, t in enumerate(broken.read_text().splitlines(), 1) if "ropez" in t)
    headline = rf"{re.escape(str(broken))}:{line}:\d+: error\[name/unknown-resource\]"
    assert re.match(headline, failure.text or "")
    assert "^" in (failure.text or "")  # the source line and a caret follow the headline
    assert by_name[(str(broken), "playouts[1]")].find("skipped") is not None
    assert by_name[(str(GAME_FILE), "check")].find("failure") is None


def test_a_crashing_playout_fails_its_batch_case(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def crash(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(simulate, "play_game", crash)
    root = junit([str(GAME_FILE), "--playouts", "2"], capsys, 1)
    by_name = cases(root)
    assert by_name[(str(GAME_FILE), "check")].find("failure") is None
    failure = by_name[(str(GAME_FILE), "playouts[1-2]")].find("failure")
    assert failure is not None and failure.get("type") == "playout/crash"
    assert "ZeroDivisionError" in (failure.text or "") and "1 more of 2" in (failure.text or "")


def test_warnings_are_the_standard_output_of_the_check_case_not_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "orphan.yaml"
    path.write_text(
        "game: {name: Tiny, players: {min: 2, max: 2}}\nactions:\n  earn: {}\n  orphan: {}\n"
        "flow:\n  - phase: play\n    do: [{choose: [earn]}]\n",
        encoding="utf-8",
    )
    root = junit([str(path)], capsys, 0)
    case = cases(root)[(str(path), "check")]
    assert case.find("failure") is None
    assert "warning[lint/action-never-offered]" in (case.findtext("system-out") or "")
