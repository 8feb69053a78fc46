"""Compile a validated rule tree into a GameDef: symbols first, then defs, actions, flow, scoring."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from meeple.compile.board import check_render_layout, compile_board, compile_layout, compile_require
from meeple.compile.builtins import BUILTINS, METRIC_KEPT, units
from meeple.compile.cardpaths import reach
from meeple.compile.codegen import action_enumerator
from meeple.compile.coverage import Coverage, place
from meeple.compile.expressions import ExprCompiler, Fn, RuleRuntimeError, Scope, const, free_names
from meeple.compile.independence import Independence
from meeple.compile.invariants import compile_invariants
from meeple.compile.ir import (
    PARTS,
    ActionDef,
    AwardDef,
    GameDef,
    LoopDef,
    MetricDef,
    ParamDef,
    PhaseDef,
    RoundRobinDef,
    StepDef,
    ZoneDef,
    coarse,
    known_parts,
)
from meeple.compile.options import resolve_options
from meeple.compile.secrecy import PlanCompiler
from meeple.compile.shapes import list_depths
from meeple.compile.sitelocal import local_paths, looped_calls
from meeple.compile.statements import StmtCompiler
from meeple.compile.symbols import OWNED, Sink, Symbols, is_scope_part
from meeple.compile.where import Where, located
from meeple.errors import Diagnostic, RulesError, did_you_mean
from meeple.rules import nodes as n
from meeple.rules.loader import SourceIndex

_DEF_HEAD = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(\s*([\w\s,]*)\)\s*$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")
_PIECE_FIELDS = frozenset({"kind", "owner", "site"})  # in every piece's record
TURN_ORDERS = ("clockwise", "counterclockwise", "snake", "none", "round_robin")
BUILT_IN_SCOPES = ("game", "player", "turn")
FAMILY_KEYS = ("for", "name", "count", "doc", "guess")
NOTE_KEYS = ("doc", "guess")  # notes for readers in a table mapping, never entries of it


def _fields(spec: Any) -> dict[str, Any]:
    """A terrain's, piece kind's or card's constant fields: what it declares, less its `guess` note."""
    return {k: plain(v) for k, v in (spec or {}).items() if k != "guess"}


def plain(value: Any) -> Any:
    """A data value as the rule language sees it: `none` is the empty value, lists are tuples."""
    if value == "none":
        return None
    if isinstance(value, list):
        return tuple(plain(v) for v in value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


# Parts whose change drops a kept def's results whichever seat's pieces changed: every piece changed moves
# `pieces`, and the players' variables and resources change at most decisions (GameCompiler.kept_defs).
_DROPPING_ALL = frozenset({"pieces", "pv", "res"})


class GameCompiler:
    """One pass per section, all diagnostics collected into one sink."""

    def __init__(self, data: dict[str, Any], index: SourceIndex, coverage: Coverage | None = None) -> None:
        self.data = data
        self.coverage = coverage  # when given, rule parts are compiled to count how often they run
        self.index = index
        self.sink = Sink(index)
        self.sym = Symbols()
        self.defs: dict[str, Fn] = {}
        self.def_reads: dict[str, set[str]] = {}
        self.metric_reads: dict[str, set[str]] = {}  # metric -> what its `enter` and `blocked` read
        self.expanded: dict[str, set[str]] = {}  # a def marker -> what it reads through the defs it calls
        self.field_parts_of: dict[str, set[str]] = {}  # a field's name -> the parts it may be read from
        self.board: Any = None  # the compiled board, once known
        # action -> what listing its legal bindings reads: its domains, conditions and cost (`kept_listings`)
        self.listing_reads: dict[str, set[str]] = {}
        self.ex = ExprCompiler(self.sym, self.sink, self.defs)
        self.st = StmtCompiler(self.ex, self._locate, coverage)
        self.st.plans = PlanCompiler(self.sym, self.ex, self.def_texts())
        self.card_counts: dict[str, int] = {}
        self.card_bindings: dict[str, dict[str, Any]] = {}  # a family card's loop values
        self.phase_list: list[PhaseDef] = []
        self.loop_list: list[LoopDef | None] = []
        self.param_plans: dict[str, dict[str, Any]] = {}  # action -> parameter -> who may see its domain

    def def_texts(self) -> dict[str, tuple[tuple[str, ...], Any]]:
        """Each def's parameter names and body text (for narration's look into the defs a line calls)."""
        out: dict[str, tuple[tuple[str, ...], Any]] = {}
        defs = self.data.get("defs")
        if not isinstance(defs, dict):  # none, or a shape the schema reports
            return out
        for key, body in defs.items():
            m = _DEF_HEAD.match(str(key))
            if m:
                out[m.group(1)] = (tuple(p.strip() for p in m.group(2).split(",") if p.strip()), body)
        return out

    def _locate(self, path: Any, pos: int) -> Any:
        return self.index.locate(path, pos)

    # ------------------------------------------------------------ symbols

    def symbols(self, players: int, options: dict[str, Any]) -> None:
        d, sym = self.data, self.sym
        comp = d.get("components") or {}
        sym.resources = list(comp.get("resources") or [])
        for name, spec in (comp.get("terrains") or {}).items():
            sym.definitions[name] = _fields(spec)
        card_fields = plain(dict(comp.get("card_fields") or {}))
        for name, spec in (comp.get("cards") or {}).items():
            if isinstance(spec, dict) and "for" in spec:
                continue  # a family: expanded once the tables are known
            sym.definitions[name] = {"family": None, **card_fields, **_fields(spec)}
            count = (spec or {}).get("count", 1)
            if isinstance(count, int) and count > MAX_COPIES:
                message = f"{name} would have {count:,} copies; a card has at most {MAX_COPIES:,}"
                self.sink.at(("components", "cards", name, "count"), None, "type/count", message)
                count = 1
            self.card_counts[name] = count if isinstance(count, int) else 1  # the schema reports others
        for name, spec in (comp.get("pieces") or {}).items():
            sym.definitions[name] = _fields(spec)
            sym.piece_kinds.add(name)
        for name, spec in (comp.get("zones") or {}).items():
            if self.st.plans is not None:
                self.st.plans.zone_visibility[name] = str((spec or {}).get("visibility", "all"))
            keys = (spec or {}).get("keys")
            if isinstance(keys, list):
                sym.keyed_zones[name] = tuple(str(k) for k in keys)
            else:
                (sym.player_zones if (spec or {}).get("per") == "player" else sym.zones).add(name)
        scopes = d.get("vars") or {}
        sym.game_vars = self.variables("game", scopes.get("game"))
        sym.player_vars = self.variables("player", scopes.get("player"))
        sym.turn_vars = self.variables("turn", scopes.get("turn"))
        sym.scopes = {k: self.variables(k, v) for k, v in scopes.items() if k not in BUILT_IN_SCOPES}
        sym.routines = dict.fromkeys(d.get("routines") or {})
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

    def variables(self, scope: str, spec: Any) -> dict[str, Any]:
        """A scope's variables and their starting values; who may know each is kept in `sym.private`.

        A variable is its starting value, or `{value: …, visibility: all|owner|hidden}`.
        """
        values: dict[str, Any] = {}
        for name, given in dict(spec or {}).items():
            if isinstance(given, dict) and "value" in given:
                visibility = given.get("visibility", "all")
                if visibility == "owner" and scope not in ("player", "turn"):
                    where = ("vars", scope, name, "visibility")
                    message = f"a {scope} variable belongs to no player, so it cannot be `owner`"
                    self.sink.at(where, None, "rules/var-visibility", message, "use all or hidden")
                elif visibility != "all":
                    self.sym.private.setdefault(scope, {})[name] = str(visibility)
                given = given["value"]
            values[name] = plain(given)
        return values

    def check_clashes(self) -> None:
        taken: dict[str, str] = {}
        groups = {
            "resource": self.sym.resources,
            "definition": self.sym.definitions,
            "def": self.sym.defs,
            "game variable": self.sym.game_vars,
            "scope": self.sym.scopes,
            "routine": self.sym.routines,
            "action": self.sym.actions,
        }
        for what, names in groups.items():
            for name in names:
                if name in taken and taken[name] != what:
                    self.sink.at(
                        self.declared_at(name, what),
                        None,
                        "name/clash",
                        f"'{name}' is both a {taken[name]} and a {what}",
                        "give one of them another name",
                    )
                taken.setdefault(name, what)
        for name in self.sym.defs:
            if name in BUILTINS:
                where = self.declared_at(name, "def")
                self.sink.at(where, None, "name/shadows-builtin", f"def '{name}' hides the built-in")

    def declared_at(self, name: str, what: str) -> tuple[Any, ...]:
        """Where a name of a kind is declared, for locating a clash."""
        if what == "def":
            heads = [k for k in self.data.get("defs") or {} if str(k).split("(")[0].strip() == name]
            return ("defs", heads[0]) if heads else ("scoring", "score")
        sections = {
            "action": ("actions",),
            "routine": ("routines",),
            "scope": ("vars",),
            "game variable": ("vars", "game"),
            "resource": ("components", "resources"),
        }
        if what in sections:
            return (*sections[what], name) if what != "resource" else sections[what]
        for section in ("cards", "pieces", "terrains"):
            if name in ((self.data.get("components") or {}).get(section) or {}):
                return ("components", section, name)
        return ()

    # ------------------------------------------------------------ sections

    def tables(self) -> None:
        for name, table in (self.data.get("tables") or {}).items():
            if not isinstance(table, dict):
                self.sym.tables[name] = table
                continue
            self.sym.tables[name] = self.table(table, ("tables", name))
            if self.coverage is not None:
                self.sym.tables[name] = self.coverage.table(self.sym.tables[name], name)

    def table(self, table: dict[str, Any], path: tuple[Any, ...]) -> dict[Any, Any]:
        """A table, nested tables too; a key written as a whole number is looked up by number."""
        out: dict[Any, Any] = {}
        for key, value in table.items():
            if key in NOTE_KEYS:
                continue
            k = int(key) if isinstance(key, str) and re.fullmatch(r"-?[0-9]+", key) else key
            if isinstance(value, dict):
                out[k] = self.table(value, (*path, key))
            else:
                out[k] = self.constant(value, (*path, key))
        return out

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

    def card_families(self) -> None:
        """Expand `for:` card entries into one card kind per combination of the loop values."""
        comp = self.data.get("components") or {}
        card_fields = plain(dict(comp.get("card_fields") or {}))
        families: dict[str, list[str]] = {}
        for name, spec in (comp.get("cards") or {}).items():
            spec = spec or {}
            if "for" not in spec:
                if spec.get("family"):
                    families.setdefault(str(spec["family"]), []).append(name)
                continue
            kinds = self.family(name, spec, card_fields)
            families.setdefault(name, []).extend(kinds)
        for family, kinds in families.items():
            if family in self.sym.definitions or family in self.sym.constants:
                where = ("components", "cards", family)
                self.sink.at(where, None, "name/clash", f"'{family}' is a card and a family")
            self.sym.constants[family] = kinds
        self.sym.constants["cards"] = list(self.card_counts)
        self.sym.copies = dict(self.card_counts)

    def family(self, name: str, spec: dict[str, Any], card_fields: dict[str, Any]) -> list[str]:
        where = ("components", "cards", name)
        loops = spec["for"] if isinstance(spec["for"], dict) else {}
        names = [str(k) for k in loops]
        scope: Scope = dict.fromkeys(names)
        failing = _Errors(self.sink)
        domains = [
            (k, self.ex.compile(loops[k], (*where, "for", k), dict.fromkeys(names[:i])))
            for i, k in enumerate(names)
        ]
        fields = {}
        for k, v in spec.items():
            if k in FAMILY_KEYS or k == "effect":
                continue
            with failing.watch(k):
                fields[k] = self.ex.compile(v, (*where, k), scope) if isinstance(v, str) else const(plain(v))
        count = spec.get("count", 1)
        with failing.watch("count"):
            count_fn = (
                self.ex.compile(count, (*where, "count"), scope) if isinstance(count, str) else const(count)
            )
        bindings: list[dict[str, Any]] = [{}]
        for k, domain in domains:
            try:
                bindings = [{**b, k: v} for b in bindings for v in _loop_values(domain(None, b))]
            except _EVAL_ERRORS as err:
                message = f"a family's loop values must be constants, known before the game starts ({err})"
                self.sink.at((*where, "for", k), None, "type/not-constant", message)
                return []
            if len(bindings) > MAX_FAMILY:
                message = f"the family would have more than {MAX_FAMILY:,} cards"
                self.sink.at((*where, "for", k), None, "type/family-size", message)
                return []
        template = str(spec.get("name", name + "".join("_{" + k + "}" for k in names)))
        kinds: list[str] = []
        for b in bindings:
            try:
                kind = fill_template(template, b)
            except ValueError as err:
                hint = f"the loop names are: {', '.join(names)}"
                self.sink.at(
                    (*where, "name"), None, "name/family-template", f"bad name template: {err}", hint
                )
                return kinds
            rec = {"family": name, **card_fields}
            for k, f in [*fields.items(), ("count", count_fn)]:
                if k in failing.broken:
                    continue  # its error is reported already
                try:
                    rec[k] = plain(f(None, b))
                except _EVAL_ERRORS as err:
                    failing.broken.add(k)
                    message = f"cannot work out '{k}' for {kind}: {err}"
                    self.sink.at((*where, k), None, "type/not-constant", message)
            copies = rec.pop("count", 1)
            if not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
                if "count" not in failing.broken:
                    failing.broken.add("count")
                    message = (
                        f"{kind} would have {copies} copies; a card count is a whole number "
                        f"from 1 to {MAX_COPIES:,}"
                    )
                    self.sink.at((*where, "count"), None, "type/count", message)
                copies = 1
            if not _NAME.match(kind) or kind in self.sym.definitions:
                problem = "is not a name" if not _NAME.match(kind) else "is already a card or a kind"
                self.sink.at(
                    (*where, "name"),
                    None,
                    "name/family-card",
                    f"family card '{kind}' {problem}",
                    "the name template makes names from letters, digits and _",
                )
                return kinds
            self.sym.definitions[kind] = rec
            self.card_counts[kind] = copies
            self.card_bindings[kind] = b
            kinds.append(kind)
        return kinds

    def routines(self) -> None:
        for name, body in (self.data.get("routines") or {}).items():
            self.sym.routines[name] = self.st.block(body, ("routines", name), {"me": "player"})

    def compile_defs(self) -> None:
        for key, body in (self.data.get("defs") or {}).items():
            m = _DEF_HEAD.match(str(key))
            if not m:
                continue
            name = m.group(1)
            params = self.sym.defs[name]
            scope: Scope = {p: None for p in params}
            self.ex.reads = set()
            where: tuple[Any, ...] = ("defs", key)
            if isinstance(body, dict):  # `{value: expression, guess: …}`: the expression with its notes
                body, where = body.get("value"), (*where, "value")
            # A def with no value is reported by the schema; it stands for none meanwhile.
            fn, fast = self.in_order(body, where, scope) if body is not None else (const(None), None)
            self.def_reads[name] = self.ex.reads
            self.ex.reads = set()  # what is compiled next is not read by this def
            self.defs[name] = fn
            if fast is not None and self.ex.gen is not None:  # generated source calls it with its arguments
                self.ex.gen.positional[name] = fast
                self.defs[name] = _by_name(fast, params)
                node = self.ex.parse_at(body, ("defs", key))
                if node is not None:
                    self.ex.gen.def_bodies[name] = (node, scope, Where(self.index, where, node.pos), params)
                    self.ex.gen.offer_inline(name, node, scope, params)
                    if not params and self.ex.gen.surely_distinct(node, scope, set()):
                        self.ex.gen.distinct_defs.add(name)  # its calls need no `distinct`

    def pure_defs(self) -> None:
        """Tell generated source which defs may read no part of a state: none through the defs they call,
        nothing drawn at random, perhaps a field of a value of unknown type. What is compiled after the defs
        then calls them through `_keep`. Whether such a field is a part of a state is known only once every
        statement is compiled (field_parts), so `GameDef.pure_defs` has the last word."""
        gen = self.ex.gen
        if gen is None:
            return
        for name in self.def_reads:
            if name in gen.positional and self.reads_only_fields(name, set()):
                gen.pure_defs.add(name)
            elif name in gen.positional and self.reads_only_fields(name, set(), scoped=True):
                gen.valued_defs.add(name)

    def reads_only_fields(self, name: str, seen: set[str], scoped: bool = False) -> bool:
        """Whether a def reads no part of a state, through every def it calls, but perhaps fields that no
        piece or site starts with (a card's, unless a statement compiled later sets one); `scoped`: but
        perhaps variables of named scopes too (`trick.rank`)."""
        seen.add(name)
        for item in self.def_reads.get(name, {"?"}):
            if scoped and is_scope_part(item):
                continue
            kind, marked, called = item.partition(":")
            if not marked or kind not in ("def", "field"):
                return False  # a part of a state, a metric, or unknown
            if kind == "field" and any(self.field_holders(called)):
                return False
            called = called.split("(", 1)[0]
            if kind == "def" and called not in seen and not self.reads_only_fields(called, seen, scoped):
                return False
        return True

    def positional_defs(self) -> None:
        """Every def generated source may call, with its arguments in order (closures wrapped)."""
        gen = self.ex.gen
        if gen is None:
            return
        for name, fn in self.defs.items():
            if name not in gen.positional:
                gen.positional[name] = _in_order(fn, self.sym.defs.get(name, ()))

    def kept_defs(self) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        """The defs with generated source whose results may be kept while the parts of a state they read
        do not change, grouped by those parts: every def they call is known and none draws at random.

        A def of one parameter that reads the pieces its argument owns (`rope_ends(p)`: `pieces('fixed_rope',
        owner=p)`) reads `pieces.K@=` (ir.OF_ARGUMENT): a change to the pieces of kind K of one player drops
        only the result kept for that player (ir._refresher). Not where it reads a part that changes with
        those pieces or more often (all the pieces, all of kind K, the players' variables): its results
        are dropped as often, and testing each seat's counter would be work for nothing."""
        if self.ex.gen is None:
            return ()
        groups: dict[tuple[str, ...], list[str]] = {}
        for name, reads in self.def_reads.items():
            if name not in self.ex.gen.positional or not self.known_reads(reads):
                continue
            params = self.sym.defs.get(name, ())
            own = params[0] if len(params) == 1 else None
            # A player's zones are kept by all the zones: a def's cheap results are not worth a counter
            # of each player's zones moved at every card's move (GameDef.zone_parts).
            parts = {coarse(p) if p.startswith("zones@") else p for p in self.expand_reads(reads, keep=own)}
            if own is not None:  # the argument's pieces, whatever the parameter's name
                parts = {p.removesuffix(own) if p.endswith(OWNED + own) else p for p in parts}
                if parts & _DROPPING_ALL or any(OWNED in p and coarse(p) in parts for p in parts):
                    parts = {coarse(p) for p in parts}  # results dropped as often by another part
            if known_parts(parts):
                groups.setdefault(tuple(sorted(parts)), []).append(name)
        # A metric's cheapest costs from a site are kept the same way (builtins.METRIC_KEPT), by the site
        # and the distance asked, while what its entering costs and cut steps read is unchanged.
        for name, reads in self.metric_reads.items():
            if self.known_reads(reads):
                parts = self.expand_reads(reads)
                if known_parts(parts):
                    groups.setdefault(tuple(sorted(parts)), []).append(METRIC_KEPT + name)
        return tuple((parts, tuple(names)) for parts, names in groups.items())

    def local_defs(
        self, kept_defs: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    ) -> dict[str, frozenset[tuple[str, ...]]]:
        """The kept defs of one site that read some pieces, all of them near that site and some beyond it,
        asked of many sites by a listing: by name, the paths of board queries to the sites whose pieces
        they read (compile/sitelocal.py). A def reading its own site's pieces alone (`empty(c)`) costs as
        little to ask again as to sort out which results to keep: tic-tac-toe paid 3% for keeping them."""
        gen = self.ex.gen
        if gen is None:
            return {}
        sym = self.sym
        piece_fields = {"kind", "owner", "site"}
        for kind in sym.piece_kinds:
            spec = sym.definitions.get(kind) or {}
            piece_fields.update(spec, spec.get("fields") or {})
        out = {}
        builtins = set(BUILTINS)
        for parts, names in kept_defs:
            if not any(part.startswith("pieces") for part in parts):
                continue
            for name in names:
                paths = local_paths(name, gen.def_bodies, builtins, piece_fields)
                if paths and paths != {()}:  # its own site's pieces alone: as cheap to ask again
                    out[name] = paths
        looped = self.looped_defs(gen.def_bodies) if out else set()
        return {name: paths for name, paths in out.items() if name in looped}

    def looped_defs(self, bodies: dict[str, Any]) -> set[str]:
        """The defs a listing may ask of many values: called with a parameter of an action (in its `when`
        or a parameter's domain) or a name of a comprehension, or so from within such a def."""
        found: set[str] = set()
        defs = set(bodies)
        for name, spec in (self.data.get("actions") or {}).items():
            spec = spec if isinstance(spec, dict) else {}
            params: dict[str, Any] = spec["params"] if isinstance(spec.get("params"), dict) else {}
            bound = {str(k) for k in params} | {str(k) for k in spec.get("inputs") or ()}
            texts: list[tuple[Any, tuple[Any, ...]]] = [
                (v, ("actions", name, "params", k)) for k, v in params.items()
            ]
            if spec.get("when") is not None:
                texts.append((spec["when"], ("actions", name, "when")))
            for text, where in texts:
                node = self.ex.parse_at(text, where)
                if node is not None:
                    found |= looped_calls(node, defs, bound)
        todo = list(found)
        while todo:  # a def asked of many values asks the defs it calls with its own argument as often
            node, _, _, params = bodies[todo.pop()]
            for called in looped_calls(node, defs, set(params)) - found:
                found.add(called)
                todo.append(called)
        return found

    def kept_listings(self, actions: dict[str, ActionDef]) -> dict[str, ActionDef]:
        """The actions with the parts of a state listing their legal bindings reads, where those are known
        (nothing drawn at random, every def and metric known): a step offering only such actions keeps its
        listing while nothing changes (GameDef.kept_steps)."""
        out = {}
        for name, a in actions.items():
            reads = self.listing_reads.get(name)
            parts = self.parts_read(reads) if reads is not None else None
            known = parts is not None and known_parts(parts)
            out[name] = replace(a, list_reads=tuple(sorted(parts))) if known else a  # type: ignore[arg-type]
        return out

    def deciding(self, actions: dict[str, ActionDef]) -> dict[str, ActionDef]:
        """The actions with whether their effect may leave a decision to make: one whose statements name no
        `grant` and no `perform` cannot."""
        effects = self.data.get("actions") or {}
        return {
            name: a if _may_decide((effects.get(name) or {}).get("effect")) else replace(a, may_decide=False)
            for name, a in actions.items()
        }

    def known_reads(self, reads: set[str]) -> bool:
        """Whether every def these reads name, at any depth, has known reads."""
        todo, seen = list(reads), set()
        while todo:
            item = todo.pop()
            if item in seen or ":" not in item:
                continue
            seen.add(item)
            found = self.marked_reads(item)
            if found is None:
                return False
            todo.extend(found)
        return True

    def marked_reads(self, item: str) -> set[str] | None:
        """What a `def:NAME`, `def:NAME(ARGS)`, `metric:NAME` (`metric:*`: any metric), or `field:NAME`
        marker stands for (in the def's own names); None when that is not known."""
        kind, _, name = item.partition(":")
        if kind == "field":
            return self.field_parts(name)
        if kind == "metric" and name == "*":  # a metric named in play: what any of them reads
            return set().union(*self.metric_reads.values())
        return (self.def_reads if kind == "def" else self.metric_reads).get(name.split("(", 1)[0])

    def field_parts(self, name: str) -> set[str]:
        """The parts of a state a field of that name of a value of unknown type may be read from: the
        pieces when a piece's record has it (every piece's kind, owner and site, or a field some kind of
        piece starts with), the sites when some site starts with it, and both when a statement sets a field
        of that name. A field of a card alone is in its definition, which never changes: no part. Asked
        once every statement played is compiled (those of the set-up run before any result is kept)."""
        found = self.field_parts_of.get(name)
        if found is None:
            set_anywhere = any(set_name == name for set_name, _, _ in self.ex.field_sets)
            piece, site = self.field_holders(name)
            found = set()
            if piece or set_anywhere:
                found.add("pieces")
            if site or set_anywhere:
                found.add("sites")
            self.field_parts_of[name] = found
        return found

    def field_holders(self, name: str) -> tuple[bool, bool]:
        """Whether pieces, and whether sites, start with a field of that name (known before any statement
        is compiled; a statement setting it is the other way it becomes a part of a state)."""
        sym = self.sym
        piece = name in _PIECE_FIELDS or any(
            name in ((sym.definitions.get(k) or {}).get("fields") or {}) for k in sym.piece_kinds
        )
        laid = (self.data.get("board") or {}).get("layout") or []  # fields dealt to sites at the start
        site = (
            self.board is None
            or any(name in fields for fields in self.board.site_fields.values())
            or any(isinstance(step, dict) and step.get("set") == name for step in laid)
        )
        return piece, site

    def parts_read(self, reads: set[str], keep: str | None = None) -> set[str] | None:
        """The parts of a state these reads come to, through every def they call; None if one is unknown.
        What is read of the pieces of the player `keep` names stays so marked (see symbols.OWNED)."""
        return self.expand_reads(reads, keep) if self.known_reads(reads) else None

    def expand_reads(self, reads: set[str], keep: str | None = None) -> set[str]:
        """Replace `def:name` markers by what those definitions read, transitively. A read of the pieces of
        the player a name stands for stays so marked only for the name `keep`; the others are of anyone's."""
        out: set[str] = set()
        for item in reads:
            out |= self.called_reads(item, ()) if ":" in item else {item}
        return {p if keep is not None and p.endswith(OWNED + keep) else coarse(p) for p in out}

    def called_reads(self, item: str, calling: tuple[str, ...]) -> set[str]:
        """What a marker stands for, through every def it calls. A def called with names (`def:f(p,q)`)
        reads the pieces of the players its arguments stand for where it reads those of its parameters';
        otherwise (or through a def calling itself) every such read is of anyone's pieces."""
        found = self.expanded.get(item)
        if found is not None:
            return found
        kind, _, called = item.partition(":")
        name, _, args = called.partition("(")
        params = self.sym.defs.get(name, ())
        names = args[:-1].split(",") if args[:-1] else []
        if kind != "def" or not args or name in calling or len(names) != len(params):
            return {coarse(p) for p in self.every_read(item)}
        own = self.def_reads.get(name)
        if own is None:
            return set(PARTS)
        out: set[str] = set()
        for read in own:
            for part in self.called_reads(read, (*calling, name)) if ":" in read else (read,):
                owner = part.partition(OWNED)[2]
                if owner in params:
                    part = part[: -len(owner)] + names[params.index(owner)]
                elif owner:
                    part = coarse(part)
                out.add(part)
        if not calling:  # what it reads does not depend on where it was called from (no loop back to it)
            self.expanded[item] = out
        return out

    def every_read(self, item: str) -> set[str]:
        """What a marker stands for through every def it calls, transitively, each read as written."""
        out: set[str] = set()
        todo, seen = [item], set()
        while todo:
            item = todo.pop()
            if item in seen:
                continue
            seen.add(item)
            if ":" in item:
                found = self.marked_reads(item)
                todo.extend(found if found is not None else PARTS)
            else:
                out.add(item)
        return out

    def card_effects(self) -> None:
        comp = self.data.get("components") or {}
        for name, spec in (comp.get("cards") or {}).items():
            effect = (spec or {}).get("effect")
            if effect is None:
                continue
            where = ("components", "cards", name, "effect")
            if "for" not in (spec or {}):
                self.sym.definitions[name]["effect"] = self.counted(
                    name, where, self.st.block(effect, where, {"me": "player"})
                )
                continue
            loops = spec["for"] if isinstance(spec["for"], dict) else {}
            block = self.st.block(effect, where, {"me": "player", **dict.fromkeys(map(str, loops))})
            for kind, binding in self.card_bindings.items():
                if self.sym.definitions[kind].get("family") == name:
                    bound = BoundBlock(block, binding)
                    self.sym.definitions[kind]["effect"] = self.counted(kind, where, bound)

    def counted(self, kind: str, where: tuple[Any, ...], effect: Any) -> Any:
        """A card's effect; with coverage, one that counts its runs."""
        if self.coverage is None:
            return effect
        return self.coverage.card(effect, kind, place(self._locate(where, 0)))

    def action(self, name: str, spec: dict[str, Any]) -> ActionDef:
        where = ("actions", name)
        scope: Scope = {"me": "player"}
        params: list[ParamDef] = []
        errors_before = len(self.sink.diagnostics)
        nodes: dict[str, Any] = {}  # each parameter's domain, for the generated enumerator
        node_paths: dict[int, tuple[Any, ...]] = {}  # where each node the enumerator computes is written
        outer_reads, self.ex.reads = self.ex.reads, set()  # what its domains, conditions and cost read
        for inp in spec.get("inputs") or []:
            params.append(ParamDef(str(inp), None))
            scope[str(inp)] = "player" if inp == "partner" else None
        for pname, domain in (spec.get("params") or {}).items():
            self.ex.path = (*where, "params", pname)
            node = self.ex.parse_at(domain, (*where, "params", pname))
            fn = self.ex.expr(node, scope) if node is not None else (lambda s, b: [])
            nodes[pname] = node
            node_paths[id(node)] = (*where, "params", pname)
            scope[pname] = self.ex.element_type(node, scope) if node is not None else None
            params.append(ParamDef(pname, fn))
        order = {p.name: i + 1 for i, p in enumerate(params)}
        checks: list[list[Fn]] = [[] for _ in range(len(params) + 1)]
        check_nodes: list[list[Any]] = [[] for _ in range(len(params) + 1)]
        if "when" in spec:
            node = self.ex.parse_at(spec["when"], (*where, "when"))
            if node is not None:
                self.ex.path = (*where, "when")
                parts = node.values if isinstance(node, n.BoolOp) and node.op == "and" else (node,)
                for part in parts:
                    level = max([order.get(x, 0) for x in free_names(part)], default=0)
                    checks[level].append(self.ex.expr(part, scope))
                    check_nodes[level].append(part)
                    node_paths[id(part)] = (*where, "when")
        cost, cost_level, cost_memo = None, 0, False
        cost_node = None
        if spec.get("cost") is not None:
            node = self.ex.parse_at(spec["cost"], (*where, "cost"))
            cost_node = node
            node_paths[id(node)] = (*where, "cost")
            if node is not None:
                self.ex.path = (*where, "cost")
                bindings, self.ex.reads = self.ex.reads, set()
                cost = self.ex.expr(node, scope)
                cost_memo = calls_defs(self.ex.reads)
                cost_level = max([order.get(x, 0) for x in free_names(node)], default=0)
                self.ex.reads |= bindings
        # and, with a cost, what the player holds to pay it
        self.listing_reads[name] = self.ex.reads | ({"res"} if cost is not None else set())
        self.ex.reads = outer_reads | self.ex.reads
        self.st.origins = {
            p.name: ("param",) for p in params
        }  # a choice: who may know it is worked out in play
        effect = self.st.block(spec.get("effect"), (*where, "effect"), scope)
        self.st.origins = {}
        self.param_plans[name] = self.choice_plans(params, nodes, check_nodes, scope)
        fast = listing = None
        next_values: dict[str, Any] = {}
        stepped: tuple[Any, ...] = ()
        if self.ex.gen is not None and len(self.sink.diagnostics) == errors_before:
            loops = (
                self.ex.gen,
                name,
                [(p, nodes.get(p)) for p in (x.name for x in params)],
                check_nodes,
                (cost_node, cost_level) if cost_node is not None else None,
                dict(scope),
                lambda node: Where(self.index, node_paths[id(node)], node.pos),
                Where(self.index, where),
            )
            fast = action_enumerator(*loops)
            if fast is not None and not spec.get("stepwise"):
                listing = action_enumerator(*loops, into=fast.__globals__["_made"])
            elif fast is not None:
                listing = action_enumerator(*loops, exists=True)
                for p in params:
                    values = action_enumerator(*loops, values_of=p.name) if p.domain is not None else None
                    if values is not None:
                        next_values[p.name] = values
                if all(p.domain is not None for p in params):  # decided in order: `stepped`
                    last = len(params) - 1
                    stepped = tuple(
                        action_enumerator(*loops, prefix=k, values_of=None if k == last else params[k].name)
                        for k in range(len(params))
                    )
        return ActionDef(
            name,
            tuple(params),
            tuple(tuple(c) for c in checks),
            cost,
            cost_level,
            effect,
            bool(spec.get("stepwise")),
            fast,
            tuple(tuple(c) for c in check_nodes),
            cost_memo,
            next_values,
            listing=listing,
            stepped=stepped,
        )

    def choice_plans(
        self, params: list[ParamDef], nodes: dict[str, Any], checks: list[list[Any]], scope: Scope
    ) -> dict[str, Any]:
        """For narration: who may see what each parameter is chosen from (its domain and the conditions
        first checked once it is bound)."""
        plans = self.st.plans
        if plans is None:
            return {}
        out = {}
        for i, p in enumerate(params):
            read = [x for x in [nodes.get(p.name), *checks[i + 1]] if x is not None]
            if p.domain is not None:
                out[p.name] = plans.plan(read, scope, {})
        return out

    def flow(self) -> tuple[PhaseDef, ...]:
        """The flow as phases and loops; loop 0 runs the top-level list once."""
        self.loop_list = [None]
        body = self.flow_items(self.data.get("flow") or [], ("flow",))
        self.loop_list[0] = LoopDef("game", 1, None, None, body)
        return tuple(self.phase_list)

    def flow_items(self, items: list[Any], where: tuple[Any, ...]) -> tuple[tuple[str, int], ...]:
        body = []
        for i, item in enumerate(items):
            item = item or {}
            if "phases" in item:
                idx = len(self.loop_list)
                self.loop_list.append(None)
                inner = self.flow_items(item.get("phases") or [], (*where, i, "phases"))
                self.loop_list[idx] = self.loop(item, (*where, i), inner)
                body.append(("loop", idx))
            else:
                body.append(("phase", len(self.phase_list)))
                self.phase_list.append(self.phase(item, (*where, i), len(self.phase_list)))
        return tuple(body)

    def loop(
        self, item: dict[str, Any], where: tuple[Any, ...], body: tuple[tuple[str, int], ...]
    ) -> LoopDef:
        scope = item.get("scope")
        if scope is not None and scope not in self.sym.scopes:
            self.sink.unknown((*where, "scope"), 0, "scope", str(scope), self.sym.scopes)
        until = self.ex.compile(item["until"], (*where, "until"), {}) if "until" in item else None
        times = item.get("times")
        if times is None and until is None:
            self.sink.at(
                where, None, "rules/endless-loop", "this loop never ends", "give it `times: n` or `until: …`"
            )
        name = str(item.get("loop", "loop"))
        return LoopDef(name, None if times is None else int(times), until, scope, body)

    def phase(self, ph: dict[str, Any], where: tuple[Any, ...], i: int) -> PhaseDef:
        turns = ph.get("turns", "clockwise")
        rr = None
        if isinstance(turns, dict):
            rr = self.round_robin(turns.get("round_robin") or {}, (*where, "turns", "round_robin"))
            turns = "round_robin"
        elif turns not in TURN_ORDERS or turns == "round_robin":
            self.sink.at(
                (*where, "turns"),
                None,
                "name/unknown-turn-order",
                f"unknown turn order '{turns}'",
                did_you_mean(str(turns), TURN_ORDERS[:4]),
            )
        steps = [self.step(st, (*where, "do", j)) for j, st in enumerate(ph.get("do") or [])]
        until = self.ex.compile(ph["until"], (*where, "until"), {}) if "until" in ph else None
        name = str(ph.get("phase", f"phase{i + 1}"))
        first = self.number(ph["first"], (*where, "first"), "a seat") if "first" in ph else None
        return PhaseDef(name, turns, bool(ph.get("repeat")), tuple(steps), until, rr, first)

    def number(self, text: Any, path: tuple[Any, ...], what: str, or_none: bool = False) -> Fn:
        """The flow's expression at `path`, whose value the flow counts with (a seat, a direction): a player
        or a number (or none, where `or_none`), anything else an error at its place when it runs."""
        fn = self.ex.compile(text, path, {})
        where = Where(self.sink.index, path)

        def checked(s: Any, b: dict[str, Any]) -> Any:
            value = fn(s, b)
            if isinstance(value, (int, float)) or (or_none and value is None):
                return value
            shown = "none" if value is None else repr(value)
            raise located(TypeError(f"{what} must be a player or a number, not {shown}"), where)

        return checked

    def round_robin(self, spec: dict[str, Any], where: tuple[Any, ...]) -> RoundRobinDef:
        first = self.number(spec.get("first", "first(players)"), (*where, "first"), "a seat", or_none=True)
        direction = self.number(spec.get("direction", 1), (*where, "direction"), "a direction")
        skip = self.ex.compile(spec["skip"], (*where, "skip"), {"p": "player"}) if "skip" in spec else None
        return RoundRobinDef(first, direction, skip)

    def step(self, st: dict[str, Any], where: tuple[Any, ...]) -> StepDef:
        scope: Scope = {"me": "player"}
        if "step" in st:
            return StepDef("do", block=self.st.block(st["step"], (*where, "step"), scope))
        kind = "simultaneous" if "simultaneous" in st else "choose"
        names = st.get(kind) or []
        for k, nm in enumerate(names):
            if nm not in self.sym.actions:
                self.sink.at(
                    (*where, kind, k),
                    None,
                    "name/unknown-action",
                    f"unknown action '{nm}'",
                    did_you_mean(str(nm), self.sym.actions),
                )
        loop = self.ex.compile(st["while"], (*where, "while"), scope) if "while" in st else None
        optional = bool(st.get("optional"))
        players = None
        if kind == "simultaneous" and "players" in st:
            players = self.ex.compile(st["players"], (*where, "players"), scope)
        independent = kind == "simultaneous" and Independence(
            self.sym, self.data.get("actions") or {}, self.def_texts()
        ).step(list(names), st.get("until"), st.get("while"))
        return StepDef(
            kind,
            actions=tuple(names),
            until=st.get("until"),
            while_=loop,
            optional=optional,
            players=players,
            independent=independent,
        )

    def scoring(self) -> tuple[Fn, tuple[AwardDef, ...]]:
        sc = self.data.get("scoring") or {}
        self.ex.reads = set()
        score = self.ex.compile(sc.get("score", "0"), ("scoring", "score"), {"p": "player"})
        self.defs["score"] = score
        self.def_reads["score"] = self.ex.reads  # `score(p)` is called as a def
        awards = []
        for name, a in (sc.get("awards") or {}).items():
            self.ex.reads = set()
            measure = self.ex.compile(
                a.get("measure", "0"), ("scoring", "awards", name, "measure"), {"p": "player"}
            )
            memo = calls_defs(self.ex.reads)
            reads = tuple(sorted(self.expand_reads(self.ex.reads, keep="p")))
            awards.append(AwardDef(name, measure, int(a.get("min", 1)), int(a.get("points", 0)), reads, memo))
        return score, tuple(awards)

    def bots(self) -> dict[str, Fn]:
        """Each bot's evaluation of a position for player `p` (`bots: {greedy: {eval: …}}`)."""
        found = {}
        for name, spec in (self.data.get("bots") or {}).items():
            if isinstance(spec, dict) and "eval" in spec:
                found[str(name)] = self.ex.compile(spec["eval"], ("bots", name, "eval"), {"p": "player"})
        return found

    def estimate(self) -> Fn | None:
        """`scoring.estimate`, an expression on `p` that search bots rank players by mid-game."""
        spec = (self.data.get("scoring") or {}).get("estimate")
        return None if spec is None else self.ex.compile(spec, ("scoring", "estimate"), {"p": "player"})

    def tiebreak(self) -> tuple[Fn, ...]:
        """Expressions on `p` compared in order between players tied on score; the highest wins."""
        spec = (self.data.get("scoring") or {}).get("tiebreak")
        items = spec if isinstance(spec, list) else ([] if spec is None else [spec])
        where = ("scoring", "tiebreak")
        return tuple(
            self.ex.compile(t, (*where, k) if isinstance(spec, list) else where, {"p": "player"})
            for k, t in enumerate(items)
        )

    def zones(self) -> tuple[ZoneDef, ...]:
        comp = self.data.get("components") or {}
        out = []
        for name, spec in (comp.get("zones") or {}).items():
            spec = spec or {}
            where = ("components", "zones", name)
            fill: tuple[tuple[str, int], ...] = ()
            fills: dict[str, tuple[tuple[str, int], ...]] = {}
            keys = self.sym.keyed_zones.get(name, ())
            given = spec.get("fill")
            if isinstance(given, dict):  # one fill per key of a zone family
                for key, text in given.items():
                    if str(key) not in keys:
                        hint = did_you_mean(str(key), keys) or "list the key under `keys:`"
                        message = f"no key '{key}'"
                        self.sink.at((*where, "fill", key), None, "name/unknown-zone-key", message, hint)
                        continue
                    fills[str(key)] = self.fill(text, (*where, "fill", key))
            elif given is not None:
                fill = self.fill(given, (*where, "fill"))
            visibility = spec.get("visibility", "all")
            if keys and (spec.get("per") == "player" or visibility == "owner"):
                message = "a zone family with `keys` belongs to no player"
                self.sink.at((*where, "keys"), None, "rules/zone-keys", message, "drop `per: player`")
            out.append(ZoneDef(name, spec.get("per") == "player", visibility, fill, keys, fills))
        return tuple(out)

    def metrics(self) -> dict[str, MetricDef]:
        out = {}
        for name, spec in (self.data.get("metrics") or {}).items():
            where = ("metrics", name)
            spec = spec or {}
            kind = str(spec.get("on", "tile"))
            if kind not in ("tile", "corner", "space", "cell"):
                self.sink.at(
                    (*where, "on"),
                    None,
                    "name/unknown-site-kind",
                    f"cannot measure between {kind}s",
                    "use tile, corner, space or cell",
                )
            outer, self.ex.reads = self.ex.reads, set()
            enter, enter_at = self.on_sites(spec.get("enter", 1), (*where, "enter"), ("t",))
            blocked, blocked_at = (
                self.on_sites(spec["blocked"], (*where, "blocked"), ("a", "b"))
                if "blocked" in spec
                else (None, None)
            )
            self.metric_reads[str(name)] = self.ex.reads  # what `within(x, n, NAME)` and the like read
            self.ex.reads = outer
            out[name] = MetricDef(name, kind, enter, blocked, enter_at, blocked_at)
        return out

    def on_sites(self, text: Any, path: tuple[Any, ...], params: tuple[str, ...]) -> tuple[Fn, Any]:
        """A metric's rule over sites: as `f(s, b)`, and as `g(s, *sites)` taking the sites in order."""
        fn, fast = self.in_order(text, path, dict.fromkeys(params, "site"))
        return fn, fast if fast is not None else _in_order(fn, params)

    def in_order(self, text: Any, path: tuple[Any, ...], scope: Scope) -> tuple[Fn, Any]:
        """An expression over the names of `scope`: as `f(s, b)`, and, when it has generated source, as
        `g(s, *values)` taking those names' values in order (else None)."""
        before = len(self.sink.diagnostics)
        node = self.ex.parse_at(text, path)
        if node is None:
            return const(None), None
        self.ex.path = path
        fn = self.ex.expr(node, scope)
        fast = None
        if self.ex.gen is not None and len(self.sink.diagnostics) == before:
            fast = self.ex.gen.function(node, scope, Where(self.index, path, node.pos), tuple(scope))
        return fn, fast

    def check_fields(self, board: Any, layout: list[Any]) -> None:
        """A field read that nothing in the game has (no player, piece, card, terrain, site or table row, nor
        a statement sets it) is a misspelling: in play it would only ever read none. So is a field set that
        nothing has nor reads: setting it would change nothing."""
        known = self.known_fields(board, layout)
        read = {name for name, _, _ in self.ex.field_uses}
        written = {name for name, _, _ in self.ex.field_sets}
        for name, path, pos in self.ex.field_uses:
            if name not in known and name not in written:
                message = f"nothing in the game has a field '{name}'"
                self.sink.at(path, pos, "name/unknown-field", message, did_you_mean(name, sorted(known)))
        for name, path, pos in self.ex.field_sets:
            if name not in known and name not in read:
                message = f"nothing in the game has or reads a field '{name}'"
                hint = did_you_mean(name, sorted(known | read))
                self.sink.at(path, pos, "name/unknown-field", message, hint)

    def known_fields(self, board: Any, layout: list[Any]) -> set[str]:
        sym = self.sym
        known = {*sym.player_fields(), "kind", "owner", "site", "family"}
        render = self.data.get("render")
        if isinstance(render, dict):  # the fields a board picture shows
            known.update(str(render[k]) for k in ("fill", "label") if isinstance(render.get(k), str))
        for spec in sym.definitions.values():
            known.update(map(str, spec))
            if isinstance(spec.get("fields"), dict):
                known.update(map(str, spec["fields"]))
        for fields_of_site in board.site_fields.values():
            known.update(map(str, fields_of_site))
        known.update(step.field for step in layout)
        values = [sym.tables, sym.game_vars, sym.player_vars, sym.turn_vars, *sym.scopes.values()]
        while values:
            value = values.pop()
            if isinstance(value, dict):
                known.update(map(str, value))
                values.extend(value.values())
            elif isinstance(value, list | tuple):
                values.extend(value)
        return known

    def fill(self, text: Any, path: tuple[Any, ...]) -> tuple[tuple[str, int], ...]:
        """The cards a zone starts with: an expression giving card kinds, each at its count."""
        kinds = self.constant(text, path)
        if isinstance(kinds, str):
            kinds = [kinds]
        if not isinstance(kinds, list | tuple | dict):
            if kinds is not None:  # None: an unknown name, reported already
                self.sink.at(
                    path, None, "type/fill", "`fill` lists card names", "e.g. cards, a family, [start]"
                )
            return ()
        out = []
        for kind in units(kinds):
            if kind not in self.card_counts:
                hint = did_you_mean(str(kind), self.card_counts)
                self.sink.at(path, None, "name/unknown-card", f"'{kind}' is not a card", hint)
                continue
            out.append((kind, self.card_counts[kind]))
        return tuple(out)

    # ------------------------------------------------------------ whole file

    def compile(self, game_id: str, players: int, options: dict[str, Any]) -> GameDef:
        d = self.data
        self.symbols(players, options)
        board = self.board = compile_board(d.get("board") or {}, ("board",), self.sink, options)
        if self.ex.gen is not None:
            self.ex.gen.board = board
        self.sym.constants.update({k: list(v) for k, v in board.collections.items()})
        self.sym.site_collections = set(board.collections)
        # The named spaces of a graph board and the cells of a grid are names: `place climber at BASE`.
        self.sym.constants.update({site: site for site in board.collections.get("spaces", ())})
        self.sym.constants.update({site: site for site in board.collections.get("cells", ())})
        self.sym.constants["resources"] = list(self.sym.resources)
        self.tables()
        self.card_families()
        if self.ex.gen is not None:  # the game variables that always hold lists, before any rule is compiled
            private = set(self.sym.private.get("game", {}))
            depths = list_depths(d, self.sym.game_vars, private, self.def_texts())
            self.ex.gen.list_depth.update({f"s.gv[{name!r}]": depth for name, depth in depths.items()})
        self.compile_defs()
        self.pure_defs()
        check_render_layout(d.get("render") or {}, board, self.sym.defs, self.sink)
        self.card_effects()
        self.routines()
        actions = {nm: self.action(nm, spec or {}) for nm, spec in (d.get("actions") or {}).items()}
        phases = self.flow()
        metrics = self.metrics()
        standing = (
            self.st.block(d["standing"], ("standing",), {"me": "player"}) if d.get("standing") else None
        )
        score, awards = self.scoring()
        self.positional_defs()
        kept_defs = self.kept_defs()
        actions = self.deciding(self.kept_listings(actions))
        end = d.get("end") or {}
        self.ex.reads = set()
        win = self.ex.compile(end["win"], ("end", "win"), {"p": "player"}) if "win" in end else None
        win_reads = self.parts_read(self.ex.reads, keep="p") if win is not None else None
        if win_reads is not None and not known_parts(win_reads):  # it draws at random: always checked
            win_reads = None
        layout = compile_layout(d.get("board") or {}, ("board",), self.ex, self.sink)
        require = compile_require(d.get("board") or {}, ("board",), self.ex)
        setup = self.st.block(d.get("setup"), ("setup",), {})
        comp = d.get("components") or {}
        supply = {k: int((v or {}).get("supply", 0)) for k, v in (comp.get("pieces") or {}).items()}
        zones, tiebreak, bots, estimate = self.zones(), self.tiebreak(), self.bots(), self.estimate()
        invariants = compile_invariants(d.get("invariants"), self.ex, self.index, self.parts_read)
        self.check_fields(board, layout)
        if self.sink.diagnostics:
            raise RulesError(sorted(self.sink.diagnostics, key=_order))
        if self.coverage is not None:
            self.coverage.end_of_compile()
        if self.ex.gen is not None:
            self.ex.gen.fill_names()
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
            loops=tuple(lp for lp in self.loop_list if lp is not None),
            kept_defs=kept_defs,
            pure_defs=frozenset(name for parts, names in kept_defs if not parts for name in names),
            local_defs=self.local_defs(kept_defs),
            fields_set=frozenset(name for name, _, _ in self.ex.field_sets),
            score=score,
            awards=awards,
            win=win,
            win_reads=None if win_reads is None else tuple(sorted(win_reads)),
            win_check=str(end.get("check", "own_turn")),
            zones=zones,
            supply=supply,
            tiebreak=tiebreak,
            estimate=estimate,
            metrics=metrics,
            standing=standing,
            render=dict(d.get("render") or {}),
            defs=self.defs,
            index=self.index,
            require=require,
            bots=bots,
            rules=d,
            invariants=invariants,
            card_reach=reach(self.st.paths, zones, players),
            piece_parts=frozenset(self.ex.piece_parts),
            param_plans=self.param_plans,
            coverage=self.coverage,
        )
        return game


MAX_COPIES = 10_000  # copies of one card (the schema says the same)
MAX_FAMILY = 10_000  # cards of one family: every combination of its loop values
_HOLE = re.compile(r"\{([^{}]*)\}")


def fill_template(template: str, values: dict[str, Any]) -> str:
    """A family card's name: each `{loop name}` hole replaced by its value; nothing else is allowed.

    Not str.format, whose `{n.__class__}` and `{n[0]}` would reach into Python objects.
    """

    def hole(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in values:
            raise ValueError(f"'{{{name}}}' is not a loop name")
        return str(values[name])

    filled = _HOLE.sub(hole, template)
    if "{" in filled or "}" in filled:
        raise ValueError("a brace that is not part of a {loop name} hole")
    return filled


def _loop_values(value: Any) -> list[Any]:
    """A family loop's values, refusing a collection too large to expand."""
    if isinstance(value, dict) and sum(v for v in value.values() if isinstance(v, int)) > MAX_FAMILY:
        raise ValueError(f"more than {MAX_FAMILY:,} values")
    return list(units(value))


_EVAL_ERRORS = (
    TypeError,
    ValueError,
    AttributeError,
    KeyError,
    IndexError,
    ZeroDivisionError,
    RuleRuntimeError,
)


class _Errors:
    """Which fields of a family already have a reported error, so evaluating them adds no second one."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.broken: set[str] = set()

    @contextmanager
    def watch(self, key: str) -> Iterator[None]:
        before = len(self.sink.diagnostics)
        yield
        if len(self.sink.diagnostics) > before:
            self.broken.add(key)


class BoundBlock:
    """A family card's effect: the family's statements with the card's loop values bound."""

    __slots__ = ("block", "binding")

    def __init__(self, block: Any, binding: dict[str, Any]) -> None:
        self.block, self.binding = block, binding

    def __call__(self, s: Any, b: dict[str, Any]) -> None:
        self.block(s, {**self.binding, **b})


def _by_name(fn: Any, params: tuple[str, ...]) -> Fn:
    """A def taking its arguments in order, called with a mapping of them (as closures call defs)."""
    if not params:
        return lambda s, b: fn(s)
    if len(params) == 1:
        (p0,) = params
        return lambda s, b: fn(s, b[p0])
    return lambda s, b: fn(s, *[b[p] for p in params])


def _in_order(fn: Fn, params: tuple[str, ...]) -> Any:
    """A def compiled to closures, called with its arguments in order."""
    return lambda s, *values: fn(s, dict(zip(params, values)))


def _order(d: Diagnostic) -> tuple[str, int, int]:
    if d.span is None:
        return ("", 0, 0)
    return (d.span.file, d.span.line, d.span.col)


def _may_decide(effect: Any) -> bool:
    """Whether an effect's statements, as written, name `grant` or `perform` anywhere."""
    return any(word in repr(effect) for word in ("grant", "perform"))


def calls_defs(reads: set[str]) -> bool:
    """Whether an expression of these reads calls a def or measures a metric: the results those keep across
    decisions are brought up to date before it runs, and kept in a memo while it does."""
    return any(r.startswith(("def:", "metric:")) for r in reads)


__all__ = ["GameCompiler", "resolve_options"]
