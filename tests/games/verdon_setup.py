"""Building Climbers of Verdon situations for the rule tests.

A `Table` is a 4-player game whose snake set-up has been played and whose board has then been
cleared: no pieces, no resources, empty hands, the access token on the grass tile and p1 choosing
in the first turn of the main phase.  Tests put pieces, resources and cards where the rule they
check needs them, script the dice, act through the public API and read the outcome.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

from meeple.values import Action, Bundle, Player

GAME = "climbers_of_verdon"
RESOURCES = ("rope", "nut", "bolt", "crashpad", "chalk")
SETUP_ACTIONS = ("place_start", "start_resource")


class ScriptedRng:
    """Stands in for the state's random.Random: `randint` returns the scripted values first."""

    def __init__(self, values: Iterable[int], real: random.Random) -> None:
        self.values = list(values)
        self.real = real

    def randint(self, a: int, b: int) -> int:
        if not self.values:
            return self.real.randint(a, b)
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted die {value} is outside {a}..{b}"
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def play_setup(s: Any, choose: Any = None) -> list[Player]:
    """Play the set-up phase; `choose(s, legal)` picks each place_start (default: the first legal one).

    Returns the players in the order they placed their start projects.
    """
    order = []
    while not s.is_over:
        legal = s.legal_actions()
        if not legal or legal[0].name not in SETUP_ACTIONS:
            break
        if legal[0].name == "place_start":
            order.append(s.to_move)
            s.apply(choose(s, legal) if choose is not None else legal[0])
        else:
            s.apply(legal[0])
    return order


def matches(action: Action, name: str, params: dict[str, Any]) -> bool:
    if action.name != name:
        return False
    if not action.partial and set(params) != {k for k, _ in action.params}:
        return False
    return all(k in params and params[k] == v for k, v in action.params)


class Table:
    """A cleared 4-player game in the main phase (see the module docstring)."""

    def __init__(self, game: Any, seed: int = 7) -> None:
        self.game = game
        self.board = game.definition.board
        self.s = game.new_game(seed=seed, log=True)
        self.setup_order = play_setup(self.s)
        self.fixed: set[str] = set()
        self.clear()

    # ------------------------------------------------------------ the situation

    def touch(self) -> None:
        """Tell the state that a test changed it behind the engine's back.

        Drops the cached legal actions and, when the engine keeps change counters for its caches
        (`ver`, one per state part), bumps them all so nothing is reused from before the change.
        """
        s = self.s
        s.forget()  # what the state worked out from itself (a player's resources as a bundle)
        ver = getattr(s, "ver", None)
        if isinstance(ver, dict):
            for part in ver:
                ver[part] += 1

    def clear(self) -> None:
        s = self.s
        for pid in list(s.pieces):
            s.remove(pid)
        for p in s.players:
            s.pv[p].update({r: 0 for r in RESOURCES}, repeat_vp=0)
        s.gv["token"] = self.grass
        self.touch()

    @property
    def players(self) -> list[Player]:
        return list(self.s.players)

    @property
    def tiles(self) -> tuple[str, ...]:
        return self.board.collections["tiles"]

    @property
    def grass(self) -> str:
        return next(t for t in self.tiles if self.s.sites[t]["terrain"] == "grass")

    def terrain(self, tile: str) -> str:
        return self.s.sites[tile]["terrain"]

    def number(self, tile: str) -> int | None:
        return self.s.sites[tile].get("number")

    def set_tile(self, tile: str, terrain: str) -> None:
        """Give `tile` the terrain by swapping it (with its number) with a tile not yet set by the test."""
        s = self.s
        token_on_grass = s.gv["token"] == self.grass
        if self.terrain(tile) != terrain:
            other = next(
                u for u in self.tiles if u != tile and u not in self.fixed and self.terrain(u) == terrain
            )
            s.sites[tile], s.sites[other] = s.sites[other], s.sites[tile]
        self.fixed.add(tile)
        if token_on_grass:
            s.gv["token"] = self.grass
        self.touch()

    def only_number(self, tile: str, n: int) -> None:
        """Put number n on `tile` and on no other tile (the others holding n get another number)."""
        s = self.s
        other_number = 12 if n != 12 else 2
        for u in self.tiles:
            if u != tile and self.number(u) == n:
                s.sites[u] = {**s.sites[u], "number": other_number}
        s.sites[tile] = {**s.sites[tile], "number": n}
        self.touch()

    def put(self, kind: str, site: str, owner: int, home: str | None = None) -> int:
        fields = {"home": home} if home is not None else {}
        ref = self.s.place(kind, site, Player(owner), fields)
        self.touch()
        return int(ref)

    def hold(self, p: int, **res: int) -> None:
        """Set a player's resources to exactly these amounts (the others to 0)."""
        self.s.pv[p].update({r: 0 for r in RESOURCES}, **res)
        self.touch()

    def resources(self, p: int) -> dict[str, int]:
        return {r: self.s.pv[p][r] for r in RESOURCES}

    def total(self, p: int) -> int:
        return sum(self.resources(p).values())

    def set_token(self, tile: str) -> None:
        self.s.gv["token"] = tile
        self.touch()

    @property
    def token(self) -> str:
        return self.s.gv["token"]

    def hand(self, p: int) -> dict[str, int]:
        return self.s.zones[f"hand#{int(p)}"]

    def new_cards(self, p: int) -> dict[str, int]:
        """Cards bought this turn: private, unplayable until the turn ends and they join the hand."""
        return self.s.zones[f"new_cards#{int(p)}"]

    def played(self, p: int) -> dict[str, int]:
        return self.s.zones[f"played#{int(p)}"]

    @property
    def deck(self) -> dict[str, int]:
        return self.s.zones["publicity_deck"]

    def give_card(self, p: int, card: str, n: int = 1) -> None:
        """Move n copies of a card from the deck into a player's hand (as if bought on an earlier turn)."""
        deck, hand = self.deck, self.hand(p)
        assert deck.get(card, 0) >= n, f"the deck has no {n} {card}"
        deck[card] -= n
        if not deck[card]:
            del deck[card]
        hand[card] = hand.get(card, 0) + n
        self.touch()

    def set_deck(self, cards: dict[str, int]) -> None:
        """Replace the publicity deck (the cards left out are simply gone)."""
        self.s.zones["publicity_deck"] = dict(cards)
        self.touch()

    def set_repeat_vp(self, p: int, n: int) -> None:
        self.s.pv[p]["repeat_vp"] = n
        self.touch()

    def set_supply(self, p: int, kind: str, n: int) -> None:
        self.s.supply[p][kind] = n
        self.touch()

    def set_number(self, tile: str, n: int | None) -> None:
        self.s.sites[tile] = {**self.s.sites[tile], "number": n}
        self.touch()

    def dice(self, *values: int) -> None:
        """The next die faces rolled (each `randint`), in order; later rolls are random again."""
        real = self.s.rng.real if isinstance(self.s.rng, ScriptedRng) else self.s.rng
        self.s.rng = ScriptedRng(values, real)

    # ------------------------------------------------------------ acting and reading

    def legal(self, name: str | None = None) -> list[str]:
        return [str(a) for a in self.s.legal_actions() if name is None or a.name == name]

    def legal_actions(self, name: str) -> list[Action]:
        return [a for a in self.s.legal_actions() if a.name == name]

    def can(self, name: str, **params: Any) -> bool:
        params = {k: Bundle(v) if isinstance(v, dict) else v for k, v in params.items()}
        return any(matches(a, name, params) for a in self.s.legal_actions())

    def do(self, name: str, **params: Any) -> None:
        """Apply an action given by its name and parameter values, stepping through stepwise actions."""
        params = {k: Bundle(v) if isinstance(v, dict) else v for k, v in params.items()}
        while True:
            legal = self.s.legal_actions()
            found = [a for a in legal if matches(a, name, params)]
            assert len(found) == 1, f"{name}{params}: {len(found)} matching actions; legal: {legal[:20]}"
            self.s.apply(found[0])
            if not found[0].partial:
                return

    def step(self, name: str, **params: Any) -> None:
        """Apply the one legal action (or stepwise part of one) with exactly these parameters."""
        params = {k: Bundle(v) if isinstance(v, dict) else v for k, v in params.items()}
        legal = self.s.legal_actions()
        found = [a for a in legal if a.name == name and dict(a.params) == params]
        assert len(found) == 1, f"{name}{params}: {len(found)} matching actions; legal: {legal[:20]}"
        self.s.apply(found[0])

    def end_turn(self, *dice: int) -> None:
        """End the current turn; the next turn's income roll uses these die faces."""
        if dice:
            self.dice(*dice)
        self.s.apply("end_turn")

    def piece(self, pid: int) -> dict[str, Any]:
        return self.s.pieces[pid]

    def at(self, site: str) -> list[tuple[str, Player]]:
        return [(self.s.pieces[i]["kind"], self.s.pieces[i]["owner"]) for i in self.s.at.get(site, ())]

    def pieces(self, kind: str, owner: int | None = None) -> list[int]:
        return [
            pid
            for pid, rec in self.s.pieces.items()
            if rec["kind"] == kind and (owner is None or rec["owner"] == owner)
        ]

    def score(self, p: int) -> int:
        return self.s.scores[Player(p)]

    # ------------------------------------------------------------ geometry

    def side(self, a: str, b: str) -> str:
        return self.board.side_between[frozenset((a, b))]

    def inner_corners(self) -> list[str]:
        """Corners where three tiles meet and whose neighbours are such corners too."""
        b = self.board
        return [
            c
            for c in b.collections["corners"]
            if len(b.tiles_of[c]) == 3 and all(len(b.tiles_of[n]) == 3 for n in b.neighbours[c])
        ]

    def chain(self, n_sides: int, start: str, avoid: Iterable[str] = ()) -> list[str]:
        """A simple path of n_sides+1 corners from `start` (no corner twice, none in `avoid`)."""
        b, banned = self.board, set(avoid)

        def walk(path: list[str]) -> Iterator[list[str]]:
            if len(path) == n_sides + 1:
                yield path
                return
            for n in b.neighbours[path[-1]]:
                if n not in path and n not in banned:
                    yield from walk([*path, n])

        return next(walk([start]))

    def sides_along(self, corners: list[str]) -> list[str]:
        return [self.side(a, b) for a, b in zip(corners, corners[1:])]
