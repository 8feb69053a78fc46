"""Invariants over random games (STYLE.md "Tests" item 6): hypothesis picks the seeds and the player count,
a seeded random agent plays, and every state on the way is checked.

Each rule file in games/ is covered through the `game_file` fixture; nothing here names a game.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def random_game(game_file, data, game_of, player_range_of):
    """A compiled game for a player count, and game and agent seeds, all drawn by hypothesis."""
    lo, hi = player_range_of(game_file)
    players = data.draw(st.integers(min_value=lo, max_value=hi), label="players")
    return game_of(game_file, players), data.draw(SEEDS, label="seed"), data.draw(SEEDS, label="agent seed")


@SETTINGS
@given(data=st.data())
def test_no_player_ever_holds_a_negative_amount_of_a_resource(
    game_file, game_of, player_range_of, ledger_of, walk, data
):
    game, seed, agent_seed = random_game(game_file, data, game_of, player_range_of)
    ledger = ledger_of(game)
    state = None
    for step, (state, _) in enumerate(walk(game, seed, agent_seed)):
        assert ledger.negative_resources(state) == [], f"step {step}"
    if state is not None:
        assert ledger.negative_resources(state) == [], "at the end"


@SETTINGS
@given(data=st.data())
def test_cards_are_never_created_or_destroyed(game_file, game_of, player_range_of, ledger_of, walk, data):
    game, seed, agent_seed = random_game(game_file, data, game_of, player_range_of)
    ledger = ledger_of(game)
    state = None
    for step, (state, _) in enumerate(walk(game, seed, agent_seed)):
        assert ledger.card_totals(state) == ledger.starting_cards, f"step {step}"
    if state is not None:
        assert ledger.card_totals(state) == ledger.starting_cards, "at the end"


@SETTINGS
@given(data=st.data())
def test_each_players_pieces_on_the_board_and_in_the_supply_add_up_to_the_starting_supply(
    game_file, game_of, player_range_of, ledger_of, walk, data
):
    game, seed, agent_seed = random_game(game_file, data, game_of, player_range_of)
    ledger = ledger_of(game)
    state = None
    for step, (state, _) in enumerate(walk(game, seed, agent_seed)):
        assert ledger.piece_totals(state) == ledger.starting_piece_totals, f"step {step}"
    if state is not None:
        assert ledger.piece_totals(state) == ledger.starting_piece_totals, "at the end"


@SETTINGS
@given(data=st.data())
def test_legal_actions_never_repeat_an_action(game_file, game_of, player_range_of, walk, data):
    game, seed, agent_seed = random_game(game_file, data, game_of, player_range_of)
    for step, (_, legal) in enumerate(walk(game, seed, agent_seed)):
        assert len(set(legal)) == len(legal), f"step {step}: {legal}"


@SETTINGS
@given(data=st.data())
def test_the_player_to_move_is_a_seat_while_the_game_runs(game_file, game_of, player_range_of, walk, data):
    game, seed, agent_seed = random_game(game_file, data, game_of, player_range_of)
    for step, (state, _) in enumerate(walk(game, seed, agent_seed)):
        to_move = state.to_move
        assert isinstance(to_move, int) and not isinstance(to_move, bool), f"step {step}: {to_move!r}"
        assert 0 <= to_move < game.players, f"step {step}: {to_move!r}"
