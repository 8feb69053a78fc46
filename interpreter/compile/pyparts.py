"""The parts of the built-ins that stay Python when `builtins.py` is compiled (mypyc, see setup.py).

A compiled module cannot define a class built on `list` or on an abstract `Sequence`, and the functions a
compiled factory makes carry no signature the checker can read (`inspect.signature`), which it reads to
tell a call's arguments from the built-in's (`ExprCompiler.fits_signature`). So the classes and the
factories live here, and `signature_of` reads the signatures the compiled functions cannot give.
"""

from __future__ import annotations

import inspect
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import accumulate
from typing import Any, overload


class Distinct(list):  # type: ignore[type-arg]
    """A list whose items are known to be distinct, kept and shared by a built-in's cache (never changed
    in place), or made for its caller alone (`groups`, `runs`): `distinct` hands it back as it is instead
    of hashing every item again."""


class Units(Sequence[str]):
    """The units of a bundle in sorted order (`units(b)`) without making the list: `sample` of a player
    holding a billion ropes indexes it a few times instead of building it (and draws what the list would)."""

    def __init__(self, b: Any) -> None:
        self.keys = sorted(k for k in b if b[k] > 0)
        self.ends = list(accumulate(b[k] for k in self.keys))  # where each key's units stop

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.keys[bisect_right(self.ends, i)]


def extreme_of(pick: Callable[..., Any], units: Callable[[Any], Iterable[Any]]) -> Callable[..., Any]:
    """`min` or `max` (`pick`) of the items of one value or of several values; none of nothing. `units`:
    the built-ins' own, for a value that is neither a list nor a zone."""

    def extreme(s: Any, *xs: Any) -> Any:
        if len(xs) == 1:
            one = xs[0]
            if type(one) is dict:  # a zone: the least (greatest) name it holds, without listing units
                if one and min(one.values()) > 0:  # it names only cards it holds
                    return pick(one)
                return pick([k for k, v in one.items() if v > 0], default=None)
            if type(one) is list or type(one) is tuple:  # the commonest: no copy
                return pick(one) if one else None
            items = list(units(one))
        else:
            items = list(xs)
        return pick(items) if items else None

    return extreme


def board_query(attr: str) -> Callable[..., Any]:
    """A board's incidence query (`neighbours(c)`): the sites a site touches, from a table of the board."""

    def query(s: Any, site: str) -> tuple[str, ...]:
        return getattr(s.game.board, attr).get(site, ())  # type: ignore[no-any-return]

    query.__name__ = attr
    return query


# The parameters of the built-ins whose compiled function gives no signature (a default that is not a
# literal): the name and default of each after the state, as in their definitions in builtins.py (a test
# reads those and compares). `...`: the argument left out.
_DECLARED: dict[str, tuple[tuple[str, Any], ...]] = {
    "count": (("xs", inspect.Parameter.empty), ("item", ...)),
    "pieces": (("kind", None), ("owner", ...)),
}


@cache
def signature_of(fn: Callable[..., Any]) -> inspect.Signature:
    """`inspect.signature(fn)`, or for a compiled built-in that gives none, its declared parameters. Kept
    for the process: a compiled function's is parsed from its text (`__text_signature__`) each time."""
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        declared = _DECLARED.get(getattr(fn, "__name__", ""))
        if declared is None:
            raise
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Signature(
        [inspect.Parameter("s", kind), *(inspect.Parameter(nm, kind, default=d) for nm, d in declared)]
    )
