"""Compile effect blocks (YAML lists of statements, `if:`, `for:` and `do:` items) into closures; a whole
block is then written out as one generated function (stmtgen.py) where it can be."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields, is_dataclass, replace
from typing import Any

from meeple.compile.builtins import added, taken, units
from meeple.compile.cardpaths import Pattern, zone_pattern
from meeple.compile.coverage import Coverage, path_name, place
from meeple.compile.expressions import ExprCompiler, Fn, RuleRuntimeError, Scope, const
from meeple.compile.secrecy import EVERYONE, Origin, PlanCompiler, constant, meet
from meeple.compile.stmtgen import block_function
from meeple.compile.symbols import Path, scope_part
from meeple.compile.where import RUNTIME_ERRORS, Where, located
from meeple.errors import did_you_mean
from meeple.rules import nodes as n
from meeple.rules.syntax import ExprSyntaxError, parse, parse_quietly
from meeple.values import Bundle

Run = Callable[[Any, dict[str, Any]], None]
_BRACES = re.compile(r"\{([^{}]*)\}")
MAX_DICE, MAX_SIDES = 100, 1_000  # `roll NdS`: enough for any table, small enough to roll at once


def _shift(node: Any, by: int) -> Any:
    """A parsed node with its offsets moved by `by`, so errors point into the enclosing string."""
    if not is_dataclass(node):
        return node
    changes: dict[str, Any] = {}
    for f in fields(node):
        value = getattr(node, f.name)
        if f.name in ("pos", "end"):
            changes[f.name] = value + by
        elif isinstance(value, tuple):
            changes[f.name] = tuple(_shift(v, by) for v in value)
        elif is_dataclass(value):
            changes[f.name] = _shift(value, by)
    return replace(node, **changes)  # type: ignore[type-var]


def _action_names(spec: Any) -> list[str]:
    """The inputs and parameters of an action, which `grant action(name=…)` may bind."""
    spec = spec if isinstance(spec, dict) else {}
    inputs, params = spec.get("inputs"), spec.get("params")
    return [str(x) for x in (inputs if isinstance(inputs, list) else [])] + [
        str(x) for x in (params if isinstance(params, dict) else {})
    ]


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, Bundle):
        return str(value) if value else "nothing"
    if isinstance(value, dict):
        return ", ".join(units(value)) or "nothing"
    if isinstance(value, list | tuple):
        return ", ".join(_show(v) for v in value) or "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def planned(run: Run, render: Callable[[list[str]], str], *fns: Fn, ends: bool = False) -> Run:
    """Tag a statement's runner with what it does, for writing its block out as source (stmtgen.py):
    work out `fns` in order, then run the line `render` makes of their sources. `ends`: the statement
    may end the game."""
    render.ends = ends  # type: ignore[attr-defined]
    run.plan = ("call", render, list(fns), None)  # type: ignore[attr-defined]
    return run


def _binding(name: str) -> Callable[[list[str]], str]:
    """The line of a `let`: a name bound to a value (the line fails only where the value does)."""

    def line(v: list[str]) -> str:
        return f"b[{name!r}] = {v[0]}"

    line.binds = True  # type: ignore[attr-defined]
    return line


def _me(s: Any, b: dict[str, Any]) -> Any:
    return b["me"]


_me.source = "b['me']"  # type: ignore[attr-defined]
_me.where = None  # type: ignore[attr-defined]


class Block:
    """A compiled list of statements; calling it runs them in order with the given bindings."""

    __slots__ = ("steps",)

    def __init__(self, steps: list[Run]) -> None:
        self.steps = steps

    @property
    def plan(self) -> tuple[str, list[Run]]:
        return ("block", self.steps)

    def __call__(self, s: Any, b: dict[str, Any]) -> None:
        for step in self.steps:
            if s.over:  # `end game` stops the running effect, not only the flow
                return
            step(s, b)


def _put(
    put: Callable[[Any, dict[str, Any], Any], None], fns: list[Fn], line: Callable[[list[str], str], str]
) -> Callable[[Any, dict[str, Any], Any], None]:
    """A setter tagged for writing out: it works out `fns` (after the value), then runs line(their sources,
    the value's source)."""
    put.plan = (fns, line)  # type: ignore[attr-defined]
    return put


class StmtCompiler:
    """Statements in the order of the grammar; each `s_<Node>` returns a runner."""

    def __init__(
        self, ex: ExprCompiler, locate: Callable[[Path, int], Any], coverage: Coverage | None = None
    ) -> None:
        self.ex = ex
        self.locate = locate  # (path, offset) -> a source span, for coverage's places
        self.coverage = coverage
        self.sym = ex.sym
        self.sink = ex.sink
        self.text = ""
        self.paths: list[tuple[Pattern, Pattern]] = []  # every move and draw: from which zone to which
        # For narrating seat by seat (compile/secrecy.py): where each bound name came from, and the
        # conditions and loops around the statement being compiled, as (node, scope, origins).
        self.plans: PlanCompiler | None = None
        self.origins: dict[str, Origin] = {}
        self.bindings: list[str] = []  # every name a statement has bound so far, in order (`bind`)
        self.context: list[tuple[n.Node, Scope, dict[str, Origin]]] = []
        self.depth = 0  # blocks being compiled, one inside another

    # ------------------------------------------------------------ blocks

    def block(self, items: Any, path: Path, scope: Scope) -> Run:
        """The block's runner: written out as one generated function when it is a whole block (not one
        inside an `if:` or `for:`, which its enclosing block writes out in place), else closures."""
        self.depth += 1
        try:
            block = self.closures(items, path, scope)
        finally:
            self.depth -= 1
        if self.depth or self.coverage is not None or self.ex.gen is None or not block.steps:
            return block
        default = Where(self.ex.sink.index, path, 0)
        return block_function(block, self.ex.gen, default) or block

    def closures(self, items: Any, path: Path, scope: Scope) -> Block:
        scope = dict(scope)
        if items is None:
            return Block([])
        saved = self.origins
        self.origins = dict(saved)  # names a block binds are its own
        try:
            if not isinstance(items, list):  # a lone item in place of a list
                step = self.item(items, path, scope)
                return Block([step] if step else [])
            steps = [self.item(item, (*path, i), scope) for i, item in enumerate(items)]
            return Block([s for s in steps if s])
        finally:
            self.origins = saved

    def item(self, item: Any, path: Path, scope: Scope) -> Run | None:
        if isinstance(item, str):
            return self.statement(item, path, scope)
        if isinstance(item, dict) and "for" in item:
            return self.for_item(item, path, scope)
        if isinstance(item, dict) and "if" in item:
            return self.if_item(item, path, scope)
        if isinstance(item, dict) and "do" in item:
            return self.do_item(item, path, scope)
        message = "a statement is a string, an `if:` or a `for:` item, or a `do:` group"
        self.sink.at(path, None, "rules/bad-statement", message)
        return None

    def do_item(self, item: dict[str, Any], path: Path, scope: Scope) -> Run:
        """`{do: [...], guess: …}`: statements grouped to carry a note, compiled in the enclosing scope so
        the names they `let` stay visible after the group."""
        body = item["do"]
        if isinstance(body, list):
            steps = [self.item(x, (*path, "do", i), scope) for i, x in enumerate(body)]
        else:
            steps = [self.item(body, (*path, "do"), scope)] if body is not None else []
        return Block([s for s in steps if s])

    def if_item(self, item: dict[str, Any], path: Path, scope: Scope) -> Run:
        cond = self.ex.compile(item["if"], (*path, "if"), scope)
        test = parse_quietly(item["if"])
        test_scope = dict(scope)
        with self.within(test, scope):
            then = self.block(item.get("then", item.get("do")), (*path, "then"), scope)
            orelse = self.block(item.get("else"), (*path, "else"), scope)
        if self.coverage is not None:
            where = place(self.locate((*path, "if"), 0))
            return self.coverage.branch(cond, then, orelse, path_name(path), where)
        run: Run = lambda s, b: then(s, b) if cond(s, b) else orelse(s, b)  # noqa: E731
        run.plan = ("if", cond, then, orelse, test, test_scope)  # type: ignore[attr-defined]
        return run

    @contextmanager
    def within(self, node: n.Node | None, scope: Scope) -> Iterator[None]:
        """Statements under a condition or a loop: a seat that may not know it does not see their lines."""
        if node is not None:
            self.context.append((node, dict(scope), dict(self.origins)))
        try:
            yield
        finally:
            if node is not None:
                self.context.pop()

    def bind(self, name: str, node: n.Node | None, scope: Scope) -> None:
        """A name bound by `let`, `for`, `draw … as` or `roll … as`: showing it reads what `node` reads."""
        self.bindings.append(name)
        if self.plans is None:
            return
        plan = constant(EVERYONE) if node is None else self.plans.plan(node, scope, self.origins)
        self.origins[name] = ("bound", plan)

    def for_item(self, item: dict[str, Any], path: Path, scope: Scope) -> Run:
        head = self.ex.parse_at(item["for"], (*path, "for"), "for_clause")
        if not isinstance(head, n.ForClause):
            return lambda s, b: None
        self.ex.path = (*path, "for")
        it = self.ex.expr(head.iter, scope)
        inner = dict(scope)
        t = self.ex.element_type(head.iter, scope)
        for nm in head.names:
            inner[nm] = t
        cond = self.ex.compile(item["if"], (*path, "if"), inner) if "if" in item else None
        saved = self.origins
        self.origins = dict(saved)
        for nm in head.names:
            self.bind(nm, head.iter, scope)
        bound_before = len(self.bindings)
        try:
            cond_node = parse_quietly(item["if"]) if "if" in item else None
            with self.within(head.iter, scope), self.within(cond_node, inner):
                body = self.block(item.get("do"), (*path, "do"), inner)
        finally:
            self.origins = saved
        names = head.names
        rebound = set(self.bindings[bound_before:])  # names the body binds again: not fixed for the loop
        bucket = self.site_bucket(head, cond_node, cond, t, inner, rebound)

        def loop(s: Any, b: dict[str, Any]) -> None:
            for value in list(units(it(s, b))):
                if len(names) == 1:
                    b[names[0]] = value
                else:
                    for nm, v in zip(names, value):
                        b[nm] = v
                if cond is None or cond(s, b):
                    body(s, b)

        loop.plan = ("for", names, it, cond, body, bucket)  # type: ignore[attr-defined]
        return loop

    def site_bucket(
        self,
        head: n.ForClause,
        cond_node: n.Node | None,
        cond: Fn | None,
        element: str | None,
        scope: Scope,
        rebound: set[str],
    ) -> tuple[str, Fn] | None:
        """For a loop over a board's sites (`tiles`) whose `if:` asks that a field of the site equal a value
        that does not depend on it (`t.number == r`, alone or among others joined by `and`): the field and
        the value, so that the loop visits only the sites whose field has that value (stmtgen); else None.
        The value is worked out once, before the loop: a literal, or a name bound before the loop that its
        body does not bind again (a game variable might be set under the loop, a card's effect included)."""
        if cond_node is None or getattr(cond, "source", None) is None or element != "site":
            return None
        if len(head.names) != 1 or not isinstance(head.iter, n.Name):
            return None
        site = head.names[0]
        tests = (
            cond_node.values if isinstance(cond_node, n.BoolOp) and cond_node.op == "and" else (cond_node,)
        )
        for test in tests:
            if not isinstance(test, n.Compare) or test.ops != ("==",):
                continue
            for field_side, value in ((test.left, test.rights[0]), (test.rights[0], test.left)):
                if (
                    isinstance(field_side, n.Attr)
                    and isinstance(field_side.obj, n.Name)
                    and field_side.obj.id == site
                    and (
                        isinstance(value, n.IntLit | n.StrLit)
                        or (
                            isinstance(value, n.Name)
                            and value.id in scope
                            and value.id != site
                            and value.id not in rebound
                        )
                    )
                ):
                    found = self.ex.expr(value, scope)
                    if getattr(found, "source", None) is not None or hasattr(found, "const"):
                        return field_side.name, found
        return None

    def statement(self, text: str, path: Path, scope: Scope) -> Run | None:
        node = self.ex.parse_at(text, path, "stmt")
        if node is None:
            return None
        self.ex.path = path
        self.text = text
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None:
            self.sink.at(
                path,
                node.pos,
                "syntax/not-a-statement",
                "an expression alone does nothing here",
                "start with gain, pay, set, place, grant, …",
            )
            return None
        run: Run = method(node, scope)
        return self.guarded(run, path, node.pos)

    def guarded(self, run: Run, path: Path, pos: int) -> Run:
        """The statement, a Python error in it reported at the statement (unless a rule inside it says)."""
        where = Where(self.ex.sink.index, path, pos)

        def step(s: Any, b: dict[str, Any]) -> None:
            try:
                run(s, b)
            except RUNTIME_ERRORS as err:
                raise located(err, where) from err

        plan = getattr(run, "plan", None)
        if plan is not None and plan[0] == "call":
            step.plan = (*plan[:3], where)  # type: ignore[attr-defined]
        if getattr(run, "only_logged", False):
            step.only_logged = True  # type: ignore[attr-defined]
        return step

    # ------------------------------------------------------------ helpers

    def e(self, node: n.Node | None, scope: Scope) -> Fn | None:
        return None if node is None else self.ex.expr(node, scope)

    def player_or_me(self, node: n.Node | None, scope: Scope) -> Fn:
        return self.ex.expr(node, scope) if node is not None else _me

    def zone_key(self, node: n.Node, scope: Scope) -> Fn:
        """A zone named in a statement: a shared zone, or `<player>.<zone>`."""
        if isinstance(node, n.Name) and node.id in self.sym.zones:
            return const(node.id)
        if isinstance(node, n.Attr) and node.name in self.sym.player_zones:
            owner = self.ex.expr(node.obj, scope)
            name = node.name

            def key_of(s: Any, b: dict[str, Any]) -> str:
                return f"{name}#{int(owner(s, b))}"

            gen = self.ex.gen
            source = getattr(owner, "source", None)
            if gen is not None and source is not None and hasattr(owner, "where"):
                # Written out as the player's key, made once per player (as in expressions), located
                # where the owner is.
                key_of.source = f"{gen.zone_keys(name)}[{source}]"  # type: ignore[attr-defined]
                key_of.where = owner.where  # type: ignore[attr-defined]
            return key_of
        if isinstance(node, n.Index) and isinstance(node.obj, n.Name) and node.obj.id in self.sym.keyed_zones:
            family, key = node.obj.id, self.ex.expr(node.key, scope)
            keys = self.sym.keyed_zones[family]

            def member(s: Any, b: dict[str, Any]) -> str:
                k = key(s, b)
                if k not in keys:
                    raise RuleRuntimeError(f"the zone family '{family}' has no key '{k}'")
                return f"{family}#{k}"

            return member
        if isinstance(node, n.Name) and node.id in self.sym.keyed_zones:
            return self.ex.bare_zone_family(node)
        self.ex.error(
            node, "type/not-a-zone", "expected a zone here", "a shared zone, <player>.<zone> or <family>[key]"
        )
        return const(None)

    def note_path(self, source: n.Node, dest: n.Node) -> None:
        """Cards may go from `source` to `dest` (for a view's determinization)."""
        sym = self.sym
        self.paths.append(
            (
                zone_pattern(source, sym.player_zones, sym.keyed_zones),
                zone_pattern(dest, sym.player_zones, sym.keyed_zones),
            )
        )

    def setter(self, target: n.Node, scope: Scope) -> Callable[[Any, dict[str, Any], Any], None] | None:
        sym = self.sym
        if isinstance(target, n.Name):
            name = target.id
            if name in scope:
                return _put(lambda s, b, v: b.__setitem__(name, v), [], lambda o, x: f"b[{name!r}] = {x}")
            if name in sym.game_vars:
                return _put(
                    lambda s, b, v: s.set_var("gv", name, v),
                    [],
                    lambda o, x: f"s.set_var('gv', {name!r}, {x})",
                )
            self.sink.unknown(self.ex.path, target.pos, "variable", name, [*sym.game_vars, *scope])
            return None
        if isinstance(target, n.Attr):
            name = target.name
            if isinstance(target.obj, n.Name) and target.obj.id == "turn" and "turn" not in scope:
                if name not in sym.turn_vars:
                    self.sink.unknown(self.ex.path, target.pos, "turn variable", name, sym.turn_vars)
                return _put(
                    lambda s, b, v: s.set_var("tv", name, v),
                    [],
                    lambda o, x: f"s.set_var('tv', {name!r}, {x})",
                )
            scope_name = target.obj.id if isinstance(target.obj, n.Name) else ""
            if scope_name in sym.scopes and scope_name not in scope:
                if name not in sym.scopes[scope_name]:
                    known = sym.scopes[scope_name]
                    self.sink.unknown(self.ex.path, target.pos, "scope variable", name, known)
                part = scope_part(scope_name, name)  # its change counter, named once for every set
                return _put(
                    lambda s, b, v: s.set_scoped(scope_name, name, v, part),
                    [],
                    lambda o, x: f"s.set_scoped({scope_name!r}, {name!r}, {x}, {part!r})",
                )
            obj = self.ex.expr(target.obj, scope)
            if self.ex.type_of(target.obj, scope) != "player":
                self.ex.field_sets.append((name, self.ex.path, target.end - len(name)))
            elif name not in sym.player_fields():
                self.sink.unknown(
                    self.ex.path, target.end - len(name), "player field", name, sym.player_fields()
                )
            return _put(
                lambda s, b, v: s.set_field(obj(s, b), name, v),
                [obj],
                lambda o, x: f"s.set_field({o[0]}, {name!r}, {x})",
            )
        self.ex.error(target, "type/not-assignable", "cannot assign to this")
        return None

    # ------------------------------------------------------------ statements

    def resource_change(self, node: n.Gain | n.Pay | n.Lose, scope: Scope, method: str) -> Run:
        bundle, who = self.ex.expr(node.bundle, scope), self.player_or_me(node.player, scope)
        return planned(
            lambda s, b: getattr(s, method)(who(s, b), bundle(s, b)),
            lambda v: f"s.{method}({v[0]}, {v[1]})",
            who,
            bundle,
        )

    def s_Gain(self, node: n.Gain, scope: Scope) -> Run:
        return self.resource_change(node, scope, "gain")

    def s_Pay(self, node: n.Pay, scope: Scope) -> Run:
        return self.resource_change(node, scope, "pay")

    def s_Lose(self, node: n.Lose, scope: Scope) -> Run:
        return self.resource_change(node, scope, "lose")

    def s_Transfer(self, node: n.Transfer, scope: Scope) -> Run:
        bundle, src, dst = (self.ex.expr(x, scope) for x in (node.bundle, node.source, node.dest))
        return planned(
            lambda s, b: s.transfer(bundle(s, b), src(s, b), dst(s, b)),
            lambda v: f"s.transfer({v[0]}, {v[1]}, {v[2]})",
            bundle,
            src,
            dst,
        )

    def s_Let(self, node: n.Let, scope: Scope) -> Run:
        value = self.ex.expr(node.value, scope)
        name = node.name
        self.bind(name, node.value, scope)
        scope[name] = self.ex.type_of(node.value, scope)
        return planned(lambda s, b: b.__setitem__(name, value(s, b)), _binding(name), value)

    def s_Assign(self, node: n.Assign, scope: Scope) -> Run | None:
        value = self.ex.expr(node.value, scope)
        put = self.setter(node.target, scope)
        if put is None:
            return None
        run: Run = lambda s, b: put(s, b, value(s, b))  # noqa: E731
        written = getattr(put, "plan", None)
        if written is None:
            return run
        put_fns, put_line = written
        return planned(run, lambda v: put_line(v[1:], v[0]), value, *put_fns)

    def current(self, target: n.Node, scope: Scope) -> Fn:
        """The value a `+=` or `add … to` target holds before the change: reading it is part of the write,
        not a use of the field of its own (a field only ever changed so is still one nothing reads)."""
        before = len(self.ex.field_uses)
        get = self.ex.expr(target, scope)
        if isinstance(target, n.Attr):
            own = (target.name, self.ex.path, target.end - len(target.name))
            self.ex.field_uses[before:] = [use for use in self.ex.field_uses[before:] if use != own]
        return get

    def s_AugAssign(self, node: n.AugAssign, scope: Scope) -> Run | None:
        get = self.current(node.target, scope)
        value = self.ex.expr(node.value, scope)
        put = self.setter(node.target, scope)
        if put is None:
            return None
        change, helper = (added, "_added") if node.op == "+=" else (taken, "_taken")
        aug: Run = lambda s, b: put(s, b, change(get(s, b), value(s, b)))  # noqa: E731
        written = getattr(put, "plan", None)
        if written is None:
            return aug
        put_fns, put_line = written
        return planned(aug, lambda v: put_line(v[2:], f"{helper}({v[0]}, {v[1]})"), get, value, *put_fns)

    def s_AddTo(self, node: n.AddTo, scope: Scope) -> Run | None:
        item = self.ex.expr(node.item, scope)
        get = self.current(node.target, scope)
        put = self.setter(node.target, scope)
        if put is None:
            return None
        run: Run = lambda s, b: put(s, b, tuple(get(s, b) or ()) + (item(s, b),))  # noqa: E731
        written = getattr(put, "plan", None)
        if written is None:
            return run
        put_fns, put_line = written
        return planned(
            run, lambda v: put_line(v[2:], f"tuple({v[0]} or ()) + ({v[1]},)"), get, item, *put_fns
        )

    def word_at(self, node: n.Node, word: str, after: int = 0) -> int:
        """Where a bare word of a statement (a kind, an action name) starts inside its text."""
        found = self.text.find(word, node.pos + after)
        return found if found >= 0 else node.pos

    def check_keywords(self, given: tuple[n.Kwarg, ...], known: Any, what: str) -> None:
        """Each `name=` of a statement must be one of `known` (a misspelt one would be ignored in play)."""
        for k in given:
            if k.name not in known:
                self.ex.error(k, "name/unknown-keyword", f"{what} '{k.name}'", did_you_mean(k.name, known))

    def check_kind(self, node: n.Node, kind: str, after: int) -> None:
        if kind not in self.sym.piece_kinds:
            self.sink.unknown(
                self.ex.path, self.word_at(node, kind, after), "piece kind", kind, self.sym.piece_kinds
            )

    def s_Place(self, node: n.Place, scope: Scope) -> Run:
        self.check_kind(node, node.kind, len("place"))
        if node.kind in self.sym.piece_kinds:
            declared = (self.sym.definitions[node.kind] or {}).get("fields") or {}
            self.check_keywords(node.fields, declared, f"a {node.kind} has no field")
        site, who = self.ex.expr(node.site, scope), self.player_or_me(node.owner, scope)
        extra = [(k.name, self.ex.expr(k.value, scope)) for k in node.fields]
        kind = node.kind
        keys = [k for k, _ in extra]

        def line(v: list[str]) -> str:
            fields = ", ".join(f"{k!r}: {x}" for k, x in zip(keys, v[2:]))
            return f"s.place({kind!r}, {v[0]}, {v[1]}, {{{fields}}})"

        return planned(
            lambda s, b: s.place(kind, site(s, b), who(s, b), {k: f(s, b) for k, f in extra}),
            line,
            site,
            who,
            *(f for _, f in extra),
        )

    def s_Remove(self, node: n.Remove, scope: Scope) -> Run:
        piece = self.ex.expr(node.piece, scope)
        return planned(lambda s, b: s.remove(piece(s, b)), lambda v: f"s.remove({v[0]})", piece)

    def s_Replace(self, node: n.Replace, scope: Scope) -> Run:
        self.check_kind(node, node.kind, node.piece.end - node.pos)
        piece = self.ex.expr(node.piece, scope)
        who = self.e(node.owner, scope)
        kind = node.kind

        def run(s: Any, b: dict[str, Any]) -> None:
            s.replace(piece(s, b), kind, None if who is None else who(s, b))

        if who is None:
            return planned(run, lambda v: f"s.replace({v[0]}, {kind!r}, None)", piece)
        return planned(run, lambda v: f"s.replace({v[0]}, {kind!r}, {v[1]})", piece, who)

    def s_MoveCard(self, node: n.MoveCard, scope: Scope) -> Run:
        """`move card c from a to b` moves one card; given a bundle, a list or a zone, every unit of it."""
        card = self.ex.expr(node.card, scope)
        src, dst = self.zone_key(node.source, scope), self.zone_key(node.dest, scope)
        self.note_path(node.source, node.dest)

        def move(s: Any, b: dict[str, Any]) -> None:
            what = card(s, b)
            for one in [what] if isinstance(what, str) else list(units(what)):
                s.move_card(one, src(s, b), dst(s, b))

        if self.coverage is None:  # written out: the card(s) and both zones worked out, then moved
            return planned(move, lambda v: f"s.move_cards({v[0]}, {v[1]}, {v[2]})", card, src, dst)
        seen = self.coverage.cards_moved

        def counted(s: Any, b: dict[str, Any]) -> None:  # coverage: count each card moved
            what = card(s, b)
            ones = [what] if isinstance(what, str) else list(units(what))
            for one in ones:
                s.move_card(one, src(s, b), dst(s, b))
            seen(ones)

        return counted

    def s_MovePiece(self, node: n.MovePiece, scope: Scope) -> Run:
        piece, site = self.ex.expr(node.piece, scope), self.ex.expr(node.site, scope)
        return planned(
            lambda s, b: s.move_piece(piece(s, b), site(s, b)),
            lambda v: f"s.move_piece({v[0]}, {v[1]})",
            piece,
            site,
        )

    def s_Draw(self, node: n.Draw, scope: Scope) -> Run:
        count = self.ex.expr(node.count, scope)
        src, dst = self.zone_key(node.source, scope), self.zone_key(node.dest, scope)
        self.note_path(node.source, node.dest)
        name = node.name
        if name:
            self.bind(name, node.dest, scope)  # the cards drawn are where they went
            scope[name] = None

        def draw(s: Any, b: dict[str, Any]) -> None:
            drawn = s.draw(count(s, b), src(s, b), dst(s, b))
            if name:
                b[name] = tuple(drawn)

        if self.coverage is None:  # written out: the count and both zones worked out, then drawn
            if name:
                return planned(
                    draw, lambda v: f"b[{name!r}] = tuple(s.draw({v[0]}, {v[1]}, {v[2]}))", count, src, dst
                )
            return planned(draw, lambda v: f"s.draw({v[0]}, {v[1]}, {v[2]})", count, src, dst)
        seen = self.coverage.cards_moved

        def counted(s: Any, b: dict[str, Any]) -> None:  # coverage: count each card drawn
            drawn = s.draw(count(s, b), src(s, b), dst(s, b))
            seen(drawn)
            if name:
                b[name] = tuple(drawn)

        return counted

    def s_Roll(self, node: n.Roll, scope: Scope) -> Run:
        dice, sides, name = node.dice, node.sides, node.name
        self.bind(name, None, scope)  # a roll is seen by all
        scope[name] = None
        if not (1 <= dice <= MAX_DICE and 1 <= sides <= MAX_SIDES):
            message = f"roll 1 to {MAX_DICE} dice of 1 to {MAX_SIDES:,} sides, not {dice}d{sides}"
            self.sink.at(self.ex.path, node.pos + len("roll "), "rules/dice", message)
        return planned(
            lambda s, b: b.__setitem__(name, s.roll(dice, sides, b.get("me"))),
            lambda v: f"b[{name!r}] = s.roll({dice!r}, {sides!r}, b.get('me'))",
        )

    def s_Grant(self, node: n.Grant, scope: Scope) -> Run:
        action = node.action
        if action not in self.sym.actions:
            self.sink.unknown(
                self.ex.path, self.word_at(node, action, len("grant")), "action", action, self.sym.actions
            )
        else:
            self.check_keywords(
                node.args, _action_names(self.sym.actions[action]), f"{action} has no input or parameter"
            )
        args = [(k.name, self.ex.expr(k.value, scope)) for k in node.args]
        times = self.e(node.times, scope) or const(1)
        by = self.e(node.by, scope)
        free, optional = node.free, node.optional

        def grant(s: Any, b: dict[str, Any]) -> None:
            decider = by(s, b) if by is not None else b["me"]
            s.grant(action, tuple((k, f(s, b)) for k, f in args), times(s, b), decider, free, optional)

        names = [k for k, _ in args]
        first = 0 if by is None else 1  # the values in the order the closure works them out

        def line(v: list[str]) -> str:
            given = "".join(f"({k!r}, {x}), " for k, x in zip(names, v[first:], strict=False))
            decider = v[0] if by is not None else "b['me']"
            return f"s.grant({action!r}, ({given}), {v[-1]}, {decider}, {free}, {optional})"

        fns = [*([by] if by is not None else []), *(f for _, f in args), times]
        return planned(grant, line, *fns)

    def s_Perform(self, node: n.Perform, scope: Scope) -> Run:
        block = self.ex.expr(node.block, scope)

        def perform(s: Any, b: dict[str, Any]) -> None:
            s.perform(block(s, b), b["me"])

        # The effect performed may end the game.
        return planned(perform, lambda v: f"s.perform({v[0]}, b['me'])", block, ends=True)

    def s_Log(self, node: n.Log, scope: Scope) -> Run:
        """`log 'text {expr} text'`: the braces hold expressions, shown with str()."""
        start = self.text.find(node.text, node.pos)
        parts: list[str | Fn] = []
        plans: list[Any] = []  # who may read each value (compile/secrecy.py), when narrated
        for i, piece in enumerate(_BRACES.split(node.text)):
            if i % 2 == 0:
                if piece:
                    parts.append(piece)
                continue
            offset = start + self.text[start:].find("{" + piece + "}") + 1
            try:
                inner = parse(piece)
            except ExprSyntaxError as err:
                self.sink.at(self.ex.path, offset + err.offset, "syntax/invalid", err.message, err.hint)
                continue
            parts.append(self.ex.expr(_shift(inner, offset), scope))
            if self.plans is not None:
                plans.append(self.plans.plan(inner, scope, self.origins))
        context = self.context_plan()
        if all(isinstance(p, str) for p in parts):
            text = "".join(p for p in parts if isinstance(p, str))

            def say(s: Any, b: dict[str, Any]) -> None:
                if s.log is not None:
                    s.tell([text], context(s, b)) if s.unit is not None else s.note(text)

            say.only_logged = True  # type: ignore[attr-defined]
            return say

        def log(s: Any, b: dict[str, Any]) -> None:
            if s.log is None:
                return
            if s.unit is None:
                s.note("".join(p if isinstance(p, str) else _show(p(s, b)) for p in parts))
                return
            shown: list[Any] = []
            k = 0
            for p in parts:
                if isinstance(p, str):
                    shown.append(p)
                    continue
                value = p(s, b)
                shown.append((value, _show(value), plans[k](s, b) if k < len(plans) else EVERYONE))
                k += 1
            s.tell(shown, context(s, b))

        log.only_logged = True  # type: ignore[attr-defined]  # nothing to do in a game not logged
        return log

    def context_plan(self) -> Callable[[Any, dict[str, Any]], Any]:
        """Who may know why the statement being compiled runs: every condition and loop around it."""
        if self.plans is None or not self.context:
            return constant(EVERYONE)
        plans = self.plans
        around = [plans.plan(node, scope, origins) for node, scope, origins in self.context]
        return lambda s, b: meet([p(s, b) for p in around])

    def s_ResetScope(self, node: n.ResetScope, scope: Scope) -> Run | None:
        name = node.scope
        if name not in self.sym.scopes:
            at = self.word_at(node, name, len("reset"))
            self.sink.unknown(self.ex.path, at, "scope", name, self.sym.scopes)
            return None
        return planned(lambda s, b: s.reset_scope(name), lambda v: f"s.reset_scope({name!r})")

    def s_GiveLead(self, node: n.GiveLead, scope: Scope) -> Run:
        who = self.ex.expr(node.player, scope)
        return planned(lambda s, b: s.give_lead(who(s, b)), lambda v: f"s.give_lead({v[0]})", who)

    def s_Win(self, node: n.Win, scope: Scope) -> Run:
        who = self.ex.expr(node.player, scope)
        return planned(
            lambda s, b: s.declare_winners([who(s, b)]),
            lambda v: f"s.declare_winners([{v[0]}])",
            who,
            ends=True,
        )

    def s_EndTurn(self, node: n.EndTurn, scope: Scope) -> Run:
        return planned(lambda s, b: s.end_turn(), lambda v: "s.end_turn()")

    def s_EndGame(self, node: n.EndGame, scope: Scope) -> Run:
        return planned(lambda s, b: s.end_game(), lambda v: "s.end_game()", ends=True)
