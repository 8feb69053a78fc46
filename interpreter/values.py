"""The values rule expressions compute with: players, piece references, bundles and actions."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any


class Player(int):
    """A seat, 0-based inside, shown 1-based as `p1`, `p2`…"""

    __slots__ = ()

    def __str__(self) -> str:
        return f"p{int(self) + 1}"

    __repr__ = __str__

    def __bool__(self) -> bool:  # a player is something, even the first one (seat 0)
        return True


class PieceRef(int):
    """A piece on the board, equal to its id; shown as `kind#id@site` (as it was when referenced)."""

    rec: Any

    def __new__(cls, pid: int, rec: Any = None) -> PieceRef:
        obj = super().__new__(cls, pid)
        obj.rec = rec
        return obj

    def __bool__(self) -> bool:  # a piece is something, even the first one placed (id 0)
        return True

    @property
    def label(self) -> str:
        rec = self.rec
        if isinstance(rec, dict):  # the id keeps two pieces of a kind on one site apart
            return f"{rec['kind']}#{int(self)}@{rec['site']}"
        return rec or f"piece{int(self)}"

    def __str__(self) -> str:
        return self.label

    __repr__ = __str__

    def __reduce__(self) -> tuple[Any, ...]:
        return (PieceRef, (int(self), self.label))


_PLAIN = frozenset({type(None), str, int, bool, float, tuple, list, dict})  # never a bundle


class Bundle(Mapping[str, int]):
    """An immutable multiset of resources: `3 rope + 1 chalk`."""

    __slots__ = ("_d", "_hash", "_units", "_subs")

    def __init__(self, items: Mapping[str, int] | Iterable[tuple[str, int]] = ()) -> None:
        pairs = items.items() if type(items) is dict or isinstance(items, Mapping) else items
        d: dict[str, int] = {}
        for k, v in pairs:
            if v:
                d[k] = d.get(k, 0) + v
        self._d = {k: v for k, v in d.items() if v}
        self._hash: int | None = None
        self._units: tuple[str, ...] | None = None  # each unit in name order, worked out when first asked
        self._subs: dict[tuple[int, int], list[Bundle]] | None = None  # its `bundles`, once asked for

    @classmethod
    def of_pairs(cls, names: Iterable[str], counts: Iterable[int]) -> Bundle:
        """A bundle of names and their counts taken in step (the zero ones left out), without `__init__`'s
        checks (`of_counts` of a dict, without making one)."""
        b = cls.__new__(cls)
        b._d = {k: v for k, v in zip(names, counts) if v}
        b._hash = None
        b._units = None
        b._subs = None
        return b

    @classmethod
    def one(cls, name: str, count: int) -> Bundle:
        """`count name` (`2 rope`): a bundle of one term, as `of_counts({name: count})` makes it, without
        the dict."""
        b = cls.__new__(cls)
        b._d = {name: count} if count else {}
        b._hash = None
        b._units = None
        b._subs = None
        return b

    @classmethod
    def of_counts(cls, counts: dict[str, int]) -> Bundle:
        """A bundle straight from a dict of counts (the zero ones left out), without `__init__`'s checks."""
        return cls.of_pairs(counts, counts.values())

    def units(self) -> tuple[str, ...]:
        """Each unit once per copy, in name order (`2 rope + 1 nut`: nut, rope, rope); kept once made."""
        found = self._units
        if found is None:
            d = self._d
            found = self._units = tuple([k for k in sorted(d) for _ in range(d[k])])
        return found

    def __getitem__(self, key: str) -> int:
        return self._d.get(key, 0)

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __iter__(self) -> Iterator[str]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    # The mapping views of the inner dict, faster than Mapping's generic ones.
    def items(self) -> Any:
        return self._d.items()

    def keys(self) -> Any:
        return self._d.keys()

    def values(self) -> Any:
        return self._d.values()

    def get(self, key: str, default: Any = None) -> Any:
        return self._d.get(key, 0)  # as `b[key]`: a resource a bundle lacks is 0 of it

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._d.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        # Told by the type first: the check against a Mapping subclass is slow, and most values compared
        # with a bundle (none, a name, a number) are of a built-in type.
        if type(other) is Bundle or (type(other) not in _PLAIN and isinstance(other, Bundle)):
            return self._d == other._d
        return NotImplemented

    def __add__(self, other: object) -> Bundle:
        if not isinstance(other, Bundle):
            return NotImplemented
        return Bundle(list(self._d.items()) + list(other._d.items()))

    def __sub__(self, other: object) -> Bundle:
        if not isinstance(other, Bundle):
            return NotImplemented
        return Bundle({k: max(0, v - other[k]) for k, v in self._d.items()})

    def __mul__(self, n: object) -> Bundle:
        if not isinstance(n, int):
            return NotImplemented
        return Bundle({k: v * n for k, v in self._d.items()})

    __rmul__ = __mul__

    def __ge__(self, other: object) -> bool:
        """Inclusion: holds at least every unit of `other`."""
        if type(other) is not Bundle and not isinstance(other, Bundle):
            return NotImplemented
        held = self._d
        for k, v in other._d.items():  # a loop, not `all` of a generator: a bundle is small
            if held.get(k, 0) < v:
                return False
        return True

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Bundle):
            return NotImplemented
        return other >= self

    @property
    def total(self) -> int:
        return sum(self._d.values())

    def __str__(self) -> str:
        if not self._d:
            return "nothing"
        return " + ".join(f"{v} {k}" for k, v in self._d.items())

    def __repr__(self) -> str:
        return f"Bundle({self})"


class Action:
    """A move: an action name and its parameter values; hashable, printed readably."""

    __slots__ = ("name", "params", "partial", "_hash")

    def __init__(self, name: str, params: tuple[tuple[str, Any], ...] = (), partial: bool = False) -> None:
        self.name = name
        self.params = params
        self.partial = partial
        self._hash: int | None = None  # worked out when first asked: most actions listed are never hashed

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash((self.name, self.params, self.partial))
        return h

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Action)
            and self.name == other.name
            and self.partial == other.partial
            and self.params == other.params
        )

    def __getitem__(self, key: str) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        raise KeyError(key)

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.params)
        if self.partial:
            inner = inner + ", …" if inner else "…"
        return f"{self.name}({inner})" if inner or self.params else self.name

    __repr__ = __str__


_OFFERS: dict[str, Action] = {}  # the offer of each stepwise action with nothing decided yet


def stepwise_offer(name: str) -> Action:
    """`offer_trade(…)`: a stepwise action offered with none of its parameters decided, made once and
    listed again and again (by a step's generated listing and by the engine alike)."""
    found = _OFFERS.get(name)
    if found is None:
        found = _OFFERS[name] = Action(name, (), partial=True)
    return found


_BARE: dict[str, Action] = {}  # the Action of each word that ends a step, and of `skip`


def bare_action(name: str) -> Action:
    """The action of a word with no parameters (`end_turn`, `skip`): made once, listed again and again."""
    found = _BARE.get(name)
    if found is None:
        found = _BARE[name] = Action(name)
    return found
