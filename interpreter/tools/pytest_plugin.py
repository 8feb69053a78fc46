"""A pytest plugin for repositories of rule files, so their CI needs no test code.

`pytest --meeple-rules DIR` (or `meeple_rules = DIR` in the ini file) collects every rule file in DIR as
test items: `check` (every error of the file; its warnings become pytest warnings) and `playouts[A-B]`, a
batch of random games from seeds A..B (`--meeple-playouts N`, default 10, in batches of 10). A failing item
reads as the located diagnostics, `path:line:col: error[code]: message (hint)`, never as a traceback.
Without DIR the plugin collects nothing.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.errors import Diagnostic
from meeple.tools.check import (
    BATCH,
    Batch,
    Sources,
    batches,
    check_rules,
    errors,
    is_rule_file,
    playout_game,
)
from meeple.tools.simulate import play_seeds, summarise_failures

DEFAULT_PLAYOUTS = 10


class RuleWarning(UserWarning):
    """A semantic warning about a rule file (an action no step offers, a resource nothing produces…)."""


class RuleFailure(Exception):
    """The located diagnostics that fail an item."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(d.headline() for d in diagnostics))
        self.diagnostics = diagnostics


# ---------------------------------------------------------------- options


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("meeple", "meeple rule files")
    group.addoption(
        "--meeple-rules",
        action="append",
        default=[],
        metavar="DIR",
        help="collect the rule files in DIR (or the file DIR) as tests; repeatable",
    )
    group.addoption(
        "--meeple-playouts",
        type=int,
        default=None,
        metavar="N",
        help=f"random playouts of each rule file, in batches of {BATCH} (default: {DEFAULT_PLAYOUTS})",
    )
    parser.addini("meeple_rules", type="paths", help="folders (or files) of rule files to collect as tests")
    parser.addini("meeple_playouts", default=str(DEFAULT_PLAYOUTS), help="random playouts of each rule file")


def rule_roots(config: pytest.Config) -> list[Path]:
    """The folders and files of rule files asked for, as absolute paths (none: the plugin is idle)."""
    given = [Path(config.invocation_params.dir, p) for p in config.getoption("meeple_rules") or []]
    return [p.resolve() for p in [*given, *config.getini("meeple_rules")]]


def playouts_wanted(config: pytest.Config) -> int:
    value = config.getoption("meeple_playouts")
    if value is None:
        text = str(config.getini("meeple_playouts")).strip()
        if not text.isdigit():
            raise pytest.UsageError(f"meeple_playouts must be a whole number, not '{text}'")
        value = int(text)
    if value < 0:
        raise pytest.UsageError(f"--meeple-playouts must be 0 or more, not {value}")
    return int(value)


def pytest_configure(config: pytest.Config) -> None:
    """Check the options, and make sure the rule folders are collected even when not named as arguments."""
    roots = rule_roots(config)
    if not roots:
        return
    missing = [str(p) for p in roots if not p.exists()]
    if missing:
        raise pytest.UsageError(f"--meeple-rules: no such folder or file: {', '.join(missing)}")
    playouts_wanted(config)
    here = config.invocation_params.dir
    args = [Path(here, a.split("::")[0]).resolve() for a in config.args]
    for root in roots:
        if not any(_within(root, a) or _within(a, root) for a in args):
            config.args.append(str(root))


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> RuleFile | None:
    if file_path.suffix != ".yaml":
        return None
    roots = rule_roots(parent.config)
    if not any(_within(file_path.resolve(), root) for root in roots) or not is_rule_file(file_path):
        return None
    file: RuleFile = RuleFile.from_parent(parent, path=file_path)
    return file


# ---------------------------------------------------------------- collectors and items


class RuleFile(pytest.File):
    """A rule file: its check, then its batches of random playouts."""

    _found: list[Diagnostic] | None = None
    _game: meeple.Game | None = None

    @property
    def shown(self) -> str:
        """The file as diagnostics name it: relative to where pytest was started, when it is below."""
        here = self.config.invocation_params.dir
        return str(self.path.relative_to(here)) if _within(self.path, here) else str(self.path)

    def collect(self) -> Iterator[pytest.Item]:
        yield CheckItem.from_parent(self, name="check")
        for batch in batches(playouts_wanted(self.config)):
            yield PlayoutItem.from_parent(self, name=batch.name, batch=batch)

    def checked(self) -> list[Diagnostic]:
        """The file's errors and warnings, found once."""
        if self._found is None:
            self._found = check_rules(self.shown)
        return self._found

    def game(self) -> meeple.Game:
        """The game the playouts are played at (its largest player count), compiled once."""
        if self._game is None:
            self._game = playout_game(self.shown)
        return self._game


class RuleItem(pytest.Item):
    """An item whose failure is a list of located diagnostics."""

    @property
    def rule_file(self) -> RuleFile:
        assert isinstance(self.parent, RuleFile)
        return self.parent

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, RuleFailure):
            sources = Sources()
            return "\n".join(sources.format(d) for d in excinfo.value.diagnostics)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.name  # the header of a failure: `check`, `playouts[1-10]`


class CheckItem(RuleItem):
    """Schema, grammar, names and types of one rule file; its semantic warnings as pytest warnings."""

    def runtest(self) -> None:
        found = self.rule_file.checked()
        for d in found:
            if d.severity != "error":
                warnings.warn(RuleWarning(d.headline()), stacklevel=1)
        if errors(found):
            raise RuleFailure(errors(found))


class PlayoutItem(RuleItem):
    """A batch of random games of one rule file; each distinct failure once."""

    def __init__(self, *, batch: Batch, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.batch = batch

    def runtest(self) -> None:
        if errors(self.rule_file.checked()):
            pytest.skip("the check of this file found errors")
        game = self.rule_file.game()
        outcomes = play_seeds(game, self.batch.seeds)
        problems = summarise_failures(game, self.rule_file.shown, outcomes, self.batch.count)
        if problems:
            raise RuleFailure(problems)


__all__ = ["CheckItem", "PlayoutItem", "RuleFailure", "RuleFile", "RuleWarning"]
