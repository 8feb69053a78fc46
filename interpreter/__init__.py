"""meeple: board games written as rules-as-data, checked, compiled and played."""

from meeple.api import Game, check, load, replay, schema
from meeple.errors import IllegalActionError, InternalError, MeepleError, RulesError
from meeple.runtime.state import State
from meeple.values import Action, Bundle, Player

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
    "load",
    "replay",
    "schema",
]
