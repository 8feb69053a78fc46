"""Determinization: a full state the player cannot tell from the real one, hidden cards dealt anew."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import meeple
from meeple.agents import determinize as det
from meeple.agents.determinize import Determinizer, hidden_keys, hidden_pools


def midgame(name: str, players: int, actions: int, seed: int = 2) -> meeple.State:
    state, rng = meeple.load(name, players=players).new_game(seed=seed), random.Random(seed)
    for _ in range(actions):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(scope="module")
def pluvionauts() -> meeple.State:
    return midgame("pluvionauts", 2, 12)


def test_a_sample_keeps_what_the_player_sees_and_every_hidden_zone_size(pluvionauts: meeple.State) -> None:
    me = int(pluvionauts.to_move)  # type: ignore[arg-type]
    hidden = set(hidden_keys(pluvionauts, me))
    assert f"requests#{1 - me}" in hidden and f"requests#{me}" not in hidden
    for seed in range(10):
        sample = Determinizer(pluvionauts, me, use_view=False).sample(random.Random(seed))
        for key, cards in pluvionauts.zones.items():
            if key in hidden:
                assert sum(sample.zones[key].values()) == sum(cards.values())
            else:
                assert sample.zones[key] == cards
        assert sample.pv == pluvionauts.pv and sample.pieces == pluvionauts.pieces
        assert sample.legal_actions() == pluvionauts.legal_actions()


def test_a_sample_deals_the_pooled_cards_anew_and_keeps_them_all(pluvionauts: meeple.State) -> None:
    me = int(pluvionauts.to_move)  # type: ignore[arg-type]
    pools = hidden_pools(pluvionauts, me)
    assert pools
    theirs = f"requests#{1 - me}"
    hands = set()
    for seed in range(20):
        sample = Determinizer(pluvionauts, me, use_view=False).sample(random.Random(seed))
        for cards, sizes in pools:
            dealt: Counter[str] = Counter()
            for key, _ in sizes:
                dealt.update(sample.zones[key])
            assert dealt == Counter(cards)
        hands.add(tuple(sorted(sample.zones[theirs].items())))
    assert len(hands) > 1


def test_a_sample_has_its_own_dice_and_draws(pluvionauts: meeple.State) -> None:
    me = int(pluvionauts.to_move)  # type: ignore[arg-type]
    sample = Determinizer(pluvionauts, me, use_view=False).sample(random.Random(0))
    assert sample.rng.getstate() != pluvionauts.rng.getstate()
    assert sample is not pluvionauts and sample.zones is not pluvionauts.zones


def test_the_same_rng_gives_the_same_sample(pluvionauts: meeple.State) -> None:
    me = int(pluvionauts.to_move)  # type: ignore[arg-type]
    one = Determinizer(pluvionauts, me, use_view=False).sample(random.Random(4))
    two = Determinizer(pluvionauts, me, use_view=False).sample(random.Random(4))
    assert one.to_json() == two.to_json()


def test_a_hand_is_pooled_with_the_deck_it_was_dealt_from() -> None:
    state = midgame("climbers_of_verdon", 2, 400)
    me = int(state.to_move)  # type: ignore[arg-type]
    pooled = [{key for key, _ in sizes} for _, sizes in hidden_pools(state, me)]
    theirs = {k for k in hidden_keys(state, me) if k.startswith("hand#")}
    assert theirs and any(theirs | {"publicity_deck"} <= keys for keys in pooled)


def test_decks_of_different_cards_are_never_pooled() -> None:
    state = midgame("caravan_conquest", 2, 120)
    me = int(state.to_move)  # type: ignore[arg-type]
    assert sum(key.startswith("encounters#") for key in hidden_keys(state, me)) > 1
    for _, sizes in hidden_pools(state, me):
        assert sum(key.startswith("encounters#") for key, _ in sizes) <= 1


def test_views_that_can_determinize_are_used(
    monkeypatch: pytest.MonkeyPatch, pluvionauts: meeple.State
) -> None:
    calls: list[Any] = []

    class View:
        def determinize(self, rng: random.Random) -> meeple.State:
            calls.append(rng)
            return pluvionauts.clone()

    monkeypatch.setattr(type(pluvionauts), "view", lambda self, player: View())
    assert det.method(pluvionauts) == det.VIEW
    sample = det.determinize(pluvionauts, 0, random.Random(1))
    assert calls and isinstance(sample, meeple.State)
    assert sample.rng.getstate() != pluvionauts.rng.getstate()


def test_views_determinize_and_without_that_the_hidden_cards_are_sampled(
    monkeypatch: pytest.MonkeyPatch, pluvionauts: meeple.State
) -> None:
    assert det.method(pluvionauts) == det.VIEW  # meeple's views deal the unseen cards themselves

    class BareView:
        pass

    monkeypatch.setattr(type(pluvionauts), "view", lambda self, player: BareView())
    assert det.method(pluvionauts) == det.SAMPLED
