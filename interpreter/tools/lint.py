"""Semantic warnings on a rule file that checks clean: an action no step offers, a resource that nothing
produces or nothing uses, a phase that repeats with no way out, and a card whose effect never ran in random
playouts.

The static warnings read every rule of the merged file as parsed statements and expressions. They are
conservative: where a rule computes a name (`gain 1 [good]`, `me.resources`), it may stand for any
resource, so no warning is given that such a rule could make false.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from meeple.api import Game
from meeple.errors import Diagnostic, SourceSpan
from meeple.rules import nodes as n
from meeple.rules.loader import LoadedRules, NodePath, SourceIndex
from meeple.rules.syntax import ExprSyntaxError, parse

NOTES = ("doc", "guess")
DEFINITIONS = ("terrains", "pieces", "cards")  # entries whose fields are data, except a card's effect
UNREAD = ("game", "render")  # sections of names, numbers and prose, never rules


def warning(code: str, message: str, span: SourceSpan | None, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, span, hint, severity="warning")


# ---------------------------------------------------------------- what the rules do


@dataclass
class Facts:
    """What the rules of one file do with actions, resources and the end of the game."""

    resources: frozenset[str]
    offered: set[str] = field(default_factory=set)  # actions a step lists or a rule grants
    produced: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)  # spent, lost, compared, read
    any_produced: bool = False  # a rule gives a computed resource
    any_used: bool = False  # a rule reads a computed resource or all of them
    ends: bool = False  # some statement ends the game or names a winner

    def produce(self, bundle: n.Node) -> None:
        for name in self.bundle_keys(bundle):
            if name is None:
                self.any_produced = True
            else:
                self.produced.add(name)

    def use(self, bundle: n.Node) -> None:
        for name in self.bundle_keys(bundle):
            if name is None:
                self.any_used = True
            else:
                self.used.add(name)

    def bundle_keys(self, node: n.Node) -> Iterator[str | None]:
        """Each resource a bundle names, None for one it computes (`[good]`, `get`, `t.terrain.produces`)."""
        if isinstance(node, n.BinOp) and node.op in ("+", "-"):
            yield from self.bundle_keys(node.left)
            yield from self.bundle_keys(node.right)
        elif isinstance(node, n.BundleTerm) and isinstance(node.key, n.KeyPath):
            parts = node.key.parts
            yield parts[0] if len(parts) == 1 and parts[0] in self.resources else None
        else:
            yield None


def note_node(facts: Facts, node: Any, spend: bool = False) -> None:
    """Record what one parsed statement or expression does; `spend`: it is a cost."""
    if spend:
        facts.use(node)
    stack = [node]
    while stack:
        x = stack.pop()
        stack.extend(_note_one(facts, x))


def _note_one(facts: Facts, x: Any) -> list[Any]:
    """Record what node `x` itself does; return the nodes below it still to look at."""
    resources = facts.resources
    if isinstance(x, n.Gain):  # what it gives is not a use; its amounts and its player are
        facts.produce(x.bundle)
        return [*_amounts(x.bundle), *([x.player] if x.player is not None else [])]
    if isinstance(x, n.AugAssign | n.Assign) and isinstance(x.target, n.Attr) and x.target.name in resources:
        if getattr(x, "op", "=") == "-=":
            facts.used.add(x.target.name)
        else:
            facts.produced.add(x.target.name)
        return [x.target.obj, x.value]
    if isinstance(x, n.Transfer):  # from a pool or a player to a player: it gives as well as takes
        facts.produce(x.bundle)
        facts.use(x.bundle)
    elif isinstance(x, n.Pay | n.Lose | n.BundleTerm):
        facts.use(x.bundle if isinstance(x, n.Pay | n.Lose) else x)
    elif isinstance(x, n.Grant):
        facts.offered.add(x.action)
    elif isinstance(x, n.EndGame | n.Win):
        facts.ends = True
    elif isinstance(x, n.Attr | n.Name | n.StrLit):
        word = x.name if isinstance(x, n.Attr) else x.id if isinstance(x, n.Name) else x.value
        if word in resources:
            facts.used.add(word)
        elif word == "resources":
            facts.any_used = True
    return n.children(x)


def _amounts(bundle: Any) -> list[Any]:
    """The parts of a bundle that are read, not given: its amounts and computed keys."""
    if isinstance(bundle, n.BinOp) and bundle.op in ("+", "-"):
        return [*_amounts(bundle.left), *_amounts(bundle.right)]
    if isinstance(bundle, n.BundleTerm):
        return [bundle.amount, *([bundle.key.expr] if isinstance(bundle.key, n.KeyExpr) else [])]
    return [bundle]


STATEMENT_WORDS = frozenset(
    "gain pay lose transfer let set add place remove replace move draw roll grant perform log reset give win "
    "end".split()
)


def _parsed(text: str) -> n.Node | None:
    """A rule string as a statement or an expression (whichever it reads as first); None for prose."""
    word = text.split(maxsplit=1)[0] if text.strip() else ""
    first = "stmt" if word in STATEMENT_WORDS or "+=" in text or "-=" in text else "expr"
    for start in (first, "expr" if first == "stmt" else "stmt"):
        try:
            return parse(text, start)
        except ExprSyntaxError:
            continue
    return None


def gather(data: dict[str, Any]) -> Facts:
    """The facts of a merged rule file."""
    comp = data.get("components") or {}
    facts = Facts(frozenset(str(r) for r in comp.get("resources") or []))
    _walk(facts, data, ())
    return facts


def _walk(facts: Facts, value: Any, path: NodePath) -> None:
    if isinstance(value, str):
        node = _parsed(value)
        if node is not None:
            note_node(facts, node, spend=len(path) == 3 and path[0] == "actions" and path[2] == "cost")
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _walk(facts, item, (*path, i))
        return
    if not isinstance(value, dict):
        return
    # A step: the actions it offers, and the one that ends it.
    if "choose" in value or "simultaneous" in value:
        facts.offered.update(str(a) for a in value.get("choose") or value.get("simultaneous") or [])
        if value.get("until") is not None:
            facts.offered.add(str(value["until"]))
    for key, child in value.items():
        inner = (*path, key)
        if key in NOTES or inner in (("components", "resources"), ("components", "card_fields")):
            continue
        if len(inner) == 1 and key in UNREAD:
            continue
        if key in facts.resources:
            facts.used.add(key)  # a table keyed by resource, read as `price[good]`
        if len(inner) == 3 and inner[:2] in (("components", d) for d in DEFINITIONS):
            _walk_definition(facts, child, inner)
        else:
            _walk(facts, child, inner)


def _walk_definition(facts: Facts, spec: Any, path: NodePath) -> None:
    """A terrain, piece kind or card: its fields are data (a family's are expressions), its effect rules."""
    if not isinstance(spec, dict) or "for" in spec:
        _walk(facts, spec, path)
        return
    for key, child in spec.items():
        if key == "effect":
            _walk(facts, child, (*path, key))
        elif key not in NOTES:
            for item in child if isinstance(child, list) else [child]:
                if isinstance(item, str) and item in facts.resources:
                    facts.used.add(item)  # `produces: rope`, read as `t.terrain.produces`


# ---------------------------------------------------------------- the warnings


def lint(rules: LoadedRules) -> list[Diagnostic]:
    """Every static warning of a merged rule file, in file order."""
    data, index = rules.data, rules.index
    facts = gather(data)
    found = unoffered_actions(data, index, facts) + resource_warnings(data, index, facts)
    found += endless_phases(data, index, facts)
    return sorted(found, key=_place)


def _place(d: Diagnostic) -> tuple[str, int, int]:
    return (d.span.file, d.span.line, d.span.col) if d.span else ("", 0, 0)


def unoffered_actions(data: dict[str, Any], index: SourceIndex, facts: Facts) -> list[Diagnostic]:
    return [
        warning(
            "lint/action-never-offered",
            f"action '{name}' is never offered: no `choose:` step lists it and no rule grants it",
            index.key_span(("actions", name)) or index.nearest_span(("actions", name)),
            "list it in a step's `choose:`, grant it from an effect, or remove it",
        )
        for name in data.get("actions") or {}
        if name not in facts.offered
    ]


def resource_warnings(data: dict[str, Any], index: SourceIndex, facts: Facts) -> list[Diagnostic]:
    found = []
    for i, name in enumerate((data.get("components") or {}).get("resources") or []):
        produced = name in facts.produced or facts.any_produced
        used = name in facts.used or facts.any_used
        where = index.nearest_span(("components", "resources", i))
        if not produced and not used:
            message = f"resource '{name}' is never used: no rule produces, spends or reads it"
            found.append(warning("lint/unused-resource", message, where, "remove it, or write its rules"))
        elif not produced:
            message = f"resource '{name}' is spent or read, but no rule produces it (players start with none)"
            hint = f"gain it somewhere, e.g. `gain 1 {name}`"
            found.append(warning("lint/resource-never-produced", message, where, hint))
        elif not used:
            message = f"resource '{name}' is produced, but no rule spends or reads it"
            hint = "a cost, a condition or the score could use it"
            found.append(warning("lint/resource-never-used", message, where, hint))
    return found


def endless_phases(data: dict[str, Any], index: SourceIndex, facts: Facts) -> list[Diagnostic]:
    """Phases that repeat with no `until:` (or `until: false`) in a game that nothing else can end."""
    if facts.ends or (data.get("end") or {}).get("win") is not None:
        return []
    found = []
    for path, phase in _phases(data.get("flow") or [], ("flow",)):
        until = phase.get("until")
        if phase.get("repeat") is True and (until is None or until is False or until == "false"):
            name = phase.get("phase", f"at {_dotted(path)}")
            found.append(
                warning(
                    "lint/endless-phase",
                    f"phase '{name}' repeats with no way out: it has no `until:`, and no `end: win:`, "
                    "`end game` or `win` can end the game",
                    index.key_span((*path, "repeat")) or index.nearest_span(path),
                    "give it `until: …`, or end the game from a rule",
                )
            )
    return found


def _phases(items: list[Any], path: NodePath) -> Iterator[tuple[NodePath, dict[str, Any]]]:
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        if "phases" in item:
            yield from _phases(item.get("phases") or [], (*path, i, "phases"))
        else:
            yield (*path, i), item


def _dotted(path: NodePath) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


# ---------------------------------------------------------------- cards in random playouts


class _Counted:
    """A card's compiled effect that counts its runs."""

    __slots__ = ("effect", "name", "counts")

    def __init__(self, effect: Any, name: str, counts: Counter[str]) -> None:
        self.effect, self.name, self.counts = effect, name, counts

    def __call__(self, s: Any, b: dict[str, Any]) -> None:
        self.counts[self.name] += 1
        self.effect(s, b)


@contextmanager
def effects_counted(game: Game) -> Iterator[Counter[str]]:
    """While open, every run of a card's effect in `game` is counted by card; the game is as before after."""
    definitions = game.definition.sym.definitions
    counts: Counter[str] = Counter()
    saved = {name: d["effect"] for name, d in definitions.items() if callable(d.get("effect"))}
    for name, effect in saved.items():
        definitions[name]["effect"] = _Counted(effect, name, counts)
    try:
        yield counts
    finally:
        for name, effect in saved.items():
            definitions[name]["effect"] = effect


def unplayed_cards(game: Game, counts: Counter[str], playouts: int) -> list[Diagnostic]:
    """A warning per card entry (a card, or a `for:` family) some of whose effects never ran."""
    definitions = game.definition.sym.definitions
    data = game.source.data if game.source is not None else {}
    entries = (data.get("components") or {}).get("cards") or {}
    never: dict[str, list[str]] = {}
    for name, d in definitions.items():
        if callable(d.get("effect")) and not counts[name]:
            entry = name if name in entries else str(d.get("family"))
            never.setdefault(entry, []).append(name)
    found = []
    index = game.source.index if game.source is not None else SourceIndex()
    for entry, names in never.items():
        what = f"card '{entry}'" if names == [entry] else f"cards {', '.join(names)} (of '{entry}')"
        found.append(
            warning(
                "lint/card-never-played",
                f"the effect of {what} never ran in {playouts} random "
                f"{game.players}-player playout{'s' if playouts != 1 else ''}",
                index.key_span(("components", "cards", entry)) or index.nearest_span(("components", "cards")),
                "a rule may keep it from play; more playouts may reach it",
            )
        )
    return sorted(found, key=_place)


__all__ = ["Facts", "effects_counted", "gather", "lint", "unplayed_cards"]
