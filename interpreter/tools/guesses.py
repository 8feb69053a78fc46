"""The guesses of a rule file: its `guess:` entries, each with where it is written and the rule it qualifies,
listed by `meeple check --guesses`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from meeple.errors import SourceSpan
from meeple.rules.loader import LoadedRules, NodePath, SourceIndex


@dataclass(frozen=True)
class Guess:
    """One `guess:` entry: its text, the path of the rule it qualifies and where it is written."""

    text: str
    path: NodePath
    span: SourceSpan | None

    @property
    def qualifies(self) -> str:
        """The rule as a dotted path (`game.players`, `flow[1].do[0]`); the whole file at the top."""
        text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path).lstrip(".")
        return text or "(the whole file)"

    def headline(self) -> str:
        where = f"{self.span.file}:{self.span.line}:{self.span.col}: " if self.span else ""
        return f"{where}guess[{self.qualifies}]: {self.text}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.span.file if self.span else None,
            "line": self.span.line if self.span else None,
            "col": self.span.col if self.span else None,
            "path": self.qualifies,
            "text": self.text,
        }


def find_guesses(rules: LoadedRules) -> list[Guess]:
    """Every guess of a merged rule file (its bases' too), in file order."""
    index = rules.index
    found = [Guess(" ".join(text.split()), path, _where(index, path)) for path, text in _walk(rules.data)]
    return sorted(found, key=lambda g: (g.span.file, g.span.line, g.span.col) if g.span else ("", 0, 0))


def _where(index: SourceIndex, path: NodePath) -> SourceSpan | None:
    return index.key_span((*path, "guess")) or index.value_span((*path, "guess"))


def _walk(value: Any, path: NodePath = ()) -> Iterator[tuple[NodePath, Any]]:
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, (*path, i))
        return
    if not isinstance(value, dict):
        return
    if "guess" in value and not _named(path) and isinstance(value["guess"], str):
        yield path, value["guess"]
    for key, child in value.items():
        if key != "guess":
            yield from _walk(child, (*path, key))


def _named(path: NodePath) -> bool:
    """Whether the mapping at `path` is keyed by names a designer chose (variables, card fields, a piece's
    changeable fields, a graph space's fields), where `guess` would be a name rather than a note."""
    if path[:1] == ("vars",) and len(path) == 2 or path == ("components", "card_fields"):
        return True
    if len(path) == 4 and path[:2] == ("components", "pieces") and path[3] == "fields":
        return True
    if path[:2] == ("board", "graph"):
        return len(path) == 4 and path[2] == "spaces"
    return path[:2] == ("board", "graphs") and len(path) == 5 and path[3] == "spaces"


__all__ = ["Guess", "find_guesses"]
