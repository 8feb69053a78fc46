"""meeple: board games written as rules-as-data, checked, compiled and played."""

from importlib.machinery import EXTENSION_SUFFIXES

from meeple.api import Game, check, load, replay, schema
from meeple.errors import IllegalActionError, InternalError, MeepleError, RulesError
from meeple.runtime.state import State
from meeple.values import Action, Bundle, Player


def compiled() -> bool:
    """Whether this installation runs its engine and built-ins compiled (by mypyc at install, see setup.py)
    rather than as Python: the same games either way, about 1.2 times as fast compiled."""
    from meeple.compile import builtins
    from meeple.runtime import engine

    return all(str(m.__file__).endswith(tuple(EXTENSION_SUFFIXES)) for m in (engine, builtins))


__all__ = [
    "Action",
    "Bundle",
    "Game",
    "IllegalActionError",
    "InternalError",
    "MeepleError",
    "Player",
    "RulesError",
    "State",
    "check",
    "compiled",
    "load",
    "replay",
    "schema",
]
