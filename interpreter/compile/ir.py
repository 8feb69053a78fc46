"""The compiled, immutable definitions a running game reads: actions, phases, awards, the end rule."""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from meeple import cache
from meeple.compile.board import Board, LayoutDef, RequireDef
from meeple.compile.codegen import shared_dicts, shared_results
from meeple.compile.expressions import Fn
from meeple.compile.sitelocal import nearby
from meeple.compile.statements import Run
from meeple.compile.symbols import OWNED, Symbols, is_scope_part, scope_part, scope_variable
from meeple.values import Action, Player, bare_action

# The parts of a state, each with a change counter (State.ver), for recomputing only what changed. `res` is
# what players hold of each resource and `pv` their other variables: both live in `State.pv`, counted apart
# because resources change at almost every decision (a trade, a cost) and most rules read only one of them.
PARTS = ("pv", "res", "gv", "tv", "sv", "pieces", "zones", "sites", "awards")
# A counter that is no part: a piece placed, removed, or given another kind or owner (not one moved), for
# the piece queries' kept answers (builtins.pieces).
ROSTER = "roster"


# Finer parts of `pieces`, each with its own counter too: `pieces.K` counts the changes to pieces of kind K,
# `pieces.K@2` those to pieces of kind K of the third player (`@-`: no owner's). A read of pieces of kind K
# owned by the player a name stands for is written `pieces.K@=NAME` while rules compile, and made one of
# `pieces.K@i` where what reads it is worked out player by player (an award's measure, the win condition),
# or `pieces.K` elsewhere (`coarse`).
def known_parts(parts: set[str]) -> bool:
    """Whether these are all parts of a state with a change counter (no marker, no `rng`)."""
    return all(p in PARTS or is_scope_part(p) or p.startswith(("pieces.", "zones@")) for p in parts)


# A kept def's read of the pieces of kind K owned by its one argument, whatever its name
# (GameCompiler.kept_defs): `pieces.K@=`, the OWNED marker with no name after it.
OF_ARGUMENT = OWNED


def coarse(part: str) -> str:
    """A part with the player a name stands for left out (`pieces.K@=p` is `pieces.K`)."""
    return part.split("@", 1)[0] if OWNED in part else part


def for_player(parts: tuple[str, ...], name: str, player: int) -> tuple[str, ...]:
    """The parts read when `name` is the given player: the pieces of kind K owned by `name` are those of
    `player`; what another name owns is any owner's."""
    mine = OWNED + name
    return tuple(p[: -len(mine)] + f"@{int(player)}" if p.endswith(mine) else coarse(p) for p in parts)


def _seat(owner: Any) -> str:
    return "-" if owner is None else str(int(owner))


def _finer_parts(kind: str, owner: Any) -> tuple[str, str, str]:
    """The finer parts of `pieces` a piece of a kind and owner (a seat, or None) is in: its kind's, its
    kind's of that owner (see OWNED) and its owner's."""
    return (f"pieces.{kind}", f"pieces.{kind}@{_seat(owner)}", f"pieces@{_seat(owner)}")


@dataclass(frozen=True)
class ParamDef:
    name: str
    domain: Fn | None  # None: an input, bound by whoever grants the action


@dataclass(frozen=True)
class ActionDef:
    name: str
    params: tuple[ParamDef, ...]
    checks: tuple[tuple[Fn, ...], ...]  # checks[k]: conditions once the first k parameters are bound
    cost: Fn | None
    cost_level: int  # the number of parameters the cost needs
    effect: Run  # a generated function, or a Block of closures
    stepwise: bool = False
    fast: Any = None  # generated enumerator of its legal bindings, when only its inputs are bound
    check_nodes: tuple[tuple[Any, ...], ...] = ()  # the parsed conjuncts of `when` behind each of checks
    cost_memo: bool = False  # the cost calls a def or measures a metric: worked out with a listing's memo
    # A stepwise action's generated lists of the values of a parameter some legal binding has (codegen's
    # `action_enumerator` with `values_of`), by parameter: one pass where each value was tried on its own.
    next_values: dict[str, Any] = field(default_factory=dict)
    # The parts of a state listing its legal bindings reads (domains, conditions, cost), when known; None
    # when it draws at random or calls what is not known (see GameDef.kept_steps).
    list_reads: tuple[str, ...] | None = None
    may_decide: bool = True  # its effect grants an action or performs something that might (GameDef.deciding)
    # The generated listing of its legal bindings as a step lists them (nothing bound, the cost to pay):
    # `listing(s, me, out)` appends them to out (codegen's `action_enumerator` with `into`); a stepwise
    # action's appends its offer with nothing decided, `name(…)`, when any binding is legal (with `exists`).
    listing: Any = None
    # A stepwise action with no input, its parameters decided in order: by how many are decided (k), its
    # generated loops with exactly those bound, listing the values of the next one some legal binding has,
    # or, with all but the last decided, the legal bindings (None where a part has no generated form).
    stepped: tuple[Any, ...] = ()

    @cached_property
    def inputs(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.domain is None)

    @cached_property
    def chosen(self) -> tuple[str, ...] | None:
        """The names of the parameters in order when the player chooses every one (no input), else None."""
        return None if self.inputs else tuple(p.name for p in self.params)


@dataclass(frozen=True)
class StepDef:
    kind: str  # "do" | "choose" | "simultaneous"
    block: Run | None = None
    actions: tuple[str, ...] = ()
    until: str | None = None  # the action (declared, or a bare word) that ends a `choose` step
    while_: Fn | None = None  # `choose` again and again while this holds for `me`
    optional: bool = False  # `skip` is offered too
    # A `simultaneous` step: the players who decide in secret, in this order (None: every seat in order);
    # each takes the step as a `choose` step, and the choices are applied together once all have chosen.
    players: Fn | None = None
    # Its choices are independent (compile/independence.py): each player may decide on the state the
    # players before changed, and the reveal applies nothing again.
    independent: bool = False


@dataclass(frozen=True)
class MetricDef:
    """A named distance: the cost of entering a site (`t`), and the steps that are cut (`a` to `b`)."""

    name: str
    kind: str  # the kind of site it measures between: tile, corner
    enter: Fn
    blocked: Fn | None
    enter_at: Any = None  # enter_at(s, t): the same cost, called with the site itself
    blocked_at: Any = None  # blocked_at(s, a, b)


@dataclass(frozen=True)
class RoundRobinDef:
    """Turns around the table with no fixed list: who starts, which way, who is skipped."""

    first: Fn
    direction: Fn  # 1 clockwise, -1 counterclockwise; evaluated before every turn
    skip: Fn | None  # a condition on `p`


@dataclass(frozen=True)
class PhaseDef:
    name: str
    turns: str  # clockwise | counterclockwise | snake | none | round_robin
    repeat: bool
    steps: tuple[StepDef, ...]
    until: Fn | None = None
    round_robin: RoundRobinDef | None = None
    first: Fn | None = None  # the player who starts each round (default: the first player)


@dataclass(frozen=True)
class LoopDef:
    """Phases (and loops) run in order, `times` times or until a condition holds; a fresh scope each pass."""

    name: str
    times: int | None
    until: Fn | None
    scope: str | None
    body: tuple[tuple[str, int], ...]  # ("phase", index) or ("loop", index)


@dataclass(frozen=True)
class AwardDef:
    name: str
    measure: Fn
    minimum: int
    points: int
    reads: tuple[str, ...] = ("pv", "res", "gv", "tv", "pieces", "zones", "sites", "awards", "rng")
    # Whether its measure calls a def or measures a metric: worked out with a listing's memo (the results
    # kept across decisions brought up to date first); a measure calling neither has no use for them.
    memo: bool = True

    @cached_property
    def counters(self) -> Callable[[dict[str, int]], Any] | None:
        """The change counters of the parts it reads, from a state's; None when it draws at random."""
        return None if "rng" in self.reads else _counters_of(tuple(coarse(p) for p in self.reads))

    @cached_property
    def per_player(self) -> bool:
        """Whether its measure of `p` reads some pieces of p's only: each player's is kept while what it
        reads is unchanged (see `counters_of`)."""
        return "rng" not in self.reads and any(p.endswith(OWNED + "p") for p in self.reads)

    @cached_property
    def player_counters(self) -> dict[int, Callable[[dict[str, int]], Any]]:
        """By player, the change counters of the parts its measure of that player reads (made when first
        asked, see `counters_of`)."""
        return {}

    def counters_of(self, player: int) -> Callable[[dict[str, int]], Any]:
        """The change counters of the parts its measure of `player` reads, from a state's."""
        fn = self.player_counters.get(player)
        if fn is None:
            fn = self.player_counters[player] = _counters_of(for_player(self.reads, "p", player))
        return fn


@dataclass(frozen=True)
class ZoneDef:
    name: str
    per_player: bool
    visibility: str  # owner | all | hidden
    fill: tuple[tuple[str, int], ...] = ()
    keys: tuple[str, ...] = ()  # a family of zones, one per key: `decks['desert']`
    fills: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)  # by key

    def key_names(self, players: int) -> list[str]:
        """The state's keys of this zone's members: `hand#0`, `decks#desert`, or the name alone."""
        if self.per_player:
            return [f"{self.name}#{p}" for p in range(players)]
        if self.keys:
            return [f"{self.name}#{k}" for k in self.keys]
        return [self.name]

    def starting_cards(self, key: str) -> dict[str, int]:
        _, _, member = key.partition("#")
        return dict(self.fills.get(member, self.fill))


@dataclass(frozen=True)
class InvariantDef:
    """A condition every state must meet (checked by soaks and `--check-invariants`, never in play)."""

    name: str
    check: Fn
    per_player: bool  # it mentions `p`: checked once for every player
    span: Any = None  # where the rule file states it
    reads: tuple[str, ...] | None = None  # the parts of a state it reads; None: it may read anything


@dataclass
class GameDef:
    """Everything compiled from one rule file; shared by every state of the game."""

    id: str
    name: str
    players: int
    options: dict[str, Any]
    sym: Symbols
    board: Board
    layout: list[LayoutDef]
    setup: Run
    actions: dict[str, ActionDef]
    phases: tuple[PhaseDef, ...]
    loops: tuple[LoopDef, ...]  # loops[0] is the whole flow
    score: Fn
    awards: tuple[AwardDef, ...]
    win: Fn | None
    win_check: str
    zones: tuple[ZoneDef, ...]
    supply: dict[str, int]
    tiebreak: tuple[Fn, ...] = ()
    estimate: Fn | None = None  # how well `p` is doing mid-game, for search bots (None: the score)
    metrics: dict[str, MetricDef] = field(default_factory=dict)
    standing: Run | None = None  # statements run after every change until nothing changes
    render: dict[str, Any] = field(default_factory=dict)
    defs: dict[str, Fn] = field(default_factory=dict)
    index: Any = None
    require: RequireDef | None = None  # the condition a random layout is drawn again until it meets
    # Defs whose results are kept from one decision to the next: (the parts of a state they read, names).
    kept_defs: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    # Of those, the ones that read no part of a state: their kept results hold in effects too (`_keep`).
    pure_defs: frozenset[str] = frozenset()
    # Of those, the defs of a site reading the pieces near it only, with the paths of board queries from
    # their argument to the sites whose pieces they read (compile/sitelocal.py).
    local_defs: dict[str, frozenset[tuple[str, ...]]] = field(default_factory=dict)
    fields_set: frozenset[str] = frozenset()  # the fields some statement sets (of a piece or a site)
    bots: dict[str, Fn] = field(default_factory=dict)  # bot name -> its evaluation of a position for `p`
    rules: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # the file, for `why`
    # Piece references handed out by piece queries, kept per piece id while its record is the same one.
    piece_refs: dict[int, Any] = field(default_factory=dict, repr=False, compare=False)
    invariants: tuple[InvariantDef, ...] = ()
    piece_parts: frozenset[str] = frozenset()  # the finer parts of `pieces` rules read (counted_parts)
    card_reach: dict[str, frozenset[str]] = field(default_factory=dict)  # zone key -> keys its cards reach
    param_plans: dict[str, dict[str, Any]] = field(default_factory=dict)  # narration: compile/secrecy.py
    # The parts of a state the win condition reads: a player's check is skipped while they are as they were
    # when it last failed; None when that is not known (it draws at random, or calls a def of unknown reads).
    win_reads: tuple[str, ...] | None = None
    # The counters of a copy compiled for rule coverage (compile/coverage.py); None in ordinary play.
    coverage: Any = field(default=None, repr=False, compare=False)
    # The answers of `groups` and `runs` by their arguments and the cards held, and of `longest_path` by its
    # arguments as given (compile/builtins.py).
    card_combos: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    # The handfuls those answers list, one bundle each by its cards, kept when the answers are dropped for
    # room: a memo keyed by a handful then finds the very object again, without comparing two bundles.
    card_bundles: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    # A player's resources as a bundle, by the counts of each resource (compile/codegen.py's `_resources`).
    holdings: dict[tuple[int, ...], Any] = field(default_factory=dict, repr=False, compare=False)
    # A new piece's fields before its own are set, per kind (lists as tuples); made at the kind's first use.
    _piece_defaults: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def win_counters(self) -> list[Callable[[dict[str, int]], Any]] | None:
        """By player, the change counters of the parts the win condition reads for them, from a state's
        (None: unknown)."""
        if self.win_reads is None:
            return None
        return [_counters_of(for_player(self.win_reads, "p", i)) for i in range(self.players)]

    @cached_property
    def settle_counters(self) -> Callable[[dict[str, int]], Any] | None:
        """The change counters of every part the awards and the win condition read, for any player, from a
        state's: while they and the turn's player stay, settling again changes nothing (engine.settle).
        None when one of them draws at random or reads what is not known."""
        parts: set[str] = set()
        for award in self.awards:
            if "rng" in award.reads:
                return None
            parts.update(coarse(p) for p in award.reads)
        if self.win is not None:
            if self.win_reads is None:
                return None
            parts.update(coarse(p) for p in self.win_reads)
        return _counters_of(tuple(sorted(parts)))

    @cached_property
    def piece_keys(self) -> dict[tuple[str, Any], tuple[str, ...]]:
        """By a piece's kind and owner (a seat, or None), the names of the change counters a change to it
        moves besides `pieces`: of its kind's, its kind's of that owner (see OWNED) and its owner's, those
        some rule reads (`counted_parts`); a part nothing reads is not counted, and costs nothing."""
        owners: list[Any] = [*range(self.players), None]
        counted = self.counted_parts
        keys = {
            (kind, owner): tuple(part for part in _finer_parts(kind, owner) if part in counted)
            for kind in self.sym.piece_kinds
            for owner in owners
        }
        return {key: parts for key, parts in keys.items() if parts}

    @cached_property
    def counted_parts(self) -> frozenset[str]:
        """The finer parts of `pieces` that get change counters: those some rule reads (`piece_parts`), a
        part read for the player a name stands for as every seat's and as its kind's; a player's pieces
        of every kind (`pieces@i`) where a name's pieces of every kind are read (`pieces(owner=p)`); and
        the pieces of a kind of no one's (`pieces.K@-`) where a def is kept by seat (kept_parts)."""
        counted: set[str] = set()
        kinds_of: dict[str, set[str]] = {}  # by name: the kinds of the pieces it owns that are read
        seats = range(self.players)
        for part in self.piece_parts:
            if OWNED in part:
                base, name = part.split(OWNED, 1)
                counted.update(f"{base}@{i}" for i in seats)
                kinds_of.setdefault(name, set()).add(base.removeprefix("pieces."))
            counted.add(coarse(part))
        if any(kinds >= self.sym.piece_kinds for kinds in kinds_of.values()):
            counted.update(f"pieces@{i}" for i in seats)
        for parts, _ in self.kept_defs:  # a def kept by seat: each seat's pieces and no one's (kept_parts)
            counted.update(
                p for part in parts if part.endswith(OF_ARGUMENT) for p in _each_owner(part, self.players)
            )
        return frozenset(counted)

    @cached_property
    def counters(self) -> tuple[str, ...]:
        """The names of a state's change counters (`ver`): every part, each variable of a named scope, and
        the finer parts of `pieces` that are counted (piece_keys)."""
        finer = dict.fromkeys(key for keys in self.piece_keys.values() for key in keys)
        scoped = (scope_part(scope, name) for scope, names in self.sym.scopes.items() for name in names)
        seats = [f"zones@{i}" for i in range(self.players)] if self.zone_parts else []
        return (*PARTS, ROSTER, *scoped, *finer, *seats)

    @cached_property
    def zone_parts(self) -> dict[str, str]:
        """By the key of a player's zone (`hand#2`), the change counter a change to its cards moves besides
        `zones`: that of the player's zones (`zones@2`). Empty where neither the win condition nor an
        award's measure reads the zones of a player for that player alone: nothing would ask those
        counters (a def's results are kept by all the zones: GameCompiler.kept_defs)."""
        reads = [*(self.win_reads or ()), *(p for a in self.awards for p in a.reads)]
        if not any(p.startswith("zones@") for p in reads):
            return {}
        return {
            key: f"zones@{key.rpartition('#')[2]}"
            for zone in self.zones
            if zone.per_player
            for key in zone.key_names(self.players)
        }

    @cached_property
    def query_parts(self) -> dict[tuple[Any, Any], str]:
        """By the kind and owner a piece query asks for (None: any kind, `...`: any owner), the change
        counter of the pieces its answer lists: the finest counted one that covers them (`pieces` for an
        owner not in the game's seats)."""
        counted = self.counted_parts
        found: dict[tuple[Any, Any], str] = {(None, ...): "pieces"}
        for kind in self.sym.piece_kinds:
            for owner in [*range(self.players), None]:
                of_kind, of_both, of_owner = _finer_parts(kind, owner)
                of_kind = of_kind if of_kind in counted else "pieces"
                found[(kind, ...)] = of_kind
                found[(kind, owner)] = of_both if of_both in counted else of_kind
                found[(None, owner)] = of_owner if of_owner in counted else "pieces"
        return found

    @cached_property
    def deciding(self) -> frozenset[str]:
        """The actions whose effect may leave a decision to make before the step that offered them goes on:
        it grants an action or performs something (a card's effect, a routine) that might."""
        return frozenset(name for name, a in self.actions.items() if a.may_decide)

    @cached_property
    def scope_starts(self) -> dict[str, tuple[dict[str, Any], dict[str, str]]]:
        """By named scope: its variables at their declared values (lists as tuples, as a state holds them),
        and the change counter of each variable (`scope_part`)."""
        return {
            scope: (
                {name: tuple(v) if isinstance(v, list) else v for name, v in spec.items()},
                {name: scope_part(scope, name) for name in spec},
            )
            for scope, spec in self.sym.scopes.items()
        }

    @cached_property
    def resource_counts(self) -> Callable[[dict[str, Any]], tuple[int, ...]]:
        """A player's record to the counts of every resource, in the declared order, as a tuple."""
        resources = self.sym.resources
        if len(resources) > 1:
            return operator.itemgetter(*resources)
        return lambda rec: tuple([rec[r] for r in resources])

    @cached_property
    def listers(self) -> list[list[tuple[tuple[Any, ActionDef], ...]]]:
        """By phase and step: each action a `choose` step offers, with its generated listing (`listing(s,
        me, out)`) where it has one, else None."""
        return [
            [
                tuple((a.listing, a) for a in (self.actions[name] for name in step.actions))
                for step in phase.steps
            ]
            for phase in self.phases
        ]

    @cached_property
    def step_listings(self) -> list[list[tuple[tuple[Any, ...] | None, Action | None]]]:
        """By phase and step: the generated listing (`fn(s, me, out)`) of each action a `choose` step
        offers, in order (None when one has none: the engine enumerates it), and the Action of the word
        that ends the step when it is no action (`end_turn`) and the step is not optional, else None (the
        engine works out the rest)."""
        return [
            [
                (
                    None if any(fn is None for fn, _ in listed) else tuple(fn for fn, _ in listed),
                    bare_action(step.until)
                    if step.until and step.until not in self.actions and not step.optional
                    else None,
                )
                for listed, step in zip(by_step, phase.steps)
            ]
            for by_step, phase in zip(self.listers, self.phases)
        ]

    @cached_property
    def kept_steps(self) -> list[list[bool]]:
        """By phase and step: whether a `choose` step's listing may be kept while no part of the state
        changes (every action it offers lists its bindings from known parts, none drawn at random)."""
        return [
            [
                step.kind == "choose"
                and all(
                    self.actions[name].list_reads is not None
                    for name in (*step.actions, step.until)
                    if name in self.actions
                )
                for step in phase.steps
            ]
            for phase in self.phases
        ]

    @cached_property
    def refresh_kept(self) -> Callable[[Any], None]:
        """A function dropping, in a state, the kept results of each group of defs a part of which changed
        since it was last refreshed: written out as straight lines, one test per part."""
        return _refresher(self.kept_defs, self.valued_tables, self.players, self.site_drops)

    @cached_property
    def site_drops(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """By def of `local_defs`: by site, the arguments whose kept results a change of the pieces there
        may change (made at the first refresh, from the board)."""
        return {name: nearby(self.board, paths) for name, paths in self.local_defs.items()}

    @cached_property
    def valued_tables(self) -> list[dict[Any, Any]]:
        """A table per group of kept defs reading nothing but variables of named scopes (or nothing at
        all), in the order of `kept_defs`: the results of its defs by the values of those variables, shared
        by every state and game (`_refresher`)."""
        return [{} for _ in valued_groups(self.kept_defs)]

    @cached_property
    def valued_kept(self) -> dict[str, tuple[dict[Any, Any], tuple[str, ...], tuple[tuple[str, str], ...]]]:
        """By def reading variables of named scopes and no other part of a state: its group's table, the
        names of the group's defs, and the (scope, variable) of each value that keys the table. An effect
        or the flow finds such a def's results there (codegen `_keepv1`) as a listing does in its state."""
        out = {}
        for (parts, names), table in zip(valued_groups(self.kept_defs), self.valued_tables, strict=True):
            if parts:
                variables = tuple(scope_variable(p) for p in parts)
                out.update({name: (table, names, variables) for name in names})
        return out

    @cached_property
    def kept_slots(self) -> int:
        """The length of a state's `_kept_stamps`: a counter per part kept defs read, and two more (the
        counter of every named scope's variables, then whether the defs reading nothing were taken)."""
        return len(kept_parts(self.kept_defs, self.players)) + 2

    def piece_defaults(self, kind: str) -> dict[str, Any]:
        """The fields a new piece of a kind starts with (its definition's `fields`); not to be changed."""
        found = self._piece_defaults.get(kind)
        if found is None:
            defaults = self.sym.definitions[kind].get("fields") or {}
            found = {k: tuple(v) if isinstance(v, list) else v for k, v in defaults.items()}
            self._piece_defaults[kind] = found
        return found

    def hides_information(self) -> bool:
        """Whether some player may not know something: a zone others cannot see, a private variable, or a
        `simultaneous` step's secret choices."""
        return (
            any(zone.visibility != "all" for zone in self.zones)
            or any(self.sym.private.values())
            or any(step.kind == "simultaneous" for phase in self.phases for step in phase.steps)
        )


def _no_parts(ver: dict[str, int]) -> tuple[()]:
    return ()


def kept_parts(groups: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...], players: int) -> list[str]:
    """The parts of a state some kept def reads, in the order of a state's `_kept_stamps`: the pieces of
    kind K of a def's argument (`pieces.K@=`) as those of each seat and of no owner's (`pieces.K@-`), and
    all the pieces where a finer part of them is read."""
    out: set[str] = set()
    for group_parts, _ in groups:
        for part in group_parts:
            out.update(_each_owner(part, players) if part.endswith(OF_ARGUMENT) else (part,))
    if any(part.startswith("pieces.") for part in out):
        out.add("pieces")  # every finer part moves with it: theirs tested only when it moved (_refresher)
    return sorted(out)


def _each_owner(part: str, players: int) -> list[str]:
    """`pieces.K@=` (of a def's argument) as the parts of each seat's pieces of kind K, then no owner's."""
    base = part.removesuffix(OF_ARGUMENT)
    return [f"{base}@{_seat(owner)}" for owner in (*range(players), None)]


def valued_groups(
    groups: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...],
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The groups of kept defs that read nothing but variables of named scopes, or nothing at all: their
    results are kept in a table by those variables' values (one table each, in this order)."""
    return [(parts, names) for parts, names in groups if all(is_scope_part(p) for p in parts)]


def _refresher(
    groups: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...],
    tables: list[dict[Any, Any]],
    players: int,
    near: dict[str, dict[str, tuple[str, ...]]],
) -> Callable[[Any], None]:
    """`refresh(s)`: for each part some kept def reads, if its change counter is not the one last seen
    (`s._kept_stamps`, one slot per part of `kept_parts`), note it and give each def reading the part a new
    dict of results (a clone may still share the old). A def is renewed when any part it reads changed, as
    a stamp of all its parts would tell, but with one test per part, not per group, and no tuple made.

    The results of a def reading no part, or only variables of named scopes (`trick.rank`), depend on
    nothing but its arguments and the values of those variables: such a group's dicts are kept in a table
    of the game's, by those values, and shared by every state and game of it. When `trick` comes back to a
    rank, kind and count it had before, in this game or another, the defs reading them find the results
    they worked out then (a value that cannot be hashed: a new dict, as for any other group).

    The variables of named scopes are tested only when the counter of them all (`sv`) moved since the last
    refresh (slot len(parts)): every change of one moves it too (Effects.set_scoped, reset_scope). So are
    the finer parts of the pieces only when `pieces` moved, where it is kept too.

    A def reading the pieces of kind K of its argument (`pieces.K@=`) keeps its results while the pieces
    of kind K of the seat it was asked of stay: a change to seat i's drops only the results kept for the
    seat i (`_drop_seat`, which keeps nothing asked of another value), one to pieces of no owner's all.

    A def of a site reading the pieces near it only (`near`: by site, the arguments whose results a change
    there may change) keeps its results at a change of the pieces it reads but those of the arguments near
    the sites where pieces changed since (`s._site_log`, emptied here; `_drop_near`), unless few were kept
    or many sites changed."""
    parts = kept_parts(groups, players)
    valued = valued_groups(groups)
    by_owner: dict[str, list[str]] = {}  # `pieces.K@i` -> the defs reading pieces of kind K of their argument
    for group_parts, names in groups:
        for part in group_parts:
            if part.endswith(OF_ARGUMENT):
                for each in _each_owner(part, players):
                    by_owner.setdefault(each, []).extend(names)
    lines = ["def refresh(s):", "    ver = s.ver", "    seen = s._kept_stamps"]
    lines += [f"    changed{k} = False" for k, (group_parts, _) in enumerate(valued) if group_parts]
    scoped = [part for part in parts if is_scope_part(part)]
    guarded = len(scoped) > 1  # one test of `sv` instead of several when none moved
    # The finer parts of the pieces (`pieces.K`, `pieces@i`) move only with `pieces` (Effects.place,
    # piece_changed): tested inside its test when it is kept too (they follow it in the sorted parts).
    within_pieces = "pieces" in parts
    # The defs of a site reading the pieces near it, handled within the test of all the pieces.
    local = sorted(name for _, names in groups for name in names if name in near) if within_pieces else []
    for i, part in enumerate(parts):
        readers = [
            name
            for group_parts, names in groups
            if part in group_parts and (group_parts, names) not in valued
            for name in names
        ]
        pad = "    "
        if guarded and part in scoped:
            if part == scoped[0]:
                lines += [
                    "    c = ver['sv']",
                    f"    if seen[{len(parts)}] != c:",
                    f"        seen[{len(parts)}] = c",
                ]
            pad = "        "
        elif within_pieces and part.startswith(("pieces.", "pieces@")):
            pad = "        "
        lines += [f"{pad}c = ver[{part!r}]", f"{pad}if seen[{i}] != c:", f"{pad}    seen[{i}] = c"]
        lines += [f"{pad}    changed{k} = True" for k, (gp, _) in enumerate(valued) if part in gp]
        if part == "pieces":  # every finer part of the pieces is tested within: so are the local defs
            lines += [f"{pad}    near{k} = False" for k, _ in enumerate(local)]
        seat = part.rpartition("@")[2] if part in by_owner else None
        one_seat: list[str] = []
        if seat == _seat(None):  # no owner's pieces: every result of the defs reading them
            readers += [name for name in by_owner[part] if name not in readers]
        elif seat is not None:  # one seat's: only the results kept for that seat
            one_seat = [name for name in by_owner[part] if name not in readers]
        if part.startswith("pieces"):  # the results of the defs reading the pieces near their site: some
            lines += [f"{pad}    near{k} = True" for k, name in enumerate(local) if name in readers]
            readers = [name for name in readers if name not in local]
        if readers or one_seat:
            lines.append(f"{pad}    kept = s._kept")
            lines += [f"{pad}    kept[{name!r}] = {{}}" for name in readers]
            lines += [f"{pad}    _drop_seat(kept, {name!r}, {seat})" for name in one_seat]
        last_of_pieces = i + 1 == len(parts) or not parts[i + 1].startswith("pieces")
        if local and part.startswith("pieces") and last_of_pieces:
            lines += _near_lines(local)  # after the last test of the pieces, within that of them all
    for k, (group_parts, names) in enumerate(valued):
        if group_parts:
            values = "".join("s.sv[{!r}][{!r}], ".format(*scope_variable(p)) for p in group_parts)
            lines += [f"    if changed{k}:", f"        _share(s, _T{k}, ({values}), {names!r})"]
        else:  # no part: once for each state (the last slot), from the one table entry
            lines += [
                f"    if seen[{len(parts) + 1}] is None:",
                f"        seen[{len(parts) + 1}] = True",
                f"        _share(s, _T{k}, (), {names!r})",
            ]
    ns: dict[str, Any] = {"_share": _share, "_drop_seat": _drop_seat, "_drop_near": _drop_near}
    ns.update(_AT_MOST=_NEAR_AT_MOST, _AT_LEAST=_NEAR_AT_LEAST)
    ns.update({f"_N{k}": near[name] for k, name in enumerate(local)})
    ns.update({f"_T{k}": table for k, table in enumerate(tables)})
    exec(cache.compiled("\n".join(lines) + "\n", "<kept defs>"), ns)
    return ns["refresh"]  # type: ignore[no-any-return]


def _drop_seat(kept: dict[str, Any], name: str, seat: int) -> None:
    """Drop the result a def kept for the seat `seat` (and any asked of what is not a seat), in a new dict:
    a clone may share the old one."""
    found = kept.get(name)
    if found:
        kept[name] = {k: v for k, v in found.items() if type(k) is Player and k != seat}


def _near_lines(local: list[str]) -> list[str]:
    """Within the test of all the pieces of `refresh` (`_refresher`): the results of each def of a site
    reading the pieces near it whose pieces changed, those of the sites near where they did dropped."""
    lines = ["        log = s._site_log", "        s._site_log = []"]
    lines.append("        few = 0 < len(log) <= _AT_MOST")
    for k, name in enumerate(local):  # a change no site was noted of (behind the effects): every result
        lines += [
            f"        if near{k}:",
            "            kept = s._kept",
            f"            found = kept.get({name!r})",
            "            if few and found is not None and len(found) >= _AT_LEAST:",
            f"                kept[{name!r}] = _drop_near(found, log, _N{k})",
            "            else:",
            f"                kept[{name!r}] = {{}}",
        ]
    return lines


def _drop_near(found: dict[Any, Any], log: list[str], near: dict[str, tuple[str, ...]]) -> dict[Any, Any]:
    """The results a def kept but those of the arguments near the sites in `log` (`near`: by site, those
    arguments), in a new dict: a clone may share the old one."""
    found = dict(found)
    for site in log:
        for key in near.get(site, ()):
            found.pop(key, None)
    return found


# Every result of a def of a site reading the pieces near it is dropped, as by any other change, when more
# sites than this were noted since the last refresh, or fewer results than this were kept (asked again,
# they cost less than sorting out which ones to keep).
_NEAR_AT_MOST = 16
_NEAR_AT_LEAST = 16


def _share(s: Any, table: dict[Any, Any], key: tuple[Any, ...], names: tuple[str, ...]) -> None:
    """Give each def of a group the dict of results kept for these values of what it reads (`_refresher`)."""
    kept = s._kept
    try:
        dicts = shared_dicts(table, key, names)
    except TypeError:  # a value that cannot be hashed: results for this state alone
        for name in names:
            kept[name] = {}
        return
    for name in names:
        kept[name] = shared_results(dicts, name)


def _counters_of(parts: tuple[str, ...]) -> Callable[[dict[str, int]], Any]:
    """A function from a state's change counters to those of some parts (a number for one part)."""
    return operator.itemgetter(*parts) if parts else _no_parts
