"""The soak of every seed game: random games with the rule file's `invariants:` checked after every action.

By default 20 games of each seed game, spread over its player counts; with `pytest -m slow`, 1,000 games at
every player count (`python benchmarks/soak.py` plays 10,000).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from meeple.tools.soak import play_checked, soak

SAMPLE_GAMES = 20
SLOW_GAMES = 1000


def test_every_seed_game_declares_invariants(game_file: Path, game_of: Any, player_range_of: Any) -> None:
    lo, _ = player_range_of(game_file)
    assert game_of(game_file, lo).definition.invariants


def test_a_sample_of_random_games_keeps_every_invariant(
    game_file: Path, game_of: Any, player_range_of: Any
) -> None:
    lo, hi = player_range_of(game_file)
    failures = []
    for seed in range(SAMPLE_GAMES):
        game = game_of(game_file, lo + seed % (hi - lo + 1))
        played = play_checked(game, seed)
        assert played.actions > 0
        if played.failure is not None:
            failures.append(played.failure)
    assert failures == []


@pytest.mark.slow
def test_a_thousand_random_games_at_every_player_count_keep_every_invariant(
    game_file: Path, game_of: Any, player_range_of: Any
) -> None:
    lo, hi = player_range_of(game_file)
    for players in range(lo, hi + 1):
        report = soak(game_of(game_file, players), SLOW_GAMES, workers=2)
        assert report.failures == [], f"{report.failed_games} of {report.games} games failed"
