"""Building K2 situations for the rule tests.

An `Expedition` is a game stopped at the first pick of day 1 (p1 holds the first-player marker) under a
clear sky (the forecast is two clear tiles) with the risk tokens 0, 1 and 2 face up. Tests move climbers,
pitch tents, change health and the weather, then play a day through the public API: `day({p: cards})`
deals each player a hand holding the 3 cards it picks, picks them and, if someone takes a risk token,
takes the one named (risk_0 unless told), which leaves the game at the first decision of the actions
phase. `set_out`, `walk`, `heal`, `risk_*`, `rescue` and `end` act for the player to move; `finish_day()`
ends the remaining players' actions, which runs the health check and the end of the day. Dealt cards are
taken from the player's own deck or discard, so each of a player's 18 cards stays in one of its zones.

`GAME` names the rule file every helper loads; the mutation checks point it at a changed copy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from harness import cards_of, move_card, touch

import meeple
from meeple.compile.builtins import distance
from meeple.values import Action, Bundle, PieceRef, Player

GAME = str(Path(__file__).resolve().parents[2] / "games" / "k2.yaml")
OPTIONS = {"board": "easy", "weather": "summer", "red_figure": False, "family": False}
DULL = ("health_0", "health_1", "health_1")  # 3 cards with no upward step and (almost) no effect
CLEAR = ("summer_c", "summer_c")  # a forecast of six clear days
ROW = ("risk_0", "risk_1", "risk_2")  # the face-up risk tokens at the start
HAND = 6


_compiled: dict[tuple[Any, ...], Any] = {}


def load(players: int = 3, **options: Any) -> Any:
    """The rule file of `GAME` compiled for `players`, the defaults changed by `options` (compiled once)."""
    chosen = {**OPTIONS, **options}
    key = (GAME, players, *sorted(chosen.items()))
    if key not in _compiled:
        _compiled[key] = meeple.load(GAME, players=players, options=chosen)
    return _compiled[key]


def first_legal(s: Any) -> Action:
    return s.legal_actions()[0]


class Expedition:
    """A game at the first pick of day 1 under a clear sky (see the module docstring)."""

    def __init__(self, game: Any, seed: int = 1, clear: bool = True) -> None:
        self.game = game
        self.s = game.new_game(seed=seed, log=True)
        if clear:
            self.forecast(*CLEAR)
        self.risk_row(*ROW)

    # ------------------------------------------------------------ where the game is

    @property
    def players(self) -> list[Player]:
        return list(self.s.players)

    @property
    def to_move(self) -> Player | None:
        return self.s.to_move

    @property
    def phase(self) -> str | None:
        """The name of the innermost running phase."""
        for frame in reversed(self.s.stack):
            if frame["k"] == "phase":
                return self.game.definition.phases[frame["ph"]].name
        return None

    @property
    def day_no(self) -> int:
        return int(self.s.gv["day"])

    def touch(self) -> None:
        touch(self.s)

    # ------------------------------------------------------------ climbers and tents

    def climber(self, p: int, shape: int = 1) -> int:
        """The id of p's climber of this shape (1 or 2)."""
        for pid, rec in sorted(self.s.pieces.items()):
            if rec["kind"] == "climber" and rec["owner"] == p and rec["shape"] == shape:
                return pid
        raise AssertionError(f"{Player(p)} has no climber of shape {shape} on the board")

    def rec(self, pid: int) -> dict[str, Any]:
        return self.s.pieces[pid]

    def site(self, pid: int) -> str:
        return str(self.s.pieces[pid]["site"])

    def health(self, pid: int) -> int:
        return int(self.s.pieces[pid]["health"])

    def best(self, pid: int) -> int:
        return int(self.s.pieces[pid]["best"])

    def put(self, pid: int, site: str | None = None, **fields: Any) -> None:
        """Move a climber (or any piece) to `site` and set some of its fields (health, best, tent)."""
        if site is not None:
            self.s.move_piece(pid, site)
        for name, value in fields.items():
            self.s.set_field(PieceRef(pid), name, value)
        self.touch()

    def crowd(self, site: str, n: int, owner: int = 2) -> list[int]:
        """n extra climbers of `owner` (health 6, shape 3) standing on `site`; returns their ids."""
        ids = []
        for _ in range(n):
            self.s.supply[owner]["climber"] = self.s.supply[owner].get("climber", 0) + 1
            ids.append(int(self.s.place("climber", site, Player(owner), {"health": 6, "shape": 3})))
        self.touch()
        return ids

    def climbers_at(self, site: str) -> list[int]:
        return [pid for pid in self.s.at.get(site, ()) if self.s.pieces[pid]["kind"] == "climber"]

    def pitch(self, site: str, owner: int) -> int:
        """A tent of `owner` standing at `site`."""
        pid = int(self.s.place("tent", site, Player(owner), {}))
        self.touch()
        return pid

    def tents_at(self, site: str) -> list[Player]:
        return [
            self.s.pieces[pid]["owner"]
            for pid in self.s.at.get(site, ())
            if self.s.pieces[pid]["kind"] == "tent"
        ]

    # ------------------------------------------------------------ weather, risk tokens, variables

    def forecast(self, *tiles: str, day: int = 1) -> None:
        """Show these weather tiles and make it `day` (whose place on the first tile picks the weather)."""
        self.s.gv["forecast"] = tuple(tiles)
        self.s.gv["day"] = day
        self.touch()

    def weather(self) -> tuple[int, int, int]:
        """Today's (health lost, extra cost, lowest zone hit) as the rule file reads it."""
        return tuple(self.call("weather"))  # type: ignore[return-value]

    def risk_row(self, *tokens: str) -> None:
        """Put exactly these tokens face up; the old ones go back to the face-down pile."""
        row, pile = self.s.zones["risk_row"], self.s.zones["risk_pile"]
        for token in cards_of(row):
            move_card(row, pile, token)
        for token in tokens:
            move_card(pile, row, token)
        self.touch()

    def call(self, name: str, **args: Any) -> Any:
        """A def of the rule file evaluated on the state as it is."""
        self.s._memo = None
        return self.game.definition.defs[name](self.s, args)

    def capacity(self, site: str) -> int:
        return int(self.call("capacity", x=site))

    def score(self, p: int) -> int:
        return int(self.s.scores[Player(p)])

    def said(self, text: str) -> bool:
        return any(text in line for line in self.s.log)

    # ------------------------------------------------------------ cards

    def zone(self, name: str, p: int | None = None) -> dict[str, int]:
        return self.s.zones[name if p is None else f"{name}#{int(p)}"]

    def hand(self, p: int) -> list[str]:
        return cards_of(self.zone("hand", p))

    def owned(self, p: int) -> Counter[str]:
        """Every card of p wherever it lies."""
        total: Counter[str] = Counter()
        for name in ("deck", "hand", "played", "discard"):
            total.update(self.zone(name, p))
        return total

    def deal(self, p: int, cards: Iterable[str]) -> None:
        """Give p a hand of 6 holding `cards`; the old hand goes back to the deck, the rest comes from it."""
        hand, deck = self.zone("hand", p), self.zone("deck", p)
        for card in cards_of(hand):
            move_card(hand, deck, card)
        for card in cards:
            source = next((self.zone(z, p) for z in ("deck", "discard") if self.zone(z, p).get(card)), None)
            assert source is not None, f"{Player(p)} has no spare {card}"
            move_card(source, hand, card)
        spare = [c for c in cards_of(deck) if c not in hand]
        spare += [c for c in cards_of(deck) if c in hand]
        for card in spare[: HAND - sum(hand.values())]:
            move_card(deck, hand, card)
        self.touch()

    def pick(self, cards: Sequence[str]) -> None:
        """The player to move picks exactly these cards in secret (in the canonical order the game offers);
        they are laid face up when the last player has picked."""
        for card in sorted(cards):
            self.s.apply(f"pick(card={card})")

    def choose(self, picks: dict[int, Sequence[str]] | None = None) -> None:
        """Deal and play the choosing phase with these picks (DULL for anyone not named); stops at the
        reveal's risk token, if someone takes one, or else at the actions phase."""
        picks = picks or {}
        assert self.phase == "choose" and not any(self.zone("played", p) for p in self.players)
        for p in self.players:
            self.deal(p, picks.get(p, DULL))
        while self.phase == "choose":
            self.pick(picks.get(self.to_move, DULL))

    def day(self, picks: dict[int, Sequence[str]] | None = None, token: str = "risk_0") -> None:
        """`choose(picks)`, then a player taking a risk token takes `token` (it must be face up; risk_0,
        which asks nothing, unless the test names another). Stops at the actions phase."""
        self.choose(picks)
        if self.legal("take_risk"):
            self.s.apply(f"take_risk(token={token})")
        assert self.phase == "actions", f"not at the actions phase but {self.phase}"

    def taker(self) -> Player | None:
        """Who holds a risk token today."""
        return next((p for p in self.s.players if self.zone("risk_held", p)), None)

    def played(self, p: int) -> list[str]:
        return cards_of(self.zone("played", p))

    # ------------------------------------------------------------ acting

    def legal(self, name: str | None = None) -> list[str]:
        return [str(a) for a in self.s.legal_actions() if name is None or a.name == name]

    def offered(self, name: str, param: str) -> set[Any]:
        """The values of one parameter over the legal actions of one kind."""
        return {a[param] for a in self.s.legal_actions() if a.name == name}

    def do(self, text: str) -> None:
        self.s.apply(text)

    def set_out(self, pid: int, *cards: str, way: str = "any") -> None:
        """The player to move sets out with climber `pid` and these cards (`way` for a rope card)."""
        wanted = Bundle(Counter(cards))
        found = [
            a
            for a in self.s.legal_actions()
            if a.name == "set_out" and int(a["climber"]) == pid and a["cards"] == wanted and a["dir"] == way
        ]
        assert found, f"cannot set out with {pid}, {sorted(cards)}, {way}; legal: {self.legal('set_out')}"
        self.s.apply(found[0])

    def goes(self) -> set[str]:
        """Where the walking climber may go next (spaces, 'tent', 'stop')."""
        return {str(go) for go in self.offered("walk", "go")}

    def walk(self, *steps: str) -> None:
        for step in steps:
            self.s.apply(f"walk(go={step})")

    def stop(self) -> None:
        self.walk("stop")

    def heal(self, pid: int, card: str) -> None:
        found = [
            a
            for a in self.s.legal_actions()
            if a.name == "heal" and int(a["climber"]) == pid and a["card"] == card
        ]
        assert found, f"cannot heal {pid} with {card}; legal: {self.legal('heal')}"
        self.s.apply(found[0])

    def risk_climber(self, pid: int) -> None:
        found = [a for a in self.s.legal_actions() if a.name == "risk_climber" and int(a["climber"]) == pid]
        assert found, f"cannot put the risk on {pid}; legal: {self.legal()}"
        self.s.apply(found[0])

    def rescue(self, space: str) -> None:
        """The player to move plays the rescue card, bringing its dead climber back on `space`."""
        found = [a for a in self.s.legal_actions() if a.name == "rescue" and a["space"] == space]
        assert found, f"cannot rescue onto {space}; legal: {self.legal()}"
        self.s.apply(found[0])

    def risk_targets(self) -> set[Any]:
        """What the risk may go on now: card names and climber ids."""
        cards = {str(c) for c in self.offered("risk_card", "card")}
        return cards | {int(c) for c in self.offered("risk_climber", "climber")}

    def end(self) -> None:
        self.s.apply("end_actions")

    def finish_day(self) -> None:
        """End the actions of everyone still to act: health check and end of day follow.

        Stops early at a rescue decision (family variant), which the test takes.
        """
        day = self.day_no
        while self.phase == "actions":
            self.end()
        for _ in range(20):
            if self.s.is_over or self.phase == "choose" or self.day_no != day or self.legal("rescue"):
                return
            self.s.apply(first_legal(self.s))
        raise AssertionError("the day did not end")

    def play_until(self, done: Callable[[], bool], policy: Callable[[Any], Action] = first_legal) -> None:
        """Apply `policy(state)` until `done()` holds (fails if the game ends first)."""
        for _ in range(20000):
            if done():
                return
            assert not self.s.is_over, "the game ended before the situation was reached"
            self.s.apply(policy(self.s))
        raise AssertionError("the situation was not reached in 20000 actions")


def rest(s: Any) -> Action:
    """A player who never moves: picks the first cards offered, puts a risk on a card, ends at once."""
    legal = s.legal_actions()
    for name in ("end_actions", "skip", "risk_card", "stop"):
        for a in legal:
            if a.name == name or str(a) == f"walk(go={name})":
                return a
    return legal[0]


class Climb:
    """A player who climbs: the most upward cards, steps towards the summit as high as its health allows
    (zone <= health // 2), heals whoever is below 6, otherwise a seeded choice."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, s: Any) -> Action:
        legal = s.legal_actions()
        by_name: dict[str, list[Action]] = {}
        for a in legal:
            by_name.setdefault(a.name, []).append(a)
        if "pick" in by_name:
            return max(by_name["pick"], key=lambda a: _card(s, a["card"]).get("up", 0))
        if "walk" in by_name:
            return self.step(s, by_name["walk"])
        if "risk_climber" in by_name or "risk_card" in by_name:
            return self.rng.choice(by_name.get("risk_climber", []) + by_name.get("risk_card", []))
        low = [a for a in by_name.get("heal", []) if s.pieces[int(a["climber"])]["health"] < 6]
        if low:
            return low[0]
        if "set_out" in by_name:
            ups = [a for a in by_name["set_out"] if a["dir"] != "down"]
            return self.rng.choice(ups or by_name["set_out"])
        return by_name.get("end_actions", legal)[0]

    def step(self, s: Any, walks: list[Action]) -> Action:
        """The step that gets closest to the summit, if any gets closer; else a tent or a stop."""
        summit = next(x for x, rec in s.sites.items() if rec.get("summit"))
        walker = s.pieces[int(s.tv["walker"])]
        here = walker["site"]
        spaces = [a for a in walks if a["go"] not in ("stop", "tent")]
        closer = [
            a
            for a in spaces
            if distance(s, a["go"], summit) < distance(s, here, summit)
            and s.sites[a["go"]]["zone"] <= walker["health"] // 2
        ]
        if closer:
            return min(closer, key=lambda a: distance(s, a["go"], summit))
        other = [a for a in walks if a["go"] in ("tent", "stop")]
        return self.rng.choice(other or spaces)


def _card(s: Any, name: str) -> dict[str, Any]:
    return s.game.sym.definitions[name]
