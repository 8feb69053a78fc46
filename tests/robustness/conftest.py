"""The robustness suite prints how many mutated rule files it checked (tests/robustness/rule_mutants.py)."""

from __future__ import annotations

import sys

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    mutants = sys.modules.get("rule_mutants")
    if mutants is None or not mutants.TRIED:
        return
    tried, must, played = mutants.TRIED, mutants.MUST_FAIL, mutants.PLAYED
    terminalreporter.section("rule-file mutants")
    terminalreporter.write_line(
        f"{sum(tried.values())} mutants checked, {sum(must.values())} of them broken by an oracle's word "
        f"(all reported as errors), {sum(played.values())} clean ones also played"
    )
    for kind in sorted(tried):
        terminalreporter.write_line(
            f"  {kind:<18} {tried[kind]:>6} checked {must[kind]:>6} broken {played[kind]:>5} played"
        )
