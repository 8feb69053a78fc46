"""What one player may know: hidden piles and other players' private zones reduced to their sizes, private
variables shown as `?`, no random generator state, no half-made decision of another player, no secret choice
of another player in a `simultaneous` step."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from meeple.values import Player

HIDDEN = "?"


def view(s: Any, player: Player) -> Any:
    from meeple.runtime import simultaneous

    v = s.clone()
    for key in masked_zone_keys(s.game, len(s.players), player):
        size = sum(v.zones[key].values())
        v.zones[key] = {HIDDEN: size} if size else {}
    for _, put, _ in private_variables(v, player):
        put(HIDDEN)
    while v.stack and v.stack[-1]["k"] == "partial" and v.stack[-1]["p"] != player:
        v.stack.pop()  # another player's stepwise decision, half made: only its start is known
    for f in v.stack:
        if f["k"] == "simul":  # the others' secret choices, made or being made
            simultaneous.mask(f, player)
    v.rng = random.Random(0)  # the future of the dice and the draws is nobody's knowledge
    v.viewer = player  # so its snapshot and JSON carry no generator state at all
    v.ver = dict.fromkeys(v.ver, 0)  # how often each part changed could tell what hidden rules did
    v.seen = {}
    v.forget()  # results computed from the full state must not serve the view
    return v


def zone_visible(zone: Any, key: str, player: int) -> bool:
    """Whether `player` sees the cards of the zone member `key` (`hand#2`, `deck`, `encounters#desert`)."""
    if zone.visibility == "all":
        return True
    return zone.visibility == "owner" and key.partition("#")[2] == str(int(player))


def masked_zone_keys(game: Any, players: int, player: int) -> Iterator[str]:
    """The zone keys whose cards `player` may not see, in the game's order."""
    for zone in game.zones:
        for key in zone.key_names(players):
            if not zone_visible(zone, key, player):
                yield key


Setter = Callable[[Any], None]


def private_variables(s: Any, player: int) -> Iterator[tuple[Callable[[], Any], Setter, Any]]:
    """(read, write, starting value) of every variable `player` may not know, in the state `s`.

    A player variable marked `owner` is known to its player, a turn variable marked `owner` to the player
    whose turn it is; one marked `hidden` to no one.
    """
    sym = s.game.sym
    private = sym.private
    for name in private.get("game", {}):
        yield _slot(s.gv, name), _put(s.gv, name), sym.game_vars[name]
    for name, visibility in private.get("player", {}).items():
        for seat, rec in enumerate(s.pv):
            if visibility == "hidden" or seat != player:
                yield _slot(rec, name), _put(rec, name), sym.player_vars[name]
    for name, visibility in private.get("turn", {}).items():
        if visibility == "hidden" or s.turn_player != player:
            yield _slot(s.tv, name), _put(s.tv, name), sym.turn_vars[name]
    for scope, names in private.items():
        if scope in ("game", "player", "turn") or scope not in s.sv:
            continue
        for name in names:
            yield _scoped_get(s, scope, name), _scoped(s, scope, name), sym.scopes[scope][name]


def _slot(rec: dict[str, Any], name: str) -> Callable[[], Any]:
    return lambda: rec.get(name)


def _put(rec: dict[str, Any], name: str) -> Setter:
    return lambda value: rec.__setitem__(name, value)


def _scoped_get(s: Any, scope: str, name: str) -> Callable[[], Any]:
    return lambda: s.sv[scope].get(name)


def _scoped(s: Any, scope: str, name: str) -> Setter:
    def put(value: Any) -> None:
        s.sv[scope] = {**s.sv[scope], name: value}  # a scope's dict is shared between clones: replace it

    return put
