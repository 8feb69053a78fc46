"""Soak of Pluvionauts: random games at 2, 3 and 4 players, with the default chance model (missed
throws, landings between cells, knocked weather dice), keep every island and building, keep the weather
dice on their faces, never leave a building without an island beside it and end within the round limit.

A sample of games runs by default; the 1,000-game soak per player count runs with `pytest -m slow`.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from harness import InvariantBroken, play_watched

import meeple

GAME = "pluvionauts"
PLAYER_COUNTS = (2, 3, 4)
SAMPLE_GAMES = 5
SOAK_GAMES = 1000
# A random game that has not ended after this many decisions is taken not to end.
ACTION_BOUND = 100_000

ISLANDS = {"plain": 10, "forest": 6, "mountain": 5}
SKY_CELLS = 16
BUILDINGS = {"walls": 6, "lighthouses": 3, "water_towers": 3}
KIND_OF_PIECE = {"wall": "walls", "lighthouse": "lighthouses", "water_tower": "water_towers"}
WEATHER_DICE = 2


@functools.cache
def pluvionauts(players: int) -> meeple.Game:
    return meeple.load(GAME, players=players)


# --------------------------------------------------------------------------- the invariants


def island_problems(state: meeple.State, tiles: tuple[str, ...]) -> list[str]:
    terrains = Counter(state.sites[t]["terrain"] for t in tiles)
    islands = {k: n for k, n in terrains.items() if k != "sky"}
    if islands != ISLANDS or terrains["sky"] != SKY_CELLS:
        return [f"islands {dict(terrains)}, not {ISLANDS} and {SKY_CELLS} sky cells"]
    return []


def building_problems(state: meeple.State, board: Any) -> list[str]:
    """Pool + held + on the board must be the box's buildings; each one on the board beside an island."""
    found = []
    totals = Counter({k: n for k, n in state.gv["pool"].items()})
    for record in state.pv:
        totals.update({k: record.get(k, 0) for k in BUILDINGS})
    for rec in state.pieces.values():
        kind = KIND_OF_PIECE.get(rec["kind"])
        if kind is None:
            continue
        totals[kind] += 1
        cells = board.tiles_of[rec["site"]]
        if len(cells) != 2 or all(state.sites[t]["terrain"] == "sky" for t in cells):
            found.append(f"a {rec['kind']} at {rec['site']} between {cells} has no island beside it")
    if +totals != BUILDINGS:
        found.append(f"buildings {dict(totals)}, not {BUILDINGS}")
    return found


def dice_problems(state: meeple.State) -> list[str]:
    values = [rec["value"] for rec in state.pieces.values() if rec["kind"] == "weather_die"]
    if len(values) != WEATHER_DICE or not all(type(v) is int and 1 <= v <= 6 for v in values):
        return [f"weather dice showing {values}"]
    return []


def round_problems(state: meeple.State) -> list[str]:
    limit = state.options["max_rounds"]
    if state.gv["round"] > limit + 1:
        return [f"round {state.gv['round']} is past the limit of {limit}"]
    return []


def ending_problems(state: meeple.State) -> list[str]:
    """A finished game: over by the last-turn rule or the round limit, won by the top score(s)."""
    if not state.is_over:
        return ["the game is not over"]
    found = []
    enough = state.options["requests_to_end"]
    closed = any(sum(state.zones[f"validated#{p}"].values()) >= enough for p in range(len(state.players)))
    if not closed and state.gv["round"] != state.options["max_rounds"] + 1:
        found.append(f"over in round {state.gv['round']} with no player at {enough} validated requests")
    if closed and state.gv["closer"] is None:
        found.append("a player validated enough requests but no last round was called")
    scores, winners = state.scores, state.winners or []
    if not winners or any(scores[w] != max(scores.values()) for w in winners):
        found.append(f"winners {winners} do not have the top score: {scores}")
    elif len(winners) != sum(1 for v in scores.values() if v == max(scores.values())):
        found.append(f"winners {winners}, but the top score {max(scores.values())} is shared: {scores}")
    return found


@dataclass
class Watch:
    """Checks one game after every action (`on_action` of play_game)."""

    game: meeple.Game
    step: int = 0
    last: Any = field(default=None)

    def __call__(self, state: meeple.State, action: Any = None) -> None:
        if action is not None:
            self.step, self.last = self.step + 1, action
        board = self.game.definition.board
        found = island_problems(state, board.collections["tiles"])
        found += building_problems(state, board)
        found += dice_problems(state)
        found += round_problems(state)
        if found:
            raise InvariantBroken(f"step {self.step} (after {self.last}): " + "; ".join(found))


def play_checked(game: meeple.Game, seed: int) -> meeple.State:
    """Play the seeded random game (RandomAgent in every seat), checking every state from the first."""
    return play_watched(game, seed, Watch(game), GAME, ACTION_BOUND)


def soak(game: meeple.Game, seeds: range) -> list[str]:
    """Every problem of the seeded games, each naming its seed; a broken invariant ends only its game."""
    problems = []
    for seed in seeds:
        try:
            state = play_checked(game, seed)
        except (InvariantBroken, meeple.MeepleError) as broken:
            problems.append(f"seed {seed}: {type(broken).__name__}: {broken}")
            continue
        problems += [f"seed {seed}: {text}" for text in ending_problems(state)]
    return problems


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("players", PLAYER_COUNTS, ids=lambda n: f"{n}p")
def test_a_few_random_games_keep_islands_buildings_and_dice_and_end_in_time(players):
    problems = soak(pluvionauts(players), range(SAMPLE_GAMES))
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS, ids=lambda n: f"{n}p")
def test_a_thousand_random_games_keep_islands_buildings_and_dice_and_end_in_time(players):
    problems = soak(pluvionauts(players), range(SOAK_GAMES))
    assert not problems, f"{len(problems)} of {SOAK_GAMES} games went wrong:\n" + "\n".join(problems[:20])


def test_the_invariants_catch_a_lost_island_a_made_building_and_a_bad_die():
    """The checks themselves can fail: each one spots its own kind of damage."""
    game = pluvionauts(3)
    board = game.definition.board
    state = game.new_game(seed=1)
    tiles = board.collections["tiles"]
    assert island_problems(state, tiles) == building_problems(state, board) == dice_problems(state) == []
    state.sites = {k: dict(v) for k, v in state.sites.items()}
    state._sites_shared = False
    island = next(t for t in tiles if state.sites[t]["terrain"] == "forest")
    state.sites[island]["terrain"] = "sky"
    assert island_problems(state, tiles)
    state.pv[0]["walls"] = 1
    assert building_problems(state, board)
    die = next(pid for pid, rec in state.pieces.items() if rec["kind"] == "weather_die")
    state.pieces[die] = {**state.pieces[die], "value": 7}
    assert dice_problems(state)
