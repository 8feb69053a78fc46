"""Break a condition that came out false down to the sub-expression that made it so, with its values.

The parsed nodes are evaluated again, piece by piece, by closures compiled on demand from the game's
symbols (no generated source): `and` finds its first false part, `all(…)` its first failing element,
a call of a def goes into the def's body with its arguments bound, a comparison shows its operands' values.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from meeple.compile.builtins import units
from meeple.compile.expressions import ExprCompiler, Fn
from meeple.compile.symbols import Sink
from meeple.rules import nodes as n
from meeple.rules.syntax import ExprSyntaxError, parse
from meeple.values import Bundle, PieceRef, Player

MAX_DEPTH = 12  # how many steps a breakdown follows before it stops at the value
MAX_SHOWN = 100  # characters of one value shown


def shown(v: Any) -> str:
    """A value as a rule file would write it: `none`, `true`, `[c1, c2]`, `2 rope + 1 nut`."""
    text = _shown(v)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def _shown(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, Player | PieceRef | Bundle | str | int):
        return str(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_shown(x) for x in v[:20]) + (", …" if len(v) > 20 else "") + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_shown(k)}: {_shown(x)}" for k, x in list(v.items())[:20]) + "}"
    return str(v)


def _tag(v: Any) -> str | None:
    """The compiler's type tag of a bound value."""
    return "player" if type(v) is Player else "piece" if type(v) is PieceRef else None


class Explainer:
    """Evaluates nodes of one state's game, and says why one came out the wrong way."""

    def __init__(self, s: Any) -> None:
        game = s.game
        self.s = s
        self.ex = ExprCompiler(game.sym, Sink(game.index), game.defs)
        self.ex.gen = None  # closures only: nothing is added to the game's generated source
        self.fns: dict[tuple[int, tuple[tuple[str, str | None], ...]], tuple[n.Node, Fn]] = {}
        self.def_texts = _def_texts(game)
        self.def_nodes: dict[str, n.Node | None] = {}

    # ------------------------------------------------------------ evaluating

    def value(self, node: n.Node, b: dict[str, Any]) -> Any:
        scope = tuple(sorted((k, _tag(v)) for k, v in b.items()))
        key = (id(node), scope)
        hit = self.fns.get(key)
        if hit is None:
            hit = self.fns[key] = (node, self.ex.expr(node, dict(scope)))  # the node kept: its id stays
        return hit[1](self.s, b)

    def bindings(self, comps: tuple[n.CompFor, ...], b: dict[str, Any]) -> Any:
        """Every binding of a comprehension's names that passes its `if`s, in order."""
        if not comps:
            yield b
            return
        comp = comps[0]
        for item in units(self.value(comp.iter, b)):
            inner = dict(b)
            if len(comp.names) == 1:
                inner[comp.names[0]] = item
            else:
                inner.update(zip(comp.names, item))
            if all(self.value(c, inner) for c in comp.conds):
                yield from self.bindings(comps[1:], inner)

    # ------------------------------------------------------------ explaining

    def false_because(self, node: n.Node, src: str, b: dict[str, Any]) -> list[str]:
        """Lines saying why `node` (written in `src`) is false under `b`, the first naming the node."""
        return self.explain(node, src, b, True, 0)

    def explain(self, node: n.Node, src: str, b: dict[str, Any], want: bool, depth: int) -> list[str]:
        """Why `node` is not `want`: its own line, then the lines of the part that decided it."""
        handler = getattr(self, "x_" + type(node).__name__, None)
        if handler is not None and depth < MAX_DEPTH:
            try:
                found: list[str] | None = handler(node, src, b, want, depth)
            except Exception as err:  # a value the breakdown cannot compute: say so, never fail
                found = [f"{self.text(node, src, b)} cannot be evaluated here: {err}"]
            if found is not None:
                return found
        return [self.leaf(node, src, b, want)]

    def leaf(self, node: n.Node, src: str, b: dict[str, Any], want: bool) -> str:
        text = self.text(node, src, b)
        try:
            v = self.value(node, b)
        except Exception as err:
            return f"{text} cannot be evaluated here: {err}"
        if isinstance(v, bool) or shown(v) == text:
            return f"{text} is {shown(bool(v))}"
        return f"{text} is {shown(bool(v))}: it is {shown(v)}"

    def x_BoolOp(self, node: n.BoolOp, src: str, b: dict[str, Any], want: bool, depth: int) -> list[str]:
        deciding = (node.op == "and") == want  # `and` fails at a false part, `or` succeeds at a true one
        if deciding:
            for part in node.values:
                if bool(self.value(part, b)) != want:
                    return self.explain(part, src, b, want, depth + 1)
            return [self.leaf(node, src, b, want)]
        lines = [f"{self.text(node, src, b)} is {shown(not want)}: every part is {shown(not want)}"]
        for part in node.values:
            lines += ["  " + line for line in self.explain(part, src, b, want, depth + 1)]
        return lines

    def x_NotOp(self, node: n.NotOp, src: str, b: dict[str, Any], want: bool, depth: int) -> list[str]:
        return [self.leaf(node, src, b, want), *self.explain(node.operand, src, b, not want, depth + 1)]

    def x_Compare(self, node: n.Compare, src: str, b: dict[str, Any], want: bool, depth: int) -> list[str]:
        parts = []
        for operand in (node.left, *node.rights):
            if isinstance(operand, n.IntLit | n.StrLit | n.BoolLit | n.NoneLit):
                continue
            text, v = self.text(operand, src, b), self.value(operand, b)
            if text != shown(v):
                parts.append(f"{text} is {shown(v)}")
        line = f"{self.text(node, src, b)} is {shown(not want)}"
        return [line + (": " + "; ".join(parts) if parts else "")]

    def x_IfExp(self, node: n.IfExp, src: str, b: dict[str, Any], want: bool, depth: int) -> list[str]:
        cond = bool(self.value(node.cond, b))
        branch = node.body if cond else node.orelse
        head = (
            f"{self.text(node, src, b)} is {shown(not want)}: {self.text(node.cond, src, b)} is {shown(cond)}"
        )
        return [head, *self.explain(branch, src, b, want, depth + 1)]

    def x_Call(self, node: n.Call, src: str, b: dict[str, Any], want: bool, depth: int) -> list[str] | None:
        if not isinstance(node.func, n.Name) or node.func.id not in self.def_texts or node.kwargs:
            return None
        body_src, body = self.def_body(node.func.id)
        params = self.s.game.sym.defs.get(node.func.id, ())
        if body is None or len(params) != len(node.args):
            return None
        inner = {p: self.value(a, b) for p, a in zip(params, node.args)}
        head = f"{self.text(node, src, b)} is {shown(not want)}"
        return [head, *self.explain(body, body_src, inner, want, depth + 1)]

    def x_GenCall(
        self, node: n.GenCall, src: str, b: dict[str, Any], want: bool, depth: int
    ) -> list[str] | None:
        func = node.func.id if isinstance(node.func, n.Name) else ""
        if func not in ("all", "any"):
            return None
        head = f"{self.text(node, src, b)} is {shown(not want)}"
        looking_for = (func == "all") == want  # the element that decided it: a false one for all(…)
        if looking_for:
            for inner in self.bindings(node.comps, b):
                if bool(self.value(node.elt, inner)) != want:
                    which = ", ".join(f"{k} = {shown(v)}" for k, v in inner.items() if k not in b)
                    return [f"{head}: for {which}", *self.explain(node.elt, src, inner, want, depth + 1)]
            return [head]
        count = sum(1 for _ in self.bindings(node.comps, b))
        if count == 0:
            return [f"{head}: {self.nothing(node.comps, src, b)}"]
        every = "every one" if count > 1 else "the one"
        return [f"{head}: {self.text(node.elt, src, b)} is {shown(not want)} for {every} of {count}"]

    def nothing(self, comps: tuple[n.CompFor, ...], src: str, b: dict[str, Any]) -> str:
        """Why a comprehension has no element: its first collection is empty, or nothing passes."""
        first = comps[0]
        if not list(units(self.value(first.iter, b))):
            return f"there is nothing to look at ({self.text(first.iter, src, b)} is empty)"
        names = ", ".join(nm for comp in comps for nm in comp.names)
        return f"there is nothing to look at (no {names} is found)"

    def def_body(self, name: str) -> tuple[str, n.Node | None]:
        """A def's body text and its parsed node (None if it does not parse), parsed on first use."""
        text = self.def_texts[name]
        if name not in self.def_nodes:
            try:
                self.def_nodes[name] = parse(text)
            except ExprSyntaxError:
                self.def_nodes[name] = None
        return text, self.def_nodes[name]

    # ------------------------------------------------------------ showing

    def text(self, node: n.Node, src: str, b: dict[str, Any]) -> str:
        """The node's source with the names bound in `b` written as their values: `building(c4) == none`."""
        piece = src[node.pos : node.end]
        names = sorted(
            (x for x in _names(node) if x.id in b and x.pos >= node.pos and x.end <= node.end),
            key=lambda x: x.pos,
            reverse=True,
        )
        for x in names:
            piece = piece[: x.pos - node.pos] + shown(b[x.id]) + piece[x.end - node.pos :]
        return " ".join(piece.split())


def _names(node: Any) -> list[n.Name]:
    """The Name nodes inside a node, not counting the names a comprehension inside binds."""
    found: list[n.Name] = []
    if isinstance(node, n.Name):
        return [node]
    bound: set[str] = set()
    for comp in getattr(node, "comps", ()) or ():
        bound |= set(comp.names)
    if is_dataclass(node):
        for f in fields(node):
            value = getattr(node, f.name)
            for item in value if isinstance(value, tuple) else (value,):
                if is_dataclass(item):
                    found += [x for x in _names(item) if x.id not in bound]
    return found


def _def_texts(game: Any) -> dict[str, str]:
    """The body of each def of the rule file (and of `score`) as text, by the def's name."""
    texts: dict[str, str] = {}
    bodies = list((game.rules.get("defs") or {}).items())
    bodies.append(("score", (game.rules.get("scoring") or {}).get("score", "0")))
    for key, body in bodies:
        texts[str(key).split("(")[0].strip()] = str(body).lower() if isinstance(body, bool) else str(body)
    return texts
