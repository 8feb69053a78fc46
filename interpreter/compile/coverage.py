"""Rule coverage: which `if:` branches, card effects, card moves and table entries a compiled game ran.

Coverage costs nothing unless asked for: the compiler given a `Coverage` wraps those rule parts in counting
closures (and makes tables counting mappings) at compile time; a game compiled without one runs the very
closures it always did. Parts are named by where they are written (`actions.climb.effect[2]`), cards by
their kind and table entries as `table[key]`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

BRANCH, CARD, MOVED, TABLE = "branch", "card", "moved", "table"

Run = Callable[[Any, dict[str, Any]], None]


def path_name(path: tuple[Any, ...]) -> str:
    """A rule part's YAML path as text: ("actions", "climb", "effect", 2) -> actions.climb.effect[2]."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def place(span: Any) -> str:
    """`file:line` of a source span (empty when the place is unknown)."""
    return f"{span.file}:{span.line}" if span is not None else ""


class Coverage:
    """The rule parts a game can run (`parts`, by category, in file order) and how often each ran (`hits`).

    `constant` holds table entries read while compiling (a lookup with a constant key, computed once).
    """

    def __init__(self) -> None:
        self.parts: dict[str, dict[str, str]] = {BRANCH: {}, CARD: {}, TABLE: {}}
        self.hits: Counter[tuple[str, str]] = Counter()
        self.constant: set[str] = set()

    def declare(self, category: str, name: str, where: str = "") -> tuple[str, str]:
        self.parts[category][name] = where
        return (category, name)

    def take(self) -> Counter[tuple[str, str]]:
        """The counts since the last take, then start again from zero."""
        hits = Counter(self.hits)
        self.hits.clear()  # in place: the compiled closures hold this very counter
        return hits

    def end_of_compile(self) -> None:
        """What compiling read (a folded table lookup) is a constant use, not a hit of any game."""
        self.constant = {name for (category, name) in self.hits if category == TABLE}
        self.hits.clear()

    # ------------------------------------------------------------ the wrappers the compiler puts in

    def branch(
        self, cond: Callable[[Any, dict[str, Any]], Any], then: Run, orelse: Run, name: str, where: str
    ) -> Run:
        hits = self.hits
        yes = self.declare(BRANCH, f"{name} then", where)
        no = self.declare(BRANCH, f"{name} else", where)

        def run(s: Any, b: dict[str, Any]) -> None:
            if cond(s, b):
                hits[yes] += 1
                then(s, b)
            else:
                hits[no] += 1
                orelse(s, b)

        return run

    def cards_moved(self, cards: Any) -> None:
        """Count the cards a `draw` or `move card` statement moved."""
        hits = self.hits
        for card in cards:
            hits[(MOVED, card)] += 1

    def card(self, effect: Run, kind: str, where: str) -> Run:
        key, hits = self.declare(CARD, kind, where), self.hits

        def run(s: Any, b: dict[str, Any]) -> None:
            hits[key] += 1
            effect(s, b)

        return run

    def table(self, table: dict[Any, Any], name: str) -> CountingTable:
        """The table as a mapping that counts each lookup of an entry (nested tables too)."""
        out = CountingTable()
        out.coverage, out.prefix = self, name
        for key, value in table.items():
            entry = f"{name}[{key}]"
            if isinstance(value, dict):
                value = self.table(value, entry)
            else:
                self.declare(TABLE, entry)
            dict.__setitem__(out, key, value)
        return out


class CountingTable(dict):  # type: ignore[type-arg]
    """A table that counts its entries' lookups (by index or `get`) in a Coverage; otherwise a dict."""

    coverage: Coverage
    prefix: str

    def _hit(self, key: Any) -> None:
        value = dict.__getitem__(self, key)
        if not isinstance(value, CountingTable):  # a nested table counts at its own entries
            self.coverage.hits[(TABLE, f"{self.prefix}[{key}]")] += 1

    def __getitem__(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        self._hit(key)
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            self._hit(key)
            return dict.__getitem__(self, key)
        return default
