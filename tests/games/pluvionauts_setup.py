"""Building Pluvionauts situations for the rule tests.

A `Sky` is a game with plain throws (no miss, no landing between cells, no knocked weather die) stopped
where p1 has thrown the balloon and must drive, then cleared: every cell is sky, no weather die and no
building on the board, the full pool, nothing held, no support, all twelve requests back in the deck.
Tests put islands, dice, buildings and cards where the rule they check needs them, act through the
public API (or read a def of the rule file) and check the outcome. A `Sky` of a game loaded with other
throw options (a miss, a landing between cells) is cleared the same way wherever p1's first turn stands.

`GAME` names the rule file every helper loads; the mutation checks point it at a changed copy.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from harness import touch

import meeple
from meeple.compile import builtins
from meeple.values import Action, Bundle, Player

GAME = "pluvionauts"
PLAIN = {"miss_percent": 0, "between_percent": 0, "knock_sixths": 0}
POOL = {"walls": 6, "lighthouses": 3, "water_towers": 3}
BUILDING = {"walls": "wall", "lighthouses": "lighthouse", "water_towers": "water_tower"}
CARDS = (
    "rain_on_plains",
    "rain_on_forests",
    "rain_on_mountains",
    "thunder_on_plains",
    "thunder_on_forests",
    "thunder_on_mountains",
    "big_plain",
    "big_forest",
    "big_mountain",
    "plain_regions",
    "forest_regions",
    "mountain_regions",
)
METRIC = "travel"


def load(players: int = 3, **options: int) -> Any:
    """The rule file of `GAME` compiled with plain throws, changed by `options`."""
    return meeple.load(GAME, players=players, options={**PLAIN, **options})


class ScriptedRng:
    """Stands in for the state's random.Random: each scripted method returns its scripted values first.

    `randrange` draws decide `chance(...)`, `randint` draws are die rolls and `choice` draws are `pick(...)`;
    once a method's script is used up it draws from the real generator again.
    """

    def __init__(self, real: random.Random, **script: Iterable[Any]) -> None:
        self.real = real
        self.script = {name: list(values) for name, values in script.items()}

    def _next(self, name: str) -> Any:
        values = self.script.get(name)
        return values.pop(0) if values else None

    def randrange(self, *args: int) -> int:
        value = self._next("randrange")
        return self.real.randrange(*args) if value is None else value

    def randint(self, a: int, b: int) -> int:
        value = self._next("randint")
        if value is None:
            return self.real.randint(a, b)
        assert a <= value <= b, f"scripted die {value} is outside {a}..{b}"
        return value

    def choice(self, items: Any) -> Any:
        value = self._next("choice")
        if value is None:
            return self.real.choice(items)
        assert value in items, f"scripted pick {value} is not among {items}"
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def hex_distance(board: Any, a: str, b: str) -> int:
    """Steps between two cells on the bare hex grid (axial coordinates), whatever their terrain."""
    (q1, r1), (q2, r2) = board.topology.tile_coords[a], board.topology.tile_coords[b]
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


class Sky:
    """A cleared game at p1's drive decision (see the module docstring)."""

    def __init__(self, game: Any, seed: int = 1) -> None:
        self.game = game
        self.board = game.definition.board
        self.s = game.new_game(seed=seed, log=True)
        self.clear()

    # ------------------------------------------------------------ the situation

    def touch(self) -> None:
        touch(self.s)

    def own_sites(self) -> None:
        """Give the state its own copy of the cells (clones share them copy-on-write)."""
        s = self.s
        s.sites = {k: dict(v) for k, v in s.sites.items()}
        s._sites_shared = False

    def clear(self) -> None:
        s = self.s
        self.own_sites()
        for t in self.tiles:
            s.sites[t]["terrain"] = "sky"
        for pid in [pid for pid, rec in s.pieces.items() if rec["kind"] != "balloon"]:
            s.remove(pid)
        s.gv.update(pool=Bundle(POOL), closer=None)
        for p in s.players:
            s.pv[p].update({r: 0 for r in POOL}, support=0)
        s.zones["request_deck"] = dict.fromkeys(CARDS, 1)
        for p in s.players:
            s.zones[f"requests#{int(p)}"] = {}
            s.zones[f"validated#{int(p)}"] = {}
        self.touch()

    @property
    def tiles(self) -> tuple[str, ...]:
        return self.board.collections["tiles"]

    def terrain(self, tile: str) -> str:
        return self.s.sites[tile]["terrain"]

    def terrains(self) -> dict[str, str]:
        return {t: self.terrain(t) for t in self.tiles}

    def islands(self, terrain: str, *tiles: str) -> None:
        """Make these cells islands of `terrain` (or sky again with terrain 'sky')."""
        self.own_sites()
        for t in tiles:
            self.s.sites[t]["terrain"] = terrain
        self.touch()

    def side(self, a: str, b: str) -> str:
        """The building slot between two neighbouring cells."""
        (side,) = set(self.board.sides_of[a]) & set(self.board.sides_of[b])
        return str(side)

    def neighbours(self, tile: str) -> tuple[str, ...]:
        return tuple(self.board.neighbours[tile])

    @property
    def balloon_id(self) -> int:
        return next(pid for pid, rec in self.s.pieces.items() if rec["kind"] == "balloon")

    @property
    def balloon(self) -> dict[str, Any]:
        return self.s.pieces[self.balloon_id]

    def put_balloon(self, tile: str, fuel: int) -> None:
        pid = self.balloon_id
        self.s.move_piece(pid, tile)
        self.s.pieces[pid] = {**self.s.pieces[pid], "fuel": fuel}
        self.touch()

    def put_die(self, tile: str, value: int) -> int:
        """A weather die on `tile` showing `value`; returns its id."""
        pid = int(self.s.place("weather_die", tile, None, {"value": value}))
        self.touch()
        return pid

    def die_value(self, pid: int) -> int:
        return int(self.s.pieces[pid]["value"])

    def dice(self) -> list[tuple[str, int]]:
        """The weather dice as (cell, value), in id order."""
        return [(rec["site"], rec["value"]) for rec in self.pieces("weather_die")]

    def build(self, kind: str, a: str, b: str) -> str:
        """A building of `kind` (walls, lighthouses, water_towers) between cells a and b, from the pool."""
        side = self.side(a, b)
        self.s.place(BUILDING[kind], side, None, {})
        self.s.gv["pool"] = self.s.gv["pool"] - Bundle({kind: 1})
        self.touch()
        return side

    def buildings_at(self, side: str) -> list[str]:
        return [self.s.pieces[pid]["kind"] for pid in self.s.at.get(side, ())]

    def pieces(self, kind: str) -> list[dict[str, Any]]:
        return [rec for _, rec in sorted(self.s.pieces.items()) if rec["kind"] == kind]

    @property
    def pool(self) -> dict[str, int]:
        """The buildings left in the pool (kinds with none left are not listed)."""
        return {k: n for k, n in self.s.gv["pool"].items() if n}

    def hold(self, p: int, **buildings: int) -> None:
        """Set the buildings a player holds to exactly these (the others to 0)."""
        self.s.pv[p].update({r: 0 for r in POOL}, **buildings)
        self.touch()

    def held(self, p: int) -> dict[str, int]:
        return {r: self.s.pv[p][r] for r in POOL}

    def set_support(self, p: int, n: int) -> None:
        self.s.pv[p]["support"] = n
        self.touch()

    def support(self, p: int) -> int:
        return int(self.s.pv[p]["support"])

    # ------------------------------------------------------------ requests

    def requests(self, p: int) -> dict[str, int]:
        return self.s.zones[f"requests#{int(p)}"]

    def validated(self, p: int) -> dict[str, int]:
        return self.s.zones[f"validated#{int(p)}"]

    @property
    def deck(self) -> dict[str, int]:
        return self.s.zones["request_deck"]

    def give(self, p: int, *cards: str, zone: str = "requests") -> None:
        """Move cards to a player's requests (or, with zone='validated', validated pile).

        Each card is taken from the deck or, when a player drew it, from that player's requests, so every
        card stays in exactly one zone.
        """
        for card in cards:
            sources = ["request_deck", *(f"requests#{int(q)}" for q in self.s.players)]
            source = next((self.s.zones[z] for z in sources if self.s.zones[z].get(card)), None)
            assert source is not None, f"{card} is neither in the deck nor in anyone's requests"
            source[card] -= 1
            if not source[card]:
                del source[card]
            target = self.s.zones[f"{zone}#{int(p)}"]
            target[card] = target.get(card, 0) + 1
        self.touch()

    # ------------------------------------------------------------ reading the rules

    def call(self, name: str, **args: Any) -> Any:
        """A def of the rule file evaluated on the state as it is."""
        self.s._memo = None
        return self.game.definition.defs[name](self.s, args)

    def rain(self, tile: str) -> bool:
        return bool(self.call("rain", t=tile))

    def thunder(self, tile: str) -> bool:
        return bool(self.call("thunder", t=tile))

    def weather(self, tile: str) -> str:
        """'thunder', 'rain' (without thunder), 'dry', or 'rain and thunder' (which no cell should have)."""
        names = {(False, False): "dry", (True, False): "rain", (False, True): "thunder"}
        return names.get((self.rain(tile), self.thunder(tile)), "rain and thunder")

    def met(self, card: str) -> bool:
        return bool(self.call("met", c=card))

    def distance(self, a: str, b: str) -> int | None:
        self.s._memo = None
        return builtins.distance(self.s, a, b, METRIC)

    def within(self, a: str, r: int) -> set[str]:
        self.s._memo = None
        return set(builtins.within(self.s, a, r, METRIC))

    def hex_ring(self, tile: str, lo: int, hi: int) -> set[str]:
        """Cells lo..hi steps from `tile` on the bare grid."""
        return {t for t in self.tiles if lo <= hex_distance(self.board, tile, t) <= hi}

    def score(self, p: int) -> int:
        return self.s.scores[Player(p)]

    # ------------------------------------------------------------ acting

    @property
    def to_move(self) -> Player | None:
        return self.s.to_move

    def legal(self, name: str | None = None) -> list[str]:
        return [str(a) for a in self.s.legal_actions() if name is None or a.name == name]

    def offered(self, name: str, param: str) -> set[Any]:
        """The values of one parameter over the legal actions of one kind."""
        return {dict(a.params)[param] for a in self.s.legal_actions() if a.name == name}

    def do(self, text: str) -> None:
        self.s.apply(text)

    def script(self, **draws: Iterable[Any]) -> None:
        """The next draws of the state's RNG, per method (see ScriptedRng)."""
        real = self.s.rng.real if isinstance(self.s.rng, ScriptedRng) else self.s.rng
        self.s.rng = ScriptedRng(real, **draws)

    def drive_in_place(self, tile: str, fuel: int = 1) -> None:
        """Put the balloon on `tile` with `fuel` and drive it nowhere (distance 0)."""
        self.put_balloon(tile, fuel)
        self.do(f"drive(cell={tile})")

    def to_action_step(self, tile: str) -> None:
        """Bring p1's turn to its optional action with the balloon on the sky cell `tile` (no tow)."""
        assert self.terrain(tile) == "sky", f"{tile} is an island: the balloon would tow it"
        self.drive_in_place(tile)
        assert "skip" in self.legal(), f"not at the optional action: {self.legal()}"

    def quiet_choice(self, legal: list[Action]) -> Action:
        """The least eventful move: land anywhere, drive to a sky cell, tow anywhere, skip the option."""
        names = {a.name for a in legal}
        if "skip" in names:
            return next(a for a in legal if a.name == "skip")
        if "drive" in names:
            here = self.balloon["site"]
            drives = [a for a in legal if a.name == "drive"]
            sky = [a for a in drives if self.terrain(dict(a.params)["cell"]) == "sky"]
            stay = [a for a in sky if dict(a.params)["cell"] == here]
            return (stay or sky or drives)[0]
        return legal[0]

    def finish_turn(self) -> None:
        """Play out the current player's turn quietly (see quiet_choice)."""
        mover = self.s.to_move
        while not self.s.is_over and self.s.to_move == mover:
            self.s.apply(self.quiet_choice(self.s.legal_actions()))
