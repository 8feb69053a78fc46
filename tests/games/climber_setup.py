"""Building tabletop climber situations for the rule tests.

A `Climber` is a 4-player game played (by a fixed "first legal action" policy) up to a chosen
phase of a chosen season.  Tests then deal the hands they need, put a player on the move, play
cards through the public API and read the outcome.  Cards dealt are taken from where they lie
(the decks, the lodges, the teams), so every card stays in exactly one zone.

The main phase is a round of turns around the table (a `phase` frame with `cur` and `lead` on
the scheduler stack); `lead(p)` ends whatever turn is open without acting and gives the next one
to p, as the engine's own `give lead` does after a reset.  `finish(first, second)` ends a main
phase with those two players emptying their hands, in that order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from harness import cards_of

from meeple.runtime import engine
from meeple.values import Action, Bundle, Player

GAME = "tabletop_climber"
PLAYERS = 4
GOLD = ("reverse", "no_set", "transfer", "up_to_two", "accident", "revolution")
# Where `deal` looks for a card, in order; last, the hands of players not being dealt to.
SOURCES = ("reinforcements", "initial_deck", "lodge", "team", "hand")


def first_legal(s: Any) -> Action:
    return s.legal_actions()[0]


class Climber:
    """A 4-player game stopped at the first decision of a phase (see the module docstring)."""

    def __init__(
        self,
        game: Any,
        seed: int = 1,
        season: int = 1,
        phase: str = "main",
        gold: str | None = None,
    ) -> None:
        self.game = game
        self.s = game.new_game(seed=seed, log=True)
        if gold is not None:
            assert season == 2, "a chosen gold card is revealed in season 2"
            self.force_gold(gold)
            self.play_until(lambda: self.season_no == 2)
            # The other gold cards go back under the deck for the later seasons.
            self.zone("gold_deck").update({card: 1 for card in GOLD if card != gold})
        self.play_until(lambda: self.season_no == season and self.phase == phase)

    # ------------------------------------------------------------ where the game is

    @property
    def players(self) -> list[Player]:
        return list(self.s.players)

    @property
    def season_no(self) -> int:
        return self.s.gv["season_no"]

    @property
    def phase(self) -> str | None:
        """The name of the innermost running phase."""
        for frame in reversed(self.s.stack):
            if frame["k"] == "phase":
                return self.game.definition.phases[frame["ph"]].name
        return None

    @property
    def to_move(self) -> Player | None:
        return self.s.to_move

    @property
    def season(self) -> dict[str, Any]:
        return self.s.sv["season"]

    @property
    def trick(self) -> dict[str, Any]:
        return self.s.sv["trick"]

    def play_until(self, done: Callable[[], bool], policy: Callable[[Any], Action] = first_legal) -> None:
        """Apply `policy(state)` until `done()` holds at a decision (fails if the game ends first)."""
        for _ in range(5000):
            if done():
                return
            assert not self.s.over, "the game ended before the situation was reached"
            self.s.apply(policy(self.s))
        raise AssertionError("the situation was not reached in 5000 actions")

    # ------------------------------------------------------------ changing the situation

    def touch(self) -> None:
        """Tell the state that a test changed it behind the engine's back (drop cached actions)."""
        s = self.s
        s._legal = None
        for part in s.ver:
            s.ver[part] += 1

    def zone(self, name: str, p: int | None = None) -> dict[str, int]:
        return self.s.zones[name if p is None else f"{name}#{int(p)}"]

    def hand(self, p: int) -> list[str]:
        return cards_of(self.zone("hand", p))

    def _take(self, card: str, keep: Iterable[int] = ()) -> None:
        """Remove one copy of `card` from the first zone (in SOURCES order) that has it.

        The hands of the players in `keep` are left alone, and no other hand is emptied.
        """
        for source in SOURCES:
            keys = [source] if source in self.s.zones else [f"{source}#{p}" for p in range(PLAYERS)]
            if source == "hand":
                keys = [f"hand#{p}" for p in range(PLAYERS) if p not in keep]
            for key in keys:
                zone = self.s.zones[key]
                if zone.get(card, 0) > 0:
                    assert key[:5] != "hand#" or sum(zone.values()) > 1, f"dealing {card} empties {key}"
                    zone[card] -= 1
                    if not zone[card]:
                        del zone[card]
                    return
        raise AssertionError(f"no spare {card} to deal")

    def put(self, zone: str, p: int | None, cards: Iterable[str], keep: Iterable[int] = ()) -> None:
        """Add cards (taken from where they lie, never from the hands in `keep`) to a zone."""
        target = self.zone(zone, p)
        keep = set(keep) | ({p} if zone == "hand" and p is not None else set())
        for card in cards:
            self._take(card, keep)
            target[card] = target.get(card, 0) + 1
        self.touch()

    def deal(self, hands: dict[int, Iterable[str]]) -> None:
        """Give these players exactly these hands; their old hand cards go to their lodges."""
        for p in hands:
            hand, lodge = self.zone("hand", p), self.zone("lodge", p)
            for card, n in hand.items():
                lodge[card] = lodge.get(card, 0) + n
            hand.clear()
        for p, cards in hands.items():
            self.put("hand", p, cards, keep=hands)

    def force_gold(self, card: str) -> None:
        """Make `card` the next gold card revealed: the rest of the gold deck goes back to the box."""
        self.s.zones["gold_deck"] = {card: 1}
        self.touch()

    def set_trick(self, **values: Any) -> None:
        """Set variables of the trick scope (the scope's dict is replaced, as the engine does)."""
        self.s.sv["trick"] = {**self.s.sv["trick"], **values}
        self.touch()

    def main_frame(self) -> dict[str, Any]:
        for frame in reversed(self.s.stack):
            if frame["k"] == "phase":
                return frame
        raise AssertionError("no phase is running")

    def lead(self, p: int) -> None:
        """Close the open turn of the main phase unplayed; p takes the next turn (the field stays).

        A start card still in a hand goes to its holder's lodge, as if it had been played before.
        """
        assert self.phase == "main", f"lead() needs the main phase, not {self.phase}"
        for q in self.players:
            if "start" in self.zone("hand", q):
                self.zone("hand", q).pop("start")
                self.zone("lodge", q)["start"] = 1
        while self.s.stack[-1]["k"] != "phase":
            self.s.stack.pop()
        self.main_frame()["lead"] = Player(p)
        self.touch()
        engine.advance(self.s)
        assert self.to_move == p, f"{p} was given the lead but {self.to_move} is to move"

    # ------------------------------------------------------------ acting and reading

    def legal(self, name: str | None = None) -> list[str]:
        return [str(a) for a in self.s.legal_actions() if name is None or a.name == name]

    def plays(self) -> set[tuple[str, ...]]:
        """The legal plays of the player to move, each as the sorted tuple of its cards."""
        return {tuple(cards_of(dict(a["cards"]))) for a in self.s.legal_actions() if a.name == "play"}

    @property
    def can_pass(self) -> bool:
        return "pass" in self.legal()

    def play(self, *cards: str) -> None:
        """The player to move plays exactly these cards."""
        wanted = Bundle(Counter(cards))
        found = [a for a in self.s.legal_actions() if a.name == "play" and a["cards"] == wanted]
        assert found, f"{self.to_move} cannot play {sorted(cards)}; legal: {self.legal()}"
        self.s.apply(found[0])

    def pass_(self) -> None:
        self.s.apply("pass")

    def opens(self, p: int, *cards: str, keep: Iterable[str] = ("yellow_1",)) -> None:
        """p leads these cards on an empty field, keeping `keep` in hand (so p stays in play)."""
        self.deal({p: [*cards, *keep]})
        self.lead(p)
        self.play(*cards)

    def finish(self, first: int, second: int) -> dict[Player, int]:
        """End the main phase with `first` and then `second` emptying their hands.

        Returns how many cards each player owned once the hands were dealt (see `count`).
        """
        owned = self.before_the_last_card(first, second)
        self.play(*self.hand(second))
        return owned

    def before_the_last_card(self, first: int, second: int) -> dict[Player, int]:
        """Play the main phase up to `second`'s last card; `finish` explains the rest.

        first leads a weak single (and is out), everyone passes until it is second's turn, who
        holds one stronger card; the other players hold two cards each.
        """
        low, high = ("wild_1", "clear_14")
        if self.season["revolution"]:
            low, high = high, low
        fillers = iter([("red_1", "red_2"), ("blue_1", "blue_2"), ("green_1", "green_2")])
        hands: dict[int, Iterable[str]] = {first: [low], second: [high]}
        hands.update({p: next(fillers) for p in self.players if p not in (first, second)})
        self.deal(hands)
        self.set_trick(top=None, player=None, kind=None, count=0, rank=0, passed=())
        self.lead(first)
        owned = {p: self.count(p) for p in self.players}
        self.play(low)
        while self.to_move != second:
            self.pass_()
        return owned

    def count(self, p: int) -> int:
        """The cards of a player's team wherever they are now: team, hand, field, lodge.

        The start card is left out (it is never part of a team), and so are the won season cards.
        """
        zones = ("team", "hand", "field", "lodge")
        return sum(n for z in zones for card, n in self.zone(z, p).items() if card != "start")

    def vp(self, p: int) -> int:
        return self.s.pv[p]["vp"]

    def said(self, text: str) -> bool:
        return any(text in line for line in self.s.log)
