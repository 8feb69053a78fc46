"""A game in progress: plain data, cheap to clone, saved to and loaded from JSON."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from types import FunctionType
from typing import Any

from meeple.compile.ir import GameDef
from meeple.runtime import engine
from meeple.runtime.effects import Effects
from meeple.values import Action, Bundle, PieceRef, Player

FORMAT = 2


def _apply_compiled(state: State, action: Action | str) -> State:
    return engine.apply(state, action)  # type: ignore[no-any-return]


class State(Effects):
    """The changing part of a game. Decide with `legal_actions()` and `apply()`."""

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self.players = [Player(i) for i in range(game.players)]
        self.options = game.options
        self.gv: dict[str, Any] = {}
        self.pv: list[dict[str, Any]] = []
        self.tv: dict[str, Any] = {}
        self.sv: dict[str, dict[str, Any]] = {}  # named scopes: season, trick…
        self.zones: dict[str, dict[str, int]] = {}
        self.pieces: dict[int, dict[str, Any]] = {}
        self.at: dict[str, tuple[int, ...]] = {}
        self.sites: dict[str, dict[str, Any]] = {}
        self.supply: list[dict[str, int]] = []
        self.awards: dict[str, Player | None] = {}
        self.stack: list[dict[str, Any]] = []
        self.turn_player: Player | None = None
        self.turn_no = 0
        self.next_id = 0
        self.over = False
        self.winners: list[Player] | None = None
        self._rng: random.Random | None = None  # made from _seed on first use (see `rng`)
        self._seed: int = 0
        # change counters of each part (GameDef.counters), for recomputing only what changed
        self.ver = dict.fromkeys(game.counters, 0)
        self._zone_parts = game.zone_parts  # the counter of each player's zone, if any (Effects.move_card)
        # The counters at which each award was last computed, and (WIN, p) -> at which p's win last failed.
        self.seen: dict[Any, tuple[int, ...]] = {}
        self.pending: list[dict[str, Any]] = []
        self.ending_turn = False
        self.log: list[str] | None = None
        self._legal: list[Action] | None = None
        self._memo: dict[Any, Any] | None = None  # def results, valid while the state cannot change
        # Results of defs kept across decisions: def name -> {arguments: result}, each group of defs
        # valid while the change counters of the parts they read stay as stamped.
        self._kept: dict[str, dict[Any, Any]] = {}
        self._kept_stamps: list[Any] = [None] * game.kept_slots  # see GameDef.refresh_kept
        self._pieces_seen: tuple[int, dict[Any, Any]] | None = None  # piece queries at a pieces version
        # pieces(kind, owner) by (kind, owner): the change counter it is kept by, its count then, the list
        self._piece_lists: dict[tuple[Any, Any], tuple[str, int, list[PieceRef], int]] = {}
        # The last `choose` frame listed, the change counters then, its legal actions (engine.legal_actions)
        self._listed: tuple[dict[str, Any], dict[str, int], list[Action]] | None = None
        # Each player's resources as a bundle (see codegen._resources), None until asked for after a change
        # of that player's resources (the effects drop it: Effects.gain).
        self.held: list[Bundle | None] = [None] * game.players
        # The names of the resources each player holds (codegen.held_kinds), None until asked for after a
        # change of that player's resources (the effects drop it with `held`).
        self.kinds: list[list[str] | None] = [None] * game.players
        # The sites where pieces changed since the kept results were last refreshed, in a game with defs
        # that read the pieces near their site only (GameDef.site_drops); None in another.
        self._site_log: list[str] | None = [] if game.local_defs else None
        self._sites_shared = False
        self._site_index: tuple[dict[str, Any], int, dict[Any, Any]] | None = None  # codegen.site_bucket
        self._simul: State | None = None  # the private copy a secret choice is made on (simultaneous.py)
        self._holds = 0  # in such a copy: how many players before the one deciding have decided on it
        self.viewer: Player | None = None  # set in a player's view: what that player may know

    @property
    def rng(self) -> random.Random:
        """The game's random generator. A seeded one is made on its first use: a game that never rolls
        nor shuffles (or not yet) skips seeding it, and its clones skip copying its 625-word state."""
        r = self._rng
        if r is None:
            r = self._rng = random.Random(self._seed)
        return r

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    def seed(self, seed: int) -> None:
        """Give the state a new generator seeded with `seed`, made when first used: the same draws as
        `state.rng = random.Random(seed)`."""
        self._rng = None
        self._seed = seed

    @property
    def is_view(self) -> bool:
        """A player's view (`state.view(p)`): no random generator state, hidden cards masked."""
        return self.viewer is not None

    # ------------------------------------------------------------ the engine contract

    @property
    def to_move(self) -> Player | None:
        """The player who decides now (None once the game is over)."""
        if self.over or not self.stack:
            return None
        return self.stack[-1].get("p")

    # Whether the game is over: the slot `over` read through its own descriptor, without a call.
    is_over: bool = Effects.__dict__["over"]

    @property
    def choosing_in_secret(self) -> bool:
        """Whether the player to move chooses in secret (a `simultaneous` step): the choice changes nothing
        anyone sees until every listed player has chosen."""
        return bool(self.stack) and self.stack[-1]["k"] == "simul" and not self.over

    def legal_actions(self) -> list[Action]:
        legal = self._legal  # the listing kept, without a call to find it
        if legal is None or self.over or not self.stack:
            legal = engine.legal_actions(self)
        return list(legal)

    # Apply one legal action (or its printed form) in place; returns the state for chaining. The engine's own
    # function, called as a method: the commonest call of all, without a call in between. A compiled engine's
    # function binds to no instance: then a method calling it.
    apply: Callable[[State, Action | str], State] = (
        engine.apply if isinstance(engine.apply, FunctionType) else _apply_compiled
    )

    def find_action(self, text: str) -> Action:
        for a in engine.legal_actions(self):
            if str(a) == text:
                return a
        from meeple.errors import IllegalActionError

        legal = ", ".join(str(a) for a in engine.legal_actions(self)[:12])
        raise IllegalActionError(f"illegal action {text}; legal now: {legal or 'none'}")

    @property
    def scores(self) -> dict[Player, int]:
        return {p: self.game.score(self, {"p": p}) for p in self.players}

    def clone(self) -> State:
        c = self.copy_without_rng()
        if self._rng is None:  # not used yet: the clone makes its own from the same seed
            c._seed = self._seed
        else:
            c._rng = random.Random.__new__(random.Random)  # not seeded from the system: setstate fills it
            c._rng.setstate(self._rng.getstate())
        return c

    def copy_without_rng(self) -> State:
        """A clone whose random generator is left for the caller to set (the state's is not copied)."""
        c = State.__new__(State)
        c._rng, c._seed = None, 0
        c.game, c.players, c.options = self.game, self.players, self.options
        c._zone_parts = self._zone_parts
        c.gv = dict(self.gv)
        c.pv = [dict(r) for r in self.pv]
        c.tv = dict(self.tv)
        c.sv = dict(self.sv)  # each scope's dict is replaced, not changed in place (see set_scoped_again)
        c.zones = {k: dict(v) for k, v in self.zones.items()}
        c.pieces = dict(self.pieces)
        c.at = dict(self.at)
        c.sites = self.sites
        c._sites_shared = self._sites_shared = True
        c.supply = [dict(r) for r in self.supply]
        c.awards = dict(self.awards)
        c.ver = dict(self.ver)
        c.seen = dict(self.seen)
        c.stack = [dict(f) for f in self.stack]
        c.turn_player, c.turn_no, c.next_id = self.turn_player, self.turn_no, self.next_id
        c.over = self.over
        c.viewer = self.viewer
        c.winners = None if self.winners is None else list(self.winners)
        c.pending = []
        c.ending_turn = False
        c.log = None
        c._legal = self._legal
        c._memo = None
        c._kept = dict(self._kept)  # shared until either state changes a part (see GameDef.refresh_kept)
        c._kept_stamps = list(self._kept_stamps)
        c._pieces_seen = None  # a clone's pieces go their own way from the same version number
        c._piece_lists = {}
        c._listed = None  # its frames are copies: none is the one listed
        c.held = list(self.held)  # bundles are never changed: each state drops its own when they change
        c.kinds = list(self.kinds)  # lists never changed: each state drops its own, as `held`
        c._site_log = None if self._site_log is None else list(self._site_log)
        c._site_index = self._site_index  # of the sites they share (then each its own)
        c._simul = None  # rebuilt from the recorded secret choices when asked
        c._holds = 0
        return c

    def forget(self) -> None:
        """Drop every result computed from this state: for code that changes it behind the effects (which
        count each change), such as a view hiding cards."""
        self._legal = None
        self._memo = None
        self._pieces_seen = None
        self._piece_lists = {}
        self._listed = None
        self.held = [None] * len(self.held)
        self.kinds = [None] * len(self.kinds)
        self._site_index = None
        self._simul = None
        self._kept = {}
        self._kept_stamps = [None] * self.game.kept_slots
        self._site_log = [] if self.game.local_defs else None
        self.seen = {}  # the counters at which awards and win checks were last worked out

    def why(self, action: Action | str) -> Any:
        """Why `action` is legal or not for the player deciding now (a `meeple.runtime.why.Why`)."""
        from meeple.runtime.why import why

        return why(self, action)

    def view(self, player: int) -> State:
        """What `player` may know: other players' private zones and hidden piles reduced to their sizes,
        variables private to others shown as `?`, no random generator state."""
        from meeple.runtime.view import view

        return view(self, Player(player))

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this view, for search: the cards its player cannot see dealt at
        random (with `rng`) into the zones they may be in, private variables of others at their starting
        values, and a fresh random generator drawn from `rng` (see runtime/determinize.py)."""
        from meeple.runtime.determinize import determinize

        return determinize(self, rng)

    # ------------------------------------------------------------ saving

    def snapshot(self) -> dict[str, Any]:
        # The pieces of a site are listed in the order they arrived (`pieces_at`); a reload rebuilds that
        # order from the ids, so only the sites where a piece moved in after a newer one are saved.
        arrived = {
            site: list(map(int, ids))
            for site, ids in self.at.items()
            if any(a > b for a, b in zip(ids, ids[1:]))
        }
        return {
            "format": FORMAT,
            "game": self.game.id,
            "players": len(self.players),
            "options": self.options,
            "gv": self.gv,
            "pv": self.pv,
            "tv": self.tv,
            "sv": self.sv,
            "zones": self.zones,
            "pieces": {str(k): v for k, v in self.pieces.items()},
            "sites": self.sites,
            "supply": self.supply,
            "awards": self.awards,
            "stack": self.stack,
            "turn_player": self.turn_player,
            "turn_no": self.turn_no,
            "next_id": self.next_id,
            "over": self.over,
            "winners": self.winners,
            "rng": None if self.is_view else self.rng.getstate(),
            **({"viewer": self.viewer} if self.viewer is not None else {}),
            **({"arrived": arrived} if arrived else {}),
        }

    def to_json(self) -> str:
        return json.dumps(encode(self.snapshot()), sort_keys=True, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def from_snapshot(game: GameDef, data: dict[str, Any]) -> State:
    s = State(game)
    s.gv, s.pv, s.tv, s.zones = data["gv"], data["pv"], data["tv"], data["zones"]
    s.sv = data.get("sv", {})
    s.pieces = {int(k): v for k, v in sorted(data["pieces"].items(), key=lambda kv: int(kv[0]))}
    for pid, rec in sorted(s.pieces.items()):
        s.at[rec["site"]] = s.at.get(rec["site"], ()) + (pid,)
    for site, ids in (data.get("arrived") or {}).items():  # pieces that did not arrive in the order of ids
        s.at[site] = tuple(int(pid) for pid in ids)
    s.sites, s.supply = data["sites"], data["supply"]
    s.awards, s.stack = data["awards"], data["stack"]
    s.turn_player, s.turn_no, s.next_id = data["turn_player"], data["turn_no"], data["next_id"]
    s.over, s.winners = data["over"], data["winners"]
    if data.get("rng") is not None:  # a saved view has none: the state gets a fresh generator
        s.rng.setstate(data["rng"])
    if data.get("viewer") is not None:  # a saved view loads as a view of the same player
        s.viewer = Player(data["viewer"])
    return s


# ---------------------------------------------------------------- JSON with typed values


def encode(v: Any) -> Any:
    t = type(v)
    if t is Player:
        return {"$player": int(v)}
    if t is PieceRef:
        return {"$piece": int(v), "label": v.label}
    if t is Bundle:
        return {"$bundle": dict(v.items())}
    if t is Action:
        return {"$action": v.name, "params": encode(v.params), "partial": v.partial}
    if t is tuple:
        return {"$tuple": [encode(x) for x in v]}
    if t is list:
        return [encode(x) for x in v]
    if t is dict:
        return {str(k): encode(x) for k, x in v.items()}
    return v


def decode(v: Any) -> Any:
    if isinstance(v, list):
        return [decode(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "$player" in v:
        return Player(v["$player"])
    if "$piece" in v:
        return PieceRef(v["$piece"], v.get("label", ""))
    if "$bundle" in v:
        return Bundle(v["$bundle"])
    if "$tuple" in v:
        return tuple(decode(x) for x in v["$tuple"])
    if "$action" in v:
        return Action(v["$action"], decode(v["params"]), v["partial"])
    return {k: decode(x) for k, x in v.items()}


def state_from_json(game: GameDef, text: str) -> State:
    return from_snapshot(game, decode(json.loads(text)))
