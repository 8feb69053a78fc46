"""What every adapter needs of a rule file: a compiled game shared per settings, a bounded action index,
the generic observation encoding, and the returns of a finished game."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from meeple.api import Game, load
from meeple.runtime.simultaneous import tentative
from meeple.runtime.state import State, encode
from meeple.runtime.view import HIDDEN
from meeple.values import Action, Player

CALIBRATION_PLAYOUTS = 2  # seeded random games whose offered actions take the first action ids
MIN_ACTIONS = 16


class ActionSpaceFull(ValueError):
    """More distinct actions came up than the declared bound allows."""


class ActionIndex:
    """Distinct actions <-> integers 0 .. size - 1, for interfaces that need a fixed action count.

    An action is known by its printed form (`play(cell=b2)`, the form replays use). Ids are handed out in
    the order actions are first offered: first along a few seeded random games (so the common actions get
    the same ids in every process), then lazily as play meets new ones. `size` is the declared bound; an
    action past it raises ActionSpaceFull, saying which setting to raise.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._ids: dict[str, int] = {}
        self._names: list[str] = []

    def __len__(self) -> int:
        return len(self._names)

    def id_of(self, action: Action) -> int:
        key = str(action)
        found = self._ids.get(key)
        if found is not None:
            return found
        if len(self._names) >= self.size:
            raise ActionSpaceFull(
                f"more than {self.size} distinct actions met (the next one: {key}); "
                "load the game with a higher num_distinct_actions"
            )
        self._ids[key] = len(self._names)
        self._names.append(key)
        return self._ids[key]

    def name_of(self, action_id: int) -> str:
        return self._names[action_id]

    def ids(self, actions: Iterable[Action]) -> dict[int, Action]:
        """Each legal action by its id."""
        return {self.id_of(a): a for a in actions}


def fingerprint(s: State) -> str:
    """The state as text without its random generator: equal for states that play on alike."""
    data = s.snapshot()
    data.pop("rng", None)
    return json.dumps(encode(data), sort_keys=True, separators=(",", ":"))


def outcome_key(s: State) -> str:
    """A quick text of everything a state plays on with, for telling chance outcomes apart: equal for
    states reached alike from one state (their dicts fill in the same order)."""
    return repr(
        (s.gv, s.pv, s.tv, s.sv, s.zones, s.pieces, s.sites, s.supply, s.awards, s.stack)
        + (s.turn_player, s.turn_no, s.next_id, s.over, s.winners)
    )


def draws(s: State, action: Action) -> tuple[State, bool]:
    """The state after `action` (on a copy), and whether applying it drew from the random generator."""
    after = s.clone()
    before = after.rng.getstate()
    after.apply(action)
    return after, after.rng.getstate() != before


@dataclass
class Calibration:
    """What a few seeded random games showed: the actions offered, in order, and whether chance came up."""

    offered: list[Action] = field(default_factory=list)
    random: bool = False  # a set-up or an action drew from the random generator
    random_start: bool = False  # the set-up did: different seeds start differently


def calibrate(game: Game, playouts: int, max_steps: int) -> Calibration:
    found = Calibration()
    seen: set[str] = set()
    first = [fingerprint(game.new_game(seed=k)) for k in range(2)]
    found.random = found.random_start = first[0] != first[1]
    for seed in range(playouts):
        s = game.new_game(seed=seed)
        pick = random.Random(seed)
        for _ in range(max_steps):
            legal = s.legal_actions()
            if s.is_over or not legal:
                break
            for a in legal:
                if str(a) not in seen:
                    seen.add(str(a))
                    found.offered.append(a)
            s, drew = draws(s, legal[pick.randrange(len(legal))])
            found.random = found.random or drew
    return found


def returns(s: State) -> list[float]:
    """A finished game's outcome per seat, zero-sum: n/(n-1) * (won share - 1/n), where the winners share
    1 equally. An outright winner gets 1 and each other seat -1/(n-1); a tie of all seats, no winner, or a
    game cut short gives 0 to everyone. Alone at the table: 1 for a win, else 0."""
    n = len(s.players)
    winners = set(s.winners or ()) if s.over else set()
    if not winners:
        return [0.0] * n
    if n == 1:
        return [1.0]
    share = 1.0 / len(winners)
    scale = n / (n - 1)
    return [scale * ((share if p in winners else 0.0) - 1.0 / n) for p in range(n)]


def utility_range(n: int) -> tuple[float, float]:
    return (0.0, 1.0) if n == 1 else (-1.0 / (n - 1), 1.0)


# ---------------------------------------------------------------- the observation encoding


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, Player)


class Encoder:
    """A player's observation as a fixed-size vector and as text, derived from the rule file only.

    From the player's view (`state.view(p)`: others' private cards reduced to their counts; in a
    `simultaneous` step, with the player's own secret choices applied as it expects them and nobody
    else's), seats in turn from the observing player: who moves; the game's, turn's and scopes' number
    variables; per seat, its resources and number variables; per zone, its size and its count of each card;
    per board site, the number of pieces of each kind and owner (each seat, or none); per award, who holds
    it.
    """

    def __init__(self, game: Game) -> None:
        d = game.definition
        sym = d.sym
        self.n = d.players
        self.game_vars = [k for k, v in sym.game_vars.items() if _is_number(v)]
        self.turn_vars = [k for k, v in sym.turn_vars.items() if _is_number(v)]
        self.scope_vars = [
            (name, k) for name, spec in sym.scopes.items() for k, v in spec.items() if _is_number(v)
        ]
        self.resources = list(sym.resources)
        self.player_vars = [k for k, v in sym.player_vars.items() if _is_number(v)]
        cards = [
            name for name, spec in sym.definitions.items() if isinstance(spec, dict) and "family" in spec
        ]
        for zone in d.zones:
            for fill in (zone.fill, *zone.fills.values()):
                cards += [c for c, _ in fill if c not in cards]
        self.cards = list(dict.fromkeys(cards))
        self.card_at = {c: i for i, c in enumerate(self.cards)}
        self.zones = [(zone, zone.key_names(self.n)) for zone in d.zones]
        self.sites = list(d.board.kind_of)
        self.site_at = {site: i for i, site in enumerate(self.sites)}
        self.kinds = sorted(sym.piece_kinds)
        self.kind_at = {k: i for i, k in enumerate(self.kinds)}
        self.awards = [a.name for a in d.awards]
        zone_width = 1 + len(self.cards)
        self.parts = [
            ("to_move", self.n + 1),
            ("turn", 1 + len(self.game_vars) + len(self.turn_vars) + len(self.scope_vars)),
            ("seats", self.n * (len(self.resources) + len(self.player_vars))),
            ("zones", sum(len(keys) for _, keys in self.zones) * zone_width),
            ("pieces", len(self.sites) * len(self.kinds) * (self.n + 1)),
            ("awards", len(self.awards) * (self.n + 1)),
        ]
        self.size = sum(width for _, width in self.parts)

    def seat(self, p: int, me: int) -> int:
        """A seat's place counted from the observing player (0: the observer)."""
        return (p - me) % self.n

    def zone_order(self, keys: list[str], per_player: bool, me: int) -> list[str]:
        if not per_player:
            return keys
        return [keys[(me + i) % self.n] for i in range(self.n)]

    def tensor(self, s: State, me: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of player `me` (the state is seen through `s.view(me)` first)."""
        seen = s.view(me)
        v = tentative(seen, me)
        x = np.zeros(self.size, np.float32) if out is None else out
        x.fill(0.0)
        i = 0
        mover = seen.to_move
        x[i + (self.n if mover is None else self.seat(mover, me))] = 1.0
        i += self.n + 1
        x[i] = v.turn_no
        i += 1
        for k in self.game_vars:
            x[i] = _number(v.gv.get(k))
            i += 1
        for k in self.turn_vars:
            x[i] = _number(v.tv.get(k))
            i += 1
        for name, k in self.scope_vars:
            x[i] = _number(v.sv.get(name, {}).get(k))
            i += 1
        for q in range(self.n):
            row = v.pv[(me + q) % self.n]
            for k in self.resources:
                x[i] = _number(row.get(k))
                i += 1
            for k in self.player_vars:
                x[i] = _number(row.get(k))
                i += 1
        for zone, keys in self.zones:
            for key in self.zone_order(keys, zone.per_player, me):
                cards = v.zones.get(key, {})
                x[i] = sum(cards.values())
                for card, count in cards.items():
                    at = self.card_at.get(card)
                    if at is not None:
                        x[i + 1 + at] += count
                i += 1 + len(self.cards)
        owners = self.n + 1
        for rec in v.pieces.values():
            site, kind = self.site_at.get(rec.get("site")), self.kind_at.get(rec.get("kind"))
            if site is None or kind is None:
                continue
            owner = rec.get("owner")
            o = self.n if owner is None else self.seat(owner, me)
            x[i + (site * len(self.kinds) + kind) * owners + o] += 1.0
        i += len(self.sites) * len(self.kinds) * owners
        for name in self.awards:
            holder = v.awards.get(name)
            x[i + (self.n if holder is None else self.seat(holder, me))] = 1.0
            i += owners
        return x

    def text(self, s: State, me: int | None) -> str:
        """The state as `me` sees it (everything, for None), as a few readable lines."""
        seen = s if me is None else s.view(me)
        v = seen if me is None else tentative(seen, me)
        head = "over" if v.is_over else f"{seen.to_move} to move"
        lines = [f"turn {v.turn_no}, {head}" + (f" (seen by {Player(me)})" if me is not None else "")]
        shown = [f"{k}={_show(v.gv.get(k))}" for k in self.game_vars]
        shown += [f"{k}={_show(v.tv.get(k))}" for k in self.turn_vars]
        shown += [f"{name}.{k}={_show(v.sv.get(name, {}).get(k))}" for name, k in self.scope_vars]
        if shown:
            lines.append("  " + " ".join(shown))
        for p in range(self.n):
            row = v.pv[p]
            fields = [f"{k}={_show(row.get(k))}" for k in (*self.resources, *self.player_vars)]
            if fields:
                lines.append(f"  {Player(p)}: " + " ".join(fields))
        for _, keys in self.zones:
            for key in keys:
                cards = v.zones.get(key, {})
                if cards:
                    inside = ", ".join(f"{n} {c}" if c != HIDDEN else f"{n} hidden" for c, n in cards.items())
                    lines.append(f"  {key}: {inside}")
        on_board: dict[str, list[str]] = {}
        for pid in sorted(v.pieces):
            rec = v.pieces[pid]
            owner = rec.get("owner")
            on_board.setdefault(str(rec.get("site")), []).append(
                f"{rec.get('kind')}" + (f"({owner})" if owner is not None else "")
            )
        for site in sorted(on_board, key=lambda x: self.site_at.get(x, len(self.sites))):
            lines.append(f"  {site}: " + " ".join(on_board[site]))
        held = [f"{name}={v.awards.get(name)}" for name in self.awards]
        if held:
            lines.append("  awards: " + " ".join(held))
        return "\n".join(lines)


def _number(v: Any) -> float:
    return float(v) if _is_number(v) else 0.0


def _show(v: Any) -> str:
    return str(int(v)) if isinstance(v, bool) else str(v)


# ---------------------------------------------------------------- games shared per settings


@dataclass
class Setup:
    """A compiled game with its action index and encoder, shared by every adapter object of one setting
    (so a game loaded again, as OpenSpiel does when it deserializes, numbers actions the same way)."""

    game: Game
    index: ActionIndex
    encoder: Encoder
    random: bool
    random_start: bool
    max_game_length: int
    key: tuple[Any, ...] = ()  # setup(*key) gives this setup again, in this process or another


_SETUPS: dict[tuple[Any, ...], Setup] = {}


def setup(
    source: str,
    players: int | None,
    options: dict[str, Any] | None = None,
    num_distinct_actions: int = 0,
    max_game_length: int = 10_000,
) -> Setup:
    """The shared setup of a rule file (a path, or a seed game's name) for these settings.

    `num_distinct_actions` 0 means: twice what the calibration games offered, at least MIN_ACTIONS, rounded
    up to a power of two.
    """
    key = (source, players, dict(sorted((options or {}).items())), num_distinct_actions, max_game_length)
    cache_key = (source, players, tuple(key[2].items()), num_distinct_actions, max_game_length)
    found = _SETUPS.get(cache_key)
    if found is not None:
        return found
    game = load(source, players=players, options=options)
    seen = calibrate(game, CALIBRATION_PLAYOUTS, max_game_length)
    size = num_distinct_actions or max(MIN_ACTIONS, 1 << (2 * len(seen.offered) - 1).bit_length())
    index = ActionIndex(size)
    for action in seen.offered[:size]:
        index.id_of(action)
    made = Setup(game, index, Encoder(game), seen.random, seen.random_start, max_game_length, key)
    _SETUPS[cache_key] = made
    return made
