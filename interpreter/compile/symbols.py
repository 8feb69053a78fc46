"""The static names of a game that expressions resolve against, and the diagnostics sink."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple.errors import Diagnostic, did_you_mean
from meeple.rules.loader import SourceIndex

Path = tuple[str | int, ...]


@dataclass
class Symbols:
    """Everything a name in an expression can mean, filled by the game compiler before expressions."""

    resources: list[str] = field(default_factory=list)
    definitions: dict[str, dict[str, Any]] = field(default_factory=dict)  # terrains, cards, piece kinds
    piece_kinds: set[str] = field(default_factory=set)
    tables: dict[str, Any] = field(default_factory=dict)
    game_vars: dict[str, Any] = field(default_factory=dict)
    player_vars: dict[str, Any] = field(default_factory=dict)
    turn_vars: dict[str, Any] = field(default_factory=dict)
    scopes: dict[str, dict[str, Any]] = field(default_factory=dict)  # season, trick…: name -> defaults
    zones: set[str] = field(default_factory=set)  # shared zones
    player_zones: set[str] = field(default_factory=set)
    keyed_zones: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a zone per key: decks['desert']
    defs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> parameter names
    actions: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    constants: dict[str, Any] = field(default_factory=dict)  # board collections and the like
    site_collections: set[str] = field(default_factory=set)  # the constants that are lists of sites
    routines: dict[str, Any] = field(default_factory=dict)  # name -> compiled Block (filled late)
    # Variables not everyone may know, by scope (game, player, turn or a named one): name -> owner|hidden
    private: dict[str, dict[str, str]] = field(default_factory=dict)
    copies: dict[str, int] = field(default_factory=dict)  # card -> the number of copies the game has

    def player_fields(self) -> set[str]:
        return set(self.player_vars) | set(self.resources) | self.player_zones | {"resources", "index"}

    def player_part(self, name: str) -> str:
        """The part of a state (its change counter) a player's field is kept in: a zone, what the player
        holds of the resources (`res`), or another variable (`pv`)."""
        if name in self.player_zones:
            return "zones"
        if name in self.resources or name == "resources":
            return "res"
        return "pv"


class Sink:
    """Collects diagnostics for one rule file, locating offsets inside YAML strings."""

    def __init__(self, index: SourceIndex) -> None:
        self.index = index
        self.diagnostics: list[Diagnostic] = []

    def at(self, path: Path, offset: int | None, code: str, message: str, hint: str | None = None) -> None:
        if offset is None:
            span = self.index.nearest_span(path)
        else:
            try:
                span = self.index.locate(path, offset)
            except (KeyError, IndexError, ValueError):
                span = self.index.nearest_span(path)
        self.diagnostics.append(Diagnostic(code, message, span, hint))

    def unknown(self, path: Path, offset: int, what: str, name: str, candidates: Any) -> None:
        code = "name/unknown-" + what.replace(" ", "-")
        others = [c for c in candidates if c != name]  # a name of another sort is no spelling to suggest
        self.at(path, offset, code, f"unknown {what} '{name}'", did_you_mean(name, others))


_SCOPE_PART = "sv."


def scope_part(scope: str, name: str) -> str:
    """The part of a state that is one variable of a named scope (`sv.trick.top`; `sv` counts a change of
    any): a def reading `season.no_sets` keeps its results while `season.finishers` grows."""
    return f"{_SCOPE_PART}{scope}.{name}"


# A read of the pieces of kind K owned by the player a name stands for is written `pieces.K@=NAME` while
# rules compile (see ir.coarse and ir.for_player).
OWNED = "@="


def is_scope_part(part: str) -> bool:
    return part.startswith(_SCOPE_PART)


def scope_variable(part: str) -> tuple[str, str]:
    """The scope and the variable a `scope_part` names: `sv.trick.top` is ('trick', 'top')."""
    scope, _, name = part.removeprefix(_SCOPE_PART).partition(".")
    return scope, name
