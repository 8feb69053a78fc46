"""Compile the `invariants:` section: conditions every state must meet, each located in the rule file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any

from meeple.compile.expressions import ExprCompiler
from meeple.compile.ir import InvariantDef, known_parts
from meeple.rules import nodes as n
from meeple.rules.loader import SourceIndex

# Nodes that can never give true or false: a number, a text, a sum, a list, a bundle.
_NOT_CONDITIONS = (
    n.IntLit,
    n.StrLit,
    n.NoneLit,
    n.BinOp,
    n.Neg,
    n.ListLit,
    n.TupleLit,
    n.ListComp,
    n.RangeLit,
    n.BundleTerm,
)
WHERE = "invariants"


def compile_invariants(
    spec: Any, ex: ExprCompiler, index: SourceIndex, parts_read: Callable[[set[str]], set[str] | None]
) -> tuple[InvariantDef, ...]:
    """The invariants of a list (each named by its text) or of a mapping of names to conditions, each with
    the parts of a state it reads (`parts_read` resolves the defs it calls; None when one is not known), so
    a checker may skip one whose parts have not changed since it last held."""
    if isinstance(spec, dict):
        items = [(str(name), (WHERE, name), text) for name, text in spec.items()]
    elif isinstance(spec, list):
        items = [(str(text).strip(), (WHERE, i), text) for i, text in enumerate(spec)]
    else:
        return ()  # absent; any other shape is a schema error, reported there
    out = []
    for name, path, text in items:
        if isinstance(text, bool):
            text = "true" if text else "false"
        node = ex.parse_at(text, path)
        if node is None:
            continue
        if isinstance(node, _NOT_CONDITIONS):
            ex.sink.at(
                path,
                node.pos,
                "type/not-a-condition",
                f"invariant '{name}' is not a condition: it never gives true or false",
                "compare it: e.g. size(p.hand) <= 6, p.gold >= 0",
            )
            continue
        ex.path = path
        ex.reads = set()
        check = ex.expr(node, {"p": "player"})
        reads = parts_read(ex.reads)
        # A random draw, or a def whose reads are not known: checked every time.
        known = tuple(sorted(reads)) if reads is not None and known_parts(reads) else None
        out.append(InvariantDef(name, check, mentions_free(node, "p"), index.nearest_span(path), known))
    return tuple(out)


def mentions_free(node: Any, name: str) -> bool:
    """Whether `name` occurs in the expression other than as a name a comprehension binds."""
    if isinstance(node, n.Name):
        return node.id == name
    if isinstance(node, n.KeyPath):
        return node.parts[0] == name
    if isinstance(node, n.ListComp | n.GenCall):
        for comp in node.comps:
            if mentions_free(comp.iter, name):
                return True
            if name in comp.names:
                return False  # bound from here on: the conditions, later loops and the element
            if any(mentions_free(c, name) for c in comp.conds):
                return True
        return mentions_free(node.elt, name)
    if is_dataclass(node):
        for f in fields(node):
            value = getattr(node, f.name)
            for item in value if isinstance(value, tuple) else (value,):
                if is_dataclass(item) and mentions_free(item, name):
                    return True
    return False
