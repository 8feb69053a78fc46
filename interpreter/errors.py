"""Source spans, diagnostics with a caret renderer, the user-error family and internal errors."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

_GITHUB_LEVELS = {"error": "error", "warning": "warning"}


@dataclass(frozen=True)
class SourceSpan:
    """A place in a source file: 1-based line and column; the end column is one past the last character."""

    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None

    def caret_width(self) -> int:
        """How many carets mark this span on its first line (at least one)."""
        if self.end_line != self.line or self.end_col is None:
            return 1
        return max(1, self.end_col - self.col)


@dataclass(frozen=True)
class Diagnostic:
    """One user-facing problem: a stable namespaced code, a message, where it is and an optional hint."""

    code: str
    message: str
    span: SourceSpan | None = None
    hint: str | None = None
    severity: str = "error"
    notes: tuple[str, ...] = ()  # more context, e.g. the variant's line that broke a base's line

    def headline(self) -> str:
        """The one-line form: `path:line:col: error[code]: message (hint)`."""
        text = f"{self.severity}[{self.code}]: {self.message}"
        if self.span is not None:
            text = f"{self.span.file}:{self.span.line}:{self.span.col}: {text}"
        if self.hint:
            text += f" ({self.hint})"
        return text

    def format(self, source: str | None = None) -> str:
        """The one-line form, followed by the offending source line and a caret when `source` is given."""
        text = self.headline()
        notes = "".join(f"\n  note: {note}" for note in self.notes)
        if source is None or self.span is None:
            return text + notes
        lines = source.splitlines()
        if not 1 <= self.span.line <= len(lines):
            return text + notes
        line = lines[self.span.line - 1]
        # Keep tabs so the caret lines up with the source line as a terminal shows it.
        lead = "".join("\t" if ch == "\t" else " " for ch in line[: self.span.col - 1])
        lead += " " * max(0, self.span.col - 1 - len(line))
        return f"{text}\n{line}\n{lead}{'^' * self.span.caret_width()}{notes}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record; position fields are None when the problem has no place."""
        span = self.span
        return {
            "code": self.code,
            "message": self.message,
            "severity": self.severity,
            "file": span.file if span else None,
            "line": span.line if span else None,
            "col": span.col if span else None,
            "end_line": span.end_line if span else None,
            "end_col": span.end_col if span else None,
            "hint": self.hint,
            "notes": list(self.notes),
        }

    def format_github(self) -> str:
        """A GitHub Actions workflow annotation: `::error file=F,line=L,col=C,title=code::message`."""
        level = _GITHUB_LEVELS.get(self.severity, "notice")
        props = []
        if self.span is not None:
            props += [
                f"file={_gh_property(self.span.file)}",
                f"line={self.span.line}",
                f"col={self.span.col}",
            ]
        props.append(f"title={_gh_property(self.code)}")
        message = self.message + (f" ({self.hint})" if self.hint else "")
        message += "".join(f"\nnote: {note}" for note in self.notes)
        return f"::{level} {','.join(props)}::{_gh_data(message)}"


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


class MeepleError(Exception):
    """Base of every error this package raises on purpose."""


class RulesError(MeepleError):
    """A rules file is wrong; holds every diagnostic found, and optionally the source texts by file name."""

    def __init__(self, diagnostics: Iterable[Diagnostic], sources: Mapping[str, str] | None = None) -> None:
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        self.sources: dict[str, str] = dict(sources or {})
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)

    def render(self, sources: Mapping[str, str] | None = None) -> str:
        """Every diagnostic with its source line and caret, looking files up in `sources` (or our own)."""
        texts = {**self.sources, **(sources or {})}
        return "\n".join(d.format(texts.get(d.span.file) if d.span else None) for d in self.diagnostics)


class RuleRuntimeError(MeepleError):
    """A rule that failed while running (a type mismatch a static check could not see).

    `span` is where the failing rule is written and `rule` its path in the file (`actions.trade.when`),
    filled in by the innermost compiled rule the error passes through.
    """

    def __init__(self, message: str, span: SourceSpan | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.rule = rule


class InternalError(MeepleError):
    """A bug in meeple itself, never a problem in the user's rules."""


class IllegalActionError(MeepleError):
    """An action was applied that is not legal now; the message names it and what was legal."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate to a misspelt `name`, or None when nothing is close."""
    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None
