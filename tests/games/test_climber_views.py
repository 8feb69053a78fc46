"""Hidden information in Tabletop climber: what one player picks stays out of the others' views."""

from __future__ import annotations

import meeple


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
