"""Building Caravan Conquest situations for the rule tests.

A `Trip` is a game stopped at p1's first move (round 1), then cleared: every cell but the Start (a1) and
the Finish (j8) is grasslands (or the terrain asked for), no treasure chest lies anywhere, every
encounter deck holds its ten cards and no discards. Tests paint cells, move caravans, set resources and
equipment, stack an encounter deck, and then act through the public API (`do`, `travel`) or read a def
of the rule file (`call`). `restart()` begins the turn of the player to move again, so its speed is
worked out from the state the test made.

The grid is 10 x 8: columns a..j left to right, rows 1..8 top to bottom; a1 is the top-left cell.

`GAME` names the rule file every helper loads; the mutation checks point it at a changed copy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import cards_of, move_card, touch

import meeple
from meeple.values import Player

GAME = str(Path(__file__).resolve().parents[2] / "games" / "caravan_conquest.yaml")
DECKS = ("grasslands", "desert", "mountains", "oasis")
START, FINISH = "a1", "j8"
_compiled: dict[tuple[Any, ...], Any] = {}


def load(players: int = 3, **options: Any) -> Any:
    """The rule file of `GAME` for `players`, its defaults changed by `options` (compiled once)."""
    key = (GAME, players, *sorted(options.items()))
    if key not in _compiled:
        _compiled[key] = meeple.load(GAME, players=players, options=options)
    return _compiled[key]


class Trip:
    """A cleared game at p1's first move (see the module docstring)."""

    def __init__(self, game: Any, seed: int = 1, terrain: str = "grasslands") -> None:
        self.game = game
        self.s = game.new_game(seed=seed, log=True)
        for cell in self.s.game.board.collections["cells"]:
            if cell not in (START, FINISH):
                self.s.sites[cell] = {**self.s.sites[cell], "terrain": terrain}
        for pid, rec in list(self.s.pieces.items()):
            if rec["kind"] == "chest":
                self.s.remove(pid)
        for deck in DECKS:
            self.refill(deck)
        self.restart()

    # ------------------------------------------------------------ reading

    @property
    def to_move(self) -> Player | None:
        return self.s.to_move

    def touch(self) -> None:
        touch(self.s)

    def call(self, name: str, **args: Any) -> Any:
        """A def of the rule file evaluated on the state as it is."""
        self.s._memo = None
        return self.game.definition.defs[name](self.s, args)

    def here(self, p: int) -> str:
        return str(self.call("here", p=Player(p)))

    def speed(self, p: int) -> int:
        return int(self.call("speed", p=Player(p)))

    def wealth(self, p: int) -> int:
        return int(self.call("wealth", p=Player(p)))

    def has(self, p: int, resource: str) -> int:
        return int(self.s.pv[p][resource])

    def held(self, p: int) -> dict[str, int]:
        return {r: self.has(p, r) for r in ("gold", "spice", "silk", "treasure")}

    def zone(self, name: str, key: int | str | None = None) -> dict[str, int]:
        """A zone: shared (`market`), a player's (`stable`, 0) or a family member (`spent`, 'desert')."""
        if key is None:
            return self.s.zones[name]
        return self.s.zones[f"{name}#{int(key) if isinstance(key, int) else key}"]

    def stable(self, p: int) -> list[str]:
        return cards_of(self.zone("stable", p))

    def terrain(self, cell: str) -> Any:
        return self.s.sites[cell].get("terrain")

    def chests(self) -> list[str]:
        return sorted(rec["site"] for rec in self.s.pieces.values() if rec["kind"] == "chest")

    def said(self, text: str) -> bool:
        return any(text in line for line in self.s.log)

    def legal(self, name: str | None = None) -> list[str]:
        return [str(a) for a in self.s.legal_actions() if name is None or a.name == name]

    def offered(self, name: str, param: str) -> set[Any]:
        """The values of one parameter over the legal actions of one kind."""
        return {a[param] for a in self.s.legal_actions() if a.name == name}

    # ------------------------------------------------------------ changing the situation

    def paint(self, **cells: str) -> None:
        """Set the terrain of cells: `paint(b1='river', b2='desert')`."""
        for cell, terrain in cells.items():
            self.s.sites[cell] = {**self.s.sites[cell], "terrain": terrain}
        self.touch()

    def put(self, p: int, cell: str) -> None:
        """Move p's caravan to a cell."""
        pid = next(pid for pid, r in self.s.pieces.items() if r["kind"] == "caravan" and r["owner"] == p)
        self.s.move_piece(pid, cell)
        self.touch()

    def chest(self, cell: str) -> None:
        self.s.place("chest", cell, None, {})
        self.touch()

    def hold(self, p: int, **resources: int) -> None:
        """Set some of p's resources: `hold(0, gold=3, silk=0)`."""
        self.s.pv[p].update(resources)
        self.touch()

    def setvar(self, p: int, **fields: Any) -> None:
        """Set player variables of the rule file: `setvar(0, skip=1, bonus=2)`."""
        self.s.pv[p].update(fields)
        self.touch()

    def equip(self, p: int, *cards: str) -> None:
        """Give p exactly these animals and wagon; the old ones go back to the market."""
        stable, market = self.zone("stable", p), self.zone("market")
        for card in cards_of(stable):
            move_card(stable, market, card)
        for card in cards:
            move_card(market, stable, card)
        self.touch()

    def stack(self, deck: str, *cards: str) -> None:
        """Leave only these cards in an encounter deck (the rest to its discards), so a draw takes them."""
        pile, spent = self.zone("encounters", deck), self.zone("spent", deck)
        for card in cards_of(pile):
            if card not in cards:
                move_card(pile, spent, card)
        for card in cards:
            if not pile.get(card):
                move_card(spent, pile, card)
        self.touch()

    def refill(self, deck: str) -> None:
        """Every card of a deck back in it, no discards."""
        pile, spent = self.zone("encounters", deck), self.zone("spent", deck)
        for card in cards_of(spent):
            move_card(spent, pile, card)
        self.touch()

    def restart(self) -> None:
        """Begin the current player's turn again: its start cell and speed come from the state as it is."""
        me = self.s.to_move
        assert me is not None
        self.s.tv = dict(self.s.game.sym.turn_vars)
        self.s.game.sym.routines["set_off"](self.s, {"me": me})
        self.touch()

    # ------------------------------------------------------------ acting

    def do(self, text: str) -> None:
        self.s.apply(text)

    def travel(self, dest: str) -> None:
        self.s.apply(f"travel(dest={dest})")

    def end_turn(self) -> None:
        """Answer any decision left with its first legal action, until the turn ends."""
        me = self.s.to_move
        while self.s.to_move == me and not self.s.is_over:
            legal = self.legal("end_turn")
            self.s.apply(legal[0] if legal else self.s.legal_actions()[0])
