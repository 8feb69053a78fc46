"""Whether the secret choices of a `simultaneous` step are independent of each other.

They are when nothing one player's choices do can change what another player may choose: no effect of
an action the step offers writes anything that listing those actions (their domains, conditions and
costs) or the step's `while` reads for another player. A player's own zones (`me.hand`) are told apart
from the same zones of the others, so "each player moves cards between its own zones" is independent.

The engine then lets each player decide on the state the players before have already changed, one
private copy for the whole step, and applies nothing again at the reveal (runtime/simultaneous.py): the
order the choices are applied in is the one the reveal uses, and what each player is offered is the same
as on the state before anyone chose.

Worked out from the rule file's text, and only ever too careful: an effect statement other than moving
cards, `let` and `log` (inside `if`, `for` and `do` groups), a read of anything but cards in zones and
values that never change, or a def it cannot see into, makes the step dependent.
"""

from __future__ import annotations

from typing import Any

from meeple.compile.codegen import PURE_BUILTINS
from meeple.compile.symbols import Symbols
from meeple.rules import nodes as n
from meeple.rules.syntax import def_expression, parse_quietly

# What a read or a write touches: `zone:NAME@me` the deciding player's own zone NAME, `zone:NAME` any
# one of the zones NAME (a shared zone, or a player's zone of some player), ANYTHING what is not told.
ANYTHING = "*"
_OWN = "@me"
ME = "me"  # a name bound to the deciding player
OTHER = "other"  # a name bound to some value that is not known to be the deciding player
_DEPTH = 20  # defs calling defs deeper than this are not looked into


class Independence:
    """Tells the steps whose choices are independent, from the rule file's actions and defs."""

    def __init__(self, sym: Symbols, actions: dict[str, Any], defs: dict[str, tuple[tuple[str, ...], Any]]):
        self.sym = sym
        self.actions = actions  # name -> the action as the rule file writes it
        self.defs = defs  # name -> (parameter names, body text)

    def step(self, names: list[str], until: Any, while_: Any) -> bool:
        """Whether the choices of a `simultaneous` step offering these actions are independent."""
        offered = [*names, *([until] if until in self.actions else [])]
        reads = self.text_reads(while_, {ME: ME}) if while_ is not None else set()
        writes: set[str] = set()
        for name in offered:
            spec = self.actions.get(name)
            if not isinstance(spec, dict):
                return False
            reads |= self.listing_reads(spec)
            writes |= self.effect_writes(spec.get("effect"), {ME: ME})
        return not _clash(reads, writes)

    # ------------------------------------------------------------ reads

    def listing_reads(self, spec: dict[str, Any]) -> set[str]:
        """What listing an action's choices reads: its domains, its condition and its cost."""
        if spec.get("cost") is not None:  # paid from what the player holds, read to list it
            return {ANYTHING}
        env = {ME: ME, **{str(i): OTHER for i in spec.get("inputs") or []}}
        out: set[str] = set()
        params = spec.get("params") or {}
        if not isinstance(params, dict):
            return {ANYTHING}
        for pname, domain in params.items():
            out |= self.text_reads(domain, env)
            env[str(pname)] = OTHER
        if spec.get("when") is not None:
            out |= self.text_reads(spec["when"], env)
        return out

    def text_reads(self, text: Any, env: dict[str, str]) -> set[str]:
        node = parse_quietly(text)
        return {ANYTHING} if node is None else self.reads(node, env, 0)

    def reads(self, node: n.Node, env: dict[str, str], depth: int) -> set[str]:
        """What evaluating the expression reads (`env`: the local names, each ME or OTHER)."""
        sym = self.sym
        if isinstance(node, n.IntLit | n.StrLit | n.BoolLit | n.NoneLit):
            return set()
        if isinstance(node, n.Name):
            if node.id in env or node.id == "players" or node.id in sym.tables or node.id in sym.constants:
                return set()
            return {f"zone:{node.id}"} if node.id in sym.zones else {ANYTHING}
        if isinstance(node, n.Attr):
            if isinstance(node.obj, n.Name) and node.obj.id not in env and node.obj.id == "option":
                return set()
            if node.name in sym.player_zones:
                own = isinstance(node.obj, n.Name) and env.get(node.obj.id) == ME
                return {f"zone:{node.name}{_OWN}" if own else f"zone:{node.name}"} | self.reads(
                    node.obj, env, depth
                )
            return {ANYTHING}  # a field: of a card (never changes), but maybe of a player or a piece
        if isinstance(node, n.Call):
            return self.call_reads(node, env, depth)
        if isinstance(node, n.Index):
            keyed = isinstance(node.obj, n.Name) and node.obj.id in sym.keyed_zones and node.obj.id not in env
            return ({f"zone:{node.obj.id}"} if keyed else self.reads(node.obj, env, depth)) | self.reads(
                node.key, env, depth
            )
        if isinstance(node, n.ListComp | n.GenCall):
            if isinstance(node, n.GenCall) and not (
                isinstance(node.func, n.Name)
                and node.func.id in PURE_BUILTINS
                and node.func.id not in self.defs
            ):
                return {ANYTHING}
            inner = dict(env)
            out: set[str] = set()
            for comp in node.comps:
                out |= self.reads(comp.iter, inner, depth)
                inner.update(dict.fromkeys(comp.names, OTHER))
                for cond in comp.conds:
                    out |= self.reads(cond, inner, depth)
            return out | self.reads(node.elt, inner, depth)
        if isinstance(
            node,
            n.BinOp | n.Compare | n.BoolOp | n.NotOp | n.Neg | n.IfExp | n.ListLit | n.TupleLit | n.RangeLit,
        ):
            out = set()
            for child in n.children(node):
                out |= self.reads(child, env, depth)
            return out
        return {ANYTHING}

    def call_reads(self, node: n.Call, env: dict[str, str], depth: int) -> set[str]:
        if not isinstance(node.func, n.Name) or node.kwargs:
            return {ANYTHING}
        name = node.func.id
        out: set[str] = set()
        for arg in node.args:
            out |= self.reads(arg, env, depth)
        if name in self.defs:
            params, body = self.defs[name]
            node_body = parse_quietly(def_expression(body))
            if node_body is None or depth >= _DEPTH or len(params) != len(node.args):
                return {ANYTHING}
            inner = {
                p: ME if isinstance(a, n.Name) and env.get(a.id) == ME else OTHER
                for p, a in zip(params, node.args)
            }
            return out | self.reads(node_body, inner, depth + 1)
        return out if name in PURE_BUILTINS else {ANYTHING}

    # ------------------------------------------------------------ writes

    def effect_writes(self, items: Any, env: dict[str, str]) -> set[str]:
        """What an effect's statements write; ANYTHING for a statement not looked into."""
        out: set[str] = set()
        for item in items if isinstance(items, list) else [] if items is None else [items]:
            if isinstance(item, str):
                node = parse_quietly(item, "stmt")
                if isinstance(node, n.MoveCard):
                    out |= self.zone_written(node.source, env) | self.zone_written(node.dest, env)
                elif isinstance(node, n.Let):
                    own = isinstance(node.value, n.Name) and env.get(node.value.id) == ME
                    env = {**env, node.name: ME if own else OTHER}
                elif not isinstance(node, n.Log):
                    return {ANYTHING}
            elif isinstance(item, dict) and "for" in item:
                head = parse_quietly(item["for"], "for_clause")
                if not isinstance(head, n.ForClause):
                    return {ANYTHING}
                out |= self.effect_writes(item.get("do"), {**env, **dict.fromkeys(head.names, OTHER)})
            elif isinstance(item, dict) and "if" in item:
                out |= self.effect_writes(item.get("then", item.get("do")), env)
                out |= self.effect_writes(item.get("else"), env)
            elif isinstance(item, dict) and "do" in item:
                out |= self.effect_writes(item["do"], env)  # a group: its `let`s are seen after it, but
                # a name it binds is only ever taken as some other value's (OTHER) further on
            else:
                return {ANYTHING}
        return out

    def zone_written(self, node: n.Node, env: dict[str, str]) -> set[str]:
        sym = self.sym
        if isinstance(node, n.Name) and node.id not in env and node.id in sym.zones:
            return {f"zone:{node.id}"}
        if isinstance(node, n.Attr) and node.name in sym.player_zones:
            own = isinstance(node.obj, n.Name) and env.get(node.obj.id) == ME
            return {f"zone:{node.name}{_OWN}" if own else f"zone:{node.name}"}
        if isinstance(node, n.Index) and isinstance(node.obj, n.Name) and node.obj.id in sym.keyed_zones:
            return {f"zone:{node.obj.id}"}
        return {ANYTHING}


def _clash(reads: set[str], writes: set[str]) -> bool:
    """Whether a write of one player may change a read of another: the same zone, unless both are the
    players' own; anything not told clashes with everything."""
    if not writes:
        return False
    if ANYTHING in writes or ANYTHING in reads:  # a write not told may also change the flow (`end turn`)
        return True
    for w in writes:
        zone = w.removesuffix(_OWN)
        if zone in reads or (w == zone and zone + _OWN in reads):
            return True
    return False
