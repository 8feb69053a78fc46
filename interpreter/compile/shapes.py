"""Which game variables always hold a list, and lists of lists how deep: read without tests of their type.

A game variable's value is what it starts with or what a statement last gave it: `set x = …` (any value),
`x += …`, `x -= …` and `add … to x` (a list stays a list). When it starts as a list and every `set` of it in
the rule file gives a list, the generated code indexes it, takes its length and loops over it as it is, with
no test of its type at each read (`columns[x][0]`). How deep: a list of lists (of lists…) when every value
it is given is one. The rule file is searched as text for the statements that may write a variable; any
such text that does not parse as a plain `set` of it (a mention in a doc, say) leaves the variable unknown.
A variable some player may not know is left out: a view of the state fills it from elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from meeple.rules import nodes as n
from meeple.rules.syntax import def_expression, parse_quietly

_UNKNOWN = 0
_EMPTY = 9  # an empty list: as deep as any list it is joined with
# The statements that may write a variable, and the texts that bind a name of their own.
_WRITES = re.compile(
    r"\b(?:set\s+(?P<set>\w+)\s*=(?!=)|(?P<aug>\w+)\s*[-+]=|add\b.*\bto\s+(?P<add>\w+))", re.DOTALL
)
_BINDS = re.compile(r"(?:\blet\s+|^\s*)(\w+)(?=\s*=(?!=)|(?:\s*,\s*\w+)*\s+in\b)")
_LIST_BUILTINS = frozenset({"pieces", "pieces_at", "distinct", "sorted", "bundles"})  # each a list


def _texts(value: Any) -> Iterator[tuple[str, bool]]:
    """Every text of a part of the rule file, and whether it is a mapping's key."""
    if isinstance(value, str):
        yield value, False
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key), True
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def list_depths(
    data: dict[str, Any], game_vars: dict[str, Any], private: set[str], defs: dict[str, Any]
) -> dict[str, int]:
    """Each game variable that always holds a list -> how deep its lists go (1: a list, 2: of lists…).
    `defs`: each def's name -> (parameter names, body text)."""
    starts = {name: _value_depth(value) for name, value in game_vars.items() if name not in private}
    candidates = {name for name, depth in starts.items() if depth > _UNKNOWN}
    if not candidates:
        return {}
    given: dict[str, list[n.Node]] = {name: [] for name in candidates}
    for text, is_key in _texts({k: v for k, v in data.items() if k != "vars"}):
        if is_key:  # a parameter's, a def's or a field's name: a name so spelt may hide the variable
            candidates.difference_update(re.findall(r"\w+", text))
            continue
        for m in _WRITES.finditer(text):
            name = m.group("set") or m.group("aug") or m.group("add")
            if name in candidates:
                node = parse_quietly(text, "stmt")
                if _writes_var(node, name):
                    if isinstance(node, n.Assign):
                        given[name].append(node.value)
                else:  # written some way not understood here
                    candidates.discard(name)
        for m in _BINDS.finditer(text):  # `let x = …`, `for: x in …`: a name of its own
            candidates.discard(m.group(1))
    depths = {name: _UNKNOWN for name in candidates}
    bodies = {}
    for name, (params, written) in defs.items():
        body = def_expression(written)
        bodies[name] = (params, None if body is None else parse_quietly(body))
    for _ in range(len(candidates) + 1):  # a variable given another's value learns its depth a pass later
        found = {
            name: min([starts[name], *(_depth(v, depths, bodies, {}, 0) for v in given[name])])
            for name in candidates
        }
        if found == depths:
            break
        depths = found
    return {name: depth for name, depth in depths.items() if _UNKNOWN < depth < _EMPTY}


def _writes_var(node: n.Node | None, name: str) -> bool:
    """Whether a parsed statement is a write of the variable `name` (and nothing else)."""
    if isinstance(node, n.AugAssign | n.AddTo | n.Assign):
        target = node.target
        return isinstance(target, n.Name) and target.id == name
    return False


def _value_depth(value: Any) -> int:
    """How deep a starting value's lists go (a variable's value as declared: lists are tuples)."""
    if not isinstance(value, tuple | list):
        return _UNKNOWN
    if not value:
        return _EMPTY
    return 1 + min(_value_depth(v) for v in value) if all(isinstance(v, tuple | list) for v in value) else 1


def _depth(
    node: n.Node, known: dict[str, int], bodies: dict[str, Any], bound: dict[str, int], calls: int
) -> int:
    """How deep the lists of an expression's value surely go (0: not surely a list)."""
    if isinstance(node, n.RangeLit):
        return 1
    if isinstance(node, n.ListLit):
        if not node.items:
            return _EMPTY
        return 1 + min(_depth(x, known, bodies, bound, calls) for x in node.items)
    if isinstance(node, n.ListComp):
        inner = dict(bound)
        for comp in node.comps:
            outer = _depth(comp.iter, known, bodies, inner, calls)
            for name in comp.names:
                inner[name] = outer - 1 if outer > 1 and len(comp.names) == 1 else _UNKNOWN
        return 1 + _depth(node.elt, known, bodies, inner, calls)
    if isinstance(node, n.Name):
        if node.id in bound:
            return bound[node.id]
        return known.get(node.id, _UNKNOWN)
    if isinstance(node, n.Index):
        outer = _depth(node.obj, known, bodies, bound, calls)
        return outer - 1 if outer > 1 else _UNKNOWN
    if isinstance(node, n.BinOp) and node.op == "+":
        return min(
            _depth(node.left, known, bodies, bound, calls), _depth(node.right, known, bodies, bound, calls)
        )
    if isinstance(node, n.IfExp):
        return min(
            _depth(node.body, known, bodies, bound, calls), _depth(node.orelse, known, bodies, bound, calls)
        )
    if isinstance(node, n.Call) and isinstance(node.func, n.Name):
        name = node.func.id
        if name in bodies:  # a def: its body, with nothing known of its parameters
            params, body = bodies[name]
            if body is None or calls > 8:
                return _UNKNOWN
            return _depth(body, known, bodies, dict.fromkeys(params, _UNKNOWN), calls + 1)
        if name in _LIST_BUILTINS:
            return 1
    return _UNKNOWN
