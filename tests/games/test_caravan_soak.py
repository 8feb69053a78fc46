"""Soak of Caravan Conquest: random games at 2, 3 and 4 players, both ways of moving, never let gold or
goods go negative, lose nothing in a trade, keep every card, animal, wagon and chest, keep caravans off
rivers, and end by the rules: every caravan at the Finish, the countdown after the first one, or the round
limit (the file's guess for games where nobody arrives).

A sample of games runs by default; the 1,000-game soak per player count runs with `pytest -m slow`, and
prints how its games ended (run it with `-s` to see the tally).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from harness import InvariantBroken, play_watched

import meeple

GAME = "caravan_conquest"
PLAYER_COUNTS = (2, 3, 4)
SAMPLE_GAMES = 4
SOAK_GAMES = 1000
ACTION_BOUND = 100_000

RESOURCES = ("gold", "spice", "silk", "treasure")
PRICE = {"spice": 5, "silk": 10}
EQUIPMENT = {
    "donkey": 12,
    "roach": 12,
    "fidget": 12,
    "epona": 12,
    "basic_caravan": 6,
    "reinforced_caravan": 6,
}
ANIMALS = {"donkey", "roach", "fidget", "epona"}
WAGONS = {"basic_caravan", "reinforced_caravan"}
RESALE = {"donkey": 2, "roach": 5, "fidget": 7, "epona": 10, "basic_caravan": 20, "reinforced_caravan": 30}
PRICES = {"donkey": 5, "roach": 10, "fidget": 15, "epona": 20, "basic_caravan": 40, "reinforced_caravan": 60}
DECKS = ("grasslands", "desert", "mountains", "oasis")
ENCOUNTER_CARDS = 40


@functools.cache
def caravan(players: int, movement: str = "destination") -> meeple.Game:
    return meeple.load(GAME, players=players, options={"movement": movement})


# --------------------------------------------------------------------------- the invariants


def resource_problems(state: meeple.State) -> list[str]:
    return [
        f"{p} has {rec[r]} {r}"
        for p, rec in zip(state.players, state.pv)
        for r in RESOURCES
        if not isinstance(rec[r], int) or rec[r] < 0
    ]


def equipment_problems(state: meeple.State) -> list[str]:
    """Market + stables hold the printed equipment; each caravan has exactly two animals and one wagon."""
    found = []
    total = Counter(state.zones["market"])
    for p in state.players:
        stable = Counter(state.zones[f"stable#{int(p)}"])
        total.update(stable)
        animals = sum(n for c, n in stable.items() if c in ANIMALS)
        wagons = sum(n for c, n in stable.items() if c in WAGONS)
        if animals != 2 or wagons != 1:
            found.append(f"{p} has {animals} animals and {wagons} wagons: {dict(stable)}")
    if dict(+total) != EQUIPMENT:
        found.append(f"equipment {dict(total)}, not {EQUIPMENT}")
    return found


def card_problems(state: meeple.State, deck_of: dict[str, str]) -> list[str]:
    """The 40 encounter cards are all somewhere, and a deck's pile and discards hold only its own."""
    total: Counter[str] = Counter()
    found = []
    for deck in DECKS:
        for zone in (f"encounters#{deck}", f"spent#{deck}"):
            cards = Counter(state.zones[zone])
            total.update(cards)
            found += [f"{c} in {zone}" for c in cards if deck_of[c] != deck]
    for p in state.players:
        total.update(state.zones[f"drawn#{int(p)}"])
        total.update(state.zones[f"kept#{int(p)}"])
    if sum(total.values()) != ENCOUNTER_CARDS or max(total.values()) != 1:
        found.append(f"encounter cards {dict(total)}")
    return found


def board_problems(state: meeple.State, chests: int) -> list[str]:
    found = []
    on_board = 0
    for rec in state.pieces.values():
        terrain = state.sites[rec["site"]].get("terrain")
        if rec["kind"] == "caravan" and terrain == "river":
            found.append(f"the caravan of {rec['owner']} is on the river at {rec['site']}")
        on_board += rec["kind"] == "chest"
    if on_board + sum(rec["treasure"] for rec in state.pv) != chests:
        found.append(f"{on_board} chests on the board and {[r['treasure'] for r in state.pv]} held")
    return found


def trade_problems(before: list[dict[str, Any]], state: meeple.State, action: Any) -> list[str]:
    """A market action changes gold and goods at the printed prices: no value made or lost."""
    p = int(state.turn_player) if state.turn_player is not None else 0
    was, now = before[p], state.pv[p]
    gold = now["gold"] - was["gold"]
    if action.name in ("sell_good", "buy_good"):
        good = action["good"]
        units = now[good] - was[good]
        if units not in (1, -1) or gold != -units * PRICE[good]:
            return [f"{action}: {units:+} {good} for {gold:+} gold"]
    if action.name in ("swap_animal", "swap_wagon"):
        old, new = action["old"], action["new"]
        if gold != RESALE[old] - PRICES[new]:
            return [f"{action}: {gold:+} gold, not {RESALE[old] - PRICES[new]:+}"]
    return []


def ending(state: meeple.State) -> tuple[str, list[str]]:
    """How a finished game ended, and what is wrong with its end."""
    if not state.is_over:
        return "not over", ["the game is not over"]
    finished = [rec["finished"] for rec in state.pv]
    first, rounds = state.gv["first_finish"], state.gv["round"]
    found = []
    if all(finished):
        how = "every caravan at the Finish"
    elif first is not None and rounds == first + state.options["countdown"] + 1:
        how = "the countdown"
    elif rounds == state.options["max_rounds"] + 1:  # the limit may cut a countdown short
        how = "the round limit" if first is None else "the round limit, during the countdown"
    else:
        how = "no rule"
        found.append(f"ended in round {rounds}; the first finish was in round {first}")
    scores, winners = state.scores, state.winners or []
    found += [
        f"{p} never arrived but scores {scores[p]}"
        for p, done in zip(state.players, finished)
        if not done and scores[p] != 0
    ]
    top = max(scores.values())
    if sorted(winners) != sorted(p for p, v in scores.items() if v == top):
        found.append(f"winners {winners}, scores {scores}")
    return how, found


@dataclass
class Watch:
    """Checks one game after every action (`on_action` of play_game)."""

    game: meeple.Game
    step: int = 0
    last: Any = field(default=None)
    before: list[dict[str, Any]] = field(default_factory=list)
    chests: int = 0

    def __post_init__(self) -> None:
        sym = self.game.definition.sym
        self.deck_of = {c: d["deck"] for c, d in sym.definitions.items() if d.get("deck") in DECKS}

    def __call__(self, state: meeple.State, action: Any = None) -> None:
        if action is None:
            self.chests = sum(rec["kind"] == "chest" for rec in state.pieces.values())
        else:
            self.step, self.last = self.step + 1, action
        found = resource_problems(state) + equipment_problems(state)
        found += card_problems(state, self.deck_of) + board_problems(state, self.chests)
        if action is not None:
            found += trade_problems(self.before, state, action)
        self.before = [dict(rec) for rec in state.pv]
        if found:
            raise InvariantBroken(f"step {self.step} (after {self.last}): " + "; ".join(found))


def play_checked(game: meeple.Game, seed: int) -> meeple.State:
    """Play the seeded random game (RandomAgent in every seat), checking every state from the first."""
    return play_watched(game, seed, Watch(game), GAME, ACTION_BOUND)


@dataclass
class Tally:
    endings: Counter[str] = field(default_factory=Counter)
    longest: int = 0
    problems: list[str] = field(default_factory=list)


def soak(game: meeple.Game, seeds: range) -> Tally:
    """Every problem of the seeded games, each naming its seed, and how the games ended."""
    tally = Tally()
    for seed in seeds:
        try:
            state = play_checked(game, seed)
        except (InvariantBroken, meeple.MeepleError) as broken:
            tally.problems.append(f"seed {seed}: {type(broken).__name__}: {broken}")
            continue
        how, found = ending(state)
        tally.endings[how] += 1
        tally.longest = max(tally.longest, state.gv["round"] - 1)
        tally.problems += [f"seed {seed}: {text}" for text in found]
    return tally


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("movement", ("destination", "steps"))
@pytest.mark.parametrize("players", PLAYER_COUNTS, ids=lambda n: f"{n}p")
def test_a_few_random_games_keep_goods_cards_and_equipment_and_end_by_the_rules(players, movement):
    tally = soak(caravan(players, movement), range(SAMPLE_GAMES))
    assert not tally.problems, "\n".join(tally.problems)
    assert sum(tally.endings.values()) == SAMPLE_GAMES


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS, ids=lambda n: f"{n}p")
def test_a_thousand_random_games_keep_goods_cards_and_equipment_and_end_by_the_rules(players):
    tally = soak(caravan(players), range(SOAK_GAMES))
    print(f"\n{players} players, {SOAK_GAMES} games: {dict(tally.endings)}; longest {tally.longest} rounds")
    assert not tally.problems, f"{len(tally.problems)} games went wrong:\n" + "\n".join(tally.problems[:20])


def test_the_invariants_catch_debt_a_lost_card_a_third_animal_and_a_caravan_in_a_river():
    """The checks themselves can fail: each one spots its own kind of damage."""
    game = caravan(3)
    watch = Watch(game)
    state = game.new_game(seed=1)
    watch(state)
    state.pv[0]["silk"] = -1
    assert resource_problems(state)
    state.pv[0]["silk"] = 0
    state.zones["encounters#desert"].pop("mirage")
    assert card_problems(state, watch.deck_of)
    state.zones["market"]["donkey"] -= 1
    state.zones["stable#1"]["donkey"] += 1
    assert equipment_problems(state)
    pid = next(pid for pid, rec in state.pieces.items() if rec["kind"] == "caravan")
    state.sites = {k: dict(v) for k, v in state.sites.items()}
    state._sites_shared = False
    state.sites[state.pieces[pid]["site"]]["terrain"] = "river"
    assert board_problems(state, watch.chests)
