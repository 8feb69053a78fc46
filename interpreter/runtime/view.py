"""What one player may know: other players' private zones and face-down piles reduced to their sizes."""

from __future__ import annotations

import random
from typing import Any

from meeple.values import Player

HIDDEN = "?"


def view(s: Any, player: Player) -> Any:
    v = s.clone()
    for zone in s.game.zones:
        if zone.visibility == "all":
            continue
        for key in list(v.zones):
            name, _, owner = key.partition("#")
            if name != zone.name:
                continue
            if zone.visibility == "owner" and owner and int(owner) == player:
                continue
            size = sum(v.zones[key].values())
            v.zones[key] = {HIDDEN: size} if size else {}
    v.rng = random.Random(0)  # the future of the dice and the draws is nobody's knowledge
    v.is_view = True  # so its snapshot and JSON carry no generator state at all
    v.forget()  # results computed from the full state must not serve the view
    return v
