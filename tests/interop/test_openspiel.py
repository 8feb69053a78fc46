"""The OpenSpiel adapter: OpenSpiel's own random-simulation test, chance nodes, tensors, serialization."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install 'meeple[openspiel]' to test the adapter)"
)

from interop_files import K2, OPEN_HANDS, PIG, PLUVIONAUTS, TIC_TAC_TOE  # noqa: E402

from meeple.interop.openspiel import load_game  # noqa: E402


@pytest.mark.parametrize(
    ("path", "players", "sims"),
    [(TIC_TAC_TOE, 2, 5), (PIG, 2, 2), (K2, 2, 1), (PLUVIONAUTS, 2, 1), (OPEN_HANDS, 3, 3)],
)
def test_openspiel_random_simulation_test_passes(path, players, sims):
    game = load_game(path, players=players)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_tic_tac_toe_is_deterministic_perfect_information_with_nine_cells_first():
    game = load_game(TIC_TAC_TOE)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.num_players() == 2 and game.num_distinct_actions() == 32
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(9))
    assert state.action_to_string(state.current_player(), 4) == "play(cell=b2)"


def test_a_won_tic_tac_toe_game_returns_one_and_minus_one():
    state = load_game(TIC_TAC_TOE).new_initial_state()
    for cell in (0, 3, 1, 4, 2):  # p1 takes the top row
        state.apply_action(cell)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_pigs_die_roll_is_a_chance_node_with_six_faces():
    game = load_game(PIG)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert not state.is_chance_node()  # the set-up draws nothing
    roll = next(a for a in state.legal_actions() if state.action_to_string(a) == "roll_die")
    state.apply_action(roll)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6  # 64 seeds, grouped by the state each leads to: one per face
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(0.0 < p < 1.0 for _, p in outcomes)
    seed = outcomes[0][0]
    copy = state.clone()
    state.apply_action(seed)
    copy.apply_action(seed)
    assert str(state) == str(copy)  # an outcome decides the roll: replay is exact
    assert not state.is_chance_node()


def test_k2_set_up_is_drawn_at_a_first_chance_node():
    state = load_game(K2, players=2).new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) > 1 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(outcomes[-1][0])
    assert state.current_player() in (0, 1)


def test_hidden_hands_stay_hidden_in_observations_and_information_states():
    game = load_game(K2, players=2)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    s = state.meeple
    theirs = sum(s.zones["hand#1"].values())
    assert f"hand#1: {theirs} hidden" in state.observation_string(0)
    assert f"hand#0: {sum(s.zones['hand#0'].values())} hidden" in state.observation_string(1)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    before = state.information_state_string(0)
    me = state.current_player()
    action = state.legal_actions()[0]
    state.apply_action(action)
    after = state.information_state_string(me)
    assert after.count("\n> ") == before.count("\n> ") + 1  # one more decision remembered
    assert f"> {game.new_initial_state().action_to_string(me, action)}" in after
    tensor = state.information_state_tensor(me)
    assert len(tensor) == game.information_state_tensor_size()
    assert tensor[game.observation_tensor_size() + action] == 1.0  # the action taken, counted


def test_a_secret_choice_is_in_its_players_observation_and_no_one_elses():
    game = load_game(OPEN_HANDS, players=3)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    seen = []
    for card in ("high", "low"):  # p1 offers one card or another
        state = game.new_initial_state()
        offer = next(
            a for a in state.legal_actions() if state.action_to_string(0, a) == f"offer(card={card})"
        )
        state.apply_action(offer)
        assert state.current_player() == 0  # p1 offers a second card, still in secret
        seen.append(state)
    high, low = seen
    for p in (1, 2):
        assert high.observation_string(p) == low.observation_string(p)
        assert high.observation_tensor(p) == low.observation_tensor(p)
        assert high.information_state_string(p) == low.information_state_string(p)
    assert "offer#0: 1 high" in high.observation_string(0) and "offer#0: 1 low" in low.observation_string(0)
    assert "offer#0" not in high.observation_string(1)  # the offer is not made until the reveal


def test_serialized_state_comes_back_equal():
    game = load_game(PIG)
    state = game.new_initial_state()
    while len(state.history()) < 12 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
        else:
            state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(state) and back.history() == state.history()


def test_game_cut_short_at_max_game_length_ends_with_no_winner():
    game = load_game(PIG, max_game_length=3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    assert sum(1 for item in state.full_history() if item.player >= 0) == 3
    assert state.returns() == [0.0, 0.0]


def test_options_are_game_parameters():
    game = load_game(TIC_TAC_TOE, in_a_row=2)
    state = game.new_initial_state()
    for cell in (0, 4, 1):  # two in a row win with in_a_row=2
        state.apply_action(cell)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
