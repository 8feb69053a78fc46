"""Compile a validated rule tree into a GameDef: symbols first, then defs, actions, flow, scoring."""

from __future__ import annotations

import re
from typing import Any

from meeple.compile.board import compile_board, compile_layout
from meeple.compile.builtins import BUILTINS
from meeple.compile.expressions import ExprCompiler, Fn, RuleRuntimeError, Scope, free_names
from meeple.compile.ir import ActionDef, AwardDef, GameDef, ParamDef, PhaseDef, StepDef, ZoneDef
from meeple.compile.statements import StmtCompiler
from meeple.compile.symbols import Sink, Symbols
from meeple.errors import Diagnostic, RulesError, did_you_mean
from meeple.rules import nodes as n
from meeple.rules.loader import SourceIndex

_DEF_HEAD = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(\s*([\w\s,]*)\)\s*$")
TURN_ORDERS = ("clockwise", "counterclockwise", "snake", "none")


def plain(value: Any) -> Any:
    """A data value as the rule language sees it: `none` is the empty value, lists are tuples."""
    if value == "none":
        return None
    if isinstance(value, list):
        return tuple(plain(v) for v in value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def resolve_options(data: dict[str, Any], given: dict[str, Any], index: SourceIndex) -> dict[str, Any]:
    spec = (data.get("game") or {}).get("options") or {}
    options = {name: (o or {}).get("default") for name, o in spec.items()}
    problems = []
    for name, value in given.items():
        if name not in spec:
            problems.append(
                Diagnostic(
                    "usage/unknown-option",
                    f"unknown option '{name}'",
                    index.nearest_span(("game", "options")),
                    did_you_mean(name, spec),
                )
            )
            continue
        lo, hi = spec[name].get("min"), spec[name].get("max")
        if isinstance(value, int) and ((lo is not None and value < lo) or (hi is not None and value > hi)):
            problems.append(
                Diagnostic(
                    "usage/option-range",
                    f"option '{name}' must be within {lo}..{hi}",
                    index.nearest_span(("game", "options", name)),
                )
            )
        options[name] = value
    if problems:
        raise RulesError(problems)
    return options


class GameCompiler:
    """One pass per section, all diagnostics collected into one sink."""

    def __init__(self, data: dict[str, Any], index: SourceIndex) -> None:
        self.data = data
        self.index = index
        self.sink = Sink(index)
        self.sym = Symbols()
        self.defs: dict[str, Fn] = {}
        self.def_reads: dict[str, set[str]] = {}
        self.ex = ExprCompiler(self.sym, self.sink, self.defs)
        self.st = StmtCompiler(self.ex, self._locate)

    def _locate(self, path: Any, pos: int) -> Any:
        return self.index.locate(path, pos)

    # ------------------------------------------------------------ symbols

    def symbols(self, players: int, options: dict[str, Any]) -> None:
        d, sym = self.data, self.sym
        comp = d.get("components") or {}
        sym.resources = list(comp.get("resources") or [])
        for name, spec in (comp.get("terrains") or {}).items():
            sym.definitions[name] = plain(dict(spec or {}))
        card_fields = plain(dict(comp.get("card_fields") or {}))
        for name, spec in (comp.get("cards") or {}).items():
            sym.definitions[name] = {**card_fields, **plain(spec or {})}
        for name, spec in (comp.get("pieces") or {}).items():
            sym.definitions[name] = plain(dict(spec or {}))
            sym.piece_kinds.add(name)
        for name, spec in (comp.get("zones") or {}).items():
            (sym.player_zones if (spec or {}).get("per") == "player" else sym.zones).add(name)
        scopes = d.get("vars") or {}
        sym.game_vars = plain(dict(scopes.get("game") or {}))
        sym.player_vars = plain(dict(scopes.get("player") or {}))
        sym.turn_vars = plain(dict(scopes.get("turn") or {}))
        sym.options = options
        sym.actions = dict(d.get("actions") or {})
        for key in d.get("defs") or {}:
            m = _DEF_HEAD.match(str(key))
            if not m:
                self.sink.at(
                    ("defs", key),
                    None,
                    "syntax/def-head",
                    f"bad definition head '{key}'",
                    "write name(param, …)",
                )
                continue
            params = tuple(p.strip() for p in m.group(2).split(",") if p.strip())
            sym.defs[m.group(1)] = params
        sym.defs["score"] = ("p",)
        self.check_clashes()

    def check_clashes(self) -> None:
        taken: dict[str, str] = {}
        groups = {
            "resource": self.sym.resources,
            "definition": self.sym.definitions,
            "def": self.sym.defs,
            "game variable": self.sym.game_vars,
        }
        for what, names in groups.items():
            for name in names:
                if name in taken and taken[name] != what:
                    self.sink.at((), None, "name/clash", f"'{name}' is both a {taken[name]} and a {what}")
                taken.setdefault(name, what)
        for name in self.sym.defs:
            if name in BUILTINS:
                self.sink.at(("defs",), None, "name/shadows-builtin", f"def '{name}' hides the built-in")

    # ------------------------------------------------------------ sections

    def tables(self) -> None:
        for name, table in (self.data.get("tables") or {}).items():
            if not isinstance(table, dict):
                self.sym.tables[name] = table
                continue
            out = {}
            for key, value in table.items():
                out[key] = self.constant(value, ("tables", name, key))
            self.sym.tables[name] = out

    def constant(self, value: Any, path: tuple[Any, ...]) -> Any:
        """A table entry: a string is an expression evaluated once, with no state."""
        if not isinstance(value, str):
            return value
        fn = self.ex.compile(value, path, {})
        try:
            return fn(None, {})
        except (TypeError, ValueError, AttributeError, KeyError, ZeroDivisionError, RuleRuntimeError) as err:
            self.sink.at(path, None, "type/not-constant", f"a table entry must be a constant value: {err}")
            return None

    def compile_defs(self) -> None:
        for key, body in (self.data.get("defs") or {}).items():
            m = _DEF_HEAD.match(str(key))
            if not m:
                continue
            params = self.sym.defs[m.group(1)]
            scope: Scope = {p: None for p in params}
            self.ex.reads = set()
            self.defs[m.group(1)] = self.ex.compile(body, ("defs", key), scope)
            self.def_reads[m.group(1)] = self.ex.reads

    def expand_reads(self, reads: set[str]) -> set[str]:
        """Replace `def:name` markers by what those definitions read, transitively."""
        out: set[str] = set()
        todo, seen = list(reads), set()
        while todo:
            item = todo.pop()
            if item in seen:
                continue
            seen.add(item)
            if item.startswith("def:"):
                todo.extend(
                    self.def_reads.get(item[4:], {"pv", "gv", "tv", "pieces", "zones", "sites", "awards"})
                )
            else:
                out.add(item)
        return out

    def card_effects(self) -> None:
        comp = self.data.get("components") or {}
        for name, spec in (comp.get("cards") or {}).items():
            effect = (spec or {}).get("effect")
            if effect is not None:
                block = self.st.block(effect, ("components", "cards", name, "effect"), {"me": "player"})
                self.sym.definitions[name]["effect"] = block

    def action(self, name: str, spec: dict[str, Any]) -> ActionDef:
        where = ("actions", name)
        scope: Scope = {"me": "player"}
        params: list[ParamDef] = []
        for inp in spec.get("inputs") or []:
            params.append(ParamDef(str(inp), None))
            scope[str(inp)] = "player" if inp == "partner" else None
        for pname, domain in (spec.get("params") or {}).items():
            self.ex.path = (*where, "params", pname)
            node = self.ex.parse_at(domain, (*where, "params", pname))
            fn = self.ex.expr(node, scope) if node is not None else (lambda s, b: [])
            scope[pname] = self.ex.element_type(node, scope) if node is not None else None
            params.append(ParamDef(pname, fn))
        order = {p.name: i + 1 for i, p in enumerate(params)}
        checks: list[list[Fn]] = [[] for _ in range(len(params) + 1)]
        if "when" in spec:
            node = self.ex.parse_at(spec["when"], (*where, "when"))
            if node is not None:
                self.ex.path = (*where, "when")
                parts = node.values if isinstance(node, n.BoolOp) and node.op == "and" else (node,)
                for part in parts:
                    level = max([order.get(x, 0) for x in free_names(part)], default=0)
                    checks[level].append(self.ex.expr(part, scope))
        cost, cost_level = None, 0
        if spec.get("cost") is not None:
            node = self.ex.parse_at(spec["cost"], (*where, "cost"))
            if node is not None:
                self.ex.path = (*where, "cost")
                cost = self.ex.expr(node, scope)
                cost_level = max([order.get(x, 0) for x in free_names(node)], default=0)
        effect = self.st.block(spec.get("effect"), (*where, "effect"), scope)
        return ActionDef(
            name,
            tuple(params),
            tuple(tuple(c) for c in checks),
            cost,
            cost_level,
            effect,
            bool(spec.get("stepwise")),
        )

    def flow(self) -> tuple[PhaseDef, ...]:
        phases = []
        for i, ph in enumerate(self.data.get("flow") or []):
            where = ("flow", i)
            turns = ph.get("turns", "clockwise")
            if turns not in TURN_ORDERS:
                self.sink.at(
                    (*where, "turns"),
                    None,
                    "name/unknown-turn-order",
                    f"unknown turn order '{turns}'",
                    did_you_mean(turns, TURN_ORDERS),
                )
            steps = [self.step(st, (*where, "do", j)) for j, st in enumerate(ph.get("do") or [])]
            until = self.ex.compile(ph["until"], (*where, "until"), {}) if "until" in ph else None
            phases.append(
                PhaseDef(
                    str(ph.get("phase", f"phase{i + 1}")), turns, bool(ph.get("repeat")), tuple(steps), until
                )
            )
        return tuple(phases)

    def step(self, st: dict[str, Any], where: tuple[Any, ...]) -> StepDef:
        scope: Scope = {"me": "player"}
        if "step" in st:
            return StepDef("do", block=self.st.block(st["step"], (*where, "step"), scope))
        names = st.get("choose") or []
        for k, nm in enumerate(names):
            if nm not in self.sym.actions:
                self.sink.at(
                    (*where, "choose", k),
                    None,
                    "name/unknown-action",
                    f"unknown action '{nm}'",
                    did_you_mean(str(nm), self.sym.actions),
                )
        return StepDef("choose", actions=tuple(names), until=st.get("until"))

    def scoring(self) -> tuple[Fn, tuple[AwardDef, ...]]:
        sc = self.data.get("scoring") or {}
        score = self.ex.compile(sc.get("score", "0"), ("scoring", "score"), {"p": "player"})
        self.defs["score"] = score
        awards = []
        for name, a in (sc.get("awards") or {}).items():
            self.ex.reads = set()
            measure = self.ex.compile(
                a.get("measure", "0"), ("scoring", "awards", name, "measure"), {"p": "player"}
            )
            reads = tuple(sorted(self.expand_reads(self.ex.reads)))
            awards.append(AwardDef(name, measure, int(a.get("min", 1)), int(a.get("points", 0)), reads))
        return score, tuple(awards)

    def zones(self) -> tuple[ZoneDef, ...]:
        comp = self.data.get("components") or {}
        out = []
        for name, spec in (comp.get("zones") or {}).items():
            spec = spec or {}
            fill: tuple[tuple[str, int], ...] = ()
            if spec.get("fill") == "cards":
                fill = tuple(
                    (c, int((s or {}).get("count", 1))) for c, s in (comp.get("cards") or {}).items()
                )
            out.append(ZoneDef(name, spec.get("per") == "player", spec.get("visibility", "all"), fill))
        return tuple(out)

    # ------------------------------------------------------------ whole file

    def compile(self, game_id: str, players: int, options: dict[str, Any]) -> GameDef:
        d = self.data
        self.symbols(players, options)
        board = compile_board(d.get("board") or {}, ("board",), self.sink)
        self.sym.constants.update({k: list(v) for k, v in board.collections.items()})
        self.sym.constants["resources"] = list(self.sym.resources)
        self.tables()
        self.compile_defs()
        self.card_effects()
        actions = {nm: self.action(nm, spec or {}) for nm, spec in (d.get("actions") or {}).items()}
        phases = self.flow()
        score, awards = self.scoring()
        end = d.get("end") or {}
        win = self.ex.compile(end["win"], ("end", "win"), {"p": "player"}) if "win" in end else None
        layout = compile_layout(d.get("board") or {}, ("board",), self.ex, self.sink)
        setup = self.st.block(d.get("setup"), ("setup",), {})
        comp = d.get("components") or {}
        supply = {k: int((v or {}).get("supply", 0)) for k, v in (comp.get("pieces") or {}).items()}
        if self.sink.diagnostics:
            raise RulesError(sorted(self.sink.diagnostics, key=_order))
        game = GameDef(
            id=game_id,
            name=str((d.get("game") or {}).get("name", game_id)),
            players=players,
            options=options,
            sym=self.sym,
            board=board,
            layout=layout,
            setup=setup,
            actions=actions,
            phases=phases,
            score=score,
            awards=awards,
            win=win,
            win_check=str(end.get("check", "own_turn")),
            zones=self.zones(),
            supply=supply,
            defs=self.defs,
            index=self.index,
        )
        return game


def _order(d: Diagnostic) -> tuple[str, int, int]:
    if d.span is None:
        return ("", 0, 0)
    return (d.span.file, d.span.line, d.span.col)


__all__ = ["GameCompiler", "resolve_options"]
