"""A rule file cut into its top-level sections, so that an edited file composes only the sections it changed.

A rule file is a mapping whose keys (`game:`, `board:`, `actions:` ...) start at column 0, each followed by
its value on lines indented past it, comments and blank lines. `split` cuts the text before each such key;
each piece is then a YAML document of its own, composed and kept apart (`loader.load_text`).

Composing the pieces gives what composing the whole text gives only when the pieces are independent, so
`split` refuses (returns None) any text where that is not plain from the lines alone: a line at column 0
that is not a plain key (a `---`, a `- item`, a `%` directive, a flow or quoted value carried on at column
0), or a line break PyYAML counts where Python does not. The loader refuses further cases once the pieces
are composed: a piece that is not a mapping of one key, a YAML error, an anchor, a key written twice. A
refused text is composed whole, so every error and every value is the one the whole text gives.
"""

from __future__ import annotations

import re

from ..errors import SourceSpan
from .index import NodePath, SourceIndex, _Entry, _Scalar

_KEY_LINE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*:(?:[ \t\r]|$)")
# Line breaks to YAML (\r alone, NEL, LS, PS) or to str.splitlines (\v, \f, \x1c-\x1e) but not to split()
_OTHER_BREAKS = re.compile("\r(?!\n)|[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def split(text: str) -> list[tuple[int, str]] | None:
    """The sections of `text` as (0-based first line, text); None when the text cannot be cut safely.

    The comments and blank lines before the first key belong to the first section, so the sections'
    texts joined are the whole text.
    """
    if _OTHER_BREAKS.search(text):
        return None
    lines = text.split("\n")
    starts = []
    for number, line in enumerate(lines):
        if not line or line[0] in " \t#\r":
            continue
        if not _KEY_LINE.match(line):
            return None
        starts.append(number)
    if len(starts) < 2:
        return None
    starts[0] = 0
    bounds = [*starts, len(lines)]
    return [(a, "\n".join(lines[a:b]) + ("\n" if b < len(lines) else "")) for a, b in zip(bounds, bounds[1:])]


def shifted(index: SourceIndex, lines: int, file_lines: list[str]) -> dict[NodePath, _Entry]:
    """The entries of a section's index moved down `lines` lines, their scalars reading `file_lines`."""
    return {path: _moved(entry, lines, file_lines) for path, entry in index.entries.items()}


def _moved(entry: _Entry, lines: int, file_lines: list[str]) -> _Entry:
    scalar = entry.scalar
    if scalar is not None:
        (a, b), (c, d) = scalar.start, scalar.end
        scalar = _Scalar(file_lines, scalar.style, (a + lines, b), (c + lines, d), scalar.value)
    return _Entry(_down(entry.value, lines), _down(entry.key, lines), scalar)


def _down(span: SourceSpan | None, lines: int) -> SourceSpan | None:
    if span is None or not lines:
        return span
    end_line = None if span.end_line is None else span.end_line + lines
    return SourceSpan(span.file, span.line + lines, span.col, end_line, span.end_col)
