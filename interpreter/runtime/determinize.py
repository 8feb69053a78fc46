"""Turn a player's view back into a full state that agrees with everything the view shows, for search bots.

The rule chosen here:
- The cards the viewer cannot see are the game's cards (each zone's `fill`, at its count) less the cards the
  view shows. Each is dealt at random into a masked zone of the right size that its starting zone can reach
  through the rule file's moves and draws (compile/cardpaths.py): a player's own deck never feeds another
  player's hand when no rule passes cards between them. A masked zone is filled first with unseen cards that
  started in it (a face-down deck keeps its own cards), then with others that may have reached it, the most
  constrained zones first. Should no such deal fit, the rest are dealt by size alone.
- A variable the viewer may not know takes its declared starting value (nothing better is known of it).
- In a `simultaneous` step, each other player who has decided in secret gets a random decision that is
  legal in the dealt state; one still deciding starts afresh (runtime/simultaneous.py).
- The state gets a fresh random generator drawn from the given one; the view's own has no state at all.
- A deal that leaves the player to move with nothing legal, or breaks one of the rule file's invariants,
  is dealt again (up to TRIES times): a secret pick made in name order must still be completable.
The view is a snapshot: what the viewer saw earlier and no longer sees is not remembered.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from meeple.compile.expressions import RuleRuntimeError
from meeple.runtime import simultaneous
from meeple.runtime.invariants import broken
from meeple.runtime.view import HIDDEN, masked_zone_keys, private_variables
from meeple.values import Player

# Deals tried before the last one is kept, when earlier ones stall the game or break an invariant. A hand
# dealt at random may rarely fit what the rules require of it (Tabletop climber: a hand picked in name
# order, with enough cards left after it): in one case found, 1 deal in 18, so 50 tries failed 1 time in 17;
# 200 fail about once in 80,000, and bound the time a search bot spends on a view no deal can satisfy.
TRIES = 200


class NotAView(ValueError):
    """determinize() was asked of a full state; only a player's view has something to fill in."""


def determinize(v: Any, rng: random.Random) -> Any:
    if v.viewer is None:
        raise NotAView("determinize a player's view (state.view(p)), not a full state")
    viewer = Player(v.viewer)
    for _ in range(TRIES):
        s = v.clone()
        s.viewer = None
        for get, put, start in private_variables(s, viewer):
            if get() == HIDDEN:
                put(start)
        deal(s, viewer, rng)
        simultaneous.resample(s, rng)
        s.rng = random.Random(rng.getrandbits(64))
        s.forget()  # nothing computed from the masked view may serve the deal
        if playable(s):
            break
    return s


def playable(s: Any) -> bool:
    """The deal keeps the game going (the player to move has a legal action) and breaks no invariant."""
    try:
        return (s.is_over or bool(s.legal_actions())) and not broken(s)
    except RuleRuntimeError:  # the rules cannot even read this deal
        return False


def deal(s: Any, viewer: int, rng: random.Random) -> None:
    """Fill every zone masked for `viewer` (held as {HIDDEN: size}) with cards it could hold."""
    game = s.game
    masked = list(masked_zone_keys(game, len(s.players), viewer))
    sizes = {key: s.zones[key].get(HIDDEN, 0) for key in masked}
    unseen = unseen_cards(s, set(masked))
    reach = game.card_reach

    def eligible(key: str) -> int:
        return len({origin for origin, _ in unseen if key in reach.get(origin, ())})

    for key in sorted(masked, key=lambda k: (eligible(k), k)):
        need = sizes[key]
        own = [card for card in unseen if card[0] == key]
        near = [card for card in unseen if card[0] != key and key in reach.get(card[0], ())]
        chosen = _take(own, need, rng)
        chosen += _take(near, need - len(chosen), rng)
        for card in chosen:
            unseen.remove(card)
        if len(chosen) < need:  # no deal by the rules fits: by size alone
            rest = _take(unseen, need - len(chosen), rng)
            for card in rest:
                unseen.remove(card)
            chosen += rest
        s.zones[key] = dict(Counter(name for _, name in chosen))


def unseen_cards(s: Any, masked: set[str]) -> list[tuple[str, str]]:
    """The cards the viewer cannot see, as (starting zone key, card) pairs in a stable order.

    A card seen in a zone is taken from a starting zone that reaches it (any, if none does).
    """
    game = s.game
    left: dict[str, Counter[str]] = {}
    for zone in game.zones:
        for key in zone.key_names(len(s.players)):
            left[key] = Counter(zone.starting_cards(key))
    for key, cards in sorted(s.zones.items()):
        if key in masked:
            continue
        for card, n in cards.items():
            for _ in range(n):
                _take_origin(left, card, key, game.card_reach)
    return [(origin, card) for origin in sorted(left) for card in sorted(left[origin].elements())]


def _take_origin(left: dict[str, Counter[str]], card: str, at: str, reach: dict[str, Any]) -> None:
    holders = [o for o in sorted(left) if left[o][card] > 0]
    fitting = [o for o in holders if at in reach.get(o, ())]
    if fitting or holders:
        left[(fitting or holders)[0]][card] -= 1


def _take(cards: list[tuple[str, str]], n: int, rng: random.Random) -> list[tuple[str, str]]:
    if n <= 0 or not cards:
        return []
    return rng.sample(cards, min(n, len(cards)))
