"""Fixtures for the rule tests of the seed games (the helpers live in sibling modules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import verdon_setup

import meeple


@pytest.fixture(scope="session")
def verdon_game() -> Any:
    """Climbers of Verdon compiled for 4 players (immutable, shared by all tests)."""
    return meeple.load(verdon_setup.GAME, players=4)


@pytest.fixture
def make_table(verdon_game: Any) -> Callable[..., verdon_setup.Table]:
    """A factory of cleared main-phase games: `make_table(seed=…)`."""

    def make(seed: int = 7) -> verdon_setup.Table:
        return verdon_setup.Table(verdon_game, seed=seed)

    return make


@pytest.fixture
def table(make_table: Callable[..., verdon_setup.Table]) -> verdon_setup.Table:
    """A cleared 4-player game in the main phase, p1 to move (see verdon_setup.Table)."""
    return make_table()


@pytest.fixture
def play_setup() -> Callable[..., list[Any]]:
    """`play_setup(state, choose=None)`: play the snake set-up; returns who placed, in order."""
    return verdon_setup.play_setup
