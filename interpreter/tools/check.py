"""Checking rule files, for `meeple check` and the pytest plugin: which files are rules, each file's errors
and warnings, and its random playouts in batches."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

import meeple
from meeple import cache
from meeple.agents import MAX_ACTIONS
from meeple.api import read_rules, search_dirs
from meeple.errors import Diagnostic, RulesError
from meeple.rules.loader import load_rules, safe_loader_for
from meeple.tools.lint import effects_counted, lint, unplayed_cards
from meeple.tools.simulate import play_seeds, summarise_failures

BATCH = 10  # random playouts per batch: a JUnit test case, a pytest item


class PathProblem(Exception):
    """A path or game name that names no rule file; the command line makes it a usage error."""


# ---------------------------------------------------------------- sources and diagnostics


class Sources:
    """Rule file texts by the file name a diagnostic shows, read from disk on first use."""

    def __init__(self, known: dict[str, str] | None = None) -> None:
        self.texts: dict[str, str | None] = dict(known or {})

    def get(self, name: str) -> str | None:
        if name not in self.texts:
            try:
                self.texts[name] = Path(name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                self.texts[name] = None
        return self.texts[name]

    def format(self, d: Diagnostic) -> str:
        """The headline, then the source line and caret where the problem has a real place."""
        if d.span is None or d.code.startswith("playout/"):
            return d.headline()
        return d.format(self.get(d.span.file))


def is_usage(d: Diagnostic) -> bool:
    """A problem with the command line (players, options, an unknown game) rather than in a rule file."""
    return d.code.startswith("usage/") or (d.code.startswith("io/") and d.span is None)


def errors(found: Sequence[Diagnostic]) -> list[Diagnostic]:
    return [d for d in found if d.severity == "error"]


# ---------------------------------------------------------------- which files


def rule_files(paths: Sequence[str]) -> list[str]:
    """Files as given; folders expanded to their *.yaml files, sorted, hidden folders skipped.

    Only `.yaml` is collected from folders: `.yml` there is usually a CI workflow, not a game.
    """
    files: list[str] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*.yaml")
                if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
            if not found:
                raise PathProblem(f"no rule files (*.yaml) in '{given}'")
            files += [str(p) for p in found]
        elif path.is_file() or (not path.suffix and "/" not in given and "\\" not in given):
            files.append(given)  # a file, or the name of a seed game
        else:
            raise PathProblem(f"no such file or folder: '{given}'")
    return files


def is_rule_file(path: Path) -> bool:
    """A YAML mapping with a `game` section or an `extends` base (board data files are not rule files).

    A file that does not read as YAML counts as a rule file, so that its errors are shown, not skipped.
    """
    try:
        text = path.read_text(encoding="utf-8")
        # libyaml's loader where it is safe (ten times quicker): only which files are rule files is decided
        # here, and a rule file is then read as `meeple.rules.loader` reads it
        data = yaml.load(text, Loader=safe_loader_for(text))  # noqa: S506 - a safe loader
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError):
        return True
    return isinstance(data, dict) and ("game" in data or "extends" in data)


# ---------------------------------------------------------------- one file


def check_rules(
    path: str, players: int | None = None, warn: bool = True, options: dict[str, str] | None = None
) -> list[Diagnostic]:
    """Every error of a rule file, then (when it has none and `warn`) its semantic warnings."""
    with cache.kept_for(path):  # the check and the warnings read the file once, and keep what they find
        return _check_rules(path, players, warn, options)


def _check_rules(
    path: str, players: int | None, warn: bool, options: dict[str, str] | None
) -> list[Diagnostic]:
    found = meeple.check(path, players=players, options=options)
    if len(found) == 1 and is_usage(found[0]) and found[0].code.startswith("io/"):
        raise PathProblem(found[0].message + (f" ({found[0].hint})" if found[0].hint else ""))
    usage = [d for d in found if is_usage(d)]
    if usage:  # a bad -o value or player count: a usage error, whatever else the file holds
        raise RulesError(usage)
    if warn and not errors(found):
        try:
            found += lint(load_rules(path, search_dirs()))
        except RulesError as err:  # cannot happen after a clean check; reported rather than hidden
            found += err.diagnostics
    return found


def playout_game(path: str, players: int | None = None, options: dict[str, str] | None = None) -> meeple.Game:
    """The game random playouts are played at: `players`, or else the most the file allows."""
    if players is None:
        spec = (read_rules(path).data.get("game") or {}).get("players") or {}
        players = int(spec["max"]) if "max" in spec else None
    return meeple.load(path, players=players, options=options)


@dataclass(frozen=True)
class Batch:
    """Random playouts from seeds first .. first + count - 1."""

    first: int
    count: int

    @property
    def seeds(self) -> range:
        return range(self.first, self.first + self.count)

    @property
    def name(self) -> str:
        last = self.first + self.count - 1
        return f"playouts[{self.first}]" if self.count == 1 else f"playouts[{self.first}-{last}]"


def batches(n: int, seed: int = 1, size: int = BATCH) -> list[Batch]:
    """`n` playouts from `seed` on, cut into batches of at most `size`."""
    return [Batch(first, min(size, seed + n - first)) for first in range(seed, seed + n, size)]


@dataclass
class Played:
    """One batch of a file's playouts: its failures, or why it was not played."""

    batch: Batch
    problems: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str | None = None


@dataclass
class FileReport:
    """What `meeple check` found in one file: the check's errors and warnings, then the playouts'."""

    path: str
    found: list[Diagnostic]
    seconds: float
    played: list[Played] = field(default_factory=list)
    playout_problems: list[Diagnostic] = field(default_factory=list)  # each failure once, over all batches
    card_warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def everything(self) -> list[Diagnostic]:
        return self.found + self.playout_problems + self.card_warnings


def check_file(
    path: str,
    players: int | None = None,
    playouts: int = 0,
    seed: int = 1,
    max_actions: int = MAX_ACTIONS,
    warn: bool = True,
    progress: bool = False,
    options: dict[str, str] | None = None,
) -> FileReport:
    """Check one file; when it has no errors, also play `playouts` random games of it, batch by batch.
    `options` (as given on the command line) set the game's options; a wrong one is a RulesError of
    usage diagnostics."""
    started = time.perf_counter()
    found = check_rules(path, players, warn, options)
    report = FileReport(path, found, time.perf_counter() - started)
    if errors(found):
        report.played = [Played(b, skipped="the check found errors") for b in batches(playouts, seed)]
    if not playouts or errors(found):
        return report
    game = playout_game(path, players, options)
    outcomes: dict[int, Diagnostic | None] = {}
    with effects_counted(game) as counts:
        for batch in batches(playouts, seed):
            if any(d is not None and d.code == "playout/no-end" for d in outcomes.values()):
                report.played.append(Played(batch, skipped="an earlier game would not end"))
                continue
            started = time.perf_counter()
            played = play_seeds(game, batch.seeds, max_actions, progress, f"{path} {batch.name}")
            outcomes.update(played)
            problems = summarise_failures(game, path, played, batch.count)
            report.played.append(Played(batch, problems, time.perf_counter() - started))
    report.playout_problems = summarise_failures(game, path, outcomes, playouts)
    if warn and not report.playout_problems:  # failed games say nothing about which cards come to play
        report.card_warnings = unplayed_cards(game, counts, len(outcomes))
    return report


__all__ = [
    "BATCH",
    "Batch",
    "FileReport",
    "PathProblem",
    "Played",
    "Sources",
    "batches",
    "check_file",
    "check_rules",
    "errors",
    "is_rule_file",
    "is_usage",
    "playout_game",
    "rule_files",
]
