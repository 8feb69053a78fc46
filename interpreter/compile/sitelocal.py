"""Defs of a site that read the pieces near it only: where, as paths of board queries from their argument.

`far_enough(c): building(c) == none and all(building(n) == none for n in neighbours(c))` reads the pieces at
c and at each of neighbours(c): the paths () and ("neighbours",). A piece placed, moved or taken at a site
can change its result only for the sites whose paths reach that site, so a state keeps the others' results
(ir._refresher drops those of the sites near each change, from `State._site_log`).

A def is local when every way its body may read pieces is `pieces_at(x)` of a site reached from its
argument by board queries (`neighbours`, `sides_of`, ...), through the defs it calls as well, and a field
it reads of a piece is one of a piece found so. Anything else that may read pieces (`pieces(...)`,
`supply`, a metric, a field of a value that may be a piece found elsewhere) makes it not local: its results
are dropped at every change of the pieces it reads, as before.
"""

from __future__ import annotations

from typing import Any

from meeple.compile.builtins import BOARD_QUERIES
from meeple.compile.expressions import _AGGREGATES, _METRIC_ARG, BUILTIN_READS
from meeple.rules import nodes as n

Path = tuple[str, ...]
Tag = tuple[str, Path]  # ("site", path) | ("sites", path) | ("piece", ()) | ("pieces", ()) | ("value", ())

_VALUE: Tag = ("value", ())
_PIECE: Tag = ("piece", ())
_PIECES: Tag = ("pieces", ())
_DEPTH = 8  # defs calling defs: deeper than this is not worth following


class _NotLocal(Exception):
    pass


def local_paths(
    name: str, bodies: dict[str, Any], builtins: set[str], piece_fields: set[str]
) -> frozenset[Path] | None:
    """The paths from the argument of the one-parameter def `name` to the sites whose pieces it reads;
    None when it may read pieces elsewhere (or its body is not known)."""
    body = bodies.get(name)
    if body is None or len(body[3]) != 1:
        return None
    walker = _Walker(bodies, builtins, piece_fields)
    try:
        walker.walk(body[0], {body[3][0]: ("site", ())}, 0)
    except _NotLocal:
        return None
    return frozenset(walker.paths)


def reached(board: Any, site: str, paths: frozenset[Path]) -> set[str]:
    """The sites whose pieces a local def of `site` reads: each path of board queries followed from it."""
    out: set[str] = set()
    for path in paths:
        here = {site}
        for query in path:
            table = getattr(board, query)
            here = {x for h in here for x in table.get(h, ())}
        out |= here
    return out


def nearby(board: Any, paths: frozenset[Path]) -> dict[str, tuple[str, ...]]:
    """By site: the sites of the board whose local def's result a change of the pieces there may change."""
    out: dict[str, list[str]] = {}
    for site in board.kind_of:
        for x in reached(board, site, paths):
            out.setdefault(x, []).append(site)
    return {x: tuple(sites) for x, sites in out.items()}


def looped_calls(node: Any, names: set[str], bound: set[str]) -> set[str]:
    """The defs of `names` called in `node` with an argument that a loop binds: one of `bound` (an action's
    parameters, a def's own) or a name of a comprehension around the call. Only those are asked of many
    sites between two changes of the pieces: keeping the others' results apart costs more than it saves
    (a def asked of one site, as `frozen(balloon_die().site)`)."""
    out: set[str] = set()

    def visit(x: Any, bound: set[str]) -> None:
        if isinstance(x, n.ListComp | n.GenCall):
            inner = set(bound)
            for comp in x.comps:
                visit(comp.iter, inner)
                inner |= set(comp.names)
                for cond in comp.conds:
                    visit(cond, inner)
            visit(x.elt, inner)
            return
        if isinstance(x, n.Call) and isinstance(x.func, n.Name) and x.func.id in names:
            if any(isinstance(arg, n.Name) and arg.id in bound for arg in x.args):
                out.add(x.func.id)
        for child in n.children(x):
            visit(child, bound)

    visit(node, bound)
    return out


# Operators, and lists written out or indexed: what they make is a value, whatever their parts are.
_LISTS = (n.ListLit, n.TupleLit, n.RangeLit, n.Index)
_OPERATORS = (*_LISTS, n.BinOp, n.Compare, n.BoolOp, n.NotOp, n.Neg, n.IfExp)


class _Walker:
    def __init__(self, bodies: dict[str, Any], builtins: set[str], piece_fields: set[str]) -> None:
        self.bodies = bodies
        self.builtins = builtins
        self.piece_fields = piece_fields
        self.paths: set[Path] = set()

    def walk(self, node: Any, env: dict[str, Tag], depth: int) -> Tag:
        if isinstance(node, n.IntLit | n.StrLit | n.BoolLit | n.NoneLit):
            return _VALUE
        if isinstance(node, n.Name):
            return env.get(node.id, _VALUE)  # a variable or constant of the game: no piece
        if isinstance(node, n.Attr):
            obj = self.walk(node.obj, env, depth)
            if obj[0] != "piece" and node.name in self.piece_fields:
                raise _NotLocal  # perhaps a field of a piece found elsewhere
            return _VALUE
        if isinstance(node, n.Call):
            return self.call(node, env, depth)
        if isinstance(node, n.ListComp | n.GenCall):
            return self.comprehension(node, env, depth)
        if isinstance(node, _OPERATORS):  # each part walked: a value made of values
            for part in n.children(node):
                self.walk(part, env, depth)
            return _VALUE
        raise _NotLocal  # a kind of expression not followed here

    def call(self, node: n.Call, env: dict[str, Tag], depth: int) -> Tag:
        if not isinstance(node.func, n.Name):
            raise _NotLocal
        f = node.func.id
        tags = [self.walk(arg, env, depth) for arg in node.args]
        for kw in node.kwargs:
            self.walk(kw.value, env, depth)
        if f == "pieces_at":
            if not tags or tags[0][0] != "site":
                raise _NotLocal
            self.paths.add(tags[0][1])
            return _PIECES
        if f in BOARD_QUERIES and len(tags) == 1:
            return ("sites", tags[0][1] + (f,)) if tags[0][0] == "site" else _VALUE
        if f in self.bodies:  # a def: its body followed with what its arguments are
            params = self.bodies[f][3]
            if depth >= _DEPTH or node.kwargs or len(tags) != len(params):
                raise _NotLocal
            return self.walk(self.bodies[f][0], dict(zip(params, tags, strict=True)), depth + 1)
        if f not in self.builtins or f in _METRIC_ARG:
            raise _NotLocal  # a def without source, or a measure by a metric (whose costs may read pieces)
        if any(part.startswith("pieces") for part in BUILTIN_READS.get(f, ())):
            raise _NotLocal  # `pieces(...)`, `supply`: pieces anywhere
        if f == "first" and tags and tags[0] == _PIECES:
            return _PIECE
        return _VALUE

    def comprehension(self, node: n.ListComp | n.GenCall, env: dict[str, Tag], depth: int) -> Tag:
        if isinstance(node, n.GenCall):
            func = node.func
            if not isinstance(func, n.Name) or func.id not in _AGGREGATES:
                raise _NotLocal
        inner = dict(env)
        for comp in node.comps:
            items = self.walk(comp.iter, inner, depth)
            one: Tag = _VALUE
            if len(comp.names) == 1 and items[0] == "sites":
                one = ("site", items[1])
            elif len(comp.names) == 1 and items == _PIECES:
                one = _PIECE
            inner.update({name: one for name in comp.names})
            for cond in comp.conds:
                self.walk(cond, inner, depth)
        elt = self.walk(node.elt, inner, depth)
        if isinstance(node, n.ListComp):
            return _PIECES if elt == _PIECE else ("sites", elt[1]) if elt[0] == "site" else _VALUE
        return _PIECE if node.func.id == "first" and elt == _PIECE else _VALUE  # type: ignore[union-attr]
