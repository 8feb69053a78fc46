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


# ---------------------------------------------------------------------- tabletop climber


@pytest.fixture(scope="session")
def climber_game() -> Any:
    """Tabletop climber compiled for 4 players (immutable, shared by all tests)."""
    import climber_setup

    return meeple.load(climber_setup.GAME, players=climber_setup.PLAYERS)


@pytest.fixture
def make_climber(climber_game: Any) -> Callable[..., Any]:
    """A factory of games stopped at a chosen point: `make_climber(seed=…, season=…, phase=…, gold=…)`."""
    import climber_setup

    def make(**where: Any) -> climber_setup.Climber:
        return climber_setup.Climber(climber_game, **where)

    return make


@pytest.fixture
def climber(make_climber: Callable[..., Any]) -> Any:
    """Season 1 at the first decision of the main phase: p1 holds the start card (see climber_setup)."""
    return make_climber()


# ---------------------------------------------------------------------- pluvionauts


@pytest.fixture(scope="session")
def pluvionauts_game() -> Any:
    """Pluvionauts for 3 players with plain throws (no miss, no landing between cells, no knock)."""
    import pluvionauts_setup

    return pluvionauts_setup.load(players=3)


@pytest.fixture
def sky(pluvionauts_game: Any) -> Any:
    """A cleared 3-player game at p1's drive decision: all sky, no dice, no buildings (pluvionauts_setup)."""
    import pluvionauts_setup

    return pluvionauts_setup.Sky(pluvionauts_game)


# ---------------------------------------------------------------------- k2


@pytest.fixture(scope="session")
def k2_game() -> Any:
    """K2 for 3 players, easy board, summer weather, no variant (immutable, shared by all tests)."""
    import k2_setup

    return k2_setup.load(players=3)


@pytest.fixture
def make_k2() -> Callable[..., Any]:
    """A factory: `make_k2(players=3, seed=1, clear=True, **options)` gives a k2_setup.Expedition."""
    import k2_setup

    def make(players: int = 3, seed: int = 1, clear: bool = True, **options: Any) -> Any:
        return k2_setup.Expedition(k2_setup.load(players, **options), seed=seed, clear=clear)

    return make


@pytest.fixture
def k2(k2_game: Any) -> Any:
    """A 3-player game at p1's first pick of day 1 under a clear sky (see k2_setup.Expedition)."""
    import k2_setup

    return k2_setup.Expedition(k2_game)


# ---------------------------------------------------------------------- caravan conquest encounters


@pytest.fixture
def encounter_trip() -> Any:
    """A cleared 3-player Caravan Conquest game at p1's first move, with a city at a2 (caravan_setup.Trip).

    The other caravans shuttle between a1 (the Start) and a2, so they never draw an encounter card.
    """
    import caravan_setup

    trip = caravan_setup.Trip(caravan_setup.load(players=3))
    trip.paint(a2="city")
    return trip


# ---------------------------------------------------------------------- caravan conquest


@pytest.fixture
def make_caravan() -> Callable[..., Any]:
    """Cleared games at p1's first move: `make_caravan(players=3, seed=1, terrain=…, **options)`."""
    import caravan_setup

    def make(players: int = 3, seed: int = 1, terrain: str = "grasslands", **options: Any) -> Any:
        return caravan_setup.Trip(caravan_setup.load(players, **options), seed=seed, terrain=terrain)

    return make


@pytest.fixture
def caravan(make_caravan: Callable[..., Any]) -> Any:
    """A cleared 3-player game at p1's first move; all cells but Start and Finish grasslands (see Trip)."""
    return make_caravan()
