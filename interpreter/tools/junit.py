"""`meeple check --format junit`: the reports of one run as JUnit XML, the test report CI systems read.

One test suite per run; in it a test case per file (`check`) and per batch of random playouts; a failure
carries the located diagnostics, warnings go to the check's standard output.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import datetime, timezone

from meeple.errors import Diagnostic
from meeple.tools.check import FileReport, Sources, errors


def junit_xml(reports: Sequence[FileReport], suite: str = "meeple check") -> str:
    """The XML document (with its declaration) of one `meeple check` run."""
    sources = Sources()
    cases = [case for report in reports for case in _cases(report, sources)]
    failures = sum(case.find("failure") is not None for case in cases)
    skipped = sum(case.find("skipped") is not None for case in cases)
    seconds = sum(float(case.get("time", "0")) for case in cases)
    totals = {
        "name": suite,
        "tests": str(len(cases)),
        "failures": str(failures),
        "errors": "0",
        "skipped": str(skipped),
        "time": f"{seconds:.3f}",
    }
    root = ET.Element("testsuites", totals)
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    ET.SubElement(root, "testsuite", {**totals, "timestamp": stamp}).extend(cases)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True)


def _cases(report: FileReport, sources: Sources) -> list[ET.Element]:
    check = _case(report.path, "check", report.seconds)
    _fail(check, errors(report.found), sources)
    warnings = [d for d in report.found + report.card_warnings if d.severity != "error"]
    if warnings:
        ET.SubElement(check, "system-out").text = "\n".join(sources.format(d) for d in warnings) + "\n"
    cases = [check]
    for played in report.played:
        case = _case(report.path, played.batch.name, played.seconds)
        if played.skipped is not None:
            ET.SubElement(case, "skipped", {"message": played.skipped})
        _fail(case, played.problems, sources)
        cases.append(case)
    return cases


def _case(path: str, name: str, seconds: float) -> ET.Element:
    return ET.Element("testcase", {"classname": path, "name": name, "file": path, "time": f"{seconds:.3f}"})


def _fail(case: ET.Element, problems: Sequence[Diagnostic], sources: Sources) -> None:
    if not problems:
        return
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    failure = ET.SubElement(case, "failure", {"message": first.headline() + more, "type": first.code})
    failure.text = "\n".join(sources.format(d) for d in problems) + "\n"


__all__ = ["junit_xml"]
