"""The PettingZoo adapter: PettingZoo's own api_test, action masks, seeding and the final rewards."""

from __future__ import annotations

import numpy as np
import pytest

MISSING = "PettingZoo is not installed (pip install 'meeple[pettingzoo]' to test the adapter)"
pytest.importorskip("gymnasium", reason=MISSING)
pytest.importorskip("pettingzoo", reason=MISSING)

from interop_files import K2, OPEN_HANDS, PIG, PLUVIONAUTS, TIC_TAC_TOE  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from meeple.interop.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize(
    ("path", "players"), [(TIC_TAC_TOE, 2), (PIG, 2), (K2, 2), (PLUVIONAUTS, 2), (OPEN_HANDS, 3)]
)
def test_pettingzoo_api_test_passes(path, players):
    api_test(env(path, players=players), num_cycles=1000)


def test_action_mask_marks_exactly_the_legal_actions_of_the_agent_to_move():
    e = env(TIC_TAC_TOE)
    e.reset(seed=1)
    obs, reward, terminated, truncated, info = e.last()
    assert e.agent_selection == "player_0" and not terminated and not truncated and reward == 0
    assert obs["action_mask"].dtype == np.int8
    assert list(np.flatnonzero(obs["action_mask"])) == list(range(9))
    assert not e.observe("player_1")["action_mask"].any()  # not its turn
    e.step(4)  # b2
    assert e.agent_selection == "player_1"
    assert 4 not in np.flatnonzero(e.observe("player_1")["action_mask"])
    with pytest.raises(ValueError, match="not legal"):
        e.step(4)


def test_a_win_rewards_the_winner_and_ends_every_agent():
    e = env(TIC_TAC_TOE)
    e.reset(seed=0)
    for cell in (0, 3, 1, 4, 2):  # player_0 takes the top row
        e.step(cell)
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": 1.0, "player_1": -1.0}
    while e.agents:
        e.step(None)
    assert e.agents == []


def _play(seed):
    e = env(PIG)
    e.reset(seed=seed)
    taken = []
    rng = np.random.default_rng(7)
    for agent in e.agent_iter(2000):
        obs, _, terminated, truncated, _ = e.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append((agent, action))
        e.step(action)
    return taken


def test_the_same_seed_and_actions_play_the_same_game():
    assert _play(3) == _play(3)
    assert _play(3) != _play(4)  # the dice differ
