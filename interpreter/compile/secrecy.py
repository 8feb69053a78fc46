"""Who may know a value a `log` line shows: the zones and variables its expression reads, and where the names
it uses came from. Compiled once per interpolation into `plan(s, b) -> Audience`, evaluated when the line is
written (only when a game is narrated seat by seat, never in play).

The rule: a value may be shown to a seat that may see everything its expression reads (a zone's cards but
not its size, a private variable), where a name bound by `let` or `for` reads what its expression read, a
card drawn `as` a name reads the zone it went to, and an action's parameter is known to the seats that could
tell the choice apart from what they see afterwards (worked out by the engine: runtime/narration.py). A card
the running action or step moved into or out of a zone a seat sees is known to that seat whatever it was read
from. A line inside an `if` or `for` whose condition a seat may not know is not shown to that seat at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeple.compile.symbols import Sink, Symbols
from meeple.rules import nodes as n
from meeple.rules.syntax import ExprSyntaxError, def_expression, parse, rule_text
from meeple.values import Bundle

# ---------------------------------------------------------------- audiences (evaluated per seat)


class Audience:
    """The seats that may know something."""

    def allows(self, seat: int) -> bool:
        raise NotImplementedError


class _Everyone(Audience):
    def allows(self, seat: int) -> bool:
        return True


class _Nobody(Audience):
    def allows(self, seat: int) -> bool:
        return False


EVERYONE, NOBODY = _Everyone(), _Nobody()


@dataclass(frozen=True)
class Seats(Audience):
    seats: frozenset[int]

    def allows(self, seat: int) -> bool:
        return seat in self.seats


@dataclass(frozen=True)
class Meet(Audience):
    """Seats that are in every part."""

    parts: tuple[Audience, ...]

    def allows(self, seat: int) -> bool:
        return all(p.allows(seat) for p in self.parts)


@dataclass(frozen=True)
class Either(Audience):
    """Seats that are in either part."""

    first: Audience
    second: Audience

    def allows(self, seat: int) -> bool:
        return self.first.allows(seat) or self.second.allows(seat)


@dataclass(frozen=True)
class ParamSeen(Audience):
    """An action's parameter: asked of the running unit (runtime/narration.py) when the line is read."""

    unit: Any
    name: str

    def allows(self, seat: int) -> bool:
        return self.unit is not None and bool(self.unit.param_seen(seat, self.name))


@dataclass(frozen=True)
class CardsSeen(Audience):
    """Cards the running unit moved in or out of a zone the seat sees (none: nobody)."""

    unit: Any
    cards: tuple[str, ...]

    def allows(self, seat: int) -> bool:
        return (
            bool(self.cards)
            and self.unit is not None
            and all(self.unit.card_seen(seat, c) for c in self.cards)
        )


def meet(parts: list[Audience]) -> Audience:
    parts = [p for p in parts if p is not EVERYONE]
    if not parts:
        return EVERYONE
    return parts[0] if len(parts) == 1 else Meet(tuple(parts))


def cards_in(value: Any, cards: Any) -> tuple[str, ...]:
    """The card names a value holds: a card, a list or tuple of them, a zone or a bundle of them."""
    if isinstance(value, str):
        return (value,) if value in cards else ()
    if isinstance(value, dict | Bundle):
        return tuple(k for k in value if k in cards)
    if isinstance(value, list | tuple):
        return tuple(c for v in value for c in cards_in(v, cards))
    return ()


# ---------------------------------------------------------------- plans (compiled)

Plan = Callable[[Any, dict[str, Any]], Audience]
# Where a bound name came from: ("param",), ("bound", plan) for let and for, ("drawn", zone plan).
Origin = tuple[Any, ...]


def constant(audience: Audience) -> Plan:
    return lambda s, b: audience


class PlanCompiler:
    """Builds plans from expression nodes; owners of player zones are compiled as expressions."""

    def __init__(self, sym: Symbols, ex: Any, defs: dict[str, Any]) -> None:
        self.sym = sym
        self.ex = ex  # the ExprCompiler, for the owners of player zones
        self.defs = defs  # def name -> (parameter names, body text)
        self.zone_visibility: dict[str, str] = {}  # filled once the zones are compiled
        self._bodies: dict[str, n.Node | None] = {}

    def plan(self, node: n.Node | list[n.Node], scope: dict[str, Any], origins: dict[str, Origin]) -> Plan:
        """Who may know the value of an expression (of all of a list of them), as `plan(s, b)`."""
        reads: list[Plan] = []
        for one in node if isinstance(node, list) else [node]:
            self._walk(one, scope, origins, {}, reads, 0)
        if not reads:
            return constant(EVERYONE)
        if len(reads) == 1:
            return reads[0]
        return lambda s, b: meet([r(s, b) for r in reads])

    # ------------------------------------------------------------ the walk

    def _walk(
        self,
        node: Any,
        scope: dict[str, Any],
        origins: dict[str, Origin],
        subst: dict[str, n.Node],
        out: list[Plan],
        depth: int,
    ) -> None:
        if not isinstance(node, n.Node):
            return
        if isinstance(node, n.Name) and node.id in subst:
            self._walk(subst[node.id], scope, origins, {}, out, depth)
            return
        if isinstance(node, n.Name):
            out.extend(self._name(node.id, origins))
            return
        if isinstance(node, n.Attr):
            read = self._attr(node, scope, subst)
            if read is not None:
                out.append(read)
            if not _is_scope_word(node.obj, self.sym):
                self._walk(node.obj, scope, origins, subst, out, depth)
            return
        if isinstance(node, n.Index) and isinstance(node.obj, n.Name) and node.obj.id in self.sym.keyed_zones:
            out.append(constant(self._shared(node.obj.id)))
            self._walk(node.key, scope, origins, subst, out, depth)
            return
        if isinstance(node, n.Call) and isinstance(node.func, n.Name):
            self._call(node, scope, origins, subst, out, depth)
            return
        for child in n.children(node):
            self._walk(child, scope, origins, subst, out, depth)

    def _name(self, name: str, origins: dict[str, Origin]) -> list[Plan]:
        sym = self.sym
        if name in origins:
            return [self._bound(name, origins[name])]
        if name in sym.zones:
            return [constant(self._shared(name))]
        if name in sym.private.get("game", {}):
            return [constant(NOBODY)]  # a game variable is either public or hidden from everyone
        return []

    def _bound(self, name: str, origin: Origin) -> Plan:
        cards = self.sym.copies
        if origin[0] == "param":
            return lambda s, b: ParamSeen(s.unit, name)
        inner: Plan = origin[1]
        return lambda s, b: Either(inner(s, b), CardsSeen(s.unit, cards_in(b.get(name), cards)))

    def _attr(self, node: n.Attr, scope: dict[str, Any], subst: dict[str, n.Node]) -> Plan | None:
        sym, name = self.sym, node.name
        obj = node.obj
        if isinstance(obj, n.Name) and obj.id not in scope and obj.id not in subst:
            if obj.id == "turn":
                visibility = sym.private.get("turn", {}).get(name)
                if visibility is None:
                    return None
                if visibility == "hidden":
                    return constant(NOBODY)
                return lambda s, b: (
                    Seats(frozenset({int(s.turn_player)})) if s.turn_player is not None else NOBODY
                )
            if obj.id in sym.scopes:
                return constant(NOBODY) if name in sym.private.get(obj.id, {}) else None
        if name in sym.player_zones:
            return self._owned(self.zone_visibility.get(name, "all"), obj, scope, subst)
        if name in sym.private.get("player", {}):
            return self._owned(sym.private["player"][name], obj, scope, subst)
        return None

    def _owned(self, visibility: str, obj: n.Node, scope: dict[str, Any], subst: dict[str, n.Node]) -> Plan:
        if visibility == "all":
            return constant(EVERYONE)
        if visibility == "hidden":
            return constant(NOBODY)
        owner = self._owner(_substitute(obj, subst), scope)
        if owner is None:
            return constant(NOBODY)  # an owner this line cannot name: shown to no one
        return lambda s, b: Seats(frozenset({int(owner(s, b))}))

    def _owner(self, node: n.Node, scope: dict[str, Any]) -> Any:
        """The owner's expression compiled quietly; None when it names what the line does not bind."""
        ex = self.ex
        saved, path = ex.sink, ex.path
        ex.sink = Sink(saved.index)
        ex.depth += 1  # as a part of an expression: closures only, no generated source for a name
        try:
            fn = ex.expr(node, scope)
            failed = bool(ex.sink.diagnostics)
        finally:
            ex.sink, ex.path = saved, path
            ex.depth -= 1
        return None if failed else fn

    def _shared(self, zone: str) -> Audience:
        return EVERYONE if self.zone_visibility.get(zone, "all") == "all" else NOBODY

    def _call(
        self,
        node: n.Call,
        scope: dict[str, Any],
        origins: dict[str, Origin],
        subst: dict[str, n.Node],
        out: list[Plan],
        depth: int,
    ) -> None:
        name = node.func.id  # type: ignore[attr-defined]
        args = node.args
        if name == "size" and len(args) == 1 and self._is_zone(args[0], subst):
            # A zone's size is public: read only what picks the zone (its owner, its key).
            for child in n.children(args[0]):
                self._walk(child, scope, origins, subst, out, depth)
            return
        for child in (*args, *(k.value for k in node.kwargs)):
            self._walk(child, scope, origins, subst, out, depth)
        if name in self.defs and depth < 8:
            params, _ = self.defs[name]
            body = self._body(name)
            if body is not None and len(params) == len(args):
                inner = {p: _substitute(a, subst) for p, a in zip(params, args)}
                self._walk(body, scope, origins, inner, out, depth + 1)

    def _is_zone(self, node: n.Node, subst: dict[str, n.Node]) -> bool:
        node = _substitute(node, subst)
        sym = self.sym
        if isinstance(node, n.Name):
            return node.id in sym.zones
        if isinstance(node, n.Attr):
            return node.name in sym.player_zones
        return isinstance(node, n.Index) and isinstance(node.obj, n.Name) and node.obj.id in sym.keyed_zones

    def _body(self, name: str) -> n.Node | None:
        if name not in self._bodies:
            try:
                self._bodies[name] = parse(rule_text(def_expression(self.defs[name][1])))
            except ExprSyntaxError:  # reported where the def is compiled
                self._bodies[name] = None
        return self._bodies[name]


def _is_scope_word(node: n.Node, sym: Symbols) -> bool:
    return isinstance(node, n.Name) and (node.id == "turn" or node.id == "option" or node.id in sym.scopes)


def _substitute(node: n.Node, subst: dict[str, n.Node]) -> n.Node:
    if isinstance(node, n.Name) and node.id in subst:
        return subst[node.id]
    return node
