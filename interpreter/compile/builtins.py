"""Functions every rule expression may call; each takes the live state first."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from functools import lru_cache
from heapq import heappop, heappush
from itertools import combinations_with_replacement, repeat
from typing import Any

from meeple.compile.pyparts import Distinct, Units, board_query, extreme_of
from meeple.values import Bundle, PieceRef, Player

Builtin = Callable[..., Any]
BUILTINS: dict[str, Builtin] = {}


def builtin(name: str) -> Callable[[Builtin], Builtin]:
    def register(fn: Builtin) -> Builtin:
        BUILTINS[name] = fn
        return fn

    return register


def holding(value: Any) -> bool:
    """Whether a value is a zone's cards or a bundle: counts by name. Told by its type first, as the
    check against the Mapping base of a bundle is slow."""
    t = type(value)
    if t is dict or t is Bundle:
        return True
    return t is not list and t is not tuple and isinstance(value, dict | Bundle)


def _one_copy_each(zone: dict[str, int]) -> bool:
    """Whether a zone holds one copy of each card it names: its units are then its names."""
    return bool(zone) and min(zone.values()) == 1 == max(zone.values())


def units(value: Any) -> Iterable[Any]:
    """Iterate a value: a zone or bundle yields each unit, anything else its items."""
    t = type(value)
    if t is Bundle:  # multisets iterate in a canonical (sorted) order
        return value.units()
    if t is dict:
        if not value:  # an empty zone (the commonest in a loop of the flow: no card to move); a new list
            return []
        if _one_copy_each(value):
            return sorted(value)
        return [k for k in sorted(value) for _ in range(value[k])]
    if value is None:
        return ()
    return value


def units_held(value: Any) -> Iterable[Any]:
    """A value's units as `units` gives them, but a zone's in the order it holds them (unsorted): for a
    loop whose result no order changes, such as a count."""
    if type(value) is dict:
        if _one_copy_each(value):
            return value
        return [k for k, v in value.items() for _ in range(v)]
    return units(value)


# ---------------------------------------------------------------- collections


@builtin("first")
def first(s: Any, xs: Any) -> Any:
    if type(xs) is list or type(xs) is tuple:
        return xs[0] if xs else None
    if type(xs) is dict or type(xs) is Bundle:  # the first of its units, without listing them all
        return min([k for k, v in xs.items() if v > 0], default=None)
    for x in units(xs):
        return x
    return None


@builtin("count")
def count(s: Any, xs: Any, item: Any = ...) -> int:
    if item is ... and (type(xs) is list or type(xs) is tuple):
        return len(xs)
    if holding(xs):
        return sum(xs.values()) if item is ... else xs.get(item, 0)
    if item is ...:
        return sum(1 for _ in xs)
    return sum(1 for x in xs if x == item)


@builtin("size")
def size(s: Any, xs: Any) -> int:
    t = type(xs)
    if t is list or t is tuple:
        return len(xs)
    if t is Bundle:
        return sum(xs._d.values())
    return count(s, xs)


def added(current: Any, delta: Any) -> Any:
    """`x += delta`: a number or bundle added to, a list (held as a tuple) extended by the items given."""
    if not isinstance(current, tuple):
        return current + delta
    return current + tuple(units(delta))


def taken(current: Any, delta: Any) -> Any:
    """`x -= delta`: a number or bundle taken from, a list (held as a tuple) without the items given."""
    if not isinstance(current, tuple):
        return current - delta
    gone = set(units(delta))
    return tuple(x for x in current if x not in gone)


@builtin("distinct")
def distinct(s: Any, xs: Any) -> list[Any]:
    t = type(xs)
    if t is Distinct:
        return xs
    if t is dict and not xs:  # an empty zone (a hand with no card, often)
        return []
    if holding(xs):
        if type(xs) is dict and xs and min(xs.values()) > 0:  # a zone naming only cards it holds: its names
            return sorted(xs)
        return sorted([k for k, v in xs.items() if v > 0])
    return list(dict.fromkeys(xs))


@builtin("sum")
def sum_(s: Any, xs: Any) -> Any:
    items = xs if type(xs) is list or type(xs) is tuple else list(units(xs))
    try:  # numbers: Python's own loop
        return sum(items)
    except TypeError:  # bundles (the first one starts the total), or what cannot be summed at all
        pass
    total: Any = 0
    for x in items:
        total = x if total == 0 and isinstance(x, Bundle) else total + x
    return total


min_ = builtin("min")(extreme_of(min, units))
max_ = builtin("max")(extreme_of(max, units))


@builtin("any")
def any_(s: Any, xs: Any) -> bool:
    return any(units(xs))


@builtin("all")
def all_(s: Any, xs: Any) -> bool:
    return all(units(xs))


@builtin("len")
def len_(s: Any, xs: Any) -> int:
    if type(xs) is list or type(xs) is tuple:  # the commonest, without a second call
        return len(xs)
    return count(s, xs)


@builtin("sorted")
def sorted_(s: Any, xs: Any) -> list[Any]:
    t = type(xs)
    if t is dict:  # a zone's units come in name order, in a new list: sorted once, not twice
        return units(xs)  # type: ignore[return-value]
    if t is Bundle:
        return list(xs.units())
    return sorted(units(xs))


@builtin("join")
def join(s: Any, xs: Any, sep: str = ", ") -> str:
    """The items as one text, `sep` between them: `join(route, ' > ')`."""
    return sep.join(str(x) for x in units(xs))


@builtin("pick")
def pick(s: Any, xs: Any) -> Any:
    """One item at random (a chance outcome drawn from the state's RNG)."""
    items = list(units(xs))
    return s.rng.choice(items) if items else None


# ---------------------------------------------------------------- bundles


def can_pay(s: Any, p: Any, bundle: Bundle) -> bool:
    """Whether player p holds every unit of a cost (checked by the engine before an action is offered)."""
    rec = s.pv[p]
    for k, v in bundle._d.items() if type(bundle) is Bundle else bundle.items():  # a bundle's dict: no call
        if rec.get(k, 0) < v:
            return False
    return True


def affords_any(held: dict[str, Any], costs: tuple[tuple[tuple[str, int], ...], ...]) -> bool:
    """Whether a player's record (`held`) holds every unit of at least one of the costs, each given as its
    (resource, amount) pairs: the test before an action's loops whose cost is read from a table."""
    for cost in costs:
        for k, v in cost:
            if held.get(k, 0) < v:
                break
        else:
            return True
    return False


def can_pay_one(s: Any, p: Any, key: Any, amount: Any) -> bool:
    """`can_pay` of the one-resource cost `(amount) key`, without making its bundle (which leaves out a
    zero amount)."""
    return not amount or s.pv[p].get(key, 0) >= amount


@builtin("total")
def total(s: Any, b: Bundle) -> int:
    return b.total


@builtin("disjoint")
def disjoint(s: Any, a: Bundle, b: Bundle) -> bool:
    if type(a) is Bundle and type(b) is Bundle:
        return a._d.keys().isdisjoint(b._d)
    return not (set(a) & set(b))


@builtin("sample")
def sample(s: Any, b: Bundle, n: int) -> Bundle:
    """n units drawn at random without replacement from a bundle (all of it if smaller)."""
    pool = Units(b)
    picked = s.rng.sample(pool, min(n, len(pool)))
    return Bundle((k, 1) for k in picked)


@builtin("bundles")
def bundles(s: Any, source: Any, max_total: int, min_total: int = 1) -> list[Bundle]:
    """Every bundle of min..max units: within a bundle's holdings, or over a list of resources."""
    if type(source) is Bundle:  # asked again of the same bundle (a player's holdings, kept): answered at once
        subs = source._subs
        if subs is None:
            subs = source._subs = {}
        found = subs.get((max_total, min_total))
        if found is None:
            found = subs[(max_total, min_total)] = _held_bundles(source, max_total, min_total)
        return found
    if holding(source):  # the holdings of a player, or the cards of a zone
        return _held_bundles(source, max_total, min_total)
    return _free_bundles(tuple(source), max_total, min_total)


def _held_bundles(source: Any, max_total: int, min_total: int) -> list[Bundle]:
    # Beyond max_total, how many of a kind one holds changes no bundle: the cache sees fewer holdings.
    held = tuple(sorted([(k, v if v < max_total else max_total) for k, v in source.items() if v > 0]))
    return _sub_bundles(held, max_total, min_total)


@lru_cache(maxsize=4096)
def _sub_bundles(held: tuple[tuple[str, int], ...], max_total: int, min_total: int) -> list[Bundle]:
    kinds = [k for k, _ in held]
    limit = dict(held)
    out = []
    for size_ in range(min_total, max_total + 1):
        for combo in combinations_with_replacement(kinds, size_):
            b = Bundle((k, 1) for k in combo)
            if all(b[k] <= limit[k] for k in b):
                out.append(b)
    return Distinct(out)  # different multisets of distinct kinds


@lru_cache(maxsize=256)
def _free_bundles(kinds: tuple[str, ...], max_total: int, min_total: int) -> list[Bundle]:
    out: list[Bundle] = []
    for size_ in range(min_total, max_total + 1):
        out.extend(Bundle((k, 1) for k in combo) for combo in combinations_with_replacement(kinds, size_))
    return Distinct(out) if len(set(kinds)) == len(kinds) else out


# ---------------------------------------------------------------- combinations of cards


@builtin("groups")
def groups(s: Any, cards: Any, by: str, max: int | None = None) -> list[Bundle]:  # noqa: A002
    """Every non-empty handful of cards that agree on the field `by` (sets of the same number).

    Copies of one card are interchangeable, so each handful is listed once; the order is stable.
    """
    counts = _counts(cards)
    cache = s.game.card_combos
    recent = ("recent", "groups", by, max)
    found = _within_recent(cache, recent, counts)  # first: a hand in play is most often one played from
    if found is None:
        held = tuple(sorted(counts.items()))
        key = ("groups", by, max, held)
        found = cache.get(key)  # these very cards again (a game replayed, a search back at a deal)
        if found is None:
            definitions = s.game.sym.definitions
            values = [(definitions.get(k) or _NO_FIELDS).get(by) for k, _ in held]
            found = _remember(cache, key, _groups(cache, s.game.card_bundles, held, values, max))
    _note_recent(cache, recent, counts, found)
    # Each answer a list of its own (what the caller does with it changes no kept one), marked as holding
    # no handful twice: `distinct` of it (a listing's domain) hands it back without hashing them again.
    return Distinct(found)


_RECENT = 6  # the last answers of `groups` or `runs` (of one kind) searched for a hand holding this one


def _within_recent(
    cache: dict[Any, Any], recent: tuple[Any, ...], counts: dict[str, int]
) -> list[Bundle] | None:
    """The answer for the cards `counts` from a recent answer for cards holding them all (a hand before a
    play from it): of the handfuls of those cards, the ones these cards still hold, in the same order. Every
    group or run of a hand's cards is one of a hand holding them, and of those, the ones it holds; the
    answers are in one order by size and cards, which leaving some out keeps. None when no recent hand
    holds them all."""
    answers = cache.get(recent)
    if not answers:
        return None
    keys = counts.keys()
    n = len(counts)
    for before, answer in reversed(answers):
        if len(before) < n or not keys <= before.keys():
            continue
        if counts.items() <= before.items():  # as many copies of each kind as then: only whole kinds gone
            if len(before) == n:  # the same cards
                return list(answer)
            return [b for b in answer if b._d.keys() <= keys]
        short = {k for k, c in counts.items() if before[k] != c}  # kinds held before in other numbers
        if any(before[k] < counts[k] for k in short):
            continue  # more copies now than then: not a hand within that one
        return [
            b
            for b in answer
            if b._d.keys() <= keys
            and (short.isdisjoint(b._d) or all(b._d[k] <= counts[k] for k in short if k in b._d))
        ]
    return None


def _note_recent(
    cache: dict[Any, Any], recent: tuple[Any, ...], counts: dict[str, int], answer: list[Bundle]
) -> None:
    answers = cache.get(recent)
    if answers is None:
        answers = cache[recent] = []
    answers.append((counts, answer))
    if len(answers) > _RECENT:
        del answers[0]


def _counts(cards: Any) -> dict[str, int]:
    """Cards as a dict of (name: copies), none of them 0, from a zone, a bundle or a plain list of names;
    a new dict, kept by the caller."""
    if type(cards) is dict and 0 not in cards.values():  # a zone holding some of each card it names
        return dict(cards)
    if holding(cards):
        return {k: v for k, v in cards.items() if v > 0}
    counts: dict[str, int] = {}
    for name in units(cards):
        counts[name] = counts.get(name, 0) + 1
    return counts


_NO_FIELDS: dict[str, Any] = {}
# Answers of `groups`, `runs` and `longest_path` a game keeps before starting afresh. Few are asked again
# after the game that made them (Verdon's shapes of sides: the four lists in play and the ones before), and
# more kept is more memory walked: 8,192 made Verdon 3% slower than 1,024 (time; the same instructions),
# 256 3% slower again (made anew too often).
_COMBOS_KEPT = 1024


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= _COMBOS_KEPT:
        cache.clear()
    cache[key] = value
    return value


def _as_values(value: Any) -> tuple[Any, ...]:
    """A field read as a set of values: a list as it is, one value alone, none as nothing."""
    if value is None:
        return ()
    if isinstance(value, list | tuple | set | frozenset):
        return tuple(dict.fromkeys(value))  # each value once
    return (value,)


def _by_size(found: list[tuple[int, tuple[Any, ...], Bundle]]) -> list[Bundle]:
    """Handfuls in order of size, then of their (name, copies) pairs (or names, for one copy of each). No
    two handfuls have the same pairs, so the tuples are told apart before their bundles are reached."""
    found.sort()
    return [b for _, _, b in found]


_BUNDLES_KEPT = 65536  # handfuls a game keeps as one object each (see GameDef.card_bundles)


def _bundle(made: dict[Any, Bundle], key: tuple[Any, ...], pairs: Iterable[tuple[str, int]]) -> Bundle:
    """The bundle of these (name, copies) pairs, none of them 0, found by `key`: one object for each handful
    for as long as `made` (GameDef.card_bundles) keeps it, so a memo keyed by it finds it by identity, its
    hash worked out once."""
    found = made.get(key)
    if found is None:
        if len(made) >= _BUNDLES_KEPT:
            made.clear()
        found = made[key] = Bundle.of_counts(dict(pairs))
    return found


def _groups(
    cache: dict[Any, Any],
    made: dict[Any, Bundle],
    held: tuple[tuple[str, int], ...],
    values: list[Any],
    limit: int | None,
) -> list[Bundle]:
    by_value: dict[Any, list[tuple[str, int]]] = {}
    for pair, value in zip(held, values):
        if value is not None:
            by_value.setdefault(value, []).append(pair)
    found: list[tuple[int, tuple[Any, ...], Bundle]] = []
    for members in by_value.values():
        # The handfuls of one value's cards recur from hand to hand (the 5s one holds): kept by those cards.
        key = ("groups of", tuple(members), limit)
        handfuls = cache.get(key)
        if handfuls is None:
            handfuls = _remember(cache, key, _value_groups(made, members, limit))
        found += handfuls
    return _by_size(found)


def _value_groups(
    made: dict[Any, Bundle], members: list[tuple[str, int]], limit: int | None
) -> list[tuple[int, tuple[tuple[str, int], ...], Bundle]]:
    """The handfuls of cards of one value, as (size, (name, copies) pairs, bundle)."""
    # Each way to take 0..n copies of each member, as (size, pairs of what is taken) in name order.
    ways: list[tuple[int, tuple[tuple[str, int], ...]]] = [(0, ())]
    for kind, n in members:
        if n == 1:
            ways += [(size + 1, pairs + ((kind, 1),)) for size, pairs in ways]
        else:
            ways = [
                (size + k, pairs + ((kind, k),) if k else pairs) for size, pairs in ways for k in range(n + 1)
            ]
    return [
        (size, pairs, _bundle(made, pairs, pairs))
        for size, pairs in ways
        if size and (limit is None or size <= limit)
    ]


@builtin("runs")
def runs(s: Any, cards: Any, by: str, within: str, min: int = 2, max: int | None = None) -> list[Bundle]:  # noqa: A002
    """Every run: cards whose `by` values are consecutive whole numbers, one card per value, all
    sharing at least one value of their list field `within` (a colour). A card with an empty `within`
    list never joins a run; a card listing every colour is wild."""
    names = dict.fromkeys(_counts(cards), 1)  # a run takes one card of a kind, not its copies
    cache = s.game.card_combos
    recent = ("recent", "runs", by, within, min, max)
    found = _within_recent(cache, recent, names)
    if found is None:
        held = tuple(sorted(names))
        key = ("runs", by, within, min, max, held)
        found = cache.get(key)
        if found is None:
            fields = cache.get(("run fields", by, within))  # each card's (by, within), read once a game
            if fields is None:
                fields = _remember(cache, ("run fields", by, within), {})
            info = []
            for k in held:
                got = fields.get(k)
                if got is None:
                    f = s.game.sym.definitions.get(k) or _NO_FIELDS
                    got = fields[k] = (f.get(by), _as_values(f.get(within)))
                info.append(got)
            found = _remember(cache, key, _runs(s.game.card_bundles, held, info, min, max))
    _note_recent(cache, recent, names, found)
    return Distinct(found)  # as `groups` gives its answer


def _runs(
    made: dict[Any, Bundle],
    held: tuple[str, ...],
    info: list[tuple[Any, tuple[Any, ...]]],
    least: int,
    most: int | None,
) -> list[Bundle]:
    found: dict[tuple[str, ...], Bundle] = {}  # by its cards in name order; the first found is kept
    by_suit: dict[Any, dict[int, list[str]]] = {}  # suit -> value -> the cards of that suit and value
    for kind, (value, cs) in zip(held, info):
        if isinstance(value, int):
            for suit in cs:
                by_suit.setdefault(suit, {}).setdefault(value, []).append(kind)
    for suit in sorted(by_suit, key=repr):
        at = by_suit[suit]
        for start in sorted(at):
            chains: list[list[str]] = [[k] for k in at[start]]
            value = start
            while chains:
                value += 1
                length = value - start
                if length >= least and (most is None or length <= most):
                    for chain in chains:
                        key = tuple(sorted(chain))
                        if key not in found:
                            # by its cards in value order, the order the bundle is shown in
                            found[key] = _bundle(made, tuple(chain), zip(chain, repeat(1)))
                if value not in at or (most is not None and length >= most):
                    break
                chains = [c + [k] for c in chains for k in at[value]]
    # Each run holds one copy of each of its kinds: its names in order sort as its (name, 1) pairs would.
    return _by_size([(len(key), key, b) for key, b in found.items()])


# ---------------------------------------------------------------- players


@builtin("seat_after")
def seat_after(s: Any, p: Player, k: int = 1) -> Player:
    """The player k seats after p in clockwise order (k may be negative)."""
    return Player((int(p) + k) % len(s.players))


# ---------------------------------------------------------------- pieces


@builtin("pieces")
def pieces(s: Any, kind: str | None = None, owner: Any = ...) -> list[PieceRef]:
    """The pieces of a kind and owner (None: of any kind, `...`: anyone's), in the order they were placed.
    Each answer is kept with the change counter of the pieces it lists (GameDef.query_parts) while that
    stays: a rope placed leaves the list of projects as it was, and the ropes' list gains it (`placed`).
    It is kept with the `roster` counter too, which only a piece placed, removed or given another kind or
    owner moves: while that stays, the same pieces are listed, only with new references (a piece moved)."""
    found = s._piece_lists.get((kind, owner))
    if found is not None and s.ver[found[0]] == found[1]:
        return found[2]  # type: ignore[no-any-return]
    return _listed_pieces(s, kind, owner, found)


def _listed_pieces(s: Any, kind: str | None, owner: Any, found: Any = None) -> list[PieceRef]:
    parts = s.game.query_parts
    kept = s._piece_lists
    ver = s.ver
    roster = ver["roster"]
    part = parts.get((kind, owner), "pieces")
    if found is not None and found[3] == roster:  # the same pieces; some moved or changed
        refs, recs = s.game.piece_refs, s.pieces
        listed = [_ref(refs, pid, recs[pid]) for pid in found[2]]
    elif owner is ... or kind is None:
        listed = _pieces(s, kind, owner)
    else:  # one pass over the kind's pieces answers the same question for every owner
        split = _by_owner(pieces(s, kind))
        for other, mine in split.items():
            other_part = parts.get((kind, other))
            if other_part is not None:
                kept[(kind, other)] = (other_part, ver[other_part], mine, roster)
        listed = split.get(owner) or []
    kept[(kind, owner)] = (part, ver[part], listed, roster)
    return listed


def placed(s: Any, pid: int, rec: dict[str, Any]) -> None:
    """A piece was placed (the last in order): the kept answers that listed every piece it is among, and
    were right before it came, list it too, without a pass over the pieces."""
    ref = None
    ver = s.ver
    kept = s._piece_lists
    kind, owner = rec["kind"], rec["owner"]
    for key in ((None, ...), (kind, ...), (kind, owner), (None, owner)):
        found = kept.get(key)
        if found is None or found[1] != ver[found[0]] - 1:
            continue
        if ref is None:
            ref = _ref(s.game.piece_refs, pid, rec)
        kept[key] = (found[0], found[1] + 1, [*found[2], ref], ver["roster"])


def count_pieces(s: Any, kind: str | None) -> int:
    """`len(pieces(kind))`: the length of the kept answer (a piece placed joins it in place)."""
    return len(pieces(s, kind))


def _by_owner(of_kind: list[PieceRef]) -> dict[Any, list[PieceRef]]:
    """The pieces of a kind split by owner, in the order `pieces(kind)` gives them."""
    split: dict[Any, list[PieceRef]] = {}
    for ref in of_kind:
        owner = ref.rec["owner"]
        mine = split.get(owner)
        if mine is None:
            split[owner] = [ref]
        else:
            mine.append(ref)
    return split


def _ref(refs: dict[int, PieceRef], pid: int, rec: dict[str, Any]) -> PieceRef:
    """The reference to a piece, made once per record: a record is replaced, never changed, when its piece
    moves or changes, so a kept reference is still right while it holds the very same record."""
    ref = refs.get(pid)
    if ref is None or ref.rec is not rec:
        ref = refs[pid] = PieceRef(pid, rec)
    return ref


def _pieces(s: Any, kind: str | None, owner: Any) -> list[PieceRef]:
    refs = s.game.piece_refs
    out = []
    for pid, rec in s.pieces.items():
        if (kind is None or rec["kind"] == kind) and (owner is ... or rec["owner"] == owner):
            out.append(_ref(refs, pid, rec))
    return out


@builtin("pieces_at")
def pieces_at(s: Any, site: str, kind: str | None = None) -> list[PieceRef]:
    ids = s.at.get(site)
    if not ids:
        return []
    cache = s._pieces_seen  # answers by site, kept until any piece changes: the hottest query of most games
    version = s.ver["pieces"]
    if cache is None or cache[0] != version:
        cache = s._pieces_seen = (version, {})
    key = (site, kind, None)
    found = cache[1].get(key)
    if found is None:
        found = cache[1][key] = _pieces_at(s, ids, kind)
    return found  # type: ignore[no-any-return]


def first_of_kinds(s: Any, site: str, kinds: frozenset[str]) -> PieceRef | None:
    """`first([b for b in pieces_at(site) if b.kind in kinds])` from the site's own list of pieces: the
    first of those kinds there (the same reference `pieces_at` gives), or none; no list is made."""
    ids = s.at.get(site)
    if ids:
        pieces = s.pieces
        for pid in ids:
            rec = pieces[pid]
            if rec["kind"] in kinds:
                return _ref(s.game.piece_refs, pid, rec)
    return None


def _pieces_at(s: Any, ids: tuple[int, ...], kind: str | None) -> list[PieceRef]:
    refs = s.game.piece_refs
    pieces = s.pieces
    out = []
    for pid in ids:
        rec = pieces[pid]
        if kind is None or rec["kind"] == kind:
            out.append(_ref(refs, pid, rec))
    return out


@builtin("supply")
def supply(s: Any, player: Player, kind: str) -> int:
    return s.supply[player].get(kind, 0)  # written out in place in generated source (codegen): the same


@builtin("copies")
def copies(s: Any, card: str) -> int:
    """How many copies of a card the game has (its `count`), wherever they are: for invariants."""
    return int(s.game.sym.copies.get(card, 0))


# ---------------------------------------------------------------- board


# The board's incidence queries: each gives the sites a site touches, from tables that never change.
BOARD_QUERIES = ("neighbours", "corners_of", "tiles_of", "sides_of", "ends")

for _name in BOARD_QUERIES:
    builtin(_name)(board_query(_name))


@builtin("side_between")
def side_between(s: Any, a: str, b: str) -> str | None:
    return s.game.board.side_of_pair.get((a, b))


@builtin("distance")
def distance(s: Any, a: str, b: str, metric: str | None = None) -> int | None:
    """Steps between two sites of one kind (corners along sides, tiles across sides); none if unreachable.

    With a metric named in the rule file's `metrics:`, the cheapest path under its entering costs."""
    if metric is not None:
        return _metric_lengths(s, metric, a, None).get(b)
    return _distances(s.game.board, s.game.board.kind_of.get(a, "")).get(a, {}).get(b)


@builtin("within")
def within(s: Any, a: str, r: int, metric: str | None = None) -> list[str]:
    """The sites at most r away from a (a itself included), in board order."""
    if metric is None:
        lengths = _distances(s.game.board, s.game.board.kind_of.get(a, "")).get(a, {})
    else:
        lengths = _metric_lengths(s, metric, a, r)
    order = s.game.board.order
    return sorted([x for x, d in lengths.items() if d <= r], key=order.__getitem__)


@builtin("path")
def path(s: Any, a: str, b: str, metric: str | None = None) -> list[str] | None:
    """The sites of a cheapest way from a to b, both included (fewest steps without a metric); none if
    b cannot be reached. Among equally cheap ways the same one is always chosen: the one NetworkX's
    `single_source_shortest_path` or `single_source_dijkstra_path` finds on `board.graph(kind)`."""
    memo = s._memo
    if metric is None:  # fewest steps: every way from a at once, a breadth-first pass
        key: tuple[Any, ...] = ("$path", None, a)
        if memo is not None and key in memo:
            paths = memo[key]
        else:
            board = s.game.board
            paths = _paths_by_steps(_graph_joins(board, board.kind_of.get(a, "")), a)
            if memo is not None:
                memo[key] = paths
        found = paths.get(b)
    else:  # the search stops once b's way is settled
        kept = _metric_kept(s, metric)
        if kept is not None:  # kept with the metric's costs, while nothing it reads changes
            memo = kept
        key = ("$path", metric, a, b)
        if memo is not None and key in memo:
            found = memo[key]
        else:
            found = _path_by_cost(s, _known_metric(s, metric), a, b)
            if memo is not None:
                memo[key] = found
    return list(found) if found is not None else None


def _known_metric(s: Any, name: str) -> Any:
    metric = s.game.metrics.get(name)
    if metric is None:
        from meeple.compile.expressions import RuleRuntimeError

        raise RuleRuntimeError(
            f"unknown metric '{name}'; the rule file's metrics are: {', '.join(s.game.metrics)}"
        )
    return metric


def _paths_by_steps(joins: dict[str, list[str]], source: str) -> dict[str, list[str]]:
    """A fewest-steps way from `source` to every site it reaches: breadth first, each site reached from the
    first site of the level before to join it (NetworkX's order over the same joins)."""
    if source not in joins:
        return {}
    paths = {source: [source]}
    level = [source]
    while level:
        following = []
        for site in level:
            way = paths[site]
            for other in joins[site]:
                if other not in paths:
                    paths[other] = [*way, other]
                    following.append(other)
        level = following
    return paths


def _path_by_cost(s: Any, metric: Any, source: str, target: str) -> list[str] | None:
    """A cheapest way from `source` to `target` under a metric, read from the live state; None if there is
    none. Dijkstra's search as NetworkX runs it (the same joins in the same order, ties to the site put on
    the heap first, a way replaced only by a strictly cheaper one), so the same way is chosen; it stops
    when the target is settled, whose way nothing found later can replace."""
    joins = _graph_joins(s.game.board, metric.kind)
    if source not in joins:
        return None
    ways = {source: [source]}
    _dijkstra(s, metric, source, None, joins, None, ways, target)
    return ways.get(target)


METRIC_KEPT = "$metric:"  # before a metric's name: its costs kept in a state's `_kept` (GameDef.kept_defs)


def _metric_lengths(s: Any, name: str, source: str, cutoff: int | None) -> dict[str, Any]:
    """Dijkstra from one site under a named metric, read from the live state: memoised while it is fixed,
    and kept across decisions while nothing the metric reads changes (never changed by the caller)."""
    memo = s._memo
    kept = _metric_kept(s, name)
    key: tuple[Any, ...]
    if kept is not None:
        memo, key = kept, (source, cutoff)
    elif memo is None:
        return _dijkstra(s, _known_metric(s, name), source, cutoff)
    else:
        key = ("$metric", name, source, cutoff)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _dijkstra(s, _known_metric(s, name), source, cutoff)
    return found  # type: ignore[no-any-return]


def _metric_kept(s: Any, name: str) -> dict[Any, Any] | None:
    """Where a metric's costs are kept in this state, or None (what it reads is not known). While the
    state may change (an effect running, no memo) the kept results are first brought up to date: those of
    a part changed since are dropped."""
    if s._memo is None:
        if not s.game.kept_defs:
            return None
        s.game.refresh_kept(s)
    return s._kept.get(METRIC_KEPT + name)  # type: ignore[no-any-return]


_NOT_ASKED = object()


def _dijkstra(
    s: Any,
    metric: Any,
    source: str,
    cutoff: int | None,
    joins: dict[str, Any] | None = None,
    kind: str | None = None,
    ways: dict[str, list[str]] | None = None,
    stop: str | None = None,
) -> dict[str, Any]:
    """The cheapest cost from `source` to every site it reaches within `cutoff`, on the board's own
    neighbour tables, to sites of the source's kind (the same lengths NetworkX finds, without its per-edge
    overhead). Given `joins` (each site's, in order) and no `kind`, it walks those instead; given `ways`
    (`{source: [source]}`), it adds the way to each site it pushes, replaced only by a cheaper one. Given
    `stop`, it ends once that site's cost is settled (the others' may not be)."""
    if joins is None:
        joins, kind = s.game.board.neighbours, s.game.board.kind_of.get(source)
    kind_of = s.game.board.kind_of
    enter, blocked = metric.enter_at, metric.blocked_at
    done: dict[str, Any] = {}
    costs: dict[str, Any] = {}  # the cost of entering each site, asked once (the state is still)
    seen = {source: 0}
    heap: list[tuple[Any, int, str]] = [(0, 0, source)]
    count = 1
    while heap:
        d, _, u = heappop(heap)
        if u in done:
            continue
        done[u] = d
        if u == stop:
            break
        for v in joins.get(u, ()):
            if v in done or (kind is not None and kind_of.get(v) != kind):
                continue
            if blocked is not None and blocked(s, u, v):
                continue
            w = costs.get(v, _NOT_ASKED)
            if w is _NOT_ASKED:
                w = costs[v] = enter(s, v)
            if w is None:
                continue
            nd = d + w
            if cutoff is not None and nd > cutoff:
                continue
            if v not in seen or nd < seen[v]:
                seen[v] = nd
                if ways is not None:
                    ways[v] = [*ways[u], v]
                heappush(heap, (nd, count, v))
                count += 1
    return done


@builtin("components")
def components(s: Any, sites: Iterable[str], metric: str | None = None) -> list[list[str]]:
    """The connected groups of the given sites (neighbours joined; a step blocked either way is cut), each
    in board order, the groups by their first site. Sites not of the first one's kind are left out."""
    chosen = list(dict.fromkeys(units(sites)))
    if not chosen:
        return []
    board = s.game.board
    joins = _graph_joins(board, board.kind_of.get(chosen[0], ""))
    inside = {site for site in chosen if site in joins}
    blocked = _known_metric(s, metric).blocked_at if metric is not None else None
    group_of: dict[str, int] = {}
    groups: list[list[str]] = []
    for start in chosen:
        if start not in inside or start in group_of:
            continue
        group_of[start] = len(groups)
        group = [start]
        for site in group:  # grows while it is walked
            for other in joins[site]:
                if other not in inside or other in group_of:
                    continue
                if blocked is not None and (blocked(s, site, other) or blocked(s, other, site)):
                    continue
                group_of[other] = len(groups)
                group.append(other)
        groups.append(group)
    order = board.order
    ordered = [sorted(g, key=order.__getitem__) for g in groups]
    return sorted(ordered, key=lambda g: order[g[0]])


@builtin("chance")
def chance(s: Any, n: int, d: int = 100) -> bool:
    """True with probability n/d, drawn from the state's RNG."""
    return s.rng.randrange(d) < n


def _distances(board: Any, kind: str) -> dict[str, dict[str, int]]:
    """Steps between every two sites of a kind, computed once and kept on the board itself: a breadth-first
    walk from each site over the same joins as `board.graph(kind)` (no graph library to import for it)."""
    key = "distances:" + kind
    if key not in board._cache:
        joins = _graph_joins(board, kind)
        board._cache[key] = {site: _steps_from(joins, site) for site in joins}
    return board._cache[key]  # type: ignore[no-any-return]


def _graph_joins(board: Any, kind: str) -> dict[str, list[str]]:
    """`_joins` of a kind, worked out once and kept on the board."""
    key = "joins:" + kind
    found = board._cache.get(key)
    if found is None:
        found = board._cache[key] = _joins(board, kind)
    return found  # type: ignore[no-any-return]


def _joins(board: Any, kind: str) -> dict[str, list[str]]:
    """Each site's neighbours in the graph of one kind of site, both ways (as `Board.graph` joins them)."""
    joins: dict[str, list[str]] = {site: [] for site, k in board.kind_of.items() if k == kind}
    if kind == "corner":
        pairs: Iterable[tuple[str, str]] = board.ends.values()
    else:
        pairs = [(site, other) for site in list(joins) for other in board.neighbours.get(site, ())]
    for a, b in pairs:
        for x, y in ((a, b), (b, a)):
            near = joins.setdefault(x, [])
            if y not in near:
                near.append(y)
    return joins


def _steps_from(joins: dict[str, list[str]], source: str) -> dict[str, int]:
    steps = {source: 0}
    frontier = [source]
    while frontier:
        following = []
        for site in frontier:
            d = steps[site] + 1
            for other in joins[site]:
                if other not in steps:
                    steps[other] = d
                    following.append(other)
        frontier = following
    return steps


@builtin("longest_path")
def longest_path(s: Any, edges: Iterable[str], blocked: Iterable[str] = ()) -> int:
    """The most sides in one trail (no side twice) that never passes through a blocked corner."""
    # By the sides' names as given (an award asks again and again with the same list in the same order):
    # their shape, and the answers found for it by the blocked corners its sides touch.
    cache = s.game.card_combos
    key = ("trail sides", tuple(edges))
    shape = cache.get(key)
    if shape is None:
        shape = _remember(cache, key, _trail_shape(s.game.board.ends, key[1], cache))
    sides, touched, answers, before, _ = shape
    cut = touched.intersection(blocked)
    found = answers.get(cut)
    if found is None:  # a search, unless the same sides in another order were searched with these corners
        floor = before[1].get(cut.intersection(before[0])) if before is not None else None
        if floor is None:
            found = _longest_trail(sides, cut)
        else:  # one side more than a list already answered: only trails along the new side can be longer
            found = _longest_through(before[2], before[3], sides, cut, floor)
        answers[cut] = found
    return found  # type: ignore[no-any-return]


def _trail_shape(ends: dict[str, tuple[str, str]], names: tuple[str, ...], cache: dict[Any, Any]) -> Any:
    """The sides of a list of side names, each once and sorted, the corners they touch, the answers found
    for them (by the blocked corners among those), when the list is one already seen with one name added at
    its end (a piece placed since) that list's touched corners, answers, the new side and the corners
    around, and the corners around: each corner's neighbours over the sides (`_corners_around`)."""
    seen = cache.get(("trail sides", names[:-1])) if names else None
    if seen is not None:
        side = (names[-1], *ends[names[-1]])
        known, touched, answers, _, around = seen
        at = bisect_left(known, side)
        if at < len(known) and known[at] == side:  # a side listed twice: the same sides
            return seen
        sides = (*known[:at], side, *known[at:])
        _, a, b = side
        more = dict(around)  # the lists are shared with the shape before, never changed in place
        more[a] = [*around.get(a, ()), b]
        more[b] = [*around.get(b, ()), a]
        return sides, touched.union(side[1:]), {}, (touched, answers, side, around), more
    # Each side once, however many of the pieces counted stand on it: a trail never takes a side twice.
    sides = tuple(sorted({(e, *ends[e]) for e in names}))
    # Only a blocked corner some side touches can cut a trail: the others are no part of the answers' key.
    touched = frozenset(c for _, a, b in sides for c in (a, b))
    return sides, touched, {}, None, _corners_around(sides)


def _corners_around(sides: Iterable[tuple[str, str, str]]) -> dict[str, list[str]]:
    """Each corner the sides touch, with the corner at the other end of each of its sides (once a side)."""
    around: dict[str, list[str]] = {}
    for _, a, b in sides:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    return around


def _longest_through(
    side: tuple[str, str, str],
    around: dict[str, list[str]],
    sides: tuple[tuple[str, str, str], ...],
    cut: frozenset[str],
    floor: int,
) -> int:
    """The longest trail over `sides` when it is at least `floor`, the longest over them all but `side`
    (with the same corners blocked; `around`, the corners around over those): the longest of the group of
    sides `side` belongs to, if longer. A corner `side` alone touches may be blocked or not, a trail can
    end there all the same."""
    _, a, b = side
    one = _way_out(around, a, b, cut)
    two = _way_out(around, b, a, cut) if one is not None and one[1] else None
    if two is not None and two[1]:  # it joins two trees: the longest way out on either side, and the side
        return max(floor, one[0] + 1 + two[0])  # type: ignore[index]
    joins = _corner_joins((side, *(e for e in sides if e != side)), cut)  # its corners are 0 and 1
    # It closes a ring, or joins a group with one: that group is searched, for the trails along the new side
    # (its bit is 1), the others being no longer than `floor`
    found, corners = _trail_group(joins, 0, [-1] * len(joins), 0)
    if found <= floor:
        return floor
    return _longest_in_group(joins, corners, found, floor, 1)


def _way_out(
    around: dict[str, list[str]], start: str, end: str, cut: frozenset[str]
) -> tuple[int, bool] | None:
    """From `start`, one end of a side just added, over the sides before it (`around`, with the `cut`
    corners blocked: a trail may end at one, never pass it): how many sides away the farthest corner is and
    whether the corners reached and their sides form a tree; None if `end`, the side's other end, is
    reached (the side closes a ring). A blocked corner is reached anew by each of its sides."""
    if start in cut:
        return 0, True
    goal = end if end not in cut else None  # a blocked end is reached only as an end of another side
    reached = {start}
    frontier = [start]
    far = 0
    corners = 1
    ends = 0
    while frontier:
        following = []
        blocked = 0
        for corner in frontier:
            at = around.get(corner, ())
            ends += len(at)
            for other in at:
                if other in cut:
                    blocked += 1
                elif other not in reached:
                    if other == goal:
                        return None
                    reached.add(other)
                    following.append(other)
        if following or blocked:
            far += 1
            corners += len(following) + blocked
            ends += blocked  # each blocked end a corner of its own, with its one side
        frontier = following
    return far, ends == 2 * (corners - 1)


@lru_cache(maxsize=8192)
def _longest_trail(edges: tuple[tuple[str, str, str], ...], blocked: frozenset[str]) -> int:
    joins = _corner_joins(edges, blocked)
    best = 0
    for sides, corners in sorted(_trail_groups(joins), key=lambda g: g[0], reverse=True):
        if sides <= best:  # no trail in this group or a smaller one can be longer
            break
        best = max(best, _longest_in_group(joins, corners, sides, best))
    return best


def _corner_joins(
    edges: tuple[tuple[str, str, str], ...], blocked: frozenset[str]
) -> list[list[tuple[int, int]]]:
    """The corners numbered in the order the sides meet them, each with its sides as (the side's bit, the
    corner at its other end). A trail may end at a blocked corner but never pass it, so each side at a
    blocked corner gets a corner of its own there (an end no trail passes)."""
    number: dict[Any, int] = {}
    joins: list[list[tuple[int, int]]] = []
    for i, (side, a, b) in enumerate(edges):
        key = (a, side) if a in blocked else a
        one = number.get(key)
        if one is None:
            one = number[key] = len(joins)
            joins.append([])
        key = (b, side) if b in blocked else b
        other = number.get(key)
        if other is None:
            other = number[key] = len(joins)
            joins.append([])
        joins[one].append((1 << i, other))
        joins[other].append((1 << i, one))
    return joins


def _trail_groups(joins: list[list[tuple[int, int]]]) -> list[tuple[int, list[int]]]:
    """The corners split into groups that no trail leaves, each as (its number of sides, its corners), in
    the order of their first corners."""
    group = [-1] * len(joins)
    groups: list[tuple[int, list[int]]] = []
    for first, _ in enumerate(joins):
        if group[first] < 0:
            groups.append(_trail_group(joins, first, group, len(groups)))
    return groups


def _trail_group(
    joins: list[list[tuple[int, int]]], first: int, group: list[int], k: int
) -> tuple[int, list[int]]:
    """The group of `first` (numbered k in `group`): its number of sides and its corners."""
    group[first] = k
    corners = [first]
    ends = 0
    for corner in corners:  # the list grows as the group is found
        at = joins[corner]
        ends += len(at)
        for _, other in at:
            if group[other] < 0:
                group[other] = k
                corners.append(other)
    return ends // 2, corners


def _longest_in_group(
    joins: list[list[tuple[int, int]]], corners: list[int], everything: int, best: int, side: int = 0
) -> int:
    """The longest trail over the `everything` sides of one group (at least `best`; with `side`, the bit
    of one side, at least the longest trail that does not take that side).

    If the sides form a tree, a trail is a path and the longest is the tree's diameter: two walks. If every
    corner has an even number of sides, one closed trail uses them all. Otherwise the sides are joined into
    chains between the corners where a trail may turn, the trees hanging from the rings are cut off as arms,
    and the trails along the rings are walked from every ring corner, each beginning and ending down the
    longest arms it can, stopping as soon as one is as long as any trail can be (one side left
    out at each corner with an odd number of sides, but for the two ends). When `side` is in an arm,
    every trail along it that reaches the rings comes up that arm to the ring corner it hangs from: the
    trails from that corner alone are walked, each up its longest arm (as long as the side's, or longer)."""
    if everything == len(corners) - 1:  # a tree: its longest path, between the corner farthest from any
        far, _ = _farthest(joins, corners[0])  # corner and the corner farthest from that one
        return max(best, _farthest(joins, far)[1])
    odd = sum([len(joins[c]) & 1 for c in corners])
    if not odd:  # every corner even: one closed trail takes every side
        return everything
    # A trail leaves out a side at each corner with an odd number of sides, but for its two ends: the sides
    # it leaves out touch at least odd - 2 corners, two each at most.
    most = everything - (odd - 2) // 2
    if best >= most:
        return best
    ways, marked = _chains(joins, corners, side)
    # The trees hanging from the rings, pruned leaf by leaf: a trail that goes down one never comes back up,
    # so each is an arm as long as its longest way down from where it hangs, and a trail within one goes
    # down the two longest arms of one of its corners. (By the corners where chains meet: the others are
    # inside a chain.)
    degree = {v: len(w) for v, w in ways.items()}
    arms: dict[int, list[int]] = {v: [] for v in ways}
    pruned = 0
    carrier = -1  # the corner the side's arm hangs from, as far as it is pruned
    leaves = [v for v, d in degree.items() if d == 1]
    while leaves:
        v = leaves.pop()
        if degree[v] != 1:
            continue
        for way in ways[v]:  # its one chain left
            if not pruned & way[0]:
                break
        bit, up, sides = way
        pruned |= bit
        if bit == marked or v == carrier:
            carrier = up
        degree[v] = 0
        degree[up] -= 1
        mine = arms[v]
        if len(mine) >= 2:
            mine.sort(reverse=True)
            best = max(best, mine[0] + mine[1])
        arms[up].append(sides + (mine[0] if mine else 0))
        if degree[up] == 1:
            leaves.append(up)
    # The corners left are on the rings, each with two or more chains
    rings = {v: [w for w in ways[v] if not pruned & w[0]] for v, d in degree.items() if d >= 2}
    top = {v: [*sorted(arms[v], reverse=True), 0, 0] for v in rings}

    def walk(corner: int, start: int, used: int, length: int) -> bool:
        """Along the rings from `start` (come up its longest arm): the trail ends here, down the
        longest arm left (at `start` its second), or goes on by a chain not used yet."""
        nonlocal best
        end = top[start][1] if corner == start else top[corner][0]
        if length + end > best:
            best = length + end
            if best >= most:  # no trail is longer
                return True
        for bit, nxt, sides in rings[corner]:
            if not used & bit and walk(nxt, start, used | bit, length + sides):
                return True
        return False

    if carrier >= 0:  # the side is in an arm: only a trail up that arm can be longer than `best`
        walk(carrier, carrier, 0, top[carrier][0])
        return best
    for start in rings:
        if walk(start, start, 0, top[start][0]):
            break
    return best


def _chains(
    joins: list[list[tuple[int, int]]], corners: list[int], side: int = 0
) -> tuple[dict[int, list[tuple[int, int, int]]], int]:
    """The sides between corners where a trail may turn (those not met by exactly two sides) joined into
    chains: by such a corner, each chain leaving it as (its bit, the corner at its other end, its number of
    sides); and the bit of the chain the `side` bit is in (0 if none).
    A trail entering a chain goes on to its far end or stops there for good, and a longest trail starts at
    a corner with an odd number of sides and never stops partway along a chain (it could go on), so the
    longest trail over the chains is the longest over the sides. A chain may come back to its corner."""
    ways: dict[int, list[tuple[int, int, int]]] = {c: [] for c in corners if len(joins[c]) != 2}
    walked = 0
    count = 0
    marked = 0
    for corner in corners:
        at = joins[corner]
        if len(at) == 2:
            continue
        for bit, nxt in at:
            if walked & bit:
                continue
            before = walked
            walked |= bit
            sides, came = 1, bit
            while len(joins[nxt]) == 2:  # on along the chain, by the side it did not come by
                (b0, c0), (b1, c1) = joins[nxt]
                came, nxt = (b1, c1) if b0 == came else (b0, c0)
                walked |= came
                sides += 1
            chain = 1 << count
            count += 1
            if walked & side and not before & side:
                marked = chain
            ways[corner].append((chain, nxt, sides))
            ways[nxt].append((chain, corner, sides))
    return ways, marked


def _farthest(joins: list[list[tuple[int, int]]], start: int) -> tuple[int, int]:
    """In a tree: the corner farthest from `start`, and how many sides away it is."""
    steps = {start: 0}
    frontier = [start]
    last = start
    while frontier:
        following = []
        for corner in frontier:
            for _, other in joins[corner]:
                if other not in steps:
                    steps[other] = steps[corner] + 1
                    following.append(other)
                    last = other
        frontier = following
    return last, steps[last]


# ---------------------------------------------------------------- awards


@builtin("award_points")
def award_points(s: Any, player: Player) -> int:
    return sum(a.points for a in s.game.awards if s.awards.get(a.name) == player)


@builtin("holder")
def holder(s: Any, award: str) -> Player | None:
    return s.awards.get(award)
