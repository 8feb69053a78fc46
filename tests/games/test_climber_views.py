"""Hidden information in Tabletop climber: what one player picks stays out of the others' views."""

from __future__ import annotations

import random

import meeple
from meeple.runtime.invariants import broken
from meeple.runtime.view import HIDDEN


def test_a_hand_pick_leaves_no_trace_in_the_other_players_views() -> None:
    game = meeple.load("tabletop_climber", players=4)
    base = game.new_game(seed=1)
    picks = base.legal_actions()
    assert len(picks) >= 2 and all(a.name == "pick" for a in picks)
    first, second = base.clone().apply(picks[0]), base.clone().apply(picks[-1])
    assert first.zones["hand#0"] != second.zones["hand#0"]
    for viewer in (1, 2, 3):
        assert first.view(viewer).to_json() == second.view(viewer).to_json()
    assert first.view(0).to_json() != second.view(0).to_json()


def test_a_deal_of_a_view_leaves_the_start_card_with_the_player_who_took_it() -> None:
    # Seed 29 after 82 random actions: p2 took the start card from its bench and must open the main phase
    # with it. p1 sees only the sizes of the other hands, yet knows where the start card is; a deal that
    # gave it to p3 would leave p2 opening without it and p3 unable ever to play or pass (hypothesis
    # found this stalling the flow).
    game = meeple.load("tabletop_climber", players=3)
    s = game.new_game(seed=29)
    rng = random.Random(29)
    for _ in range(82):
        s.apply(rng.choice(s.legal_actions()))
    assert s.zones["hand#1"].get("start") == 1 and s.sv["season"]["starter"] == 1
    view = s.view(0)
    assert view.zones["hand#1"] == {HIDDEN: 9}
    for deal in range(8):
        full = view.determinize(random.Random(deal))
        assert full.zones["hand#1"].get("start") == 1
        assert broken(full) == []
        play = random.Random(deal)
        while not full.is_over:
            full.apply(play.choice(full.legal_actions()))
