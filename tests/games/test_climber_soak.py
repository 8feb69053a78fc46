"""Soak of Tabletop Climber: random games at 3 and 4 players keep every card, end after five seasons and
never show a player another player's cards.

A sample of games runs by default; the 1,000-game soak per player count runs with `pytest -m slow`.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.agents import RandomAgent, play_game

GAME = "tabletop_climber"
PLAYER_COUNTS = (3, 4)
SEASONS = 5
SAMPLE_GAMES = 5
SOAK_GAMES = 1000
# How often (in decisions) the costlier view checks look at a game in progress.
VIEW_STRIDE = 7
# Determinism is re-checked by playing every n-th soak game a second time.
DETERMINISM_EVERY = 10
# A random game that has not ended after this many decisions is taken not to end.
ACTION_BOUND = 100_000

SEASON_FAMILIES = frozenset({"gold", "fixed_season"})
HIDDEN_DECKS = ("initial_deck", "reinforcements", "gold_deck")
PRIVATE_ZONES = ("team", "hand", "lodge")
PUBLIC_ZONES = ("field", "bench", "won")
PUBLIC_PILES = ("revealed", "start_pile", "fixed_seasons")
MASK = "?"


@functools.cache
def climber(players: int) -> meeple.Game:
    return meeple.load(GAME, players=players)


# --------------------------------------------------------------------------- the invariants


class CardBook:
    """The cards a game starts with, split into play cards (start included) and season cards."""

    def __init__(self, game: meeple.Game, ledger: Any) -> None:
        definitions = game.definition.sym.definitions
        self.season_cards = frozenset(c for c, d in definitions.items() if d.get("family") in SEASON_FAMILIES)
        self.card_totals = ledger.card_totals
        self.play_start, self.season_start = self.split(ledger.starting_cards)

    def split(self, totals: Counter[str]) -> tuple[Counter[str], Counter[str]]:
        play = Counter({c: n for c, n in totals.items() if c not in self.season_cards})
        season = Counter({c: n for c, n in totals.items() if c in self.season_cards})
        return play, season

    def problems(self, state: meeple.State) -> list[str]:
        """How the play cards and the season cards in all zones differ from the start (empty when kept)."""
        play, season = self.split(self.card_totals(state))
        found = []
        if play != self.play_start:
            found.append(f"play cards {difference(play, self.play_start)}")
        if season != self.season_start:
            found.append(f"season cards {difference(season, self.season_start)}")
        return found


def difference(now: Counter[str], start: Counter[str]) -> str:
    """`+card` for each copy made, `-card` for each copy lost."""
    made, lost = now - start, start - now
    return " ".join([f"+{c}" for c in made.elements()] + [f"-{c}" for c in lost.elements()])


def view_leaks(state: meeple.State, players: int) -> list[str]:
    """Every zone a player's view shows wrongly: a hidden deck or another player's private zone shown as
    more than its size, or the viewer's own zones and the public ones not shown as they are."""
    found = []
    for viewer in range(players):
        view = state.view(viewer)
        masked = [*HIDDEN_DECKS, *(f"{z}#{p}" for z in PRIVATE_ZONES for p in range(players) if p != viewer)]
        for key in masked:
            shown, size = view.zones.get(key, {}), sum(state.zones.get(key, {}).values())
            if shown != ({MASK: size} if size else {}):
                found.append(f"p{viewer + 1} sees {key} as {shown} ({size} cards)")
        kept = [*PUBLIC_PILES, *(f"{z}#{viewer}" for z in PRIVATE_ZONES)]
        kept += [f"{z}#{p}" for z in PUBLIC_ZONES for p in range(players)]
        for key in kept:
            if view.zones.get(key) != state.zones.get(key):
                found.append(f"p{viewer + 1} sees {key} as {view.zones.get(key)}, not {state.zones.get(key)}")
    return found


def ending_problems(state: meeple.State, players: int) -> list[str]:
    """What is wrong with a finished game: not over, not five seasons, no proper winners, cards unawarded."""
    if not state.is_over:
        return ["the game is not over"]
    found = []
    if state.gv["season_no"] != SEASONS:
        found.append(f"{state.gv['season_no']} seasons played, not {SEASONS}")
    winners, scores = state.winners or [], state.scores
    if not winners or not set(winners) <= set(range(players)):
        found.append(f"winners {state.winners} are not among the {players} players")
    elif any(scores[w] != max(scores.values()) for w in winners):
        found.append(f"winners {winners} do not have the top score: {scores}")
    awarded = sum(sum(state.zones[f"won#{p}"].values()) for p in range(players))
    if awarded != SEASONS or state.zones["revealed"]:
        found.append(f"{awarded} season cards won, {state.zones['revealed']} still revealed")
    return found


class InvariantBroken(AssertionError):
    """A state of a soak game broke an invariant; the message names the step and the last action."""


@dataclass
class Watch:
    """Checks one game after every action (`on_action` of play_game); views only every `stride` steps."""

    cards: CardBook
    players: int
    stride: int = VIEW_STRIDE
    step: int = 0
    last: Any = field(default=None)

    def __call__(self, state: meeple.State, action: Any = None) -> None:
        if action is not None:
            self.step, self.last = self.step + 1, action
        found = self.cards.problems(state)
        if self.step % self.stride == 0:
            found += view_leaks(state, self.players)
        if found:
            raise InvariantBroken(f"step {self.step} (after {self.last}): " + "; ".join(found))


def play_checked(game: meeple.Game, cards: CardBook, seed: int) -> tuple[meeple.State, list[Any]]:
    """Play the seeded random game (RandomAgent in every seat), checking every state from the first."""
    watch = Watch(cards, game.players)
    try:
        watch(game.new_game(seed=seed))
        agents = [RandomAgent() for _ in range(game.players)]
        return play_game(game, seed, agents, max_actions=ACTION_BOUND, on_action=watch)
    except Exception as error:  # not swallowed: re-raised, naming the game a crash or a failure came from
        error.add_note(f"{GAME} {game.players}p seed {seed}, step {watch.step}, after {watch.last}")
        raise


def soak(game: meeple.Game, cards: CardBook, seeds: range, determinism_every: int) -> list[str]:
    """Every problem of the seeded games, each naming its seed; a broken invariant ends only its game."""
    problems = []
    for seed in seeds:
        try:
            state, actions = play_checked(game, cards, seed)
        except (InvariantBroken, meeple.MeepleError) as broken:
            problems.append(f"seed {seed}: {type(broken).__name__}: {broken}")
            continue
        problems += [f"seed {seed}: {text}" for text in ending_problems(state, game.players)]
        if seed % determinism_every == 0:
            again, replayed = play_checked(game, cards, seed)
            if replayed != actions or again.to_json() != state.to_json():
                problems.append(f"seed {seed}: the same seed gave a different game")
    return problems


@pytest.fixture(scope="module")
def cards_of(ledger_of: Any) -> Any:
    """`cards_of(game)`: the CardBook of a compiled game."""
    return lambda game: CardBook(game, ledger_of(game))


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("players", PLAYER_COUNTS, ids=lambda n: f"{n}p")
def test_a_few_random_games_keep_every_card_end_after_five_seasons_and_leak_no_hand(players, cards_of):
    game = climber(players)
    problems = soak(game, cards_of(game), range(SAMPLE_GAMES), determinism_every=SAMPLE_GAMES)
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS, ids=lambda n: f"{n}p")
def test_a_thousand_random_games_keep_every_card_end_after_five_seasons_and_leak_no_hand(players, cards_of):
    game = climber(players)
    problems = soak(game, cards_of(game), range(SOAK_GAMES), determinism_every=DETERMINISM_EVERY)
    assert not problems, f"{len(problems)} of {SOAK_GAMES} games went wrong:\n" + "\n".join(problems[:20])


def test_the_card_book_counts_seventy_five_play_cards_and_eight_season_cards(cards_of):
    book = cards_of(climber(4))
    assert sum(book.play_start.values()) == 28 + 46 + 1
    assert sum(book.season_start.values()) == 2 + 6
    assert book.play_start["start"] == 1


@settings(deadline=None, max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from(PLAYER_COUNTS),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    choices=st.lists(st.integers(min_value=0, max_value=2**16), min_size=1, max_size=64),
)
def test_any_sequence_of_choices_neither_creates_nor_destroys_a_card(players, seed, choices, cards_of):
    """The choices, used in turn and over again, pick among the legal actions by index (modulo)."""
    game = climber(players)
    cards = cards_of(game)
    state = game.new_game(seed=seed)
    for step in range(ACTION_BOUND):
        assert cards.problems(state) == [], f"step {step}"
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[choices[step % len(choices)] % len(legal)])
    assert state.is_over, f"not over after {ACTION_BOUND} actions"
