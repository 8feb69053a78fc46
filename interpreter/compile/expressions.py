"""Compile expression nodes into Python closures `fn(state, bindings)`, resolving every name once."""

from __future__ import annotations

import inspect
import operator
import os
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any

from meeple.compile.builtins import BOARD_QUERIES, BUILTINS, units
from meeple.compile.codegen import (
    MAX_RANGE,
    SourceGen,
    ZoneKeys,
    add_values,
    contains,
    index_value,
    lacks,
    number_range,
    plain_pieces_at,
    zone_member,
)
from meeple.compile.pyparts import signature_of
from meeple.compile.symbols import OWNED, Path, Sink, Symbols, scope_part
from meeple.compile.where import RUNTIME_ERRORS, Where, located
from meeple.errors import RuleRuntimeError, did_you_mean
from meeple.rules import nodes as n
from meeple.rules.syntax import ExprSyntaxError, parse, rule_text
from meeple.values import Bundle, PieceRef, Player

Fn = Callable[[Any, dict[str, Any]], Any]
Scope = dict[str, str | None]  # bound name -> element type tag ("player", "piece", "site") or None


_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": add_values,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
}
_CMPOPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": contains,
    "not in": lacks,
}
_AGGREGATES = {"any", "all", "sum", "count", "min", "max", "first", "distinct", "sorted", "len", "size"}

# The parts of a state each built-in reads, so a value is recomputed only when one of them changed.
BUILTIN_READS = {
    "pieces": {"pieces"},
    "pieces_at": {"pieces"},
    "supply": {"pieces"},
    "award_points": {"awards"},
    "holder": {"awards"},
    "pick": {"rng"},
    "sample": {"rng"},
    "chance": {"rng"},
}
# Built-ins measuring over the board, and where their metric's name goes: without a metric they read only
# the board (which never changes), with a named one what that metric's rules read (`metric:NAME`, worked
# out when the metrics are compiled), with a metric computed in play what any metric's rules read.
_METRIC_ARG = {"within": 2, "distance": 2, "path": 2, "components": 1}
_MISSING = object()


def metric_reads(node: n.Call, at: int) -> set[str]:
    """What a call measuring over the board reads, by its metric argument (positional at `at`, or named)."""
    metric = node.args[at] if len(node.args) > at else None
    for k in node.kwargs:
        if k.name == "metric":
            metric = k.value
    if metric is None or isinstance(metric, n.NoneLit):
        return set()
    if isinstance(metric, n.StrLit):
        return {"metric:" + metric.value}
    return {"metric:*"}  # a name worked out in play: one of the rule file's metrics (any other fails)


def const(value: Any) -> Fn:
    def fn(s: Any, b: dict[str, Any]) -> Any:
        return value

    fn.const = value  # type: ignore[attr-defined]
    return fn


def is_const(fn: Fn) -> bool:
    return hasattr(fn, "const")


def _repeats_too_much(a: Any, b: Any) -> bool:
    """Whether `a * b` makes a text or list longer than a range may be (computed now, it must stay small)."""
    for seq, times in ((a, b), (b, a)):
        if isinstance(seq, str | list | tuple) and isinstance(times, int) and len(seq) * times > MAX_RANGE:
            return True
    return False


def _guarded(fn: Fn, where: Where) -> Fn:
    """The closures of a whole expression, a Python error in them reported at the expression."""

    def guarded(s: Any, b: dict[str, Any]) -> Any:
        try:
            return fn(s, b)
        except RUNTIME_ERRORS as err:
            raise located(err, where) from err

    return guarded


def free_names(node: Any) -> set[str]:
    """Every plain name a node mentions (used to place `when` conjuncts at the earliest parameter)."""
    found: set[str] = set()
    if isinstance(node, n.Name):
        found.add(node.id)
    elif isinstance(node, n.KeyPath):
        found.add(node.parts[0])
    if is_dataclass(node):
        for f in fields(node):
            value = getattr(node, f.name)
            items = value if isinstance(value, tuple) else (value,)
            for item in items:
                if is_dataclass(item):
                    found |= free_names(item)
    return found


def make_get_attr(sym: Symbols) -> Callable[[Any, Any, str], Any]:
    definitions = sym.definitions  # filled in place while the game compiles (sym.resources is replaced)
    zone_keys: dict[str, ZoneKeys] = {}  # per-player zone -> its keys, made at the zone's first read

    def get_attr(s: Any, obj: Any, name: str) -> Any:
        t = type(obj)
        if t is Player:
            rec = s.pv[obj]
            if name in rec:
                return rec[name]
            keys = zone_keys.get(name)
            if keys is None and name in sym.player_zones:
                keys = zone_keys[name] = ZoneKeys(name)
            zone = s.zones.get(keys[obj]) if keys is not None else None
            if zone is not None:
                return zone
            if name == "resources":
                return Bundle({r: rec[r] for r in sym.resources})
            if name == "index":
                return int(obj)
        elif t is PieceRef:
            rec = s.pieces[obj]
            if name in rec:
                return rec[name]
            return definitions[rec["kind"]].get(name)
        elif t is str:
            site = s.sites.get(obj) if s is not None else None  # no state: a constant, known before play
            if site is not None:
                return site.get(name)
            d = definitions.get(obj)
            if d is not None:
                return d.get(name)
        elif obj is None:
            return None
        elif isinstance(obj, dict):
            return obj.get(name)
        raise RuleRuntimeError(f"{obj} has no field '{name}'")

    return get_attr


class ExprCompiler:
    """Turns nodes into closures; reports unknown names to the sink with did-you-mean hints."""

    def __init__(self, sym: Symbols, sink: Sink, defs: dict[str, Fn]) -> None:
        self.sym = sym
        self.sink = sink
        self.defs = defs  # filled later: calls bind late so defs may call each other
        self.get_attr = make_get_attr(sym)
        self.path: Path = ()
        self.reads: set[str] = set()  # what the expressions compiled since the last reset read
        self.piece_parts: set[str] = set()  # the finer parts of `pieces` any rule reads (see `piece_reads`)
        # Names a comprehension binds while its parts compile; those bound to pieces of a query of known
        # kinds or owner, with the parts of `pieces` those pieces are counted in (see `piece_reads`).
        self.bound: set[str] = set()
        self.piece_vars: dict[str, set[str]] = {}
        self.card_vars: set[str] = set()  # names bound to the cards of a zone: their fields never change
        self.depth = 0  # how deep in one expression the closure compiler is
        # Fields read of values whose kind is not known statically (a site, a piece, a card, a table row),
        # and fields statements set on them: (name, path, offset), checked once the whole file is compiled.
        self.field_uses: list[tuple[str, Path, int]] = []
        self.field_sets: list[tuple[str, Path, int]] = []
        self.gen = None if os.environ.get("MEEPLE_CODEGEN") == "0" else SourceGen(self)

    # ------------------------------------------------------------ entry points

    def parse_at(self, text: Any, path: Path, start: str = "expr") -> n.Node | None:
        try:
            return parse(rule_text(text), start)
        except ExprSyntaxError as err:
            self.sink.at(path, err.offset, "syntax/invalid", err.message, err.hint)
            return None

    def compile(self, text: Any, path: Path, scope: Scope) -> Fn:
        node = self.parse_at(text, path)
        if node is None:
            return const(None)
        self.path = path
        return self.expr(node, scope)

    def error(self, node: n.Node, code: str, message: str, hint: str | None = None) -> None:
        self.sink.at(self.path, node.pos, code, message, hint)

    # ------------------------------------------------------------ dispatch

    def expr(self, node: n.Node, scope: Scope) -> Fn:
        """The closures of a node; for a whole expression compiled without a mistake, generated source."""
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            self.error(node, "syntax/not-an-expression", f"a {type(node).__name__} is not a value")
            return const(None)
        before = len(self.sink.diagnostics)
        self.depth += 1
        try:
            fn: Fn = method(node, scope)
        finally:
            self.depth -= 1
        if self.depth > 0 or is_const(fn):
            return fn
        where = Where(self.sink.index, self.path, node.pos)
        if self.gen is not None and len(self.sink.diagnostics) == before:
            fast = self.gen.function(node, scope, where)
            if fast is not None:
                return fast  # type: ignore[no-any-return]
        return _guarded(fn, where)

    def c_IntLit(self, node: n.IntLit, scope: Scope) -> Fn:
        return const(node.value)

    def c_StrLit(self, node: n.StrLit, scope: Scope) -> Fn:
        return const(node.value)

    def c_BoolLit(self, node: n.BoolLit, scope: Scope) -> Fn:
        return const(node.value)

    def c_NoneLit(self, node: n.NoneLit, scope: Scope) -> Fn:
        return const(None)

    def c_Name(self, node: n.Name, scope: Scope) -> Fn:
        name = node.id
        sym = self.sym
        if name in scope:
            return lambda s, b: b[name]
        if name in sym.game_vars:
            self.reads.add("gv")
            return lambda s, b: s.gv[name]
        if name in sym.zones:
            self.reads.add("zones")
            return lambda s, b: s.zones[name]
        if name == "players":
            return lambda s, b: s.players
        if name in sym.tables:
            return const(sym.tables[name])
        if name in sym.constants:
            return const(sym.constants[name])
        if name in sym.definitions or name in sym.resources or name in sym.actions:
            return const(name)
        if name in sym.routines:
            routines = sym.routines  # compiled after the expressions that name them
            return lambda s, b: routines[name]
        if name in sym.keyed_zones:
            return self.bare_zone_family(node)
        if name in ("turn", "option") or name in sym.scopes:
            self.error(node, "name/bare-scope", f"'{name}' needs a field: {name}.<name>")
            return const(None)
        if name in sym.player_vars:  # a field of each player, named as if it were one value
            hint = f"'{name}' is a player variable: read it from a player, as me.{name} or p.{name}"
            self.error(node, "name/unknown-name", f"unknown name '{name}'", hint)
            return const(None)
        self.sink.unknown(self.path, node.pos, "name", name, self.known_names(scope))
        return const(None)

    def bare_zone_family(self, node: n.Name) -> Fn:
        """A zone family named without its key, in an expression or where a statement wants a zone."""
        message = f"'{node.id}' is a family of zones: pick one with {node.id}[key]"
        self.error(node, "name/bare-zone-family", message)
        return const(None)

    def known_names(self, scope: Scope) -> list[str]:
        sym = self.sym
        return [
            *scope,
            *sym.game_vars,
            *sym.zones,
            *sym.keyed_zones,
            *sym.tables,
            *sym.constants,
            *sym.definitions,
            *sym.resources,
            *sym.defs,
            *sym.routines,
            *sym.scopes,
            *BUILTINS,
            "players",
            "turn",
            "option",
        ]

    def c_Attr(self, node: n.Attr, scope: Scope) -> Fn:
        name = node.name
        if isinstance(node.obj, n.Name) and node.obj.id not in scope:
            if node.obj.id == "turn":
                self.reads.add("tv")
                if name not in self.sym.turn_vars:
                    self.sink.unknown(self.path, node.pos, "turn variable", name, self.sym.turn_vars)
                return lambda s, b: s.tv[name]
            scope_vars = self.sym.scopes.get(node.obj.id)
            if scope_vars is not None:
                self.reads.add(scope_part(node.obj.id, name))  # that variable only
                if name not in scope_vars:
                    self.sink.unknown(self.path, node.pos, "scope variable", name, scope_vars)
                scope_name = node.obj.id
                return lambda s, b: s.sv[scope_name][name]
            if node.obj.id == "option":
                if name not in self.sym.options:
                    self.sink.unknown(self.path, node.pos, "option", name, self.sym.options)
                    return const(None)
                return lambda s, b: s.options[name]
        obj = self.expr(node.obj, scope)
        kind = self.type_of(node.obj, scope)
        if kind == "player":
            return self.player_attr(node, obj)
        self.field_uses.append((name, self.path, node.end - len(name)))
        owned = self.piece_vars.get(node.obj.id) if isinstance(node.obj, n.Name) else None
        if owned:  # a piece a comprehension takes from a query: counted where the query's pieces are
            self.reads |= owned
        elif isinstance(node.obj, n.Name) and node.obj.id in self.card_vars:
            pass  # a card's field: written in the rules, never changed
        else:
            self.reads |= (
                {"pieces"}
                if kind == "piece"
                else {"sites"}
                if kind == "site"
                else self.field_reads(name, node.obj)
            )
        get_attr = self.get_attr
        if is_const(obj):
            value = obj.const  # type: ignore[attr-defined]
            if isinstance(value, str) and value in self.sym.definitions:
                return const(self.sym.definitions[value].get(name))
        return lambda s, b: get_attr(s, obj(s, b), name)

    def field_reads(self, name: str, obj: n.Node | None = None) -> set[str]:
        """What reading the field `name` of a value of unknown type may read: a piece's or a site's field
        (the marker `field:NAME`, which the game's compiler resolves once every statement is compiled, to the
        parts of the kinds of things that have or are given such a field), and a player's only when players
        have a field of that name (a definition's fields never change): `player_part`, a zone of the player
        a name stands for as such (`zones@=p`, see player_attr)."""
        sym = self.sym
        reads = {f"field:{name}"}
        if name in sym.player_fields():
            reads.add(self.player_part(name, obj))
        return reads

    def player_part(self, name: str, obj: n.Node | None) -> str:
        """The part of a state a player's field `name` is read from; a zone of the player a name (not one a
        comprehension binds) stands for is in that player's zones (`zones@=p`: GameDef.zone_parts)."""
        part = self.sym.player_part(name)
        if part == "zones" and isinstance(obj, n.Name) and obj.id not in self.bound:
            return f"zones{OWNED}{obj.id}"
        return part

    def player_attr(self, node: n.Attr, obj: Fn) -> Fn:
        name = node.name
        sym = self.sym
        self.reads.add(self.player_part(name, node.obj))
        if name in sym.player_vars or name in sym.resources:
            return lambda s, b: s.pv[obj(s, b)][name]
        if name in sym.player_zones:
            return lambda s, b: s.zones[f"{name}#{int(obj(s, b))}"]
        if name == "resources":
            res = sym.resources
            return lambda s, b: Bundle({r: s.pv[obj(s, b)][r] for r in res})
        if name == "index":
            return lambda s, b: int(obj(s, b))
        self.sink.unknown(self.path, node.end - len(name), "player field", name, sym.player_fields())
        return const(None)

    def type_of(self, node: n.Node, scope: Scope) -> str | None:
        if isinstance(node, n.Name):
            if node.id in scope:
                return scope[node.id]
            return None
        if isinstance(node, n.Attr) and node.name == "owner":
            return "player"
        return None

    def names_a_constant(self, node: n.Name, scope: Scope) -> bool:
        """Whether a name is read as a constant, as `c_Name` resolves it: nothing bound, no variable, zone or
        table of that name comes first."""
        sym = self.sym
        return not (
            node.id in scope or node.id in sym.game_vars or node.id in sym.zones or node.id in sym.tables
        )

    def element_type(self, node: n.Node, scope: Scope) -> str | None:
        """The type of the items of a collection expression, when it can be told statically."""
        if isinstance(node, n.Name) and node.id == "players":
            return "player"
        if (
            isinstance(node, n.Name)
            and node.id in self.sym.site_collections
            and self.names_a_constant(node, scope)
        ):
            return "site"  # `tiles`, `cells`…
        if (
            isinstance(node, n.Call)
            and isinstance(node.func, n.Name)
            and node.func.id in BOARD_QUERIES
            and node.func.id not in self.sym.defs
        ):
            return "site"  # `neighbours(c)`, `sides_of(t)`…
        if (
            isinstance(node, n.Call)
            and isinstance(node.func, n.Name)
            and node.func.id in ("pieces", "pieces_at")
        ):
            return "piece"
        if isinstance(node, n.BinOp) and node.op == "+":  # two lists joined: their items, if alike
            left = self.element_type(node.left, scope)
            return left if left is not None and left == self.element_type(node.right, scope) else None
        if isinstance(node, n.ListComp):
            inner = dict(scope)
            for comp in node.comps:
                t = self.element_type(comp.iter, inner)
                for nm in comp.names:
                    inner[nm] = t
            return self.type_of(node.elt, inner)
        return None

    def c_Index(self, node: n.Index, scope: Scope) -> Fn:
        key = self.expr(node.key, scope)
        if isinstance(node.obj, n.Name) and node.obj.id in self.sym.keyed_zones and node.obj.id not in scope:
            self.reads.add("zones")
            name = node.obj.id

            return lambda s, b: zone_member(s, name, key(s, b))
        obj = self.expr(node.obj, scope)

        return lambda s, b: index_value(obj(s, b), key(s, b))

    # ------------------------------------------------------------ calls

    def c_Call(self, node: n.Call, scope: Scope) -> Fn:
        args = [self.expr(a, scope) for a in node.args]
        kwargs = {k.name: self.expr(k.value, scope) for k in node.kwargs}
        if not isinstance(node.func, n.Name):
            self.error(node, "type/not-callable", "only named functions can be called")
            return const(None)
        name = node.func.id
        if name in self.sym.defs:
            named = all(isinstance(a, n.Name) and a.id not in self.bound for a in node.args)
            # with its arguments when each is a name the caller binds: what it reads of a player's own
            # pieces is then that of the player the caller's name stands for (GameCompiler.expand_reads)
            marker = f"{name}({','.join(a.id for a in node.args)})" if named else name  # type: ignore[attr-defined]
            self.reads.add("def:" + marker)
            return self.call_def(node, name, args)
        if name in _METRIC_ARG:
            self.reads |= metric_reads(node, _METRIC_ARG[name])
        elif name in ("pieces", "supply"):
            self.reads |= self.piece_reads(node) or {"pieces"}
        else:
            self.reads |= BUILTIN_READS.get(name, set())
        fn = BUILTINS.get(name)
        if fn is None:
            self.sink.unknown(self.path, node.pos, "function", name, [*self.sym.defs, *BUILTINS])
            return const(None)
        if not self.fits_signature(node, name, fn):
            return const(None)
        return _call_builtin(fn, args, kwargs)

    def fits_signature(self, node: n.Call, name: str, fn: Callable[..., Any]) -> bool:
        """Whether a built-in is given arguments it takes; else report the misspelt keyword or the count."""
        signature = signature_of(fn)
        named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        takes = [p.name for p in list(signature.parameters.values())[1:] if p.kind in named]
        any_keyword = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values())
        for k in node.kwargs:
            if k.name not in takes and not any_keyword:
                self.error(
                    k,
                    "name/unknown-keyword",
                    f"{name} has no argument '{k.name}'",
                    did_you_mean(k.name, takes),
                )
                return False
        try:
            signature.bind(None, *node.args, **{k.name: k for k in node.kwargs})
        except TypeError as err:
            self.error(
                node, "type/arity", f"{name}(): {err}", f"{name} takes: {', '.join(takes) or 'nothing'}"
            )
            return False
        return True

    def call_def(self, node: n.Call, name: str, args: list[Fn]) -> Fn:
        params = self.sym.defs[name]
        if len(params) != len(args) or node.kwargs:
            self.error(node, "type/arity", f"{name} takes {len(params)} argument(s): {', '.join(params)}")
            return const(None)
        defs = self.defs
        missing = _MISSING
        if len(args) == 1:
            (p0,), (a0,) = params, args

            def call1(s: Any, b: dict[str, Any]) -> Any:
                v0 = a0(s, b)
                memo = s._memo
                if memo is None:
                    return defs[name](s, {p0: v0})
                key = (name, v0)
                try:
                    hit = memo.get(key, missing)
                except TypeError:  # an unhashable argument: no memo
                    return defs[name](s, {p0: v0})
                if hit is missing:
                    hit = memo[key] = defs[name](s, {p0: v0})
                return hit

            return call1

        def call(s: Any, b: dict[str, Any]) -> Any:
            values = tuple([a(s, b) for a in args])
            memo = s._memo
            if memo is None:
                return defs[name](s, dict(zip(params, values)))
            key = (name, values)
            try:
                hit = memo.get(key, missing)
            except TypeError:  # an unhashable argument: no memo
                return defs[name](s, dict(zip(params, values)))
            if hit is missing:
                hit = memo[key] = defs[name](s, dict(zip(params, values)))
            return hit

        return call

    def c_GenCall(self, node: n.GenCall, scope: Scope) -> Fn:
        if not isinstance(node.func, n.Name) or node.func.id not in _AGGREGATES:
            self.error(
                node,
                "type/not-aggregate",
                "a generator argument needs an aggregate: " + ", ".join(sorted(_AGGREGATES)),
            )
            return const(None)
        fn = BUILTINS[node.func.id]
        gen = self.generator(node.elt, node.comps, scope)
        if node.func.id == "any":
            return lambda s, b: any(gen(s, b))
        if node.func.id == "all":
            return lambda s, b: all(gen(s, b))
        return lambda s, b: fn(s, gen(s, b))

    def c_ListComp(self, node: n.ListComp, scope: Scope) -> Fn:
        gen = self.generator(node.elt, node.comps, scope)
        return lambda s, b: list(gen(s, b))

    def generator(self, elt: n.Node, comps: tuple[n.CompFor, ...], scope: Scope) -> Fn:
        inner = dict(scope)
        levels = []
        bound, piece_vars, card_vars = set(self.bound), dict(self.piece_vars), set(self.card_vars)
        try:
            for comp in comps:
                outer, self.reads = self.reads, set()
                it = self.expr(comp.iter, inner)
                t = self.element_type(comp.iter, inner)
                one = len(comp.names) == 1
                parts = self.piece_reads(comp.iter) if one else None
                if parts:  # of the kinds the condition keeps: a change to another kind's changes nothing
                    narrow = self.narrowed(parts, comp.names[0], comp.conds)
                    if narrow != parts:
                        self.reads -= parts - narrow
                        parts = narrow
                if one and not parts and self.pieces_here(comp.iter):
                    parts = self.kinds_kept(comp.names[0], comp.conds)
                    if parts:  # only pieces of those kinds are left: their changes alone count
                        self.reads.discard("pieces")
                        self.reads |= parts
                        self.piece_parts |= parts
                self.reads |= outer
                cards = one and self.a_zone(comp.iter, inner)
                for nm in comp.names:
                    inner[nm] = t
                    self.bound.add(nm)
                    self.piece_vars.pop(nm, None)
                    self.card_vars.discard(nm)
                    if parts:
                        self.piece_vars[nm] = parts
                    elif cards:
                        self.card_vars.add(nm)
                conds = [self.expr(c, inner) for c in comp.conds]
                levels.append((comp.names, it, conds))
            elt_fn = self.expr(elt, inner)
        finally:
            self.bound, self.piece_vars, self.card_vars = bound, piece_vars, card_vars
        return _nested_generator(levels, elt_fn)

    def pieces_here(self, node: n.Node) -> bool:
        """Whether an expression is `pieces_at(x)` (the built-in) of a name or a constant: all it reads
        is the pieces."""
        return plain_pieces_at(node, self.sym.defs) and isinstance(node.args[0], (n.Name, n.StrLit))

    def kinds_kept(self, name: str, conds: tuple[n.Node, ...]) -> set[str] | None:
        """The parts of `pieces` of the kinds a comprehension's condition keeps of the pieces bound to
        `name` (`b.kind in ['project', 'route']`, `b.kind == 'rope'`, `b.kind != 'rope'`); None when none
        says."""
        for cond in conds:
            if not (isinstance(cond, n.Compare) and len(cond.ops) == 1):
                continue
            op, left, right = cond.ops[0], cond.left, cond.rights[0]
            if op not in ("in", "==", "not in", "!="):
                continue
            if not (isinstance(left, n.Attr) and left.name == "kind" and isinstance(left.obj, n.Name)):
                continue
            if left.obj.id != name:
                continue
            items = right.items if isinstance(right, n.ListLit) and op in ("in", "not in") else [right]
            if items and all(isinstance(i, n.StrLit) and i.value in self.sym.piece_kinds for i in items):
                named = {i.value for i in items}  # type: ignore[attr-defined]
                kinds = named if op in ("in", "==") else self.sym.piece_kinds - named
                return {f"pieces.{k}" for k in kinds}
        return None

    def narrowed(self, parts: set[str], name: str, conds: tuple[n.Node, ...]) -> set[str]:
        """The parts of a piece query's answer (`pieces.K@=p`...) of the kinds a comprehension's condition
        keeps of the pieces bound to `name` (`for b in pieces(owner=p) if b.kind != 'rope'`): a piece of
        another kind never gets past it, so a change to one changes nothing the comprehension makes."""
        kept = self.kinds_kept(name, conds)
        if kept is None:
            return parts
        return {p for p in parts if p.partition(OWNED)[0] in kept}

    def a_zone(self, node: n.Node, scope: Scope) -> bool:
        """Whether an expression is a zone of cards: a shared zone's name or a player's zone (`p.hand`)."""
        if isinstance(node, n.Name):
            return node.id in self.sym.zones and node.id not in scope
        return (
            isinstance(node, n.Attr)
            and node.name in self.sym.player_zones
            and self.type_of(node.obj, scope) == "player"
        )

    def piece_reads(self, node: n.Node) -> set[str] | None:
        """`finer_piece_reads`, each part noted in `piece_parts` (the finer parts some rule reads)."""
        found = self.finer_piece_reads(node)
        if found:
            self.piece_parts |= found
        return found

    def finer_piece_reads(self, node: n.Node) -> set[str] | None:
        """The parts of `pieces` a piece query's answer is counted in, when finer than all of them: its
        kind's (`pieces('rope')`), that kind's pieces of the player a name stands for (`pieces('rope',
        owner=p)`, as `pieces.rope@=p`), the same for every kind (`pieces(owner=p)`), and `supply(p, 'rope')`
        likewise; the pieces of `a + b` are those of both. None for anything else."""
        if isinstance(node, n.BinOp) and node.op == "+":
            left, right = self.finer_piece_reads(node.left), self.finer_piece_reads(node.right)
            return left | right if left and right else None
        if not (isinstance(node, n.Call) and isinstance(node.func, n.Name)) or node.func.id in self.sym.defs:
            return None
        given = dict(zip(("kind", "owner"), node.args))
        given.update((k.name, k.value) for k in node.kwargs)
        if node.func.id == "supply":
            if len(node.args) != 2 or node.kwargs:
                return None
            given = {"owner": node.args[0], "kind": node.args[1]}
        elif node.func.id != "pieces" or len(node.args) > 2 or set(given) - {"kind", "owner"}:
            return None
        kind, owner = given.get("kind"), given.get("owner")
        if isinstance(kind, n.StrLit) and kind.value in self.sym.piece_kinds:
            kinds = [kind.value]
        elif kind is None or isinstance(kind, n.NoneLit):
            kinds = sorted(self.sym.piece_kinds)
        else:
            return None
        if isinstance(owner, n.Name) and owner.id not in self.bound:
            return {f"pieces.{k}{OWNED}{owner.id}" for k in kinds}
        if owner is None and kind is not None and kinds:
            return {f"pieces.{kinds[0]}"}
        return None

    # ------------------------------------------------------------ operators

    def c_ListLit(self, node: n.ListLit, scope: Scope) -> Fn:
        items = [self.expr(i, scope) for i in node.items]
        if all(is_const(i) for i in items):
            return const([i.const for i in items])  # type: ignore[attr-defined]
        return lambda s, b: [i(s, b) for i in items]

    def c_TupleLit(self, node: n.TupleLit, scope: Scope) -> Fn:
        items = [self.expr(i, scope) for i in node.items]
        return lambda s, b: tuple(i(s, b) for i in items)

    def c_BinOp(self, node: n.BinOp, scope: Scope) -> Fn:
        op = _BINOPS[node.op]
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        if is_const(left) and is_const(right):
            a, c = left.const, right.const  # type: ignore[attr-defined]
            if node.op == "*" and _repeats_too_much(a, c):
                self.error(
                    node, "type/operands", f"'*' would repeat a text or list to over {MAX_RANGE:,} items"
                )
                return const(None)
            try:
                return const(op(a, c))
            except (TypeError, ZeroDivisionError) as err:
                if a is not None and c is not None:  # None: an unknown name, reported already
                    self.error(node, "type/operands", f"cannot compute '{node.op}' here: {err}")
                return const(None)

        def binop(s: Any, b: dict[str, Any]) -> Any:
            try:
                return op(left(s, b), right(s, b))
            except TypeError as err:
                raise RuleRuntimeError(f"cannot compute '{node.op}': {err}") from None

        return binop

    def c_Compare(self, node: n.Compare, scope: Scope) -> Fn:
        left = self.expr(node.left, scope)
        pairs = [(_CMPOPS[op], self.expr(r, scope)) for op, r in zip(node.ops, node.rights)]
        if len(pairs) == 1:
            ((op, right),) = pairs
            if node.ops[0] == "==":
                if is_const(right):
                    value = right.const  # type: ignore[attr-defined]
                    return lambda s, b: left(s, b) == value
                return lambda s, b: left(s, b) == right(s, b)
            if node.ops[0] == "!=":
                if is_const(right):
                    value = right.const  # type: ignore[attr-defined]
                    return lambda s, b: left(s, b) != value
                return lambda s, b: left(s, b) != right(s, b)
            return lambda s, b: op(left(s, b), right(s, b))

        def chain(s: Any, b: dict[str, Any]) -> bool:
            a = left(s, b)
            for op, right in pairs:
                c = right(s, b)
                if not op(a, c):
                    return False
                a = c
            return True

        return chain

    def c_BoolOp(self, node: n.BoolOp, scope: Scope) -> Fn:
        parts = [self.expr(v, scope) for v in node.values]
        if node.op == "and":
            if len(parts) == 2:
                a0, a1 = parts
                return lambda s, b: a0(s, b) and a1(s, b)
            return lambda s, b: all(p(s, b) for p in parts)
        if len(parts) == 2:
            o0, o1 = parts
            return lambda s, b: o0(s, b) or o1(s, b)
        return lambda s, b: any(p(s, b) for p in parts)

    def c_NotOp(self, node: n.NotOp, scope: Scope) -> Fn:
        inner = self.expr(node.operand, scope)
        return lambda s, b: not inner(s, b)

    def c_Neg(self, node: n.Neg, scope: Scope) -> Fn:
        inner = self.expr(node.operand, scope)
        return lambda s, b: -inner(s, b)

    def c_RangeLit(self, node: n.RangeLit, scope: Scope) -> Fn:
        start, stop = self.expr(node.start, scope), self.expr(node.stop, scope)
        if is_const(start) and is_const(stop):
            a, z = start.const, stop.const  # type: ignore[attr-defined]
            if isinstance(a, int) and isinstance(z, int):
                if z - a >= MAX_RANGE:
                    self.error(
                        node, "type/range", f"a range has at most {MAX_RANGE:,} values, not {z - a + 1:,}"
                    )
                    return const(None)
                return const(list(range(a, z + 1)))
            given_none = isinstance(node.start, n.NoneLit) or isinstance(node.stop, n.NoneLit)
            if (a is not None and z is not None) or given_none:  # else: an unknown name, reported already
                self.error(node, "type/range", "a range goes between two whole numbers: 1..7")
            return const(None)

        return lambda s, b: number_range(start(s, b), stop(s, b))

    def c_IfExp(self, node: n.IfExp, scope: Scope) -> Fn:
        body, cond, orelse = (self.expr(x, scope) for x in (node.body, node.cond, node.orelse))
        return lambda s, b: body(s, b) if cond(s, b) else orelse(s, b)

    # ------------------------------------------------------------ bundles

    def c_BundleTerm(self, node: n.BundleTerm, scope: Scope) -> Fn:
        amount = self.expr(node.amount, scope)
        key = self.bundle_key(node.key, scope)
        if is_const(amount) and is_const(key):
            return const(Bundle({key.const: amount.const}))  # type: ignore[attr-defined]

        def term(s: Any, b: dict[str, Any]) -> Bundle:
            return Bundle({key(s, b): amount(s, b)})

        return term

    def bundle_key(self, key: n.KeyPath | n.KeyExpr, scope: Scope) -> Fn:
        if isinstance(key, n.KeyExpr):
            return self.expr(key.expr, scope)
        head = key.parts[0]
        if len(key.parts) == 1 and head not in scope:
            if head in self.sym.resources or head == "any":
                return const(head)
            self.sink.unknown(self.path, key.pos, "resource", head, self.sym.resources)
            return const(head)
        node: n.Node = n.Name(head, pos=key.pos, end=key.pos + len(head))
        for i, part in enumerate(key.parts[1:], start=2):
            node = n.Attr(node, part, pos=key.pos, end=key.pos + len(".".join(key.parts[:i])))
        return self.expr(node, scope)


def _call_builtin(fn: Callable[..., Any], args: list[Fn], kwargs: dict[str, Fn]) -> Fn:
    if kwargs:
        return lambda s, b: fn(s, *[a(s, b) for a in args], **{k: v(s, b) for k, v in kwargs.items()})
    if len(args) == 1:
        (a0,) = args
        return lambda s, b: fn(s, a0(s, b))
    if len(args) == 2:
        a0, a1 = args
        return lambda s, b: fn(s, a0(s, b), a1(s, b))
    return lambda s, b: fn(s, *[a(s, b) for a in args])


def _nested_generator(levels: list[tuple[tuple[str, ...], Fn, list[Fn]]], elt: Fn) -> Fn:
    if len(levels) == 1 and len(levels[0][0]) == 1:
        (name,), it, conds = levels[0]

        def flat(s: Any, b: dict[str, Any]) -> Any:
            b = dict(b)
            for item in units(it(s, b)):
                b[name] = item
                if conds and not all(c(s, b) for c in conds):
                    continue
                yield elt(s, b)

        return flat

    def gen(s: Any, b: dict[str, Any]) -> Any:
        inner = dict(b)
        return _walk(s, inner, 0)

    def _walk(s: Any, b: dict[str, Any], depth: int) -> Any:
        names, it, conds = levels[depth]
        last = depth == len(levels) - 1
        single = names[0] if len(names) == 1 else None
        for item in units(it(s, b)):
            if single is not None:
                b[single] = item
            else:
                for nm, v in zip(names, item):
                    b[nm] = v
            if conds and not all(c(s, b) for c in conds):
                continue
            if last:
                yield elt(s, b)
            else:
                yield from _walk(s, b, depth + 1)

    return gen
