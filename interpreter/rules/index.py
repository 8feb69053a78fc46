"""Where each value of a loaded rules document is written: positions inside scalars and the path index."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from yaml.scanner import Scanner

from ..errors import SourceSpan

PathKey = str | int
NodePath = tuple[PathKey, ...]
Position = tuple[int, int]  # 0-based line and column

# --------------------------------------------------------------------------- positions inside scalars


class _Tok(NamedTuple):
    text: str  # the characters this token contributes to the value
    line: int
    col: int
    width: int  # source characters consumed
    raw: bool  # a literal source character, not an escape


@dataclass
class _Line:
    toks: list[_Tok]
    start: Position
    escaped_break: bool = False

    @property
    def end(self) -> Position:
        if not self.toks:
            return self.start
        last = self.toks[-1]
        return (last.line, last.col + last.width)

    def strip(self, left: bool, right: bool) -> None:
        while left and self.toks and self.toks[0].raw and self.toks[0].text in " \t":
            self.toks.pop(0)
        while right and self.toks and self.toks[-1].raw and self.toks[-1].text in " \t":
            self.toks.pop()


def _escape(seg: str, i: int) -> tuple[int, str]:
    """Width and text of the double-quoted escape at seg[i]; width 0 means an escaped line break."""
    if i + 1 >= len(seg):
        return 0, ""
    char = seg[i + 1]
    if char in Scanner.ESCAPE_REPLACEMENTS:
        return 2, Scanner.ESCAPE_REPLACEMENTS[char]
    digits = Scanner.ESCAPE_CODES.get(char)
    if digits is None:
        return 2, char
    try:
        return 2 + digits, chr(int(seg[i + 2 : i + 2 + digits], 16))
    except ValueError:
        return 2 + digits, "?"


def _tokens(style: str | None, seg: str, line: int, col: int) -> _Line:
    out = _Line([], (line, col))
    i = 0
    while i < len(seg):
        if style == "'" and seg.startswith("''", i):
            out.toks.append(_Tok("'", line, col + i, 2, False))
            i += 2
        elif style == '"' and seg[i] == "\\":
            width, text = _escape(seg, i)
            if width == 0:
                out.escaped_break = True
                break
            out.toks.append(_Tok(text, line, col + i, width, False))
            i += width
        else:
            out.toks.append(_Tok(seg[i], line, col + i, 1, True))
            i += 1
    return out


@dataclass
class _Scalar:
    """A scalar's source placement: enough to map a character of its value back into the file."""

    lines: list[str]
    style: str | None
    start: Position
    end: Position
    value: str
    _table: tuple[str, list[Position]] | None = field(default=None, repr=False)

    def position(self, offset: int) -> Position:
        """0-based line and column of value character `offset` (len(value) gives the end)."""
        built, where = self._table or self._build()
        offset = max(0, min(offset, len(self.value)))
        good = next((i for i, (a, b) in enumerate(zip(built, self.value, strict=False)) if a != b), None)
        good = min(len(built), len(self.value)) if good is None else good
        if offset <= good and offset < len(where):
            return where[offset]
        line, col = where[min(good, len(where) - 1)]
        return (line, col + offset - good)

    def _build(self) -> tuple[str, list[Position]]:
        lines, seps = self._block_lines() if self.style in ("|", ">") else self._flow_lines()
        text: list[str] = []
        where: list[Position] = []
        prev: Position | None = None
        for line, sep in zip(lines, seps, strict=True):
            text.append(sep)
            where.extend([prev or line.start] * len(sep))
            for tok in line.toks:
                text.append(tok.text)
                where.extend([(tok.line, tok.col)] * len(tok.text))
            prev = line.end
        quote = 0 if self.style is None else 1
        where.append(prev or (self.start[0], self.start[1] + quote))
        self._table = ("".join(text), where)
        return self._table

    def _flow_lines(self) -> tuple[list[_Line], list[str]]:
        quote = 0 if self.style is None else 1
        (first, first_col), (last, last_col) = self.start, self.end
        raw_lines = []
        for number in range(first, last + 1):
            raw = self.lines[number] if number < len(self.lines) else ""
            lo = first_col + quote if number == first else 0
            hi = last_col - quote if number == last else len(raw)
            raw_lines.append(_tokens(self.style, raw[lo:hi], number, lo))
        for i, line in enumerate(raw_lines):
            line.strip(left=i > 0, right=i < len(raw_lines) - 1 and not line.escaped_break)
        lines, seps, blanks = raw_lines[:1], [""], 0
        for line in raw_lines[1:]:
            if not line.toks and not line.escaped_break:
                blanks += 1
                continue
            joined = lines[-1].escaped_break
            seps.append("\n" * blanks if joined or blanks else " ")
            lines.append(line)
            blanks = 0
        return lines, seps

    def _block_lines(self) -> tuple[list[_Line], list[str]]:
        first = self.start[0] + 1
        raws = self.lines[first : self.end[0] + 1]
        source_first = next((r for r in raws if r.strip(" ")), None)
        value_first = next((v for v in self.value.split("\n") if v.strip(" ")), None)
        if source_first is None or value_first is None:
            return [], []
        indent = _lead(source_first) - _lead(value_first)
        lines: list[_Line] = []
        seps: list[str] = []
        blanks = 0
        for number, raw in enumerate(raws, start=first):
            if raw.strip(" ") and _lead(raw) < indent:
                break
            line = _tokens(None, raw[indent:], number, indent)
            if not line.toks:
                blanks += 1
                continue
            seps.append(self._block_sep(lines[-1] if lines else None, line, blanks))
            lines.append(line)
            blanks = 0
        return lines, seps

    def _block_sep(self, prev: _Line | None, line: _Line, blanks: int) -> str:
        if prev is None:
            return "\n" * blanks
        if self.style == ">" and prev.toks[0].text not in " \t" and line.toks[0].text not in " \t":
            return "\n" * blanks if blanks else " "
        return "\n" * (blanks + 1)


def _lead(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


# --------------------------------------------------------------------------- the index


@dataclass
class _Entry:
    value: SourceSpan | None = None
    key: SourceSpan | None = None
    scalar: _Scalar | None = None


def _walk(value: Any, path: NodePath) -> Iterator[NodePath]:
    """Every path inside `value`, `path` itself first."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _walk(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _walk(child, (*path, i))


@dataclass
class SourceIndex:
    """Maps paths (mapping keys and sequence indices from the root) to where their keys and values are."""

    file: str = "<string>"
    entries: dict[NodePath, _Entry] = field(default_factory=dict)

    def value_span(self, path: Sequence[PathKey]) -> SourceSpan | None:
        """Where the value at `path` is written."""
        entry = self.entries.get(tuple(path))
        return entry.value if entry else None

    def key_span(self, path: Sequence[PathKey]) -> SourceSpan | None:
        """Where the mapping key naming the last element of `path` is written."""
        entry = self.entries.get(tuple(path))
        return entry.key if entry else None

    def nearest_span(self, path: Sequence[PathKey]) -> SourceSpan:
        """The value span of `path` or of its closest known ancestor; the file's start as a last resort."""
        path = tuple(path)
        for size in range(len(path), -1, -1):
            span = self.value_span(path[:size])
            if span is not None:
                return span
        return SourceSpan(self.file, 1, 1)

    def locate(self, path: Sequence[PathKey], offset: int, end: int | None = None) -> SourceSpan:
        """Where character `offset` of the scalar at `path` is in the file; with `end`, the span up to it."""
        entry = self.entries.get(tuple(path))
        if entry is None or entry.value is None:
            return self.nearest_span(path)
        if entry.scalar is None:
            return SourceSpan(entry.value.file, entry.value.line, entry.value.col + offset)
        line, col = entry.scalar.position(offset)
        if end is None:
            return SourceSpan(entry.value.file, line + 1, col + 1)
        end_line, end_col = entry.scalar.position(end)
        return SourceSpan(entry.value.file, line + 1, col + 1, end_line + 1, end_col + 1)

    def copy_subtree(
        self, other: SourceIndex, path: NodePath, value: Any, to: NodePath | None = None
    ) -> None:
        """Take the entries of `value` (found at `path` in `other`), placed at `to` (default: `path`)."""
        to = path if to is None else to
        for inner in _walk(value, path):
            if inner in other.entries:
                self.entries[to + inner[len(path) :]] = other.entries[inner]

    def drop_subtree(self, path: NodePath, value: Any) -> None:
        """Forget the entries of `value` (found at `path`)."""
        for inner in _walk(value, path):
            self.entries.pop(inner, None)

    def drop_item(self, path: NodePath, items: list[Any], i: int) -> None:
        """Forget item `i` of the list `items` at `path` and move the entries of the items after it up one."""
        self.drop_subtree((*path, i), items[i])
        for j in range(i + 1, len(items)):
            old = (*path, j)
            for inner in list(_walk(items[j], old)):
                if inner in self.entries:
                    self.entries[(*path, j - 1, *inner[len(old) :])] = self.entries.pop(inner)
