"""What the seed games' rule-test harnesses and soaks share: card counts, touching a state changed by hand,
and playing a seeded random game with an invariant watch after every action."""

from __future__ import annotations

from collections import Counter
from typing import Any

import meeple
from meeple.agents import RandomAgent, play_game


def cards_of(zone: dict[str, int]) -> list[str]:
    """A zone's cards, one name per copy, sorted: {'red_5': 2} -> ['red_5', 'red_5']."""
    return sorted(Counter(zone).elements())


def move_card(src: dict[str, int], dst: dict[str, int], card: str) -> None:
    """Move one copy of a card between two zones, as a test sets a situation up."""
    assert src.get(card, 0) > 0, f"no {card} to move"
    src[card] -= 1
    if not src[card]:
        del src[card]
    dst[card] = dst.get(card, 0) + 1


def touch(s: Any) -> None:
    """Tell a state a test changed it behind the engine's back (drop cached actions and results)."""
    s.forget()
    for part in s.ver:
        s.ver[part] += 1


class InvariantBroken(AssertionError):
    """A state of a soak game broke an invariant; the message names the step and the last action."""


def play_watched(game: meeple.Game, seed: int, watch: Any, label: str, max_actions: int) -> meeple.State:
    """Play the seeded random game (RandomAgent in every seat); `watch(state)` sees the first state and
    `watch(state, action)` every later one. An error is re-raised with a note naming the game, the seed
    and the step (`watch.step`, `watch.last`)."""
    try:
        watch(game.new_game(seed=seed))
        agents = [RandomAgent() for _ in range(game.players)]
        state, _ = play_game(game, seed, agents, max_actions=max_actions, on_action=watch)
        return state
    except Exception as error:  # not swallowed: re-raised, naming the game a crash or a failure came from
        error.add_note(f"{label} {game.players}p seed {seed}, step {watch.step}, after {watch.last}")
        raise
