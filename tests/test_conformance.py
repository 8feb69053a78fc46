"""The conformance battery: every rule file in games/, at its smallest and largest player count, honours the
engine contract (DESIGN.md "The engine contract", STYLE.md "Tests" item 5).

Nothing here names a game: a file added to games/ is covered as it is.
"""

from __future__ import annotations

import random

import pytest

import meeple

SEEDS = (1, 2, 3)
# How often (in decisions) the costlier checks look at a game in progress.
STRIDE = 5


def masked_zone_keys(game: meeple.Game, viewer: int) -> list[str]:
    """The zone keys whose contents `viewer` may not see: hidden zones, and other players' private zones."""
    keys = []
    for zone in game.definition.zones:
        if zone.visibility == "all":
            continue
        if not zone.per_player:
            keys.append(zone.name)
            continue
        for p in range(game.players):
            if zone.visibility == "hidden" or p != viewer:
                keys.append(f"{zone.name}#{p}")
    return keys


def own_private_zone_keys(game: meeple.Game, viewer: int) -> list[str]:
    return [
        f"{zone.name}#{viewer}"
        for zone in game.definition.zones
        if zone.per_player and zone.visibility == "owner"
    ]


# --------------------------------------------------------------------------- compiling


def test_every_rule_file_compiles_without_diagnostics(game_case):
    assert meeple.check(game_case.path, players=game_case.players) == []


# --------------------------------------------------------------------------- ending


@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_game_ends_within_the_action_bound(game_case, playout_of, seed):
    playout = playout_of(game_case, seed)
    assert playout.over, f"not over after {len(playout.actions)} actions"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_finished_random_game_names_its_winners_among_the_players(game_case, playout_of, seed):
    playout = playout_of(game_case, seed)
    assert playout.winners, f"seed {seed}: the game ended without a winner"
    assert set(playout.winners) <= set(range(game_case.players))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_finished_game_offers_no_actions_and_nobody_to_move(game, playout_of, game_case, seed):
    final = game.state_from_json(playout_of(game_case, seed).final_json)
    assert final.is_over
    assert final.legal_actions() == []
    assert final.to_move is None


# --------------------------------------------------------------------------- legal actions


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_actions_are_offered_whenever_the_game_is_not_over(game, walk, seed):
    for step, (state, legal) in enumerate(walk(game, seed, seed)):
        assert legal, f"seed {seed}, step {step}: no legal action but the game is not over"
        assert state.to_move is not None


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_actions_never_list_the_same_action_twice(game, walk, seed):
    for step, (_, legal) in enumerate(walk(game, seed, seed)):
        assert len(set(legal)) == len(legal), f"seed {seed}, step {step}: duplicates in {legal}"


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_actions_print_differently_so_each_can_be_applied_by_its_text(game, walk, seed):
    for step, (_, legal) in enumerate(walk(game, seed, seed)):
        texts = [str(a) for a in legal]
        assert len(set(texts)) == len(texts), f"seed {seed}, step {step}: two actions print alike: {texts}"


@pytest.mark.parametrize("seed", SEEDS)
def test_two_clones_of_a_state_list_the_same_actions_in_the_same_order(game, walk, seed):
    for step, (state, legal) in enumerate(walk(game, seed, seed)):
        if step % STRIDE == 0:
            first, second = state.clone(), state.clone()
            assert first.legal_actions() == second.legal_actions() == legal, f"seed {seed}, step {step}"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_state_reloaded_from_json_lists_the_same_actions_in_the_same_order(game, walk, seed):
    for step, (state, legal) in enumerate(walk(game, seed, seed)):
        if step % STRIDE == 0:
            reloaded = game.state_from_json(state.to_json())
            assert reloaded.legal_actions() == legal, f"seed {seed}, step {step}"


# --------------------------------------------------------------------------- clone, replay, save and load


@pytest.mark.parametrize("seed", SEEDS)
def test_applying_an_action_to_a_clone_leaves_the_original_unchanged(game, walk, seed):
    chooser = random.Random(seed)
    for step, (state, legal) in enumerate(walk(game, seed, seed)):
        if step % STRIDE == 0:
            before = state.to_json()
            state.clone().apply(chooser.choice(legal))
            assert state.to_json() == before, f"seed {seed}, step {step}"
            assert state.legal_actions() == legal


@pytest.mark.parametrize("seed", SEEDS)
def test_clone_then_apply_equals_apply_on_the_original(game, playout_of, game_case, seed):
    playout = playout_of(game_case, seed)
    state = game.new_game(seed=seed)
    for step, action in enumerate(playout.actions):
        if step % STRIDE == 0:
            clone = state.clone()
            clone.apply(action)
            state.apply(action)
            assert clone.to_json() == state.to_json(), f"seed {seed}, step {step}: {action}"
        else:
            state.apply(action)


@pytest.mark.parametrize("seed", SEEDS)
def test_replaying_the_seed_and_the_actions_reproduces_the_final_state(game, playout_of, game_case, seed):
    playout = playout_of(game_case, seed)
    assert meeple.replay(game, seed, playout.actions).to_json() == playout.final_json


@pytest.mark.parametrize("seed", SEEDS)
def test_replaying_the_printed_actions_reproduces_the_final_state(game, playout_of, game_case, seed):
    playout = playout_of(game_case, seed)
    printed = [str(a) for a in playout.actions]
    assert meeple.replay(game, seed, printed).to_json() == playout.final_json


@pytest.mark.parametrize("seed", SEEDS)
def test_a_state_saved_to_json_loads_back_to_exactly_the_same_json(game, walk, seed):
    for step, (state, _) in enumerate(walk(game, seed, seed)):
        if step % STRIDE == 0:
            text = state.to_json()
            assert game.state_from_json(text).to_json() == text, f"seed {seed}, step {step}"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_finished_game_saved_to_json_loads_back_to_exactly_the_same_json(game, playout_of, game_case, seed):
    text = playout_of(game_case, seed).final_json
    assert game.state_from_json(text).to_json() == text


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.9])
def test_a_game_reloaded_mid_way_and_continued_with_the_same_actions_ends_identical(
    game, playout_of, game_case, seed, fraction
):
    playout = playout_of(game_case, seed)
    cut = int(len(playout.actions) * fraction)
    saved = meeple.replay(game, seed, playout.actions[:cut]).to_json()
    resumed = game.state_from_json(saved)
    for action in playout.actions[cut:]:
        resumed.apply(action)
    assert resumed.to_json() == playout.final_json


# --------------------------------------------------------------------------- views


@pytest.mark.parametrize("seed", SEEDS)
def test_a_players_view_never_shows_other_players_private_zones_or_hidden_zones(game, walk, seed):
    for step, (state, _) in enumerate(walk(game, seed, seed)):
        if step % STRIDE:
            continue
        for viewer in range(game.players):
            view = state.view(viewer)
            for key in masked_zone_keys(game, viewer):
                shown = view.zones.get(key, {})
                assert set(shown) <= {"?"}, f"seed {seed}, step {step}: p{viewer + 1} sees {key} = {shown}"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_players_view_keeps_the_size_of_every_masked_zone(game, walk, seed):
    for step, (state, _) in enumerate(walk(game, seed, seed)):
        if step % STRIDE:
            continue
        for viewer in range(game.players):
            view = state.view(viewer)
            for key in masked_zone_keys(game, viewer):
                size = sum(state.zones.get(key, {}).values())
                assert sum(view.zones.get(key, {}).values()) == size, f"seed {seed}, step {step}: {key}"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_players_view_shows_their_own_private_zones_in_full(game, walk, seed):
    for step, (state, _) in enumerate(walk(game, seed, seed)):
        if step % STRIDE:
            continue
        for viewer in range(game.players):
            view = state.view(viewer)
            for key in own_private_zone_keys(game, viewer):
                assert view.zones.get(key) == state.zones.get(key), f"seed {seed}, step {step}: {key}"


@pytest.mark.parametrize("seed", SEEDS)
def test_taking_a_view_leaves_the_state_unchanged(game, walk, seed):
    for step, (state, _) in enumerate(walk(game, seed, seed)):
        if step % STRIDE == 0:
            before = state.to_json()
            for viewer in range(game.players):
                state.view(viewer)
            assert state.to_json() == before, f"seed {seed}, step {step}"


# --------------------------------------------------------------------------- the soak (slow)

SOAK_GAMES = 1000
# Determinism is re-checked by playing every n-th soak game a second time.
SOAK_DETERMINISM_EVERY = 10


def invariant_problems(ledger, state) -> list[str]:
    problems = []
    if bad := ledger.negative_resources(state):
        problems.append(f"negative resources {bad}")
    if (cards := ledger.card_totals(state)) != ledger.starting_cards:
        problems.append(f"cards {dict(cards)}, not {dict(ledger.starting_cards)}")
    if (pieces := ledger.piece_totals(state)) != ledger.starting_piece_totals:
        problems.append(f"pieces {pieces}, not {ledger.starting_piece_totals}")
    return problems


def soak_game(game, ledger, seed, action_bound) -> tuple[meeple.State, list[str]]:
    """Play the seeded random game (agent seeded alike), checking the invariants at every state.

    Returns the last state and what went wrong; stops at the first state with a problem or at the bound.
    """
    state = game.new_game(seed=seed)
    agent = random.Random(seed)
    for step in range(action_bound + 1):
        if problems := invariant_problems(ledger, state):
            return state, [f"step {step}: {text}" for text in problems]
        if state.is_over:
            return state, []
        if step < action_bound:
            state.apply(agent.choice(state.legal_actions()))
    return state, [f"not over after {action_bound} actions (turn {state.turn_no}, scores {state.scores})"]


@pytest.mark.slow
def test_a_thousand_random_four_player_games_end_well_and_keep_every_invariant(
    game_file, game_of, ledger_of, player_range_of, action_bound
):
    lo, hi = player_range_of(game_file)
    game = game_of(game_file, min(max(4, lo), hi))
    ledger = ledger_of(game)
    target = game.options.get("target_vp")
    problems: list[str] = []
    for seed in range(SOAK_GAMES):
        state, found = soak_game(game, ledger, seed, action_bound)
        if not found and not state.winners:
            found.append("the game ended without a winner")
        elif not found and target is not None and max(state.scores[p] for p in state.winners) < target:
            found.append(f"winners {state.winners} have fewer than {target} points: {state.scores}")
        if not found and seed % SOAK_DETERMINISM_EVERY == 0:
            again, _ = soak_game(game, ledger, seed, action_bound)
            if again.to_json() != state.to_json():
                found.append("the same seeds gave a different game")
        problems += [f"seed {seed}: {text}" for text in found]
    assert not problems, f"{len(problems)} of {SOAK_GAMES} games went wrong:\n" + "\n".join(problems[:20])
