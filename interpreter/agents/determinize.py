"""Sample a full game state that one player cannot tell apart from the real one (for information-set search).

`determinize(state, player, rng)` uses `state.view(player).determinize(rng)` when views offer it. Otherwise
(`Determinizer`) it samples the hidden cards itself: the zones the player cannot see (those its view reduces
to a count) are joined into pools of zones that can hold the same cards (`hidden_pools`: the other players'
hands, a hand with the deck its cards came from), and each pool's cards are shuffled and dealt back, every
zone keeping its size. The player's own hand, the open zones
and the board stay as they are. Decks hold no order (a draw samples at draw time), so a fresh random
generator for the sample is what makes the future draws and dice unknown.
"""

from __future__ import annotations

import random
from typing import Any

from meeple.runtime.state import State
from meeple.values import Player

VIEW = "view.determinize"
SAMPLED = "sampled"


def method(state: State) -> str:
    """Which way `determinize` samples for this state: VIEW when views offer it, else SAMPLED."""
    return VIEW if _view_determinize(state, 0) is not None else SAMPLED


def determinize(state: State, player: int, rng: random.Random) -> State:
    """A full state consistent with what `player` knows, with a fresh generator drawn from `rng`."""
    return Determinizer(state, player).sample(rng)


class Determinizer:
    """The hidden cards of one decision, found once, then dealt anew for each sample."""

    def __init__(self, state: State, player: int, use_view: bool = True) -> None:
        self.state, self.player = state, player
        self.from_view = _view_determinize(state, player) if use_view else None
        self.pools: list[tuple[list[str], list[tuple[str, int]]]] = []
        if self.from_view is None:
            self.pools = hidden_pools(state, player)

    @property
    def method(self) -> str:
        return SAMPLED if self.from_view is None else VIEW

    def sample(self, rng: random.Random) -> State:
        if self.from_view is not None:
            s = self.from_view(random.Random(rng.getrandbits(64)))
        else:
            s = self.state.clone()
            for cards, sizes in self.pools:
                deal = list(cards)
                rng.shuffle(deal)
                at = 0
                for key, size in sizes:
                    hand: dict[str, int] = {}
                    for card in deal[at : at + size]:
                        hand[card] = hand.get(card, 0) + 1
                    s.zones[key] = hand
                    at += size
            if self.pools:
                s.ver["zones"] += 1
                s._legal = None
        s.rng = random.Random(rng.getrandbits(64))
        return s


def _view_determinize(state: State, player: int) -> Any:
    """`view(player).determinize` when the view type has it, else None."""
    if not callable(getattr(type(state), "view", None)):
        return None
    try:
        view = state.view(player)
    except Exception:  # a state that cannot make views has nothing to offer here
        return None
    sample = getattr(view, "determinize", None)
    return sample if callable(sample) else None


def hidden_keys(state: State, player: int) -> list[str]:
    """The zones whose contents `player` cannot see: those its view shows as something else (a count)."""
    seen = state.view(Player(player)).zones
    return [key for key, cards in state.zones.items() if cards and seen.get(key) != cards]


def hidden_pools(state: State, player: int) -> list[tuple[list[str], list[tuple[str, int]]]]:
    """The hidden zones joined into pools that can exchange cards; each pool as (its cards, [(zone, size)]).

    Two hidden zones are joined when they are one per-player zone of different players (their hands),
    or when one is a face-down pile and every card of the other could have come from it (the pile's
    starting fill or its present cards hold them all): a hand dealt from a deck is pooled with that deck.
    """
    keys = hidden_keys(state, player)
    if not keys:
        return []
    defs = {z.name: z for z in state.game.zones}
    parent = {key: key for key in keys}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def join(a: str, b: str) -> None:
        parent[root(a)] = root(b)

    family: dict[str, str] = {}
    for key in keys:
        zone = defs.get(key.partition("#")[0])
        if zone is not None and zone.per_player:
            join(key, family.setdefault(zone.name, key))
    piles = []
    for key in keys:
        zone = defs.get(key.partition("#")[0])
        if zone is not None and zone.visibility == "hidden":
            piles.append((key, set(zone.starting_cards(key)) | set(state.zones[key])))
    for key in keys:
        for pile, could_hold in piles:
            if pile != key and set(state.zones[key]) <= could_hold:
                join(key, pile)
    groups: dict[str, list[str]] = {}
    for key in keys:
        groups.setdefault(root(key), []).append(key)
    pools = []
    for members in groups.values():
        cards = [card for key in members for card, n in sorted(state.zones[key].items()) for _ in range(n)]
        sizes = [(key, sum(state.zones[key].values())) for key in members]
        if len(members) > 1 and len(set(cards)) > 1:  # else dealing anew changes nothing
            pools.append((cards, sizes))
    return pools
