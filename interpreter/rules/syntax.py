"""Parse expression and statement strings with the Lark grammar into nodes (positions kept).

Lark itself (meeple.rules.lark_parser) is imported when a text is first parsed: a load whose rules are all
found in the cache (`meeple.cache`) does without it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from meeple import cache
from meeple.rules import nodes as n

START_RULES = ("expr", "stmt", "for_clause")
MAX_CHARS = 10_000  # one expression or statement; the seed games' longest is about 230
MAX_DEPTH = 100  # levels of nesting in its parse tree, so every later pass may recurse over it


class ExprSyntaxError(Exception):
    """A string that does not parse; `offset` is the character index inside the string."""

    def __init__(self, message: str, offset: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


def parse(text: str, start: str = "expr") -> n.Node:
    """Parse one string; raise ExprSyntaxError located inside it.

    Nodes are immutable, so a string parsed again (by a later tool, or a second load of the same rules)
    shares the first parse; one a load of the same rule file parsed in an earlier process is read from
    the cache (`meeple.cache`).
    """
    key = f"{start}:{text}"
    node = cache.lookup("parse", key)
    if node is None:
        node = _parse(text, start)
        cache.keep("parse", key, node)
    return node  # type: ignore[no-any-return]


@lru_cache(maxsize=8192)
def _parse(text: str, start: str) -> n.Node:
    if len(text) > MAX_CHARS:
        message = f"the text is too long ({len(text):,} characters, at most {MAX_CHARS:,})"
        raise ExprSyntaxError(message, MAX_CHARS, "split it into defs")
    from meeple.rules.lark_parser import parse_text  # Lark: imported by the first text to parse

    return parse_text(text, start)


def rule_text(value: Any) -> str:
    """A rule as the compiler reads it: YAML may have made a number, a truth value or a list of it."""
    if isinstance(value, str):
        return value
    return str(value).lower() if isinstance(value, bool) else str(value)


def def_expression(body: Any) -> Any:
    """A def's expression as written: its text, or the `value` of a def written with notes
    (`{value: expression, doc: …}`)."""
    return body.get("value") if isinstance(body, dict) else body


def parse_quietly(value: Any, start: str = "expr") -> n.Node | None:
    """A rule's text parsed as the compiler parses it, for a second look at it (narration, analyses);
    None where it does not parse, which the compiler reports where it compiles the text."""
    try:
        return parse(rule_text(value), start)
    except ExprSyntaxError:
        return None
