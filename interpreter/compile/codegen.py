"""Generate Python source for a checked expression, compiled once with `compile()`.

The closure compiler (expressions.py) runs first on every expression: it reports the mistakes, records
what the expression reads and is the fallback. For an expression it compiled without a mistake, this
module writes the same computation as one Python function, with comprehensions as Python comprehensions
and names resolved to direct reads of the state (`s.gv['round']`, `s.pv[me]['gold']`), so evaluating it
costs one call instead of a tree of closures. A node it does not know makes it give up (`Unsupported`) and
the closures are used as they are.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import re
from collections.abc import Callable
from typing import Any

from meeple import cache
from meeple.compile.builtins import (
    BOARD_QUERIES,
    BUILTINS,
    Distinct,
    added,
    affords_any,
    can_pay,
    can_pay_one,
    count_pieces,
    distinct,
    first_of_kinds,
    taken,
    units,
    units_held,
)
from meeple.compile.pyparts import signature_of
from meeple.compile.where import RUNTIME_ERRORS, Where, located, located_by_line
from meeple.errors import RuleRuntimeError
from meeple.rules import nodes as n
from meeple.values import Bundle, PieceRef

Fn = Callable[[Any, dict[str, Any]], Any]
_MISSING = object()
_UNSET = object()  # a hoisted call's temporary before its first use (SourceGen.hoisted)
_RANDOM_BUILTINS = frozenset({"pick", "sample", "chance"})  # never hoisted: each call draws again
# Built-ins whose answer for a list does not depend on its order: a comprehension given to one straight may
# loop over a zone as it is held (see `units_held`).
_ORDERLESS = frozenset({"count", "len", "size", "min", "max"})
_PY_CMP = {"==", "!=", "<", "<=", ">", ">="}


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Built-ins cheap enough to repeat that a def calling them may be written out where it is called (not
# those drawing from the random generator, nor the searches whose memoised result is worth keeping).
_INLINE_BUILTINS = frozenset(
    {
        "first",
        "count",
        "size",
        "sum",
        "min",
        "max",
        "any",
        "all",
        "len",
        "join",
        "total",
        "seat_after",
        "pieces",
        "pieces_at",
        "supply",
        "side_between",
        "award_points",
        "holder",
        "disjoint",
        *BOARD_QUERIES,  # the board's tables: constants
    }
)
_INLINE_NODES = (
    n.IntLit,
    n.StrLit,
    n.BoolLit,
    n.NoneLit,
    n.Name,
    n.Attr,
    n.Index,
    n.Call,
    n.Kwarg,
    n.ListLit,
    n.TupleLit,
    n.BinOp,
    n.Compare,
    n.BoolOp,
    n.NotOp,
    n.Neg,
    n.IfExp,
    n.RangeLit,
    n.BundleTerm,
    n.KeyPath,
    n.KeyExpr,
)
# Built-ins whose result depends on their arguments alone: with constant arguments, a constant.
PURE_BUILTINS = frozenset(
    {
        "first",
        "count",
        "size",
        "distinct",
        "sum",
        "min",
        "max",
        "any",
        "all",
        "len",
        "sorted",
        "join",
        "total",
        "disjoint",
        "bundles",
    }
)
# Built-ins that always give a list or tuple.
_SEQUENCE_BUILTINS = frozenset({"pieces", "pieces_at", "distinct", "sorted", "bundles"})
_PIECE_RECORD = frozenset({"kind", "owner", "site"})
# A test that reads only loop names and constants (no state, no call): the same for the same values
_PURE_TEST = re.compile(
    r"(?:\s|[(),]|v_(?!me\b)\w+|_k\d+|-?\d+|'[^'\\]*'|None|True|False|==|!=|<=|>=|<|>|not|and|or|in|is)*"
)
_CONST_NAME = re.compile(r"_k\d+\Z")
# A constant table's entry for a bound name (`sides_of(corner)` on the board): `_k12.get(v_corner, ())`
_CONST_ENTRY = re.compile(r"(_k\d+)\.get\(v_(\w+), \(\)\)\Z")
_INLINE_SIZE = 40  # nodes at most in a def written out at its calls
# An argument that costs nothing to repeat: a bound name, a constant or a literal.
_SIMPLE_ARG = re.compile(r"(v_\w+|b\['\w+'\]|_k\d+|-?\d+|'[^'\\]*'|None|True|False)\Z")
# A value read twice as cheaply as once, the same both times: a bound name or a game variable.
_REREAD = re.compile(r"(v_\w+|b\['\w+'\]|s\.gv\['\w+'\])\Z")
_TURN_VAR = re.compile(r"s\.tv\['\w+'\]\Z")  # a turn variable: read again as cheaply as a name


def _over_a_few(node: n.Node, defs: Any) -> bool:
    """Whether a comprehension's iterable is a site's pieces (`pieces_at(site)`, of a kind or not) or a
    board query (`sides_of(c)`…): a handful of items, whatever the size of the game."""
    return (
        isinstance(node, n.Call)
        and isinstance(node.func, n.Name)
        and node.func.id not in defs
        and (node.func.id == "pieces_at" or node.func.id in BOARD_QUERIES)
        and not node.kwargs
    )


def _identifiers(names: Any) -> None:
    """Names written into source as Python names must be plain names (a rule file's keys may be anything)."""
    for name in names:
        if not isinstance(name, str) or not _IDENTIFIER.match(name):
            raise Unsupported(f"not a plain name: {name!r}")


class Unsupported(Exception):
    """The node has no generated form; the closures are kept."""


def contains(a: Any, b: Any) -> bool:
    return b is not None and a in b


def lacks(a: Any, b: Any) -> bool:
    return b is None or a not in b


def add_values(a: Any, b: Any) -> Any:
    """`a + b`, where a list may meet a tuple (a list kept in a variable is stored as a tuple)."""
    try:
        return a + b
    except TypeError:
        if isinstance(a, list | tuple) and isinstance(b, list | tuple):
            return [*a, *b]
        raise


class ZoneKeys(dict[Any, str]):
    """The keys of one per-player zone in a state's zones, by player: `hand#0`, `hand#1`… each made once."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def __missing__(self, p: Any) -> str:
        key = self[p] = f"{self.name}#{int(p)}"
        return key


def index_value(container: Any, key: Any) -> Any:
    t = type(container)
    if t is list or t is tuple:
        return container[key]
    if isinstance(container, dict | Bundle):
        return container.get(key)
    return container[key]


MAX_RANGE = 100_000  # the values of one range `a..b`, so a mistyped bound cannot exhaust memory
_SMALL_INT = 1000  # a literal bound of a range looped over as Python's (`SourceGen.loop_range`)


_OWN_TEMPS = re.compile(r"\b_[mi]\d+\b")  # a source's temporaries of a kept result or an item (`_m12`, `_i3`)


def _calls_builtin(node: Any, name: str, defs: Any) -> bool:
    """Whether a node is a call of the built-in of that name (not a def of the rules by that name)."""
    return (
        isinstance(node, n.Call)
        and isinstance(node.func, n.Name)
        and node.func.id == name
        and name not in defs
    )


def plain_pieces_at(node: n.Node, defs: Any) -> bool:
    """Whether a node calls the built-in `pieces_at` (no def of that name in `defs`) with a site alone."""
    return _calls_builtin(node, "pieces_at", defs) and len(node.args) == 1 and not node.kwargs


def _loop_frame(names: list[str]) -> tuple[re.Pattern[str], list[str], dict[str, str]]:
    """A hoisting frame (`SourceGen.hoisting`) for the conditions of loops binding these names: a pattern
    telling a source that mentions one of them, the temporaries hoisted so far, and the temporary of each
    source hoisted (the same source again takes the same one)."""
    return re.compile(r"\b(?:" + "|".join(f"v_{nm}" for nm in names) + r")\b"), [], {}


def only_fields_of(source: str, name: str) -> bool:
    """Whether a loop variable is read in `source` only as `s.pieces[name]`: a piece's record, looked up by
    its id, so iterating the ids themselves gives the same values without making references."""
    uses = len(re.findall(rf"\b{name}\b", source))
    return uses == source.count(f"s.pieces[{name}]")


def number_range(a: Any, z: Any) -> list[int]:
    if not isinstance(a, int) or not isinstance(z, int):
        raise RuleRuntimeError(f"a range goes between two whole numbers, not {a} and {z}")
    if z - a >= MAX_RANGE:
        raise RuleRuntimeError(f"the range {a}..{z} has more than {MAX_RANGE:,} values")
    return list(range(a, z + 1))


class _Zone(frozenset[Any]):
    """A zone's cards and counts as a memo key: a zone is a dict, changed in place, so it is not a key."""

    __slots__ = ()


# A player's expression read twice where their resources are looked up (a name, a binding, a seat).
_SIMPLE_OBJECT = re.compile(r"[\w.]+(\[[\w'.]+\])?")
_HELD_READ = re.compile(r"\((_r\d+) if \(\1 := s\.held\[(.+)\]\) is not None else (_resources\(s, \2\))\)")


def _resources_of(source: str) -> bool:
    """Whether a piece of source is a player's resources, with or without the kept bundle read in place."""
    held = _HELD_READ.fullmatch(source)
    return _one_call(held.group(3) if held is not None else source, "_resources")


def _one_call(source: str, name: str) -> bool:
    """Whether a piece of source is one call of `name` (of a list or tuple's length, for `len`): its
    opening parenthesis closed by the last character."""
    if not source.startswith(name + "(") or not source.endswith(")"):
        return False
    depth = 0
    quote = ""  # the quote of the string literal being read, if any
    escaped = False
    for i, ch in enumerate(source):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i == len(source) - 1
    return False


def _memo_key(value: Any) -> Any:
    """A value as a memo key: a zone (a dict, changed in place) by its contents, anything else as it is.
    Told by the type, not by a hash that fails: an exception caught costs more than the whole lookup."""
    return _Zone(value.items()) if type(value) is dict else value


def _call1(s: Any, name: str, fn: Callable[..., Any], v0: Any) -> Any:
    """A def of one argument, memoised while the state cannot change (the closures' key: name, value),
    or across decisions when its results are kept (key: the value). A zone counts by its contents."""
    kept = s._kept.get(name)
    if kept is not None and v0.__class__ is not dict and s._memo is not None:  # the commonest, first
        try:
            hit = kept.get(v0, _MISSING)
        except TypeError:  # unhashable (a list): no memo
            return fn(s, v0)
        if hit is _MISSING:
            hit = kept[v0] = fn(s, v0)
        return hit
    memo = s._memo
    if memo is None:
        return fn(s, v0)
    k0 = _Zone(v0.items()) if type(v0) is dict else v0  # _memo_key, written out
    if kept is not None:
        memo, key = kept, k0
    else:
        key = (name, k0)
    try:
        hit = memo.get(key, _MISSING)
    except TypeError:  # as above
        return fn(s, v0)
    if hit is _MISSING:
        hit = memo[key] = fn(s, v0)
    return hit


def _keep(s: Any, name: str, fn: Callable[..., Any], *values: Any) -> Any:
    """A def that may read no part of the state (SourceGen.pure_defs), called where no memo is kept
    (effects, the flow): if it surely reads none (GameDef.pure_defs), its kept result if there is one, else
    worked out and kept (as `_call1`, `_call0` and `_call` key it), since no change of the state can make it
    stale. Worked out only, for an argument that cannot be a key. One argument: `_keep1`."""
    if len(values) == 1:
        return _keep1(s, name, fn, values[0])
    kept = s._kept.get(name)
    if kept is None or name not in s.game.pure_defs:
        return fn(s, *values)
    try:
        hit = kept.get(values, _MISSING)
    except TypeError:  # unhashable (a list, a zone)
        return fn(s, *values)
    if hit is _MISSING:
        hit = kept[values] = fn(s, *values)
    return hit


def _keep1(s: Any, name: str, fn: Callable[..., Any], v0: Any) -> Any:
    """`_keep` of a def of one argument, the commonest (a card's or a bundle's), without packing it; the
    key is the argument itself, as `_call1` keeps it (a zone is never one)."""
    kept = s._kept.get(name)
    if kept is None or v0.__class__ is dict or name not in s.game.pure_defs:
        return fn(s, v0)
    try:
        hit = kept.get(v0, _MISSING)
    except TypeError:  # unhashable (a list)
        return fn(s, v0)
    if hit is _MISSING:
        hit = kept[v0] = fn(s, v0)
    return hit


def _keepv1(s: Any, name: str, fn: Callable[..., Any], v0: Any) -> Any:
    """A def of one argument that reads no part of a state but variables of named scopes, called where no
    memo is kept (effects, the flow): its result among those kept for the values those variables hold now
    (GameDef.valued_kept), the ones a listing of any state holding the same values finds, else worked out
    and kept there. Worked out only for an argument or a value that cannot be a key."""
    found = s.game.valued_kept.get(name)
    if found is None or v0.__class__ is dict:
        return fn(s, v0)
    table, names, variables = found
    sv = s.sv
    try:
        results = shared_results(shared_dicts(table, tuple([sv[a][b] for a, b in variables]), names), name)
        hit = results.get(v0, _MISSING)
    except TypeError:  # a value that cannot be hashed
        return fn(s, v0)
    if hit is _MISSING:
        hit = results[v0] = fn(s, v0)
    return hit


_SHARED_KEPT = 1024  # value keys a group of defs keeps results for (then its table starts afresh)
_SHARED_RESULTS = 16384  # results a shared dict holds when handed out, at most (then a new one is)


def shared_dicts(table: dict[Any, Any], key: tuple[Any, ...], names: tuple[str, ...]) -> dict[str, Any]:
    """The dicts of results of a group's defs kept in its table for these values of what it reads (made
    if new). TypeError for a value that cannot be hashed."""
    dicts = table.get(key)
    if dicts is None:
        if len(table) >= _SHARED_KEPT:
            table.clear()
        dicts = table[key] = {name: {} for name in names}
    return dicts  # type: ignore[no-any-return]


def shared_results(dicts: dict[str, Any], name: str) -> dict[Any, Any]:
    """One def's dict of results among a group's `dicts`."""
    found = dicts[name]
    if len(found) > _SHARED_RESULTS:  # kept for every game of a long run: started afresh
        found = dicts[name] = {}
    return found  # type: ignore[no-any-return]


def _call0(s: Any, name: str, fn: Callable[..., Any]) -> Any:
    """A def of no arguments, memoised as `_call` keeps it (the key: name and no values, or none)."""
    memo = s._memo
    if memo is None:
        return fn(s)
    kept = s._kept.get(name)
    key: tuple[Any, ...]
    if kept is not None:
        memo, key = kept, ()
    else:
        key = (name, ())
    hit = memo.get(key, _MISSING)
    if hit is _MISSING:
        hit = memo[key] = fn(s)
    return hit


def _call(s: Any, name: str, fn: Callable[..., Any], *values: Any) -> Any:
    memo = s._memo
    if memo is None:
        return fn(s, *values)
    kept = s._kept.get(name)
    if kept is not None:
        memo, key = kept, values
    else:
        key = (name, values)
    try:
        hit = memo.get(key, _MISSING)
    except TypeError:  # as in _call1
        frozen = tuple([_memo_key(v) for v in values])
        key = frozen if kept is not None else (name, frozen)
        try:
            hit = memo.get(key, _MISSING)
        except TypeError:
            return fn(s, *values)
    if hit is _MISSING:
        hit = memo[key] = fn(s, *values)
    return hit


def first_field(s: Any, refs: list[Any], name: str) -> Any:
    """A field of the first piece of a piece query's answer, or none when it found no piece."""
    return s.pieces[refs[0]][name] if refs else None


def field_at(s: Any, site: Any, kind: Any, name: str) -> Any:
    """`first(pieces_at(site, kind)).name` read from the site's own list of pieces: no list is made."""
    ids = s.at.get(site)
    if ids:
        pieces = s.pieces
        for pid in ids:
            rec = pieces[pid]
            if kind is None or rec["kind"] == kind:
                return rec[name]
    return None


def count_at(s: Any, site: Any, kind: Any) -> int:
    """`len(pieces_at(site, kind))` counted on the site's own list of pieces."""
    ids = s.at.get(site)
    if not ids:
        return 0
    if kind is None:
        return len(ids)
    pieces = s.pieces
    if len(ids) == 1:
        return 1 if pieces[ids[0]]["kind"] == kind else 0
    found = 0
    for pid in ids:
        if pieces[pid]["kind"] == kind:
            found += 1
    return found


def site_bucket(s: Any, sites: tuple[str, ...] | list[str], field: str, value: Any) -> Any:
    """The sites of a constant list whose field `field` is `value`, in the list's order (an effect's loop
    `for: t in tiles` `if: t.number == r`): from an index of the list by that field, made again when the
    state's sites change (another dict, or its change counter moved). Only for a field no statement sets,
    which keeps the values the layout dealt: the whole list for one a statement sets (the loop's body might,
    under the loop), or where the values cannot be keys."""
    if field in s.game.fields_set:
        return sites
    held = s._site_index
    records = s.sites
    version = s.ver["sites"]
    if held is None or held[0] is not records or held[1] != version:
        held = s._site_index = (records, version, {})
    key = (id(sites), field)
    index = held[2].get(key)
    if index is None:
        index = {}
        try:
            for site in sites:
                index.setdefault(records.get(site, _NO_FIELDS).get(field), []).append(site)
        except TypeError:  # a value that cannot be a key: no index
            index = _UNINDEXED
        held[2][key] = index
    if index is _UNINDEXED:
        return sites
    try:
        return index.get(value, ())
    except TypeError:  # asked of a value that cannot be a key: none is
        return sites


# `[b for b in pieces_at(site) if b.kind in K]` as written out (K a constant list of kinds)
_FIRST_OF_KINDS = re.compile(
    r"\[v_(\w+) for v_\1 in _b_pieces_at\(s, (\w+|b\['\w+'\])\)"
    r" if \(s\.pieces\[v_\1\]\['kind'\] in (_k\d+)\)\]"
)
_NO_FIELDS: dict[str, Any] = {}  # the fields of a site that has none
_UNINDEXED: dict[Any, Any] = {}  # the index of a list whose fields cannot be keys


def _resources(s: Any, p: Any) -> Bundle:
    """`p.resources`: what a player holds of every resource, as a bundle. One bundle per player is kept
    (`State.held`) until that player's resources change (the effects drop it), the same bundle across
    decisions and across other players' changes, and what is worked out from it (`bundles`) kept on it.
    A bundle is made once per holding in a game and shared (bundles are never changed), so the same
    holding again finds its `bundles` worked out. Generated source reads `s.held` in place first."""
    held = s.held[p]
    if held is not None:
        return held
    game = s.game
    counts = game.resource_counts(s.pv[p])
    alike = game.holdings  # one bundle per holding, shared by every player and state holding it
    held = alike.get(counts)
    if held is None:
        if len(alike) >= _HOLDINGS_KEPT:
            alike.clear()
        held = alike[counts] = Bundle.of_pairs(game.sym.resources, counts)  # a count for each
    s.held[p] = held
    return held


def held_ones(s: Any, p: Any, ones: tuple[tuple[str, Bundle], ...]) -> list[Bundle]:
    """The bundles of one unit of `bundles(p.resources, n)`: one for each resource p holds, in name order
    (`ones`: each resource's bundle of one, in that order, the same bundles every time). Read from the
    player's counts: no bundle of the holding is made (see `_single_units`). While the player's bundle is
    kept (`_resources`), they are kept on it, as its `bundles` of one unit (the same, in the same order)."""
    held = s.held[p]
    if held is None:
        rec = s.pv[p]
        return [one for name, one in ones if rec.get(name, 0) > 0]
    subs = held._subs
    if subs is None:
        subs = held._subs = {}
    found = subs.get(_ONE_UNIT)
    if found is None:
        rec = s.pv[p]
        found = subs[_ONE_UNIT] = Distinct([one for name, one in ones if rec.get(name, 0) > 0])
    return found  # type: ignore[no-any-return]


def held_kinds(s: Any, p: Any, names: tuple[str, ...]) -> list[str]:
    """The names of the resources p holds, in name order: where only a domain gives a parameter's values,
    its bundles of one unit stand as their resources' names (a condition `disjoint(it, x)` asks whether x
    has none of that resource). Kept on the state (`State.kinds`) until p's resources change."""
    found = s.kinds[p]
    if found is None:
        rec = s.pv[p]
        found = s.kinds[p] = [name for name in names if rec.get(name, 0) > 0]
    return found


_ONE_UNIT = (1, 1)  # the key of a bundle's `bundles` of one unit (builtins.bundles: max_total, min_total)


# Bundles of holdings kept per game, then the cache starts afresh: about 600 bytes each, 10 MB at most.
# Random Verdon players meet about 100 new holdings a game and many old ones again: 4,096 was emptied every
# 40 games and made again about 3,000 holdings each time (300 games: 2.9% slower than with 16,384).
_HOLDINGS_KEPT = 16_384


def zone_member(s: Any, family: str, key: Any) -> Any:
    zone = s.zones.get(f"{family}#{key}")
    if zone is None:
        raise RuleRuntimeError(f"the zone family '{family}' has no key '{key}'")
    return zone


class SourceGen:
    """Writes expressions of one rule file as Python source; one namespace per game."""

    def __init__(self, ex: Any) -> None:
        self.ex = ex
        self.sym = ex.sym
        self.counter = itertools.count()
        self.dynamic = 0  # bumped by every piece of source that reads the state or a binding
        self.board: Any = None  # the compiled board, once known: its incidence tables are constants
        self.positional: dict[str, Callable[..., Any]] = {}  # defs taking their arguments in order
        # Small defs written out where they are called: name -> (body, scope, parameters).
        self.inline: dict[str, tuple[n.Node, dict[str, Any], tuple[str, ...]]] = {}
        # Defs with a comprehension written out where no memo is kept: name -> (body, scope, parameters,
        # the names its comprehensions bind).
        self.inline_direct: dict[str, tuple[n.Node, dict[str, Any], tuple[str, ...], set[str]]] = {}
        self.distinct_defs: set[str] = set()  # defs of no parameters whose lists surely hold no repeats
        # Defs that may read no part of a state (only their arguments, what never changes, perhaps a
        # field): called through `_keep` in effects and the flow (filled once every def is compiled).
        self.pure_defs: set[str] = set()
        # Defs that may read variables of named scopes and no other part of a state: called through
        # `_keepv1` in effects and the flow (GameDef.valued_kept has the last word).
        self.valued_defs: set[str] = set()
        # Every def with generated source: name -> (body, scope, where, parameters), to compile it again for
        # arguments of known types (`specialized`); and the versions being compiled (a def calling itself).
        self.def_bodies: dict[str, tuple[n.Node, dict[str, Any], Where, tuple[str, ...]]] = {}
        self.drawing: dict[str, bool] = {}  # by def: whether it might draw at random (`may_draw`)
        self.specializing: set[str] = set()
        self.few_loops: set[str] = set()  # of those, the ones written out even where a memo is kept
        self.offered: set[str] = set()  # the defs offer_inline has seen, in the order they are compiled
        self.subst: dict[str, str] = {}  # while writing out a def: its parameters' argument source
        # While a comprehension's conditions are written: the names its loops bind (as source) and the
        # temporaries its conditions' loop-invariant calls were given; None where none may be (`hoisted`).
        self.hoisting: list[tuple[re.Pattern[str], list[str], dict[str, str]] | None] = []
        self.in_iterable = 0  # how deep in comprehensions' iterables the source being written is (no `:=`)
        self.keys_of: dict[str, str] = {}  # per-player zone -> the name of its keys in the namespace
        self.site_field_names: set[str] | None = None  # the fields of the board's sites, once asked
        # The source of a value that is always a list or tuple -> how deep its lists go (1: a list, 2: a list
        # of lists…): the game variables `shapes.list_depths` finds, then the items read of them.
        self.list_depth: dict[str, int] = {}
        self.ns: dict[str, Any] = {
            "_units": units,
            "_units_held": units_held,
            "_added": added,
            "_taken": taken,
            "_SEQ": (tuple, list),  # a value that is its own items and indexes in place
            "_NO_FIELDS": _NO_FIELDS,  # the fields of a site-typed none (never written)
            "_site_bucket": site_bucket,
            "_in": contains,
            "_among": among,
            "_not_in": lacks,
            "_index": index_value,
            "_add": add_values,
            "_range": number_range,
            "_call1": _call1,
            "_UNSET": _UNSET,
            "_MISSING": _MISSING,
            "_NOTHING_KEPT": {},  # the kept results of a def whose results are not kept (never written)
            "_call": _call,
            "_call0": _call0,
            "_keep": _keep,
            "_keep1": _keep1,
            "_keepv1": _keepv1,
            "_zone_member": zone_member,
            "_get_attr": ex.get_attr,
            "_first_field": first_field,
            "_field_at": field_at,
            "_count_at": count_at,
            "_first_of_kinds": first_of_kinds,
            "_count_pieces": count_pieces,
            "_Bundle": Bundle,
            "_PieceRef": PieceRef,
            "_SITES": set(),  # the board's sites and
            "_CARDS": {},  # the definitions read in place by name (both filled by `fill_names`)
            "_DEFINITIONS": ex.sym.definitions,  # every definition by name: a piece's kind's fields
            "_D": self.positional,
            "_resources": _resources,
            "_held_ones": held_ones,
            "_held_kinds": held_kinds,
            "_sym": self.sym,  # routines are filled in after the expressions that name them
            "RuleRuntimeError": RuleRuntimeError,
            "_RUNTIME_ERRORS": RUNTIME_ERRORS,
            "_located": located,
            "_located_by_line": located_by_line,
        }
        for name, fn in BUILTINS.items():
            self.ns["_b_" + name] = fn

    # ------------------------------------------------------------ entry points

    def function(
        self, node: n.Node, scope: dict[str, Any], where: Where, params: tuple[str, ...] | None = None
    ) -> Any:
        """`f(s, b)` computing the node, or `f(s, *params)` for a def's body; None when unsupported.

        A Python error while it runs comes out as a RuleRuntimeError located at `where`.
        """
        try:
            _identifiers(params or ())
            body = self.search_body(node, scope, params) if params is not None else None
            body = body or f"return {self.gen(node, dict(scope), set(params or ()))}"
        except Unsupported:
            return None
        name = f"_e{next(self.counter)}"
        args = ", ".join(("s", *(f"v_{p}" for p in params))) if params is not None else "s, b"
        source = (
            f"def {name}({args}):\n"
            f"    try:\n"
            f"        {body}\n"
            f"    except _RUNTIME_ERRORS as err:\n"
            f"        raise _located(err, {self.const(where)}) from err\n"
        )
        try:
            code = cache.compiled(source, f"<rule {name}>")
        except (SyntaxError, RecursionError, MemoryError):  # nested beyond what Python compiles: closures
            return None
        exec(code, self.ns)
        fn = self.ns.pop(name)
        fn.source = body.removeprefix("return ")
        if params is None:  # an expression of the bindings `b`: an effect written out may use it in place
            fn.where = where
        return fn

    def search_body(self, node: n.Node, scope: dict[str, Any], params: tuple[str, ...]) -> str | None:
        """A def's body that is a search (`any`/`all` of one comprehension, or a def written out that is
        one) as loops that stop at the item that decides, then `return`: no generator to make and step. The
        lines as they go in the function's `try:` block; None for a body of another shape."""
        lines: list[str] = []
        found = self.loop_test(node, dict(scope), set(params), "        ", lines, set())
        return (
            None if found is None else "\n".join([*lines, f"        return {found}"]).removeprefix("        ")
        )

    def offer_inline(self, name: str, node: n.Node, scope: dict[str, Any], params: tuple[str, ...]) -> None:
        """Keep a compiled def to be written out at its later calls when it is small and cheap: no
        randomness, only other such defs and cheap built-ins. Its memo is lost there, which costs less than
        the call and the memo lookup it saves. One with a comprehension is written out only where no memo
        is kept (effects, the flow): with a memo, its kept results are worth more. Unless it is an `any` or
        `all` whose loops run over a site's pieces and the board's incidence alone (a handful of items) and
        calls no def: it is then as cheap to work out again as to look up, and is written out everywhere.
        A def it calls is written out there too if it is such a def, or called through the memo if it was
        offered before and is not (never one offered later: two defs calling each other would be written
        out into each other without end)."""
        self.offered.add(name)
        size = 0
        stack = [node]
        bound: set[str] = set()  # the names its comprehensions bind
        loops = False  # it calls a def with a comprehension
        small_loops = True  # every comprehension runs over a site's pieces or a board query; no def called
        while stack:
            x = stack.pop()
            size += 1
            if isinstance(x, n.CompFor):
                bound.update(x.names)
                small_loops = small_loops and _over_a_few(x.iter, self.sym.defs)
            elif not isinstance(x, _INLINE_NODES + (n.ListComp, n.GenCall)) or size > _INLINE_SIZE:
                return
            if isinstance(x, n.Call | n.GenCall):
                fn = x.func
                if not isinstance(fn, n.Name):
                    return
                if fn.id in self.sym.defs:
                    small_loops = False
                if fn.id in self.inline_direct:  # a def with a comprehension: this one has loops too
                    loops = True
                elif fn.id in self.offered and fn.id != name:  # compiled before: written out or memoised
                    pass
                elif fn.id in self.sym.defs or fn.id not in _INLINE_BUILTINS:
                    return  # itself, one compiled later (they might call each other), or a costly built-in
            for f in dataclasses.fields(x):
                v = getattr(x, f.name)
                if isinstance(v, n.Node):
                    stack.append(v)
                elif isinstance(v, tuple | list):
                    stack.extend(i for i in v if isinstance(i, n.Node))
        if not bound and not loops:
            self.inline[name] = (node, dict(scope), params)
        elif not bound & set(params):  # a parameter a comprehension hides would be replaced inside it
            self.inline_direct[name] = (node, dict(scope), params, bound)
            if small_loops and isinstance(node, n.GenCall) and node.func.id in ("any", "all"):  # type: ignore[attr-defined]
                self.few_loops.add(name)  # a search that stops at the item that decides and builds nothing

    def direct_args_fit(self, name: str, args: list[str]) -> bool:
        """Whether a def with a comprehension may have its body written out with these arguments: every
        argument plain (it is read at each pass), and none naming what the body's comprehensions bind."""
        params, bound = self.inline_direct[name][2:]
        if len(args) != len(params) or not all(_SIMPLE_ARG.match(a) for a in args):
            return False
        return not any(a == f"v_{x}" for a in args for x in bound)

    def with_args(self, params: tuple[str, ...], args: list[str], write: Callable[[], Any]) -> Any:
        """`write()` with a def's parameters standing for the sources of its arguments."""
        saved = self.subst
        self.subst = dict(zip(params, args))
        try:
            return write()
        finally:
            self.subst = saved

    def written_out_direct(self, name: str, args: list[str], typed: dict[str, Any]) -> str | None:
        """The source of a call to a def with a comprehension, its body in place; None to call it."""
        if not self.direct_args_fit(name, args):
            return None
        node, scope, params, _ = self.inline_direct[name]
        return self.with_args(params, args, lambda: f"({self.gen(node, {**scope, **typed}, set(params))})")

    def written_out(self, name: str, args: list[str], typed: dict[str, Any]) -> str | None:
        """The source of a call to an inlinable def with its body in place, or None to call it."""
        node, scope, params = self.inline[name]
        if len(args) != len(params):
            return None
        for p, a in zip(params, args):
            if not _SIMPLE_ARG.match(a) and _uses(node, p) > 1:
                return None  # a costly argument the body would compute more than once
        return self.with_args(params, args, lambda: f"({self.gen(node, {**scope, **typed}, set(params))})")

    def least_amount(self, node: n.Node, depth: int = 0) -> int | None:
        """The least whole number an amount can come to, known when the rule is compiled: a literal, the
        lesser branch of a conditional, a sum of such, a call of a def written out whose body is one
        (`trade_rate(me, r)`: 2, 3 or 4); None when it depends on the state."""
        if isinstance(node, n.IntLit):
            return node.value
        if isinstance(node, n.Call) and isinstance(node.func, n.Name) and node.func.id in self.inline:
            if depth < 8 and not node.kwargs:  # deep enough for any def a designer writes
                return self.least_amount(self.inline[node.func.id][0], depth + 1)
            return None
        if isinstance(node, n.IfExp):  # the lesser branch
            parts, added = (node.body, node.orelse), False
        elif isinstance(node, n.BinOp) and node.op == "+":
            parts, added = (node.left, node.right), True
        else:
            return None
        a, b = (self.least_amount(part, depth) for part in parts)
        if a is None or b is None:
            return None
        return a + b if added else min(a, b)

    def kept_first(
        self, name: str, nodes: tuple[n.Node, ...], args: list[str], scope: dict[str, Any], memoised: str
    ) -> str:
        """A memoised call of a def, its kept result (if the def's results are kept) looked up in place first:
        a dict lookup instead of a call of `_call`, which does the same and more on a miss. Only where every
        argument is a name bound to a player, piece or site, or a literal (cheap to repeat, and hashable as
        `_call`'s key needs), and a temporary may be assigned (not in a comprehension's iterable)."""
        simple = all(
            isinstance(a, n.StrLit | n.IntLit)
            or (isinstance(a, n.Name) and scope.get(a.id) in ("player", "piece", "site"))
            for a in nodes
        )
        if not simple or self.in_iterable or not args:
            return memoised
        key = args[0] if len(args) == 1 else f"({', '.join(args)},)"  # as _call1 and _call keep it
        temp = f"_m{next(self.counter)}"
        found = f"({temp} := s._kept.get({name!r}, _NOTHING_KEPT).get({key}, _MISSING))"
        return f"({temp} if {found} is not _MISSING else {memoised})"

    def specialized(self, name: str, typed: dict[str, Any]) -> str:
        """The key in `_D` of the def compiled again for arguments of these types (a player, a piece, a site):
        their fields are then read in place, as in a def written out. The def's own name when it has no
        generated source, or it is being compiled (a def calling itself)."""
        body = self.def_bodies.get(name)
        if body is None:
            return name
        node, scope, where, params = body
        key = f"{name}({', '.join(f'{p}: {typed[p]}' if p in typed else p for p in params)})"
        if key in self.positional:
            return key
        if key in self.specializing:  # a def calling itself: its own name, as it is being compiled
            return name
        saved = self.subst, self.hoisting, self.in_iterable
        self.subst, self.hoisting, self.in_iterable = {}, [], 0
        self.specializing.add(key)
        try:
            fn = self.function(node, {**scope, **typed}, where, params)
        finally:
            self.subst, self.hoisting, self.in_iterable = saved
            self.specializing.discard(key)
        if fn is None:
            return name
        self.positional[key] = fn
        return key

    def argument_types(self, name: str, args: tuple[n.Node, ...], scope: dict[str, Any]) -> dict[str, Any]:
        """The types a def's body written out in place may give its parameters: that of each argument that
        is a name of known type (a player, a piece, a site: never none) or a seat counted round the table, so
        their fields are read in place."""
        params = self.sym.defs.get(name, ())
        if len(params) != len(args):
            return {}
        typed = {}
        for p, a in zip(params, args):
            if isinstance(a, n.Name) and a.id in scope and scope[a.id] in ("player", "piece", "site"):
                typed[p] = scope[a.id]
            elif self.is_seat_after(a):
                typed[p] = "player"
        return typed

    def is_seat_after(self, node: n.Node) -> bool:
        """Whether a node is a call of the built-in `seat_after`, which always gives a player."""
        return (
            isinstance(node, n.Call)
            and isinstance(node.func, n.Name)
            and node.func.id == "seat_after"
            and node.func.id not in self.sym.defs
        )

    def zone_keys(self, name: str) -> str:
        """The name in the namespace of a per-player zone's keys (`ZoneKeys`)."""
        found = self.keys_of.get(name)
        if found is None:
            found = self.keys_of[name] = self.const(ZoneKeys(name))
        return found

    def const(self, value: Any) -> str:
        """A name in the namespace holding a value the source cannot spell."""
        if value is None or type(value) in (bool, int, str):  # not a Player or a piece: they are ints too
            return repr(value)
        name = f"_k{next(self.counter)}"
        self.ns[name] = value
        return name

    # ------------------------------------------------------------ dispatch

    def gen(self, node: n.Node, scope: dict[str, Any], local: set[str]) -> str:
        """The source of a node; a part that reads neither the state nor a binding is computed now."""
        method = getattr(self, "g_" + type(node).__name__, None)
        if method is None:
            raise Unsupported(type(node).__name__)
        before = self.dynamic
        source = str(method(node, scope, local))
        if self.dynamic != before:
            return self.hoisted(node, source) if self.hoisting and self.hoisting[-1] else source
        if isinstance(node, n.IntLit | n.StrLit | n.BoolLit | n.NoneLit):
            return source
        try:
            # A pure built-in is handed no state (`s`): one that reads it fails here and stays as source.
            value = eval(cache.compiled(source, "<constant>", "eval"), self.ns, {"s": None})  # noqa: S307 - our own source
        except Exception:  # noqa: BLE001 - a constant that fails is left to fail when it runs
            return source
        return self.const(value)

    def hoisted(self, node: n.Node, source: str) -> str:
        """In a comprehension's condition, a call of a built-in that mentions none of its loop names gives
        the same value at every item: it is worked out at the first item that asks for it and kept in a
        temporary for the others (`max(p.hand)` in `[c for c in cards if c >= max(p.hand)]`). Not one that
        draws at random. So is a field read with tests of the value's type (`turn.walker.site`)."""
        frame = self.hoisting[-1]
        if frame is None or frame[0].search(source):
            return source
        if isinstance(node, n.Attr):
            if " if " not in source:  # read in place, as cheap as the test of a temporary
                return source
        elif isinstance(node, n.Compare):  # of values that stay (`size(me.hand) >= me.quota`): kept too
            if ("s." not in source and "_h" not in source) or self.might_draw(node):
                return source
        elif isinstance(node, n.Call) and isinstance(node.func, n.Name) and node.func.id in self.sym.defs:
            if self.may_draw(node.func.id):  # each call might draw again
                return source
        elif (
            not isinstance(node, n.Call)
            or not isinstance(node.func, n.Name)
            or node.func.id in self.sym.defs
            or node.func.id not in BUILTINS
            or node.func.id in _RANDOM_BUILTINS
            # written as a direct read (`len(s.pieces)`): as cheap as a test; but not a zone's size, a sum
            or not source.startswith(("_b_", "sum("))
        ):
            return source
        key = _OWN_TEMPS.sub("_", source)  # the same source but for the names of its own temporaries
        temp = frame[2].get(key)
        if temp is None:
            temp = frame[2][key] = f"_h{next(self.counter)}"
            frame[1].append(temp)
        return f"({temp} if {temp} is not _UNSET else ({temp} := {source}))"

    def might_draw(self, node: n.Node) -> bool:
        """Whether working out an expression might draw from the random generator: it calls a built-in
        that draws, a def that might (`may_draw`), or something other than a name."""
        return self._reaches_a_draw(node, set())

    def may_draw(self, name: str) -> bool:
        """Whether a def might draw from the random generator: it, or a def it calls at any depth, calls a
        built-in that draws, calls something other than a name, or is not known here (no generated source).
        One that cannot gives the same value for the same arguments while the state stays as it is, so it
        may be hoisted (`hoisted`)."""
        found = self.drawing.get(name)
        if found is None:
            body = self.def_bodies.get(name)
            found = self.drawing[name] = body is None or self._reaches_a_draw(body[0], {name})
        return found

    def _reaches_a_draw(self, node: n.Node, reached: set[str]) -> bool:
        """Whether an expression, or a def it calls at any depth not in `reached`, might draw."""
        todo = [node]
        while todo:
            for called in _called_names(todo.pop()):
                if called is None:
                    return True
                if called in self.sym.defs:
                    if called not in reached:
                        reached.add(called)
                        body = self.def_bodies.get(called)
                        if body is None:
                            return True
                        todo.append(body[0])
                elif called in _RANDOM_BUILTINS:
                    return True
        return False

    def with_temporaries(self, temps: list[str], source: str) -> str:
        """A comprehension's source, its hoisted calls' temporaries set to not worked out yet before it."""
        if not temps:
            return source
        return "(" + "".join(f"({t} := _UNSET), " for t in temps) + f"{source})[-1]"

    def reads_state(self, source: str) -> str:
        """Mark the source being written as depending on the state or the bindings."""
        self.dynamic += 1
        return source

    def g_IntLit(self, node: n.IntLit, scope: dict[str, Any], local: set[str]) -> str:
        return repr(node.value)

    def g_StrLit(self, node: n.StrLit, scope: dict[str, Any], local: set[str]) -> str:
        return repr(node.value)

    def g_BoolLit(self, node: n.BoolLit, scope: dict[str, Any], local: set[str]) -> str:
        return repr(node.value)

    def g_NoneLit(self, node: n.NoneLit, scope: dict[str, Any], local: set[str]) -> str:
        return "None"

    def g_Name(self, node: n.Name, scope: dict[str, Any], local: set[str]) -> str:
        name, sym = node.id, self.sym
        if name in local:
            if name in self.subst:
                return self.reads_state(self.subst[name])
            _identifiers((name,))
            return self.reads_state(f"v_{name}")
        if name in scope:
            return self.reads_state(f"b[{name!r}]")
        if name in sym.game_vars:
            return self.reads_state(f"s.gv[{name!r}]")
        if name in sym.zones:
            return self.reads_state(f"s.zones[{name!r}]")
        if name == "players":
            return self.reads_state("s.players")
        if name in sym.tables:
            return self.const(sym.tables[name])
        if name in sym.constants:
            return self.const(sym.constants[name])
        if name in sym.definitions or name in sym.resources or name in sym.actions:
            return repr(name)
        if name in sym.routines:
            return self.reads_state(f"_sym.routines[{name!r}]")
        raise Unsupported(name)

    def constant_of(self, node: n.Node, scope: dict[str, Any], local: set[str]) -> Any:
        """The value of a name that is a constant (a card, a table), else _MISSING."""
        if isinstance(node, n.Name) and node.id not in scope and node.id not in local:
            sym = self.sym
            if node.id in sym.game_vars or node.id in sym.zones or node.id == "players":
                return _MISSING
            if node.id in sym.tables:
                return sym.tables[node.id]
            if node.id in sym.constants:
                return sym.constants[node.id]
            if node.id in sym.definitions or node.id in sym.resources or node.id in sym.actions:
                return node.id
        if isinstance(node, n.StrLit):
            return node.value
        return _MISSING

    def constant_values(self, node: n.Node, scope: dict[str, Any], local: set[str]) -> list[Any] | None:
        """The values an expression may have when it is a constant (a table) or an index into one, row by
        row (`room[x.zone]`: each row of `room`); None when it is not."""
        if isinstance(node, n.Index):
            outer = self.constant_values(node.obj, scope, local)
            if outer is None:
                return None
            found: list[Any] = []
            for value in outer:
                if type(value) is dict:
                    found.extend(value.values())
                elif type(value) in (list, tuple):
                    found.extend(value)
                else:
                    return None
            return found
        value = self.constant_of(node, scope, local)
        return None if value is _MISSING or isinstance(node, n.StrLit) else [value]

    def g_Attr(self, node: n.Attr, scope: dict[str, Any], local: set[str]) -> str:
        name, sym = node.name, self.sym
        obj_node = node.obj
        if isinstance(obj_node, n.Name) and obj_node.id not in scope and obj_node.id not in local:
            head = obj_node.id
            if head == "turn":
                return self.reads_state(f"s.tv[{name!r}]")
            if head in sym.scopes:
                return self.reads_state(f"s.sv[{head!r}][{name!r}]")
            if head == "option":
                return self.reads_state(f"s.options[{name!r}]")
        kind = self.ex.type_of(obj_node, scope)
        obj = self.gen(obj_node, scope, local)
        if kind == "player":
            self.dynamic += 1
            if name in sym.player_vars or name in sym.resources:
                return f"s.pv[{obj}][{name!r}]"
            if name in sym.player_zones:
                return f"s.zones[{self.zone_keys(name)}[{obj}]]"
            if name == "index":
                return f"int({obj})"
            if name == "resources":
                if self.in_iterable or not _SIMPLE_OBJECT.fullmatch(obj):  # no temporary, or none worth it
                    return f"_resources(s, {obj})"
                held = f"_r{next(self.counter)}"  # the bundle kept, read in place: no call while it is
                return f"({held} if ({held} := s.held[{obj}]) is not None else _resources(s, {obj}))"
            raise Unsupported(f"player field {name}")
        if kind == "piece" and name in _PIECE_RECORD:  # every piece's record has these
            return self.reads_state(f"s.pieces[{obj}][{name!r}]")
        if name in _PIECE_RECORD and self.first_of_pieces(obj_node):  # `first(pieces_at(c)).owner`
            query = obj_node.args[0]  # type: ignore[attr-defined]
            site_kind = self.site_and_kind(query, scope, local)
            if site_kind is not None:  # straight from the site's pieces
                site, kind = site_kind.rsplit(", ", 1)
                if kind == "None" and _SIMPLE_ARG.match(site):  # any kind: the first piece there
                    if self.in_iterable:  # no temporary here
                        return self.reads_state(
                            f"(s.pieces[s.at[{site}][0]][{name!r}] if s.at.get({site}) else None)"
                        )
                    ids = f"_f{next(self.counter)}"  # the site's ids, looked up once
                    return self.reads_state(
                        f"(s.pieces[{ids}[0]][{name!r}] if ({ids} := s.at.get({site})) else None)"
                    )
                return self.reads_state(f"_field_at(s, {site_kind}, {name!r})")
            refs = self.gen(query, scope, local)
            return self.reads_state(f"_first_field(s, {refs}, {name!r})")
        value = self.constant_of(obj_node, scope, local)
        if isinstance(value, str) and value in sym.definitions:
            return self.const(sym.definitions[value].get(name))
        if kind == "site":  # a site's fields, read in place (none for none, as `_get_attr`)
            return self.reads_state(f"s.sites.get({obj}, _NO_FIELDS).get({name!r})")
        if kind not in (None, "piece") or (kind is None and self.board is None):
            return self.reads_state(f"_get_attr(s, {obj}, {name!r})")
        # Read in place where `_get_attr` would find it. The object is read again where that is as cheap as
        # a name; a value worked out is held in a temporary, set by the test that comes first.
        held = obj
        if not (_SIMPLE_ARG.match(obj) or _TURN_VAR.match(obj)):
            if self.in_iterable:  # no temporary here
                return self.reads_state(f"_get_attr(s, {obj}, {name!r})")
            obj = f"_a{next(self.counter)}"
            held = f"({obj} := {held})"
        slow = f"_get_attr(s, {obj}, {name!r})"
        record = f"s.pieces[{obj}][{name!r}]"
        if kind == "piece":  # from its record if it has the field, else its kind's definition
            return self.reads_state(f"({record} if {name!r} in s.pieces[{held}] else {slow})")
        # A name: a site's fields as they are now, a card's from its definition (`fill_names`), the
        # likelier first; a piece from its record.
        site = f"s.sites[{obj}].get({name!r}) if {obj} in _SITES"
        card = f"_CARDS[{obj}].get({name!r}) if {obj} in _CARDS"
        tests = f"{site} else {card}" if self.is_site_field(name) else f"{card} else {site}"
        pieces = self.pieces_holding(name)
        if pieces == "none" and self.kind_field(name):  # a piece's from its kind, as `_get_attr` reads it
            rec = f"_p{next(self.counter)}"
            piece = (
                f"({rec}[{name!r}] if {name!r} in ({rec} := s.pieces[{obj}]) "
                f"else _DEFINITIONS[{rec}['kind']].get({name!r}))"
            )
            return self.reads_state(
                f"({piece} if type({held}) is _PieceRef else ({tests} else {slow}) if type({obj}) is str "
                f"else {slow})"
            )
        if pieces == "none":
            return self.reads_state(f"(({tests} else {slow}) if type({held}) is str else {slow})")
        named = f"({tests} else {slow}) if type({obj}) is str else {slow}"
        piece = f"type({held}) is _PieceRef" + (
            f" and {name!r} in s.pieces[{obj}]" if pieces == "some" else ""
        )
        return self.reads_state(f"({record} if {piece} else {named})")

    def kind_field(self, name: str) -> bool:
        """Whether some kind of piece is declared with a field of that name (`income: 1`), read from the
        kind's definition when a piece's record does not hold it."""
        sym = self.sym
        return any(name in (sym.definitions.get(k) or {}) for k in sym.piece_kinds)

    def pieces_holding(self, name: str) -> str:
        """Which pieces' records hold a field of that name: "all" (their kind, owner and site, and a field
        every kind of piece starts with), "some" (a field of some kinds) or "none"."""
        if name in _PIECE_RECORD:
            return "all"
        sym = self.sym
        having = [name in (sym.definitions[k].get("fields") or {}) for k in sym.piece_kinds]
        return "all" if having and all(having) else "some" if any(having) else "none"

    def fill_names(self) -> None:
        """Fill `_SITES` (the board's sites) and `_CARDS` (the definitions read in place by name: every card,
        and any other named definition that is not a site) once they are all known: a name read before then
        is read through `_get_attr`. The definitions themselves, not copies: a tool that swaps a card's
        effect is seen."""
        sites = self.board.kind_of if self.board is not None else {}
        self.ns["_SITES"].update(sites)  # in place: an action's loops run in a copy of the namespace
        self.ns["_CARDS"].update({k: d for k, d in self.sym.definitions.items() if k not in sites})

    def is_site_field(self, name: str) -> bool:
        """Whether some site of the board starts with a field of that name."""
        if self.site_field_names is None:
            fields = self.board.site_fields.values() if self.board is not None else ()
            self.site_field_names = {f for spec in fields for f in spec}
        return name in self.site_field_names

    def first_of_pieces(self, node: n.Node) -> bool:
        """Whether a node is `first` of a piece query (`first(pieces_at(c, 'disc'))`): a piece or none."""
        return (
            isinstance(node, n.Call)
            and isinstance(node.func, n.Name)
            and node.func.id == "first"
            and "first" not in self.sym.defs
            and len(node.args) == 1
            and not node.kwargs
            and isinstance(node.args[0], n.Call)
            and isinstance(node.args[0].func, n.Name)
            and node.args[0].func.id in ("pieces", "pieces_at")
            and node.args[0].func.id not in self.sym.defs
        )

    def site_and_kind(self, query: n.Call, scope: dict[str, Any], local: set[str]) -> str | None:
        """The source of a `pieces_at(site)` or `pieces_at(site, kind)` call's arguments as `site, kind`
        (kind None when not given), or None for another query or arguments given by name."""
        if query.func.id != "pieces_at" or query.kwargs or len(query.args) not in (1, 2):  # type: ignore[attr-defined]
            return None
        site = self.gen(query.args[0], scope, local)
        kind = self.gen(query.args[1], scope, local) if len(query.args) == 2 else "None"
        self.dynamic += 1
        return f"{site}, {self.any_kind(kind)}"

    def any_kind(self, kind: str) -> str:
        """`None` (every kind) for the source of a piece kind that is the rule file's only one: every piece
        is of that kind, so a query needs not look at the kinds."""
        kinds = self.sym.piece_kinds
        return "None" if len(kinds) == 1 and kind == repr(next(iter(kinds))) else kind

    def surely_distinct(self, node: n.Node, scope: dict[str, Any], local: set[str]) -> bool:
        """Whether a list's values are surely all different, so `distinct` would hand back the same list:
        a range, the players, a piece query, `distinct` itself, the bundles of a zone's cards, a constant list
        of different values, a comprehension that keeps some of the items of such a list as they are, either
        of two such lists, or a def of no parameters giving one."""
        if isinstance(node, n.RangeLit):
            return True
        if isinstance(node, n.IfExp):
            return self.surely_distinct(node.body, scope, local) and self.surely_distinct(
                node.orelse, scope, local
            )
        if isinstance(node, n.Name) and node.id == "players":  # the seats, unless it names something else
            sym = self.sym
            return all(node.id not in names for names in (scope, local, sym.game_vars, sym.zones))
        if isinstance(node, n.Call) and isinstance(node.func, n.Name):
            name = node.func.id
            if name in self.distinct_defs and not node.args:
                return True
            if name in BOARD_QUERIES and name not in self.sym.defs and self.board is not None:
                return len(node.args) == 1 and not node.kwargs and self.board_table_distinct(name)
            if name == "bundles" and name not in self.sym.defs and node.args:  # different multisets of cards
                if self.is_zone(node.args[0], scope, local):
                    return True
                try:  # or of a player's resources, a bundle
                    return _resources_of(self.gen(node.args[0], scope, local))
                except Unsupported:
                    return False
            return name in ("pieces", "pieces_at", "distinct") and name not in self.sym.defs
        if isinstance(node, n.ListComp):
            [*comps] = node.comps
            return (
                len(comps) == 1
                and len(comps[0].names) == 1
                and isinstance(node.elt, n.Name)
                and node.elt.id == comps[0].names[0]
                and self.surely_distinct(comps[0].iter, scope, local)
            )
        try:
            source = self.gen(node, scope, local)
        except Unsupported:
            return False
        value = self.constant_sequence(source)
        if value is not None:
            try:
                return len(set(value)) == len(value)
            except TypeError:  # an item that cannot be hashed: let `distinct` say so
                return False
        return False

    def is_zone(self, node: n.Node, scope: dict[str, Any], local: set[str]) -> bool:
        """Whether a node surely reads a zone (`ExprCompiler.a_zone`), as the source reads it: not a name the
        source binds (a def's parameter), nor a player's field that is a variable first (`g_Attr`)."""
        sym = self.sym
        if isinstance(node, n.Name) and node.id in local:
            return False
        if isinstance(node, n.Attr) and (node.name in sym.player_vars or node.name in sym.resources):
            return False
        return bool(self.ex.a_zone(node, scope))

    def board_table_distinct(self, name: str) -> bool:
        """Whether each entry of one of the board's tables (`tiles_of`, ...) names every site once."""
        table = getattr(self.board, name)
        try:
            return all(len(set(sites)) == len(sites) for sites in table.values())
        except TypeError:  # a value that cannot be hashed: not a plain list of sites
            return False

    def g_Index(self, node: n.Index, scope: dict[str, Any], local: set[str]) -> str:
        key = self.gen(node.key, scope, local)
        obj_node = node.obj
        if (
            isinstance(obj_node, n.Name)
            and obj_node.id in self.sym.keyed_zones
            and obj_node.id not in scope
            and obj_node.id not in local
        ):
            return self.reads_state(f"_zone_member(s, {obj_node.id!r}, {key})")
        obj = self.gen(obj_node, scope, local)
        held = self.constant_values(obj_node, scope, local)
        if held and all(type(v) is dict for v in held):  # a table, or a row of one: never changed
            return f"{obj}.get({key})"
        depth = self.list_depth.get(obj, 0)
        if depth > 1:  # an item of a list of lists: a list too
            self.list_depth[f"{obj}[{key}]"] = depth - 1
        if depth or self.is_sequence(obj_node, obj) or (held and all(type(v) in (list, tuple) for v in held)):
            return f"{obj}[{key}]"  # surely a list or a tuple
        if _REREAD.match(obj):  # a tuple (a list as a variable holds it) is indexed in place
            return f"({obj}[{key}] if type({obj}) in _SEQ else _index({obj}, {key}))"
        if not self.in_iterable:  # a value worked out (`columns[x][0]`): held in a temporary to test it
            temp = f"_i{next(self.counter)}"
            return f"({temp}[{key}] if type({temp} := {obj}) in _SEQ else _index({temp}, {key}))"
        return f"_index({obj}, {key})"

    def iterable(self, node: n.Node, source: str, any_order: bool = False, held: bool = False) -> str:
        """The source of a value to loop over: a list or tuple as it is, else its units (`any_order`: in
        whatever order they are held, for a consumer the order cannot change, such as `count`). `held`: the
        source is a `for` statement's, where a value worked out may be held in a temporary to test it."""
        if self.is_sequence(node, source):
            return source
        units_of = "_units_held" if any_order else "_units"
        if _REREAD.match(source):
            return f"({source} if type({source}) in _SEQ else {units_of}({source}))"
        if held:
            temp = f"_u{next(self.counter)}"
            return f"({temp} if type({temp} := {source}) in _SEQ else {units_of}({temp}))"
        return f"{units_of}({source})"

    def g_Call(self, node: n.Call, scope: dict[str, Any], local: set[str]) -> str:
        if not isinstance(node.func, n.Name):
            raise Unsupported("call")
        name = node.func.id
        if name in self.sym.defs or name not in PURE_BUILTINS:
            self.dynamic += 1  # a call may read the state or draw from its generator
        if (
            name in _ORDERLESS
            and name not in self.sym.defs
            and len(node.args) == 1
            and not node.kwargs
            and isinstance(node.args[0], n.ListComp)
        ):  # the comprehension it is given may loop over a zone unsorted
            if name != "min" and name != "max":
                counted = self.counted_in_zone(node.args[0], scope, local)
                if counted is not None:
                    return counted
            args = [self.g_ListComp(node.args[0], scope, local, any_order=True)]
        else:
            args = [self.gen(a, scope, local) for a in node.args]
        if name in self.sym.defs:
            if node.kwargs:
                raise Unsupported("def kwargs")
            typed = self.argument_types(name, node.args, scope)
            if name in self.inline:
                inlined = self.written_out(name, args, typed)
                if inlined is not None:
                    return inlined
            # Called straight while the state may change (no memo then: effects, the flow), else memoised;
            # only one of the two calls runs, so each argument is still worked out once.
            listed = "".join(", " + a for a in args)
            fn = repr(self.specialized(name, typed) if typed else name)
            direct = f"_D[{fn}](s{listed})"
            if name in self.inline_direct:
                direct = self.written_out_direct(name, args, typed) or direct
                if name in self.few_loops:  # cheaper to work out again than to look up in the memo
                    return direct
            if len(args) == 1:  # remembered under the def's name: each version gives the same results
                memoised = f"_call1(s, {name!r}, _D[{fn}], {args[0]})"
            elif not args:
                memoised = f"_call0(s, {name!r}, _D[{fn}])"
            else:
                memoised = f"_call(s, {name!r}, _D[{fn}]{listed})"
            memoised = self.kept_first(name, node.args, args, scope, memoised)
            if name in self.pure_defs:  # its kept results hold while the state changes too
                keep = "_keep1" if len(args) == 1 else "_keep"
                direct = f"{keep}(s, {name!r}, _D[{fn}]{listed})"
            elif name in self.valued_defs and len(args) == 1:  # kept by the values of the variables it reads
                direct = f"_keepv1(s, {name!r}, _D[{fn}], {args[0]})"
            return f"({direct} if s._memo is None else {memoised})"
        if name not in BUILTINS:
            raise Unsupported(name)
        if not node.kwargs and len(args) == 1:
            arg = node.args[0]
            if (
                name in ("len", "count", "size")
                and isinstance(arg, n.Call)
                and isinstance(arg.func, n.Name)
                and arg.func.id in ("pieces", "pieces_at")
                and arg.func.id not in self.sym.defs
            ):
                site_kind = self.site_and_kind(arg, scope, local)
                if site_kind is not None:  # counted on the site's own pieces
                    site, kind = site_kind.rsplit(", ", 1)
                    if kind == "None":
                        return self.reads_state(f"len(s.at.get({site}, ()))")
                    return self.reads_state(f"_count_at(s, {site_kind})")
                if arg.func.id == "pieces" and not arg.kwargs and len(arg.args) <= 1:  # every piece of a kind
                    kind = self.any_kind(self.gen(arg.args[0], scope, local)) if arg.args else "None"
                    if kind == "None":
                        return self.reads_state("len(s.pieces)")
                    return self.reads_state(f"_count_pieces(s, {kind})")
                return f"len({args[0]})"  # a piece query is a list
            if name in ("len", "count", "size") and name not in self.sym.defs:
                if self.is_zone(arg, scope, local):  # a zone's cards: the copies it holds of each
                    return f"sum({args[0]}.values())"
                if self.is_sequence(arg, args[0]):
                    return f"len({args[0]})"
            if name in BOARD_QUERIES and self.board is not None:  # the topology never changes
                return f"{self.const(getattr(self.board, name))}.get({args[0]}, ())"
        if name == "first" and not node.kwargs and len(args) == 1:
            where = self.pieces_at_first(node.args[0], scope, local)
            of_kinds = _FIRST_OF_KINDS.fullmatch(args[0]) if where is not None else None
            if of_kinds is not None and of_kinds.group(2) == where:  # the first of some kinds there
                kinds: Any = self.ns.get(of_kinds.group(3))
                if type(kinds) in (list, tuple) and all(type(k) is str for k in kinds):
                    return self.reads_state(f"_first_of_kinds(s, {where}, {self.const(frozenset(kinds))})")
            if where is not None:  # nothing stands there (most sites): none, without the comprehension
                return f"(_b_first(s, {args[0]}) if s.at.get({where}) else None)"
        if name in ("min", "max") and name not in self.sym.defs and not node.kwargs and len(args) >= 2:
            return f"{name}({', '.join(args)})"  # of its arguments: as Python's
        arg_kinds = [self.ex.type_of(x, scope) for x in node.args] if name == "disjoint" else []
        if "unit" in arg_kinds and name not in self.sym.defs and not node.kwargs and len(args) == 2:
            # A resource's name standing for its bundle of one unit (`held_kinds`): the other has none of it
            a, b = args
            if arg_kinds == ["unit", "unit"]:  # two units: disjoint unless of the same resource
                return f"({a} != {b})"
            unit, other = (a, b) if arg_kinds[0] == "unit" else (b, a)
            if "bundle" in arg_kinds and _REREAD.match(other):
                return f"({unit} not in {other}._d)"
            one = f"_Bundle.one({unit}, 1)"
            return f"_b_disjoint(s, {one}, {b})" if arg_kinds[0] == "unit" else f"_b_disjoint(s, {a}, {one})"
        if name == "disjoint" and not node.kwargs and len(args) == 2 and all(_REREAD.match(a) for a in args):
            # Two bundles (`bundles` gives them): their kinds compared in place, without the call.
            a, b = args
            # A name the loops surely took from `bundles(...)` (action_enumerator's scope) is not tested
            unsure = [x for x, node_x in zip(args, node.args) if self.ex.type_of(node_x, scope) != "bundle"]
            if not unsure:
                return f"{a}._d.keys().isdisjoint({b}._d)"
            test = " and ".join(f"type({x}) is _Bundle" for x in unsure)
            return f"({a}._d.keys().isdisjoint({b}._d) if {test} else _b_disjoint(s, {a}, {b}))"
        if (
            name == "bundles"
            and not node.kwargs
            and len(args) == 2
            and isinstance(node.args[1], n.IntLit)
            and _resources_of(args[0])
            and not self.in_iterable
        ):
            # A player's holdings, a bundle: the bundles `bundles` keeps on it looked up in place (its first
            # lines; an empty list asks it again, and gets the same).
            held, kept = f"_x{next(self.counter)}", f"_s{next(self.counter)}"
            key = f"({node.args[1].value}, 1)"
            return (
                f"((({kept} := ({held} := {args[0]})._subs) is not None and {kept}.get({key}))"
                f" or _b_bundles(s, {held}, {args[1]}))"
            )
        if name == "supply" and name not in self.sym.defs and not node.kwargs and len(args) == 2:
            return self.reads_state(f"s.supply[{args[0]}].get({args[1]}, 0)")  # the built-in's body
        if name == "side_between" and not node.kwargs and len(args) == 2 and self.board is not None:
            return f"{self.const(self.board.side_of_pair)}.get(({args[0]}, {args[1]}))"
        kwargs = {k.name: self.gen(k.value, scope, local) for k in node.kwargs}
        given = _by_position(BUILTINS[name], args, kwargs) if kwargs else args
        if given is None:
            given = [*args, *(f"{k}={v}" for k, v in kwargs.items())]
        return f"_b_{name}(s{''.join(', ' + a for a in given)})"

    def comprehension_parts(
        self,
        elt: n.Node,
        comps: tuple[n.CompFor, ...],
        scope: dict[str, Any],
        local: set[str],
        any_order: bool = False,
    ) -> tuple[str, str, list[str]]:
        """The source of a comprehension's element and of its `for … if …` clauses, and the temporaries of
        the calls its conditions hoisted (`hoisted`; `with_temporaries` sets them). A clause over
        `pieces_at(site)` whose name is read only for its pieces' fields loops over their ids. With
        `any_order` (its items only counted, or their least or greatest taken), a zone is looped over in
        the order it holds its cards, unsorted."""
        inner_scope, inner_local = dict(scope), set(local)
        parts = []  # each clause as (its loop name or None, `for … in `, iterable, site or None, `if …`s)
        loop_names = [nm for comp in comps for nm in comp.names]
        _identifiers(loop_names)
        frame = _loop_frame(loop_names)
        for comp in comps:
            it = self.iterable_source(comp.iter, inner_scope, inner_local)
            t = self.ex.element_type(comp.iter, inner_scope)
            for nm in comp.names:
                inner_scope[nm] = t
                inner_local.add(nm)
            target = ", ".join(f"v_{nm}" for nm in comp.names)
            self.hoisting.append(frame)
            try:
                conds = "".join(f" if {self.gen(c, inner_scope, inner_local)}" for c in comp.conds)
            finally:
                self.hoisting.pop()
            site = self.site_of_pieces_at(comp.iter, it) if len(comp.names) == 1 else None
            parts.append((target, f"for {target} in ", self.iterable(comp.iter, it, any_order), site, conds))
        self.hoisting.append(None)  # the element's value is handed out: each item gets its own
        try:
            element = self.gen(elt, inner_scope, inner_local)
        finally:
            self.hoisting.pop()
        clauses = []
        for k, (target, head, source, site, conds) in enumerate(parts):
            if site is not None:
                after = element + conds + "".join(p[2] + p[4] for p in parts[k + 1 :])
                if only_fields_of(after, target):
                    source = f"s.at.get({site}, ())"
            clauses.append(head + source + conds)
        return element, " ".join(clauses), frame[1]

    def pieces_at_first(self, node: n.Node, scope: dict[str, Any], local: set[str]) -> str | None:
        """The source of the site of a comprehension whose first clause loops over `pieces_at(site)` (no
        kind), when a name or a constant: its items are none where no piece stands. None otherwise."""
        if not isinstance(node, n.ListComp):
            return None
        query = node.comps[0].iter
        if not plain_pieces_at(query, self.sym.defs):
            return None
        site = self.gen(query.args[0], scope, local)
        return site if _SIMPLE_ARG.match(site) else None

    def site_of_pieces_at(self, node: n.Node, source: str) -> str | None:
        """The source of the site of `pieces_at(site)` (no kind), whose pieces are the ids of `s.at[site]`
        in order; None for any other value."""
        head = "_b_pieces_at(s, "
        if plain_pieces_at(node, self.sym.defs) and source.startswith(head):
            return source[len(head) : -1]
        return None

    def is_sequence(self, node: n.Node, source: str) -> bool:
        """Whether a node's value is surely a list or tuple, iterated as it is (not a zone or bundle,
        whose units `_units` spells out)."""
        if isinstance(node, n.ListComp | n.ListLit | n.RangeLit) or source in self.list_depth:
            return True
        if isinstance(node, n.Call) and isinstance(node.func, n.Name) and node.func.id not in self.sym.defs:
            return node.func.id in _SEQUENCE_BUILTINS or node.func.id in BOARD_QUERIES
        if isinstance(node, n.Name) and node.id == "players" and node.id not in self.sym.game_vars:
            return True
        if isinstance(node, n.BinOp) and node.op == "+":  # two lists or tuples joined: a list or a tuple
            return self.is_sequence(node.left, "") and self.is_sequence(node.right, "")  # by their shapes
        return self.constant_sequence(source) is not None

    def constant_sequence(self, source: str) -> list[Any] | tuple[Any, ...] | None:
        """The list or tuple a piece of source names when it is a constant, else None."""
        value = self.ns.get(source) if _CONST_NAME.match(source) else None
        return value if type(value) is list or type(value) is tuple else None

    # ------------------------------------------------------------ tests as statements

    def test_lines(self, node: n.Node, scope: dict[str, Any], pad: str) -> tuple[list[str], str] | None:
        """A test of an effect's `if:` as statements: `any`/`all` of one comprehension as a Python loop
        that stops at the item that decides, a small def with such a body written out the same way. Lines
        (at `pad`) and the name holding the test's value; None when the test is not of that shape. The
        lines hold for a state with no memo on (as in effects); they are for `if s._memo is None:`."""
        lines: list[str] = []
        try:
            result = self.loop_test(node, scope, set(), pad, lines, set())
        except Unsupported:
            return None
        return None if result is None else (lines, result)

    def loop_test(
        self, node: n.Node, scope: dict[str, Any], local: set[str], pad: str, lines: list[str], live: set[str]
    ) -> str | None:
        """Append the statements of a test to `lines`; the name of its value, or None (nothing appended)
        for a test of another shape. `live`: the loop names bound around it, which it must not rebind."""
        if isinstance(node, n.Call) and isinstance(node.func, n.Name) and node.func.id in self.inline_direct:
            body, def_scope, params, bound = self.inline_direct[node.func.id]
            if node.kwargs or bound & live:
                return None
            args = [self.gen(a, scope, local) for a in node.args]
            if not self.direct_args_fit(node.func.id, args):
                return None
            return self.with_args(  # type: ignore[no-any-return]
                params, args, lambda: self.loop_test(body, dict(def_scope), set(params), pad, lines, live)
            )
        if not (
            isinstance(node, n.GenCall)
            and isinstance(node.func, n.Name)
            and node.func.id in ("any", "all")
            and node.func.id not in self.sym.defs
        ):
            return None
        names = [nm for comp in node.comps for nm in comp.names]
        if set(names) & (live | local) or len(set(names)) < len(names):
            return None
        _identifiers(names)
        self.hoisting.append(None)  # nothing in it is worked out once for the loops around (`hoisted`)
        try:
            return self.search_loops(node, names, scope, local, pad, lines, live)
        finally:
            self.hoisting.pop()

    def search_loops(
        self,
        node: n.GenCall,
        names: list[str],
        scope: dict[str, Any],
        local: set[str],
        pad: str,
        lines: list[str],
        live: set[str],
    ) -> str:
        """`loop_test` of `any`/`all` of a comprehension: a loop per `for` clause, each inside the one before,
        left at the item that decides; the name of the value."""
        assert isinstance(node.func, n.Name)
        result = f"_q{len(lines)}_{len(pad)}"
        found = node.func.id == "any"  # the value when an item decides
        lines.append(f"{pad}{result} = {not found}")
        inner_scope, inner_local = dict(scope), set(local)
        inner = pad
        heads = []  # each loop: its line, its pad, the site of the pieces it walks (or None), its names
        for comp in node.comps:  # a loop per `for` clause, each inside the one before
            it = self.gen(comp.iter, inner_scope, inner_local)
            kind = self.ex.element_type(comp.iter, inner_scope)
            targets = ", ".join(f"v_{nm}" for nm in comp.names)
            site = self.site_of_pieces_at(comp.iter, it) if len(comp.names) == 1 else None
            heads.append((len(lines), inner, site, targets))
            lines.append(f"{inner}for {targets} in {self.iterable(comp.iter, it, held=True)}:")
            for nm in comp.names:
                inner_scope[nm] = kind
            inner_local |= set(comp.names)
            inner += "    "
            for cond in comp.conds:
                lines.append(f"{inner}if not ({self.gen(cond, inner_scope, inner_local)}):")
                lines.append(f"{inner}    continue")
        value = self.loop_test(node.elt, inner_scope, inner_local, inner, lines, live | set(names))
        if value is None:
            value = f"({self.gen(node.elt, inner_scope, inner_local)})"
        lines.append(f"{inner}if {'' if found else 'not '}{value}:")
        lines.append(f"{inner}    {result} = {found}")
        lines.append(f"{inner}    break")
        for _, at, _, _ in reversed(heads[1:]):  # an item decided: each loop around is left too
            lines.append(f"{at}if {'' if found else 'not '}{result}:")
            lines.append(f"{at}    break")
        for head, at, site, targets in heads:
            if site is not None and only_fields_of("\n".join(lines[head + 1 :]), targets):
                lines[head] = f"{at}for {targets} in s.at.get({site}, ()):"  # the ids are enough
        return result

    def g_GenCall(self, node: n.GenCall, scope: dict[str, Any], local: set[str]) -> str:
        if not isinstance(node.func, n.Name) or node.func.id not in BUILTINS:
            raise Unsupported("generator call")
        self.dynamic += 1
        name = node.func.id
        if name in ("any", "all"):
            # The generator yields only the item that decides, so the loop runs inside it without
            # handing every item out to `any` or `all`.
            elt, clauses, temps = self.comprehension_parts(node.elt, node.comps, scope, local)
            if name == "any":
                return self.with_temporaries(temps, f"next((True {clauses} if ({elt})), False)")
            return self.with_temporaries(temps, f"next((False {clauses} if not ({elt})), True)")
        elt, clauses, temps = self.comprehension_parts(node.elt, node.comps, scope, local, name in _ORDERLESS)
        if name == "sum":  # it makes a list of the items first: a list comprehension makes it faster
            return self.with_temporaries(temps, f"_b_sum(s, [{elt} {clauses}])")
        return self.with_temporaries(temps, f"_b_{name}(s, ({elt} {clauses}))")

    def iterable_source(self, node: n.Node, scope: dict[str, Any], local: set[str]) -> str:
        """The source of a comprehension's iterable (a range of small bounds as Python's, `loop_range`),
        where no call may be hoisted: Python allows no `:=` there."""
        self.hoisting.append(None)
        self.in_iterable += 1
        try:
            return self.loop_range(node, scope, local) or self.gen(node, scope, local)
        finally:
            self.hoisting.pop()
            self.in_iterable -= 1

    def counted_in_zone(self, node: n.ListComp, scope: dict[str, Any], local: set[str]) -> str | None:
        """`count([x for x in zone if …])` as the sum of the copies of each card that passes, read off the
        zone's (card, copies) pairs: no list of units made. Only for one loop whose items are themselves
        the list's (nothing else worked out for each), over a zone; None for any other."""
        if len(node.comps) != 1:
            return None
        comp = node.comps[0]
        if (
            len(comp.names) != 1
            or not isinstance(node.elt, n.Name)
            or node.elt.id != comp.names[0]
            or not self.is_zone(comp.iter, scope, local)
        ):
            return None
        name = comp.names[0]
        _identifiers([name])
        self.dynamic += 1
        zone = self.iterable_source(comp.iter, scope, local)
        inner_scope = {**scope, name: self.ex.element_type(comp.iter, scope)}
        frame = _loop_frame([name])
        self.hoisting.append(frame)
        try:
            conds = "".join(f" if {self.gen(c, inner_scope, local | {name})}" for c in comp.conds)
        finally:
            self.hoisting.pop()
        copies = f"_n{next(self.counter)}"
        return self.with_temporaries(
            frame[1], f"sum([{copies} for v_{name}, {copies} in {zone}.items(){conds}])"
        )

    def g_ListComp(
        self, node: n.ListComp, scope: dict[str, Any], local: set[str], any_order: bool = False
    ) -> str:
        """A list comprehension (`any_order`: its items only counted, or their least or greatest taken)."""
        self.dynamic += 1
        elt, clauses, temps = self.comprehension_parts(node.elt, node.comps, scope, local, any_order)
        return self.with_temporaries(temps, f"[{elt} {clauses}]")

    def g_ListLit(self, node: n.ListLit, scope: dict[str, Any], local: set[str]) -> str:
        return "[" + ", ".join(self.gen(i, scope, local) for i in node.items) + "]"

    def g_TupleLit(self, node: n.TupleLit, scope: dict[str, Any], local: set[str]) -> str:
        return "(" + "".join(self.gen(i, scope, local) + ", " for i in node.items) + ")"

    def g_BinOp(self, node: n.BinOp, scope: dict[str, Any], local: set[str]) -> str:
        left, right = self.gen(node.left, scope, local), self.gen(node.right, scope, local)
        if node.op == "+":
            return f"_add({left}, {right})"
        return f"({left} {node.op} {right})"

    def g_Compare(self, node: n.Compare, scope: dict[str, Any], local: set[str]) -> str:
        if len(node.ops) == 1 and node.ops[0] in ("==", "!="):  # `first(pieces_at(c)) == none`: c empty?
            sides = (node.left, node.rights[0])
            for query, other in (sides, sides[::-1]):
                if isinstance(other, n.NoneLit) and self.first_of_pieces(query):
                    site_kind = self.site_and_kind(query.args[0], scope, local)  # type: ignore[attr-defined]
                    if site_kind is not None:
                        site, kind = site_kind.rsplit(", ", 1)
                        if kind == "None":  # any piece at all: the site's list of ids is empty or not
                            test = "not " if node.ops[0] == "==" else "bool"
                            return self.reads_state(f"({test}(s.at.get({site})))")
                        return self.reads_state(f"(_count_at(s, {site_kind}) {node.ops[0]} 0)")
        left = self.gen(node.left, scope, local)
        rights = [self.gen(r, scope, local) for r in node.rights]
        if len(node.ops) == 1 and node.ops[0] in ("==", "!=", ">") and rights[0] == "0":
            if _one_call(left, "len"):  # `len(pieces_at(c)) == 0`: whether the site's ids are none, no call
                return f"({'not' if node.ops[0] == '==' else 'bool'}({left[4:-1]}))"
        if len(node.ops) == 1 and node.ops[0] in ("==", "!=") and "None" in (left, rights[0]):
            # No value of the game equals none but none itself: `is` says so without asking the value
            # (a bundle's `==` checks the other's type, a slow check for a Mapping).
            return f"({left} {'is' if node.ops[0] == '==' else 'is not'} {rights[0]})"
        if all(op in _PY_CMP for op in node.ops):
            return "(" + left + "".join(f" {op} {r}" for op, r in zip(node.ops, rights)) + ")"
        if len(rights) == 1:
            if _CONST_NAME.match(rights[0]) and self.ns.get(rights[0]) is not None:  # a constant: not none
                return f"({left} {node.ops[0]} {rights[0]})"
            if self.is_zone(node.rights[0], scope, local):  # a zone's dict, never none: Python's own test
                return f"({left} {node.ops[0]} {rights[0]})"
            if isinstance(node.rights[0], n.ListLit | n.ListComp | n.TupleLit):  # a list made here: not none
                return f"({left} {node.ops[0]} {rights[0]})"
            right = rights[0]
            plain = _SIMPLE_ARG.match(right) or _REREAD.match(right)
            if not plain and self.in_iterable:  # no temporary for the list here: the helper
                return f"{'_in' if node.ops[0] == 'in' else '_not_in'}({left}, {right})"
            # Written out (none holds nothing), in the helper's order of what is worked out: the value,
            # then the list (a list read at a cost kept in a temporary). A value that is a name or a
            # constant is the same read after the list: the test of none first.
            held = right
            if not plain:
                held = f"_i{next(self.counter)}"
                right = f"({held} := {right})"
            if not _SIMPLE_ARG.match(left):
                return f"({left} {node.ops[0]} (() if {right} is None else {held}))"
            if node.ops[0] == "in":
                return f"({right} is not None and {left} in {held})"
            return f"({right} is None or {left} not in {held})"
        raise Unsupported("chained membership")

    def g_BoolOp(self, node: n.BoolOp, scope: dict[str, Any], local: set[str]) -> str:
        joined = f" {node.op} ".join(self.gen(v, scope, local) for v in node.values)
        return f"({joined})" if len(node.values) == 2 else f"bool({joined})"  # as the closures do

    def g_NotOp(self, node: n.NotOp, scope: dict[str, Any], local: set[str]) -> str:
        return f"(not {self.gen(node.operand, scope, local)})"

    def g_Neg(self, node: n.Neg, scope: dict[str, Any], local: set[str]) -> str:
        return f"(-{self.gen(node.operand, scope, local)})"

    def loop_range(self, node: n.Node, scope: dict[str, Any], local: set[str]) -> str | None:
        """A range looped over whose bounds are surely whole numbers no bigger than some list's length
        (`0..len(columns) - 1`): Python's `range`, made as it is looped over, not a list checked for its
        size (`_range`). None for any other node, or a range of constants (worked out once as it is)."""
        if not isinstance(node, n.RangeLit) or not (self.small_int(node.start) and self.small_int(node.stop)):
            return None
        if isinstance(node.start, n.IntLit) and isinstance(node.stop, n.IntLit):
            return None
        start, stop = self.gen(node.start, scope, local), self.gen(node.stop, scope, local)
        return self.reads_state(f"range({start}, {stop} + 1)")

    def small_int(self, node: n.Node) -> bool:
        """Whether a node is surely a whole number within a list's length or so: a literal, the size of
        something (`len`, `count`, `size`), or a sum or difference of those."""
        if isinstance(node, n.IntLit):
            return abs(node.value) <= _SMALL_INT
        if isinstance(node, n.BinOp) and node.op in ("+", "-"):
            return self.small_int(node.left) and self.small_int(node.right)
        return (
            isinstance(node, n.Call)
            and isinstance(node.func, n.Name)
            and node.func.id in ("len", "count", "size")
            and node.func.id not in self.sym.defs
            and len(node.args) == 1
            and not node.kwargs
        )

    def g_RangeLit(self, node: n.RangeLit, scope: dict[str, Any], local: set[str]) -> str:
        return f"_range({self.gen(node.start, scope, local)}, {self.gen(node.stop, scope, local)})"

    def g_IfExp(self, node: n.IfExp, scope: dict[str, Any], local: set[str]) -> str:
        body, cond, orelse = (self.gen(x, scope, local) for x in (node.body, node.cond, node.orelse))
        return f"({body} if {cond} else {orelse})"

    def g_BundleTerm(self, node: n.BundleTerm, scope: dict[str, Any], local: set[str]) -> str:
        key, amount = self.bundle_term(node, scope, local)
        return f"_Bundle.one({key}, {amount})"

    def bundle_term(self, node: n.BundleTerm, scope: dict[str, Any], local: set[str]) -> tuple[str, str]:
        """The sources of a bundle term's key and amount (`2 rope`, `(n) [r]`), in the order they run."""
        amount = self.gen(node.amount, scope, local)
        key_node = node.key
        if isinstance(key_node, n.KeyExpr):
            key = self.gen(key_node.expr, scope, local)
        else:
            head = key_node.parts[0]
            if len(key_node.parts) == 1 and head not in scope and head not in local:
                key = repr(head)
            else:
                path: n.Node = n.Name(head, pos=key_node.pos, end=key_node.pos + len(head))
                for part in key_node.parts[1:]:
                    path = n.Attr(path, part, pos=key_node.pos, end=key_node.end)
                key = self.gen(path, scope, local)
        return key, amount


def _uses(node: n.Node, name: str) -> int:
    """How many times a name is read in a def's body (a bundle key path may name it too)."""
    count = 0
    stack: list[Any] = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, n.Name) and x.id == name:
            count += 1
        elif isinstance(x, n.KeyPath) and x.parts and x.parts[0] == name:
            count += 1
        for f in dataclasses.fields(x):
            v = getattr(x, f.name)
            if isinstance(v, n.Node):
                stack.append(v)
            elif isinstance(v, tuple | list):
                stack.extend(i for i in v if isinstance(i, n.Node))
    return count


# ---------------------------------------------------------------- actions


def _atoms_by_entry(table: Any) -> bool:
    """Whether a constant table's entries are lists of values of kinds in _ATOMS (`sides_of`: names)."""
    return (
        type(table) is dict
        and bool(table)
        and all(type(v) in (list, tuple) and all(type(x) in _ATOMS for x in v) for v in table.values())
    )


def _single_units(
    gen: SourceGen,
    params: list[tuple[str, n.Node | None]],
    checks: list[list[n.Node]],
    cost: tuple[n.Node, int] | None,
    scope: dict[str, Any],
    levels: range,
) -> dict[str, n.Node]:
    """The parameters of these levels (where a listing only asks whether some binding exists) that may
    take only the bundles of one unit of their domain, by the player whose resources that domain bundles:
    a domain `bundles(X.resources, n)` (n at least 1, bundles of one unit or more) of a parameter that each
    condition naming it names only as `disjoint(it, x)`. If a bundle is disjoint from something, so is each
    of its units, and each unit is in the domain: some binding exists with its bundles of one unit exactly
    when one does with any. (Not where a condition asks more of it: `not disjoint(it, a) and not
    disjoint(it, b)` may hold of a bundle of two and of none of its units.) `held_kinds` lists them, as
    their resources' names, from the player's counts, without making the holding's bundle or its
    `bundles` (`held_ones` as bundles, at a level where a value may be given instead)."""
    defs = gen.sym.defs
    found: dict[str, n.Node] = {}
    for k in levels:
        pname, domain = params[k - 1]
        if domain is None or not _calls_builtin(domain, "bundles", defs) or domain.kwargs:  # type: ignore[attr-defined]
            continue
        args = domain.args  # type: ignore[attr-defined]
        if not 2 <= len(args) <= 3 or not all(isinstance(a, n.IntLit) for a in args[1:]):
            continue
        if args[1].value < 1 or (len(args) == 3 and args[2].value != 1):
            continue
        held = args[0]
        if not (isinstance(held, n.Attr) and held.name == "resources"):
            continue
        if gen.ex.type_of(held.obj, scope) != "player":
            continue
        # Each condition naming it one `disjoint` of it (the conditions of a listing hold together), and
        # nothing else naming it: another parameter's domain, the cost.
        rest = [d for p, d in params if p != pname and d is not None] + (
            [cost[0]] if cost is not None else []
        )
        conditions = [c for level in checks for c in level]
        if not any(_mentions(node, pname) for node in rest) and all(
            _disjoint_of(c, pname, defs) or not _mentions(c, pname) for c in conditions
        ):
            found[pname] = held.obj
    return found


def _disjoint_of(node: n.Node, name: str, defs: Any) -> bool:
    """Whether a condition is `disjoint(name, x)` or `disjoint(x, name)` of the built-in, x not naming it:
    true of a bundle, then true of each of its units."""
    if not (_calls_builtin(node, "disjoint", defs) and len(node.args) == 2 and not node.kwargs):  # type: ignore[attr-defined]
        return False
    left, right = node.args  # type: ignore[attr-defined]
    for one, other in ((left, right), (right, left)):
        if isinstance(one, n.Name) and one.id == name and not _mentions(other, name):
            return True
    return False


def _mentions(node: n.Node, name: str) -> bool:
    """Whether a node names `name` anywhere (a comprehension's own name of that spelling too)."""
    if isinstance(node, n.Name):
        return node.id == name
    return any(_mentions(c, name) for c in n.children(node))


def action_enumerator(
    gen: SourceGen,
    name: str,
    params: list[tuple[str, n.Node | None]],
    checks: list[list[n.Node]],
    cost: tuple[n.Node, int] | None,
    scope: dict[str, Any],
    where_of: Callable[[n.Node], Where],
    default: Where,
    values_of: str | None = None,
    into: dict[Any, Any] | None = None,
    exists: bool = False,
    prefix: int | None = None,
) -> Any:
    """`enum(s, me, bound, free, first)`: the legal bindings of an action as Actions, in the closures' order
    (with `first`, at most one: is there any?). With `values_of`, a parameter every later one of which has
    a domain: the values of that parameter some legal binding has, in order, each once (`first` unused),
    found in one pass that leaves a value at its first binding. With `into` (the Actions the enumerator
    made, to share them), `listing(s, me, out)`: the legal bindings with nothing bound and the cost to pay
    appended to `out`, as a step's listing asks for them, without the tests of what is bound. With
    `exists` (a stepwise action), `listing(s, me, out)` that appends the action's offer with nothing
    decided (`name(…)`) if there is such a binding. With `prefix` (a stepwise action decided in order), the
    first `prefix` parameters are those bound and no other is: each bound one is taken as it is, without
    the test of whether it is bound, and the others come from their domains alone.

    Written as nested loops, one per parameter with a domain (a value already bound is its only one),
    each condition placed at the level where the last name it mentions is bound, the cost checked at its
    own level. None when a part has no generated form. A Python error while it runs comes out as a
    RuleRuntimeError at the condition, domain or cost (`where_of` its node) whose line raised it, else at
    `default` (the action).
    """
    from meeple.compile.expressions import free_names
    from meeple.values import Action, stepwise_offer

    local = {"me", *(p for p, _ in params)}
    level_of = {p: k for k, (p, _) in enumerate(params, start=1)}
    atoms: set[str] = set()  # the parameters whose domain is a constant of values of a kind in _ATOMS
    tested = into is None and not exists  # whether the lines test what is bound, a free cost, `first`
    rows_at: str | None = None  # the indentation of the last level's rows (see `_rows` below), if any
    rows_key = ""
    scope = dict(scope)
    # The levels whose values surely come from their domains alone (no value is given there)
    drawn = {k for k in range(1, len(params) + 1) if not tested or (prefix is not None and k > prefix)}
    for k, (pname, domain) in enumerate(params, start=1):
        if k in drawn and _calls_builtin(domain, "bundles", gen.sym.defs):  # surely a bundle
            scope[pname] = "bundle"
    if exists or into is not None:
        head = ["def _enumerate(s, me, out):"]
    else:
        head = ["def _enumerate(s, me, bound, free, first):", "  out = []"]
    out = _Lines([*head, "  v_me = me", "  try:"])
    asked = 0
    if values_of is not None:
        asked = [p for p, _ in params].index(values_of) + 1  # its level
        if asked == len(params) or any(domain is None for _, domain in params[asked - 1 :]):
            return None  # the last parameter's values are one listing; an input has no loop to leave
        out.add("    found = False")
    # The levels that only ask whether some binding exists: every one of an offer's listing, those after
    # the parameter whose values are listed
    seeking = range(1 if exists else asked + 1 if values_of else len(params) + 1, len(params) + 1)
    singles = _single_units(gen, params, checks, cost, scope, seeking)
    for k, (pname, _) in enumerate(params, start=1):
        if pname in singles and k in drawn:  # a resource's name for its bundle of one unit (`held_kinds`)
            scope[pname] = "unit"
    try:
        _identifiers(local)
        pad = "    "
        pads = [pad]  # the indentation of each level, for a domain computed before the loop that needs it
        _level_lines(out, gen, checks[0], cost, 0, (scope, local), pad, "return out", where_of, tested)
        for k, (pname, domain) in enumerate(params, start=1):
            out.add(f"{pad}#{k - 1}")  # where a domain computed at level k - 1 goes
            if domain is None:
                out.add(f"{pad}v_{pname} = bound.get({pname!r})" if tested else f"{pad}v_{pname} = None")
                pads.append(pad)
                _level_lines(
                    out, gen, checks[k], cost, k, (scope, local), pad, "return out", where_of, tested
                )
                continue
            if prefix is not None and k <= prefix:  # given: its value as it is, its conditions tested
                out.add(f"{pad}for v_{pname} in (bound[{pname!r}],):", where_of(domain))
                pad += "    "
                pads.append(pad)
                _level_lines(out, gen, checks[k], cost, k, (scope, local), pad, "continue", where_of, tested)
                continue
            from_domain = k in drawn  # every value comes from the domain
            domain_source = gen.gen(domain, scope, local)
            uses = free_names(domain)
            level_checks = checks[k]
            if pname in singles:  # its bundles of one unit only (`_single_units`), one of each resource
                owner = gen.gen(singles[pname], scope, local)
                if scope.get(pname) == "unit":  # from the domain alone: the resources' names stand for them
                    names = tuple(sorted(gen.sym.resources))
                    values = domain_source = f"_held_kinds(s, {owner}, {gen.const(names)})"
                else:
                    ones = tuple((r, Bundle.one(r, 1)) for r in sorted(gen.sym.resources))
                    values = domain_source = f"_held_ones(s, {owner}, {gen.const(ones)})"
            elif _CONST_NAME.match(domain_source):  # a constant domain: its distinct values once
                try:
                    values = gen.const(distinct(None, gen.ns[domain_source]))
                except TypeError:  # a value that cannot be hashed: the closures report it in play, located
                    raise Unsupported("a constant domain of unhashable values") from None
                if all(type(v) in _ATOMS for v in gen.ns[values]):
                    atoms.add(pname)
                member = _membership(checks[k], pname, level_of, k)
                if member is not None:  # `pname in xs`: the domain's values in xs, in the domain's order
                    members = member.rights[0]
                    order = gen.const({v: i for i, v in enumerate(gen.ns[values])})
                    values = f"_among({order}, {gen.gen(members, scope, local)}, {values})"
                    uses = uses | free_names(members)
                    if from_domain:  # every value looped over is in xs: not asked again (bound, it is)
                        level_checks = [c for c in checks[k] if c is not member]
            elif gen.surely_distinct(domain, scope, local):  # nothing for `distinct` to drop
                values = domain_source
            else:
                values = f"_b_distinct(s, {domain_source})"
            entry = _CONST_ENTRY.match(domain_source) if pname not in singles else None
            if entry is not None and entry.group(2) not in level_of:
                entry = None  # an entry for a parameter's value, not me
            if entry is not None and _atoms_by_entry(gen.ns.get(entry.group(1))):
                atoms.add(pname)  # values of a kind in _ATOMS, whatever the entry
            home = max([level_of.get(x, 0) for x in uses if x in level_of], default=0)
            sifted = None  # `[x for x in xs if …]` looped over in place: xs, and the test of each item
            if values is domain_source and home >= k - 1:
                sifted = _sifted_domain(gen, domain, pname, local, scope)
                if sifted is not None:
                    values = sifted[1]
            if home < k - 1 and not _CONST_NAME.match(values):
                # The domain needs only names bound further out: worked out once there, on first use.
                at = out.lines.index(f"{pads[home]}#{home}")
                out.insert(at, f"{pads[home]}d_{pname} = None")
                values = f"d_{pname} if d_{pname} is not None else (d_{pname} := {values})"
            item = pname if sifted is None else sifted[0]  # the comprehension's own name for an item
            if (
                into is not None  # a step's listing, its last parameter: constant values, constant tests
                and k == len(params) > 1
                and sifted is None
                and (_CONST_NAME.match(values) or (entry is not None and pname in atoms))
                and all(p in atoms for p, _ in params[: k - 1])
                and (cost is None or cost[1] != k)
                and all(_PURE_TEST.fullmatch(gen.gen(c, scope, local)) for c in level_checks)
            ):
                # The actions it lists for the values of the others are always the same: listed once
                # for those values (`_rows`), then handed out as a row
                rows_key = (
                    f"v_{params[0][0]}" if k == 2 else f"({''.join(f'v_{p}, ' for p, _ in params[:-1])})"
                )
                rows_at = pad
                out.add(f"{pad}_row = _rows.get({rows_key})")
                out.add(f"{pad}if _row is None:")
                out.add(f"{pad}    _row = []")
                pad += "    "
            line = f"{pad}for v_{item} in (bound[{pname!r}],) if {pname!r} in bound else {values}:"
            if from_domain:
                line = f"{pad}for v_{item} in {values}:"
            out.add(line, where_of(domain))
            at = len(out.lines) - 1
            if sifted is not None:  # a bound value is taken as it is, as from the comprehension's list
                unless = "" if from_domain else f"{pname!r} not in bound and "
                out.add(f"{pad}    if {unless}not ({sifted[2]}): continue", where_of(domain))
                if item != pname:
                    out.add(f"{pad}    v_{pname} = v_{item}")
                for temp in sifted[3]:
                    out.insert(at, f"{pad}{temp} = _UNSET")
                    at += 1
            outer = pad
            pad += "    "
            pads.append(pad)
            # A built-in call of this level's conditions that does not read its name is worked out at the
            # first value that asks for it and kept for the others (SourceGen.hoisted), as in a
            # comprehension's conditions: `size(me.played)` in `count(...) >= 3 - size(me.played)`.
            frame = _loop_frame([pname])
            gen.hoisting.append(frame)
            try:
                _level_lines(
                    out, gen, level_checks, cost, k, (scope, local), pad, "continue", where_of, tested
                )
            finally:
                gen.hoisting.pop()
            for temp in frame[1]:
                out.insert(at, f"{outer}{temp} = _UNSET")
    except Unsupported:
        return None
    if exists:  # the first binding found: the action is offered, its values decided one by one
        out.add(f"{pad}out.append({gen.const(stepwise_offer(name))})")
        out.add(f"{pad}return out")
    elif values_of is None:
        pairs = "".join(f"({p!r}, v_{p}), " for p, _ in params)
        # An action of no parameter is one Action, made once (`buy_card`)
        made = f"_Action({name!r}, ({pairs}))" if params else gen.const(Action(name))
        dest = "out" if rows_at is None else "_row"
        if params and not any(scope.get(p) in ("player", "piece") for p, _ in params):
            # The same binding is the same Action: made once, then found by the values of its parameters
            # when each is of a kind in _ATOMS (a name, a whole number or a bundle: equal only to its own
            # kind).
            key = f"v_{params[0][0]}" if len(params) == 1 else f"({''.join(f'v_{p}, ' for p, _ in params)})"
            # Where only a domain gives the values (a step's listing), a site is a name, and a constant
            # domain's values are known: not tested.
            checked = [p for p, _ in params if tested or (scope.get(p) != "site" and p not in atoms)]
            inner = pad + "    " if checked else pad
            if checked:
                out.add(f"{pad}if {' and '.join(f'type(v_{p}) in _ATOMS' for p in checked)}:")
            out.add(f"{inner}_a = _made.get({key})")
            out.add(f"{inner}if _a is None:")
            out.add(f"{inner}    _a = {made}")
            out.add(f"{inner}    if len(_made) < {_MADE}:")
            out.add(f"{inner}        _made[{key}] = _a")
            out.add(f"{inner}{dest}.append(_a)")
            if checked:
                out.add(f"{pad}else:")
                out.add(f"{pad}    {dest}.append({made})")
        else:
            out.add(f"{pad}{dest}.append({made})")
        if rows_at is not None:
            out.add(f"{rows_at}    _rows[{rows_key}] = _row")
            out.add(f"{rows_at}out.extend(_row)")
        if tested:
            out.add(f"{pad}if first:")
            out.add(f"{pad}    return out")
    else:  # a binding found: back out to the loop over the values asked for, keep the value, go on
        out.add(f"{pad}found = True")
        out.add(f"{pad}break")
        for level in range(len(params) - 1, asked, -1):
            out.add(f"{pads[level]}if found:")
            out.add(f"{pads[level]}    break")
        out.add(f"{pads[asked]}if found:")
        out.add(f"{pads[asked]}    out.append(v_{values_of})")
        out.add(f"{pads[asked]}    found = False")
    out.add("  except _RUNTIME_ERRORS as err:")
    out.add("    raise _located_by_line(err, _wheres, _action) from err")
    out.add("  return out")
    out.drop_markers()
    ns = dict(gen.ns)
    ns["_Action"] = Action
    ns["_made"] = {} if into is None else into  # the Actions made, by the values of their parameters
    ns["_rows"] = {}  # the last level's actions by the values of the others (`rows_at`): a bounded number
    ns["_ATOMS"] = _ATOMS
    ns["_can_pay"] = can_pay
    ns["_can_pay_one"] = can_pay_one
    ns["_affords_any"] = affords_any
    ns["_wheres"] = out.wheres()
    ns["_action"] = default
    try:
        exec(cache.compiled("\n".join(out.lines) + "\n", f"<action {name}>"), ns)
    except (SyntaxError, RecursionError, MemoryError):  # nested beyond what Python compiles: closures
        return None
    fn = ns["_enumerate"]
    fn.source = "\n".join(out.lines)
    return fn


def _sifted_domain(
    gen: SourceGen, domain: n.Node, pname: str, local: set[str], scope: dict[str, Any]
) -> tuple[str, str, str, list[str]] | None:
    """A parameter's domain `[x for x in xs if cond]` as its loop name, the source of xs, the test of an
    item and the temporaries of the calls the test hoisted: the enumerator loops over xs and skips an item
    that fails, without making the list. None for another domain, a loop name the enumerator binds for
    something else, or a test that might draw (the comprehension draws for every item before the first is
    tried)."""
    if not isinstance(domain, n.ListComp) or len(domain.comps) != 1:
        return None
    comp = domain.comps[0]
    if len(comp.names) != 1 or not comp.conds or comp.names[0] in local - {pname}:
        return None
    x = comp.names[0]
    if not (isinstance(domain.elt, n.Name) and domain.elt.id == x):
        return None
    if any(gen.might_draw(c) for c in comp.conds):
        return None
    _identifiers((x,))
    source = gen.iterable(comp.iter, gen.iterable_source(comp.iter, scope, local))
    inner_scope = {**scope, x: gen.ex.element_type(comp.iter, scope)}
    frame = _loop_frame([x])  # a call that reads no item is worked out once, as in the comprehension
    gen.hoisting.append(frame)
    try:
        test = " and ".join(f"({gen.gen(c, inner_scope, local | {x})})" for c in comp.conds)
    finally:
        gen.hoisting.pop()
    return x, source, test, frame[1]


# The types of parameter values a listed Action is kept for, to be handed out again by the listings that
# offer the same binding: a name, a whole number or a bundle (a hand of cards played), each equal only to
# its own kind and never changed (not a player, a piece or a truth value, which equal numbers, nor a list).
_ATOMS = (str, int, Bundle)
_MADE = 4096  # Actions kept per action of a game at most (an action with a vast choice keeps making new)


def _called_names(node: n.Node) -> list[str | None]:
    """The name each call in an expression calls (None for a call of something else than a name)."""
    found: list[str | None] = []
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, n.Call | n.GenCall):
            found.append(x.func.id if isinstance(x.func, n.Name) else None)
        stack.extend(n.children(x))
    return found


def _membership(conds: list[n.Node], pname: str, level_of: dict[str, int], level: int) -> n.Compare | None:
    """A condition `pname in xs` among a level's conditions, where xs names no parameter of this level or a
    later one: the loop over a constant domain may then go over the values in xs only (`among`)."""
    from meeple.compile.expressions import free_names

    for c in conds:
        if (
            isinstance(c, n.Compare)
            and c.ops == ("in",)
            and isinstance(c.left, n.Name)
            and c.left.id == pname
            and all(level_of.get(x, 0) < level for x in free_names(c.rights[0]))
        ):
            return c
    return None


def _by_position(fn: Any, args: list[str], kwargs: dict[str, str]) -> list[str] | None:
    """A built-in's arguments given by name passed by position instead (a call with names costs Python more),
    a default written out where one comes between (`pieces(owner=p)`: `pieces(s, None, p)`); None when
    that cannot be done (a name it does not take by position, a default not written as a constant)."""
    try:
        params = list(signature_of(fn).parameters.values())[1 + len(args) :]  # after `s` and args
    except (TypeError, ValueError):
        return None
    out, left = list(args), dict(kwargs)
    for param in params:
        if not left:
            return out
        if param.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
            return None
        if param.name in left:
            out.append(left.pop(param.name))
        elif param.default is None or param.default is ... or type(param.default) in (int, str, bool):
            out.append(repr(param.default))
        else:
            return None
    return out if not left else None


def among(order: dict[Any, int], xs: Any, domain: Any) -> Any:
    """The values of a constant domain (`order`: each value's place in it) that are in xs, in the domain's
    order: those `x in xs` holds for (none for none), so the loop need not ask it again. For a list, the
    answer for the same list object is kept (`_AMONG`): a def's result kept across decisions (`path in
    rope_paths(me)`) is the same list at the next decision, and a list is never changed in place."""
    if type(xs) is not list and type(xs) is not tuple and type(xs) is not Distinct:
        return [] if xs is None else [x for x in domain if x in xs]  # a zone's names, a bundle's kinds
    found = _AMONG.get(id(xs))
    if found is not None and found[0] is xs and found[1] is order:
        return found[2]
    try:
        places = sorted({order[x] for x in xs if x in order})
    except TypeError:  # a value that cannot be hashed: compared one by one
        return [x for x in domain if x in xs]
    values = [domain[i] for i in places]
    if len(_AMONG) >= _AMONG_KEPT:
        _AMONG.clear()
    _AMONG[id(xs)] = (xs, order, values)  # the list held: its id is not another's while it is kept
    return values


_AMONG: dict[int, tuple[Any, dict[Any, int], list[Any]]] = {}  # among's answers, by the list asked of
_AMONG_KEPT = 256


class _Lines:
    """Lines of generated source, each with the rule it computes (None for the scaffolding)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.rules: list[Where | None] = [None] * len(lines)

    def add(self, line: str, where: Where | None = None) -> None:
        self.lines.append(line)
        self.rules.append(where)

    def insert(self, index: int, line: str) -> None:
        self.lines.insert(index, line)
        self.rules.insert(index, None)

    def drop_markers(self) -> None:
        """Drop the `#k` placeholders that said where a hoisted domain may go."""
        kept = [i for i, line in enumerate(self.lines) if not line.lstrip().startswith("#")]
        self.lines = [self.lines[i] for i in kept]
        self.rules = [self.rules[i] for i in kept]

    def wheres(self) -> dict[int, Where]:
        """The rule each numbered line (1-based) computes."""
        return {i: w for i, w in enumerate(self.rules, start=1) if w is not None}


def _level_lines(
    out: _Lines,
    gen: SourceGen,
    conds: list[n.Node],
    cost: tuple[n.Node, int] | None,
    level: int,
    names: tuple[dict[str, Any], set[str]],
    pad: str,
    fail: str,
    where_of: Callable[[n.Node], Where],
    tested: bool = True,
) -> None:
    scope, local = names
    for c in conds:
        source = gen.gen(c, scope, local)
        if not any(memo in source for memo in ("_memo", "_kept", "_call")):
            # Worked out straight in any case (no result kept or memoised): a search (`any`/`all` of a
            # comprehension, or a def of one) as loops that stop at the item that decides, no generator made;
            # not one whose loop names would overwrite the bindings (`local`) of the loops around it.
            lines: list[str] = []
            try:
                value = gen.loop_test(c, scope, set(local), pad, lines, set(local))
            except Unsupported:
                value = None
            if value is not None:
                for line in lines:
                    out.add(line, where_of(c))
                out.add(f"{pad}if not {value}: {fail}", where_of(c))
                continue
        out.add(f"{pad}if not {source}: {fail}", where_of(c))
    if cost is not None and cost[1] == level:
        out.add(
            f"{pad}if {'not free and ' if tested else ''}not {_pay_test(gen, cost[0], scope, local)}: {fail}",
            where_of(cost[0]),
        )
    elif cost is not None and level == 0:
        costs = _table_costs(gen, cost[0], scope, local)
        if costs is not None:  # none of the costs the table names can be paid: no binding is legal
            out.add(f"{pad}if {'not free and ' if tested else ''}not {_affords_test(gen, costs)}: {fail}")


def _table_costs(
    gen: SourceGen, cost: n.Node, scope: dict[str, Any], local: set[str]
) -> tuple[tuple[tuple[str, int], ...], ...] | None:
    """For a cost read from a table of the rules by a key the loops bind (`climb_cost[project.home.terrain]`),
    the costs it names, each once as its (resource, amount) pairs, when each is a bundle of resources; None
    for any other cost."""
    if not isinstance(cost, n.Index) or not isinstance(cost.obj, n.Name):  # a table is named
        return None
    table = gen.ns.get(gen.gen(cost.obj, scope, local))
    if not isinstance(table, dict) or not table:
        return None
    resources = set(gen.sym.resources)
    if not all(isinstance(b, Bundle) and resources.issuperset(b) for b in table.values()):
        return None
    return tuple(dict.fromkeys(tuple(b.items()) for b in table.values()))


def _affords_test(gen: SourceGen, costs: tuple[tuple[tuple[str, int], ...], ...]) -> str:
    """The source of the test that `me` holds every unit of one of the costs at least: for a few costs,
    the counts read in place (each cost's largest amount asked first, the likeliest to fail)."""
    if len(costs) > 8 or any(len(c) > 4 for c in costs):
        return f"_affords_any(s.pv[me], {gen.const(costs)})"
    if any(not c for c in costs):  # a cost of nothing
        return "True"
    record = f"_p{next(gen.counter)}"
    tests = [
        " and ".join(f"{record}.get({k!r}, 0) >= {v!r}" for k, v in sorted(c, key=lambda kv: -kv[1]))
        for c in costs
    ]
    return f"(({record} := s.pv[me]) is not None and ({' or '.join(f'({t})' for t in tests)}))"


def _pay_test(gen: SourceGen, cost: n.Node, scope: dict[str, Any], local: set[str]) -> str:
    """The source of the test that `me` holds a cost, as `can_pay` tells: the counts read in place for one
    resource whose name is plain, or for a bundle known when the rule is compiled (`1 rope + 1 bolt`)."""
    if isinstance(cost, n.BundleTerm):  # one resource: its count read, no bundle made
        key, amount = gen.bundle_term(cost, scope, local)
        if not _SIMPLE_ARG.match(key):
            return f"_can_pay_one(s, me, {key}, {amount})"
        if re.fullmatch(r"\d+", amount):
            return f"(s.pv[me].get({key}, 0) >= {amount})" if int(amount) else "True"
        least = gen.least_amount(cost.amount)
        if least is not None and least > 0:  # too few for the least it can be: the amount is not worked out
            have = f"_c{next(gen.counter)}"
            return f"(({have} := s.pv[me].get({key}, 0)) >= {least} and {have} >= {amount})"
        held = f"_c{next(gen.counter)}"
        return f"(not ({held} := {amount}) or s.pv[me].get({key}, 0) >= {held})"
    source = gen.gen(cost, scope, local)
    value = gen.ns.get(source) if _CONST_NAME.match(source) else None
    if not isinstance(value, Bundle) or len(value) > 6:
        return f"_can_pay(s, me, {source})"
    if not value:
        return "True"
    record = f"_p{next(gen.counter)}"  # the player's record, read once
    reads = " and ".join(f"{record}.get({k!r}, 0) >= {v!r}" for k, v in value.items())
    return f"(({record} := s.pv[me]) is not None and {reads})"
