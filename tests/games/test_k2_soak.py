"""Soak of K2: random games for 1 to 5 players on both board sides, with both weather sets and with and
without the family and red-figure variants, keep every card and risk token, never crowd a space where a
climber stops, keep health at 6 or less, end after 18 days (a solo game at once when a climber dies) and
never show a player another player's hand or secret picks.

Uniform random climbers never leave the two lowest zones, so a second soak plays an `Upward` player
(random, but heading for the summit) to reach the spaces that hold one or two climbers, the red figure
and the summit.

By default three uniform random games and one upward game run per player count and board side; with
`pytest -m slow`, 1,000 uniform random games (10,000 in all) and 200 upward games run for each.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

import meeple
from meeple.agents import RandomAgent, play_game
from meeple.compile.expressions import RuleRuntimeError

GAME = "k2"
PLAYER_COUNTS = (1, 2, 3, 4, 5)
SIDES = ("easy", "hard")
SAMPLE_GAMES = 3
SOAK_GAMES = 1000
UPWARD_SAMPLE_GAMES = 1
UPWARD_SOAK_GAMES = 200
# An upward player decides uniformly at random this share of the time.
UPWARD_RANDOM_SHARE = 0.15
# An upward player rests a climber at this health or below.
UPWARD_REST_AT = 2
# The views are checked every n-th decision, and at every reveal of the secret picks.
VIEW_STRIDE = 5
# Determinism is re-checked by playing every n-th soak game a second time.
DETERMINISM_EVERY = 25
# A random game that has not ended after this many decisions is taken not to end.
ACTION_BOUND = 100_000

DAYS = 18
HEALTH_MAX = 6
CLIMBERS = TENTS = 2
# DATA.md, 001: the 18 cards of each player, the 20 risk tokens and the 12 weather tiles.
DECK = Counter(
    move_3=2,
    move_2=3,
    move_1=5,
    rope_2_3=1,
    rope_1_3=1,
    rope_1_2=1,
    health_3=1,
    health_2=1,
    health_1=2,
    health_0=1,
)
RISK_TOKENS = Counter(risk_0=4, risk_1=11, risk_2=5)
WEATHER_TILES = Counter({f"{s}_{t}": 1 for s in ("summer", "winter") for t in "abcdef"})
PLAYER_ZONES = ("deck", "hand", "played", "discard")
RISK_ZONES = ("risk_pile", "risk_row", "risk_used")
WEATHER_ZONES = ("weather_box", "weather_deck", "weather_shown")
SECRET_ZONES = ("hand",)  # shown to its owner only; the picks are secret choices until the reveal
FACE_DOWN = ("risk_pile", "weather_deck")  # shown to nobody, as is every player's deck
PUBLIC_ZONES = ("risk_row", "risk_used", "weather_box", "weather_shown")
PUBLIC_PLAYER_ZONES = ("played", "discard", "risk_held")
MASK = "?"

# The variants cycle with the seed, so that consecutive seeds differ in each of them:
# (weather, family, red_figure).
VARIANTS = (
    ("summer", False, False),
    ("winter", True, True),
    ("summer", True, False),
    ("winter", False, True),
    ("summer", False, True),
    ("winter", True, False),
    ("summer", True, True),
    ("winter", False, False),
)


def options_of(side: str, seed: int) -> dict[str, Any]:
    weather, family, red_figure = VARIANTS[seed % len(VARIANTS)]
    return {"board": side, "weather": weather, "family": family, "red_figure": red_figure}


@functools.cache
def k2(players: int, board: str, weather: str, family: bool, red_figure: bool) -> meeple.Game:
    options = {"board": board, "weather": weather, "family": family, "red_figure": red_figure}
    return meeple.load(GAME, players=players, options=options)


def game_for(players: int, side: str, seed: int) -> meeple.Game:
    return k2(players, **options_of(side, seed))


@functools.cache
def capacities(game: meeple.Game) -> dict[str, int]:
    """The rule file's `capacity(x)` of every space: it reads only the zone, the players and the options."""
    state = game.new_game(seed=0)
    state._memo = None
    capacity = game.definition.defs["capacity"]
    return {space: capacity(state, {"x": space}) for space in state.sites}


# --------------------------------------------------------------------------- the invariants


def difference(now: Counter[str], start: Counter[str]) -> str:
    """`+card` for each copy made, `-card` for each copy lost."""
    made, lost = now - start, start - now
    return " ".join([f"+{c}" for c in made.elements()] + [f"-{c}" for c in lost.elements()])


def pooled(state: meeple.State, keys: Any) -> Counter[str]:
    total: Counter[str] = Counter()
    for key in keys:
        total.update(state.zones[key])
    return +total


def card_problems(state: meeple.State) -> list[str]:
    """Each player's 18 cards in their own five zones; the 20 risk tokens and 12 tiles in theirs."""
    seats = range(len(state.players))
    found = []
    for p in seats:
        cards = pooled(state, [f"{z}#{p}" for z in PLAYER_ZONES])
        if cards != DECK:
            found.append(f"p{p + 1} cards {difference(cards, DECK)}")
    tokens = pooled(state, [*RISK_ZONES, *(f"risk_held#{p}" for p in seats)])
    if tokens != RISK_TOKENS:
        found.append(f"risk tokens {difference(tokens, RISK_TOKENS)}")
    tiles = pooled(state, WEATHER_ZONES)
    if tiles != WEATHER_TILES:
        found.append(f"weather tiles {difference(tiles, WEATHER_TILES)}")
    return found


def piece_problems(state: meeple.State, capacity: dict[str, int]) -> list[str]:
    """Climbers and tents on spaces, health at most 6, no space where a climber stops over its capacity
    (the walker's own space is exempt: it may pass a full one), and per player 2 climbers and 2 tents
    on the board and in the supply together."""
    found = []
    crowd: Counter[str] = Counter()
    owned: Counter[tuple[int, str]] = Counter()
    for pid, rec in state.pieces.items():
        site = rec["site"]
        owned[(int(rec["owner"]), rec["kind"])] += 1
        if site not in capacity:
            found.append(f"{rec['kind']} {pid} of {rec['owner']} is on {site!r}, not a space")
        if rec["kind"] != "climber":
            continue
        crowd[site] += 1
        if rec["health"] > HEALTH_MAX:
            found.append(f"climber {pid} has health {rec['health']}")
    walker = state.tv["walker"]
    passing = None if walker is None else state.pieces[int(walker)]["site"]
    for site, n in crowd.items():
        if n > capacity.get(site, 0) and site != passing:
            found.append(f"{n} climbers stop on {site} (capacity {capacity.get(site)})")
    for p, supply in enumerate(state.supply):
        kept = {k: owned[(p, k)] + supply.get(k, 0) for k in ("climber", "tent")}
        if kept != {"climber": CLIMBERS, "tent": TENTS}:
            found.append(f"p{p + 1} has {kept} on the board and in the supply")
    return found


def climbers_of(state: meeple.State) -> list[dict[str, Any]]:
    return [rec for rec in state.pieces.values() if rec["kind"] == "climber"]


def day_problems(state: meeple.State, picking: bool) -> list[str]:
    """At most 18 days; at a pick (the day's health check done) every climber alive has health 1 or more;
    a solo game that has lost a climber is over."""
    found = []
    if not 1 <= state.gv["day"] <= DAYS:
        found.append(f"day {state.gv['day']}")
    if picking:
        weak = [c for c in climbers_of(state) if c["health"] < 1]
        found += [f"climber of {c['owner']} at {c['site']} alive with health {c['health']}" for c in weak]
    if len(state.players) == 1 and len(climbers_of(state)) < CLIMBERS and not state.is_over:
        found.append("a solo climber died but the game goes on")
    return found


def zone_shown(view: meeple.State, key: str) -> Any:
    return view.zones.get(key)


def masked(size: int) -> dict[str, int]:
    return {MASK: size} if size else {}


def view_leaks(state: meeple.State) -> list[str]:
    """Every zone a player's view shows wrongly: a deck, a face-down pile or another player's hand or
    picks shown as more than its size; the viewer's own zones, the public ones, the pieces and the game
    variables not shown as they are."""
    seats = range(len(state.players))
    found = []
    for viewer in seats:
        view = state.view(viewer)
        hidden = [*FACE_DOWN, *(f"deck#{p}" for p in seats)]
        hidden += [f"{z}#{p}" for z in SECRET_ZONES for p in seats if p != viewer]
        for key in hidden:
            size = sum(state.zones[key].values())
            if zone_shown(view, key) != masked(size):
                found.append(f"p{viewer + 1} sees {key} as {zone_shown(view, key)} ({size} cards)")
        kept = [*PUBLIC_ZONES, *(f"{z}#{viewer}" for z in SECRET_ZONES)]
        kept += [f"{z}#{p}" for z in PUBLIC_PLAYER_ZONES for p in seats]
        for key in kept:
            if zone_shown(view, key) != state.zones[key]:
                found.append(f"p{viewer + 1} sees {key} as {zone_shown(view, key)}, not {state.zones[key]}")
        if (view.pieces, view.gv, view.tv) != (state.pieces, state.gv, state.tv):
            found.append(f"p{viewer + 1} sees the pieces or the game or turn variables changed")
    return found


def pick_leaks(state: meeple.State, legal: list[Any]) -> list[str]:
    """Two games that differ only in the secret pick just made look the same to every other player (and
    differently to the picker); picks that end the day's choosing (a reveal follows) are not compared."""
    picks = [a for a in legal if a.name == "pick"]
    if len(picks) < 2:
        return []
    picker = int(state.to_move)
    first, second = state.clone().apply(picks[0]), state.clone().apply(picks[-1])
    if not (choosing(first) and choosing(second)):
        return []
    found = []
    for viewer in range(len(state.players)):
        same = first.view(viewer).snapshot() == second.view(viewer).snapshot()  # as to_json, less work
        if viewer != picker and not same:
            found.append(f"p{viewer + 1} can tell p{picker + 1}'s {picks[0]} from {picks[-1]}")
        if viewer == picker and same:
            found.append(f"p{picker + 1} cannot tell its own {picks[0]} from {picks[-1]}")
    return found


def revealed(state: meeple.State, action: Any) -> bool:
    """The action was the last pick of a day: every pick is now face up."""
    return action.name == "pick" and not choosing(state)


def choosing(state: meeple.State) -> bool:
    """The players are still picking in secret (the `simultaneous` step of the day waits for picks)."""
    return bool(state.stack) and state.stack[-1]["k"] == "simul"


def ending_problems(state: meeple.State) -> list[str]:
    """A finished game: over after day 18 (solo: or at once when a climber died), won by the top score
    (on a tie, by whoever reached the summit first, else shared)."""
    if not state.is_over:
        return ["the game is not over"]
    found = []
    day, solo = state.gv["day"], len(state.players) == 1
    died = solo and len(climbers_of(state)) < CLIMBERS
    if day != DAYS and not died:
        found.append(f"over after day {day}, not {DAYS}")
    scores, winners = state.scores, state.winners or []
    top = [p for p, v in scores.items() if v == max(scores.values())]
    order = list(state.gv["summit_order"])
    first_up = min((order.index(p) for p in top if p in order), default=None)
    best = [p for p in top if first_up is None or (p in order and order.index(p) == first_up)]
    if not winners or not set(winners) <= set(top):
        found.append(f"winners {winners} do not have the top score: {scores}")
    elif sorted(winners) != sorted(best):
        found.append(f"winners {winners}, not {best} (scores {scores}, summit order {order})")
    return found


class InvariantBroken(AssertionError):
    """A state of a soak game broke an invariant; the message names the step and the last action."""


@dataclass
class Watch:
    """Checks one game after every action (`on_action` of play_game); the views at a stride and at
    every reveal. Counts what the game went through (`seen`), so that a soak can show what it covered."""

    game: meeple.Game
    stride: int = VIEW_STRIDE
    step: int = 0
    last: Any = field(default=None)
    seen: Counter[str] = field(default_factory=Counter)
    climbers: int = 0
    highest: int = 0  # the highest zone a climber stood in

    def __call__(self, state: meeple.State, action: Any = None) -> None:
        if action is not None:
            self.step, self.last = self.step + 1, action
            self.seen[action.name] += 1
        climbers = climbers_of(state)
        self.seen["died"] += max(0, self.climbers - len(climbers)) if action is not None else 0
        self.climbers = len(climbers)
        self.highest = max([self.highest, *(state.sites[c["site"]]["zone"] for c in climbers)])
        legal = state.legal_actions()
        picking = bool(legal) and legal[0].name == "pick"
        found = card_problems(state)
        found += piece_problems(state, capacities(self.game))
        found += day_problems(state, picking)
        if self.step % self.stride == 0 or (action is not None and revealed(state, action)):
            found += view_leaks(state)
            found += pick_leaks(state, legal)
        self.note_passing(state)
        if found:
            raise InvariantBroken(f"step {self.step} (after {self.last}): " + "; ".join(found))

    def note_passing(self, state: meeple.State) -> None:
        walker = state.tv["walker"]
        if walker is not None:
            site = state.pieces[int(walker)]["site"]
            if sum(1 for c in climbers_of(state) if c["site"] == site) > capacities(self.game)[site]:
                self.seen["pass_full"] += 1


class Upward:
    """A random player that heads for the summit. One decision in UPWARD_RANDOM_SHARE is uniform; otherwise
    a walk goes to the highest space it may enter (by the rule file's `height`), else pitches a tent, else
    stops; a weak climber rests; a climber sets out, not downward, with as many cards as it can."""

    name = "upward"

    def choose(self, state: meeple.State, legal: list[Any], rng: Any) -> Any:
        if rng.random() < UPWARD_RANDOM_SHARE:
            return legal[rng.randrange(len(legal))]
        walks = [a for a in legal if a.name == "walk"]
        if walks:
            return self.walk(state, walks)
        rests = [a for a in legal if a.name == "heal" and health_of(state, a) <= UPWARD_REST_AT]
        outs = [a for a in legal if a.name == "set_out" and dict(a.params)["dir"] != "down"]
        if rests:
            return rests[rng.randrange(len(rests))]
        if outs:
            return max(outs, key=lambda a: (dict(a.params)["cards"].total, rng.random()))
        return legal[rng.randrange(len(legal))]

    @staticmethod
    def walk(state: meeple.State, walks: list[Any]) -> Any:
        height = state.game.defs["height"]
        goes = {dict(a.params)["go"]: a for a in walks}
        here = height(state, {"x": state.pieces[int(state.tv["walker"])]["site"]})
        up = {go: height(state, {"x": go}) for go in goes if go in state.sites}
        up = {go: h for go, h in up.items() if h > here}
        if up:
            return goes[max(up, key=up.__getitem__)]
        return goes.get("tent") or goes.get("stop") or walks[0]


def health_of(state: meeple.State, action: Any) -> int:
    return state.pieces[int(dict(action.params)["climber"])]["health"]


def play_checked(
    game: meeple.Game, seed: int, seen: Counter[str], agent: type = RandomAgent
) -> tuple[meeple.State, list[Any]]:
    """Play the seeded game (`agent` in every seat), checking every state from the first."""
    watch = Watch(game)
    try:
        watch(game.new_game(seed=seed))
        agents = [agent() for _ in range(game.players)]
        state, actions = play_game(game, seed, agents, max_actions=ACTION_BOUND, on_action=watch)
    except Exception as error:  # not swallowed: re-raised, naming the game a crash or a failure came from
        error.add_note(
            f"{GAME} {game.players}p {game.options} seed {seed}, step {watch.step}, after {watch.last}"
        )
        raise
    finally:
        seen.update(watch.seen)
    seen["summit"] += bool(state.gv["summit_order"])
    seen["high"] += watch.highest >= 2
    return state, actions


def soak(
    players: int,
    side: str,
    seeds: range,
    determinism_every: int,
    seen: Counter[str],
    agent: type = RandomAgent,
) -> list[str]:
    """Every problem of the seeded games, each naming its seed and options; a broken invariant, a rules
    error or a rule that fails at run time (RuleRuntimeError is not a MeepleError) ends only its game."""
    problems = []
    for seed in seeds:
        game = game_for(players, side, seed)
        where = f"seed {seed} {game.options}"
        try:
            state, actions = play_checked(game, seed, seen, agent)
        except (InvariantBroken, meeple.MeepleError, RuleRuntimeError) as broken:
            problems.append(f"{where}: {type(broken).__name__}: {broken}")
            continue
        problems += [f"{where}: {text}" for text in ending_problems(state)]
        if seed % determinism_every == 0:
            again, replayed = play_checked(game, seed, Counter(), agent)
            if replayed != actions or again.to_json() != state.to_json():
                problems.append(f"{where}: the same seed gave a different game")
    return problems


# --------------------------------------------------------------------------- the tests

TABLES = [(n, side) for side in SIDES for n in PLAYER_COUNTS]
TABLE_IDS = [f"{n}p-{side}" for n, side in TABLES]


@pytest.mark.parametrize(("players", "side"), TABLES, ids=TABLE_IDS)
def test_a_few_random_games_keep_cards_room_and_health_end_on_day_18_and_leak_no_pick(players, side):
    problems = soak(players, side, range(SAMPLE_GAMES), determinism_every=SAMPLE_GAMES, seen=Counter())
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "side"), TABLES, ids=TABLE_IDS)
def test_a_thousand_random_games_keep_cards_room_and_health_end_on_day_18_and_leak_no_pick(players, side):
    seen: Counter[str] = Counter()
    problems = soak(players, side, range(SOAK_GAMES), DETERMINISM_EVERY, seen)
    assert not problems, f"{len(problems)} of {SOAK_GAMES} games went wrong:\n" + "\n".join(problems[:20])
    # The soak reached the rules most likely to break: deaths, tents and risk on climbers everywhere;
    # walks through full spaces and rescues wherever the players can crowd a space and be rescued.
    assert seen["died"] and seen["walk"] and seen["risk_climber"], dict(seen)
    assert players == 1 or (seen["pass_full"] and seen["rescue"]), dict(seen)


@pytest.mark.parametrize(("players", "side"), TABLES, ids=TABLE_IDS)
def test_an_upward_game_keeps_cards_room_and_health_high_on_the_mountain(players, side):
    seen: Counter[str] = Counter()
    problems = soak(players, side, range(UPWARD_SAMPLE_GAMES), UPWARD_SAMPLE_GAMES, seen, Upward)
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "side"), TABLES, ids=TABLE_IDS)
def test_two_hundred_upward_games_keep_cards_room_and_health_high_on_the_mountain(players, side):
    seen: Counter[str] = Counter()
    problems = soak(players, side, range(UPWARD_SOAK_GAMES), DETERMINISM_EVERY, seen, Upward)
    assert not problems, f"{len(problems)} of {UPWARD_SOAK_GAMES} games went wrong:\n" + "\n".join(
        problems[:20]
    )
    # Climbers reached zone 2 or 3 (1 or 2 to a space) and died; with rivals, walked through full spaces.
    assert seen["high"] and seen["died"], dict(seen)
    assert players == 1 or seen["pass_full"], dict(seen)


def test_the_invariants_catch_a_lost_card_a_made_token_a_crowded_space_and_a_leaked_pick(monkeypatch):
    """The checks themselves can fail: each one spots its own kind of damage."""
    game = game_for(3, "easy", 0)
    capacity = capacities(game)
    state = game.new_game(seed=1)
    assert card_problems(state) == piece_problems(state, capacity) == view_leaks(state) == []
    assert pick_leaks(state, state.legal_actions()) == []
    state.zones["hand#1"]["move_3"] = state.zones["hand#1"].get("move_3", 0) + 1
    state.zones["risk_row"]["risk_2"] = state.zones["risk_row"].get("risk_2", 0) + 1
    assert [p.split(" ")[0:2] for p in card_problems(state)] == [["p2", "cards"], ["risk", "tokens"]]
    full = next(x for x, n in capacity.items() if n == 1)
    climbers = [pid for pid, rec in state.pieces.items() if rec["kind"] == "climber"]
    for pid in climbers[:2]:
        state.pieces[pid] = {**state.pieces[pid], "site": full, "health": HEALTH_MAX + 1}
    found = piece_problems(state, capacity)
    assert any("health 7" in p for p in found) and any(f"stop on {full}" in p for p in found)
    state.tv["walker"] = climbers[0]
    assert not any(f"stop on {full}" in p for p in piece_problems(state, capacity))
    monkeypatch.setattr("meeple.runtime.view.view", lambda s, player: s.clone())
    fresh = game.new_game(seed=1)
    assert any("sees hand#1 as" in p for p in view_leaks(fresh))
    assert any("can tell" in p for p in pick_leaks(fresh, fresh.legal_actions()))
