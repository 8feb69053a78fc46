"""The primitive changes effect statements make to a state: resources, pieces, zones, dice, grants."""

from __future__ import annotations

import random
from typing import Any

from meeple.compile.builtins import placed, units
from meeple.compile.expressions import RuleRuntimeError
from meeple.values import Bundle, PieceRef, Player


class Effects:
    """Mixed into State; every method keeps the state's indexes (pieces by site, supplies) consistent."""

    # Each attribute of a State a slot, read at a fixed place by every rule (a plain instance keeps its
    # attributes in a dict, one not shared between instances past 30 names, whose reads are slower).
    # `__dict__` takes any other (the narration's `unit`, set on a narrated game only).
    # fmt: off
    __slots__ = (
        "game", "players", "options", "gv", "pv", "tv", "sv", "zones", "pieces", "at", "sites", "supply",
        "awards", "stack", "turn_player", "turn_no", "next_id", "over", "winners", "_rng", "_seed", "ver",
        "_zone_parts", "seen", "pending", "ending_turn", "log", "_legal", "_memo", "_kept", "_kept_stamps",
        "_pieces_seen", "_piece_lists", "_listed", "held", "kinds", "_site_log", "_sites_shared",
        "_site_index", "_simul", "_holds", "viewer", "__dict__",
    )
    # fmt: on

    game: Any
    pv: list[dict[str, Any]]
    gv: dict[str, Any]
    tv: dict[str, Any]
    sv: dict[str, dict[str, Any]]
    stack: list[dict[str, Any]]
    zones: dict[str, dict[str, int]]
    pieces: dict[int, dict[str, Any]]
    at: dict[str, tuple[int, ...]]
    sites: dict[str, dict[str, Any]]
    supply: list[dict[str, int]]
    held: list[Bundle | None]
    kinds: list[list[str] | None]
    _site_log: list[str] | None
    pending: list[dict[str, Any]]
    log: list[str] | None
    rng: Any
    ver: dict[str, int]
    _zone_parts: dict[str, str]
    next_id: int
    _sites_shared: bool
    _piece_lists: dict[tuple[Any, Any], tuple[str, int, list[PieceRef], int]]

    unit: Any = None  # the action or step being narrated seat by seat (runtime/narration.py), else None
    narrated: tuple[int, ...] | None = None  # the seats a narrated game works out the lines for

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def tell(self, parts: list[Any], context: Any) -> None:
        """A `log` statement's line in a game narrated seat by seat (values with who may read them)."""
        from meeple.runtime.narration import log_line

        self.say(log_line(self, parts, context))

    # ------------------------------------------------------------ resources

    def gain(self, p: Player, bundle: Bundle) -> None:
        self.ver["res"] += 1
        self.held[p] = None
        self.kinds[p] = None
        rec = self.pv[p]
        for k, v in bundle._d.items() if type(bundle) is Bundle else bundle.items():
            rec[k] = rec.get(k, 0) + v
        if self.log is not None and bundle:  # (a bundle's truth is a call: asked last)
            self.say(f"  {p} gains {bundle}")

    def pay(self, p: Player, bundle: Bundle) -> None:
        self.ver["res"] += 1
        self.held[p] = None
        self.kinds[p] = None
        rec = self.pv[p]
        items = bundle._d.items() if type(bundle) is Bundle else bundle.items()  # no call
        for k, v in items:
            if rec.get(k, 0) < v:
                raise RuleRuntimeError(f"{p} cannot pay {bundle}: has {rec.get(k, 0)} {k}")
        for k, v in items:
            rec[k] -= v

    def lose(self, p: Player, bundle: Bundle) -> None:
        self.ver["res"] += 1
        self.held[p] = None
        self.kinds[p] = None
        rec = self.pv[p]
        for k, v in bundle.items():
            rec[k] = max(0, rec.get(k, 0) - v)

    def transfer(self, bundle: Bundle, src: Player, dst: Player) -> None:
        """Move up to `bundle` from one player to another (never more than the giver has)."""
        self.ver["res"] += 1
        held = self.held
        held[src] = None
        held[dst] = None
        kinds = self.kinds
        kinds[src] = None
        kinds[dst] = None
        have, get = self.pv[src], self.pv[dst]
        moved = {}
        for k, v in bundle._d.items() if type(bundle) is Bundle else bundle.items():
            n = min(v, have.get(k, 0))
            have[k] = have.get(k, 0) - n
            get[k] = get.get(k, 0) + n
            moved[k] = n
        if self.log is not None:
            self.say(f"  {src} gives {Bundle(moved)} to {dst}")

    # ------------------------------------------------------------ fields

    def set_field(self, obj: Any, name: str, value: Any) -> None:
        if isinstance(value, list):
            value = tuple(value)
        if type(obj) is Player:
            part = self.game.sym.player_part(name)
            self.ver[part] += 1
            if part == "res":
                self.held[obj] = None
                self.kinds[obj] = None
            self.pv[obj][name] = value
        elif type(obj) is PieceRef:
            if name == "site":  # a move: the pieces by site follow
                self.move_piece(int(obj), value)
                return
            rec = self.pieces[obj]
            self.piece_changed(rec["kind"], rec["owner"], name not in ("kind", "owner"))
            self.pieces[obj] = {**rec, name: value}
            if self._site_log is not None:
                self._site_log.append(rec["site"])
            if name in ("kind", "owner"):  # it now counts among other pieces too
                self.piece_changed(
                    value if name == "kind" else rec["kind"], value if name == "owner" else rec["owner"]
                )
        elif isinstance(obj, str) and obj in self.sites:
            self.ver["sites"] += 1
            if self._sites_shared:
                self.sites = dict(self.sites)
                self._sites_shared = False
            self.sites[obj] = {**self.sites[obj], name: value}
        else:
            raise RuleRuntimeError(f"cannot set field '{name}' of {obj}")

    # ------------------------------------------------------------ pieces

    def piece_changed(self, kind: str, owner: Player | None, kept_among: bool = False) -> None:
        """Count a change to the pieces, and to the finer parts of them it belongs to that are counted;
        `kept_among`: the piece stays among the same pieces (it moved, or a field other than its kind and
        owner changed), else the `roster` counts it too (placed, removed, another kind or owner)."""
        ver = self.ver
        ver["pieces"] += 1
        if not kept_among:
            ver["roster"] += 1
        keys = self.game.piece_keys.get((kind, owner))
        if keys is not None:
            for key in keys:
                ver[key] += 1

    def _take_supply(self, owner: Player | None, kind: str) -> None:
        self.piece_changed(kind, owner)
        if owner is None:  # a neutral piece (a weather die): no supply to take it from
            return
        left = self.supply[owner].get(kind, 0)
        if left <= 0:
            raise RuleRuntimeError(f"{owner} has no {kind} left in the supply")
        self.supply[owner][kind] = left - 1

    def place(self, kind: str, site: str, owner: Player | None, fields: dict[str, Any]) -> int:
        """Put a new piece on a site; returns its id. Not a reference (an int carrying its record): that
        costs more to make, and no statement uses it."""
        game = self.game
        if site not in game.board.kind_of:
            raise RuleRuntimeError(f"no site '{site}' to place a {kind} on")
        if owner is None:  # a neutral piece (a weather die): no supply to take it from
            self.piece_changed(kind, owner)
        else:  # _take_supply written out: a piece is placed on most turns of many games
            held = self.supply[owner]
            left = held.get(kind, 0)
            if left <= 0:
                raise RuleRuntimeError(f"{owner} has no {kind} left in the supply")
            ver = self.ver
            ver["pieces"] += 1
            ver["roster"] += 1
            keys = game.piece_keys.get((kind, owner))
            if keys is not None:
                for key in keys:
                    ver[key] += 1
            held[kind] = left - 1
        pid = self.next_id
        self.next_id += 1
        defaults = game._piece_defaults.get(kind)
        if defaults is None:
            defaults = game.piece_defaults(kind)
        if fields:
            given = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
            rec = {**defaults, **given, "kind": kind, "owner": owner, "site": site}
        else:
            rec = {**defaults, "kind": kind, "owner": owner, "site": site}
        self.pieces[pid] = rec
        self.at[site] = self.at.get(site, ()) + (pid,)
        if self._site_log is not None:
            self._site_log.append(site)
        if self._piece_lists:
            placed(self, pid, rec)
        if self.log is not None:
            self.say(
                f"  {owner} places a {kind} at {site}"
                if owner is not None
                else f"  a {kind} is put at {site}"
            )
        return pid

    def move_piece(self, pid: int, site: str) -> None:
        """Move a piece to another site; its fields and owner stay."""
        if site not in self.game.board.kind_of:
            raise RuleRuntimeError(f"no site '{site}' to move a piece to")
        rec = self.pieces[pid]
        self.piece_changed(rec["kind"], rec["owner"], True)
        old = rec["site"]
        self.at[old] = tuple(x for x in self.at[old] if x != pid)
        self.pieces[pid] = {**rec, "site": site}
        self.at[site] = self.at.get(site, ()) + (pid,)  # the rule file logs what the move means
        if self._site_log is not None:
            self._site_log += (old, site)

    def remove(self, pid: int) -> None:
        rec = self.pieces.pop(pid)
        self.piece_changed(rec["kind"], rec["owner"])
        if self._site_log is not None:
            self._site_log.append(rec["site"])
        self.at[rec["site"]] = tuple(x for x in self.at[rec["site"]] if x != pid)
        if rec["owner"] is None:
            if self.log is not None:
                self.say(f"  the {rec['kind']} at {rec['site']} is taken off the board")
            return
        self.supply[rec["owner"]][rec["kind"]] = self.supply[rec["owner"]].get(rec["kind"], 0) + 1
        if self.log is not None:
            self.say(f"  {rec['kind']} at {rec['site']} returns to {rec['owner']}'s supply")

    def replace(self, pid: int, kind: str, owner: Player | None) -> None:
        """Swap a piece for another kind on the same site; its fields stay, the old piece goes home."""
        old = self.pieces[pid]
        new_owner = old["owner"] if owner is None else owner
        self.piece_changed(old["kind"], old["owner"])
        self._take_supply(new_owner, kind)
        self.supply[old["owner"]][old["kind"]] = self.supply[old["owner"]].get(old["kind"], 0) + 1
        self.pieces[pid] = {**old, "kind": kind, "owner": new_owner}
        if self._site_log is not None:
            self._site_log.append(old["site"])
        if self.log is not None:
            old_one = f"the {old['kind']} of {old['owner']} at {old['site']}"
            self.say(f"  {old_one} becomes a {kind} of {new_owner}")

    # ------------------------------------------------------------ cards and zones

    def zones_changed(self, src: str, dst: str) -> None:
        """Count a change to the cards of two zones by the counter of the zones of each one's player, if it
        is a player's (GameDef.zone_parts), by which a rule reading `p.hand` tells p's cards apart; the
        caller counts the change to every zone (`zones`). Only in a game where a rule reads them so."""
        parts = self._zone_parts
        part = parts.get(src)
        if part is not None:
            self.ver[part] += 1
        other = parts.get(dst)
        if other is not None and other != part:
            self.ver[other] += 1

    def move_card(self, card: str, src: str, dst: str) -> None:
        self.ver["zones"] += 1
        if self._zone_parts:
            self.zones_changed(src, dst)
        zone = self.zones[src]
        if zone.get(card, 0) <= 0:
            raise RuleRuntimeError(f"no {card} in {src}")
        zone[card] -= 1
        if not zone[card]:
            del zone[card]
        target = self.zones[dst]
        target[card] = target.get(card, 0) + 1
        if self.unit is not None:
            self.unit.moves.append((card, src, dst))

    def move_cards(self, what: Any, src: str, dst: str) -> None:
        """`move card(s) what from src to dst`: one card, or every unit of a bundle, list or zone."""
        if isinstance(what, str):
            self.move_card(what, src, dst)
            return
        t = type(what)
        if (t is Bundle or t is dict) and src != dst and self.unit is None:
            self._move_counts(what._d if t is Bundle else what, src, dst)
            return
        for one in list(units(what)):
            self.move_card(one, src, dst)

    def _move_counts(self, counts: dict[str, int], src: str, dst: str) -> None:
        """The cards of a bundle or zone moved a name at a time, in the order `units` gives them (as one by
        one: the same zones after, the same error at the same card)."""
        zone, target = self.zones[src], self.zones[dst]
        moved = False
        for card in sorted(counts):
            n = counts[card]
            if n <= 0:
                continue
            have = zone.get(card, 0)
            if have < n:  # short: as many as there are, then the error one by one would give
                for _ in range(have + 1):
                    self.move_card(card, src, dst)
            if have == n:
                del zone[card]
            else:
                zone[card] = have - n
            target[card] = target.get(card, 0) + n
            moved = True
        if moved:
            self.ver["zones"] += 1
            if self._zone_parts:
                self.zones_changed(src, dst)

    def draw(self, n: int, src: str, dst: str) -> list[str]:
        """Draw n cards at random from a face-down multiset (the order is never stored)."""
        self.ver["zones"] += 1
        if self._zone_parts:
            self.zones_changed(src, dst)
        zone, target = self.zones[src], self.zones[dst]
        drawn = []
        for _ in range(n):
            left = sum(zone.values())
            if not left:
                break
            roll = self.rng.randrange(left)
            for card in sorted(zone):
                roll -= zone[card]
                if roll < 0:
                    break
            zone[card] -= 1
            if not zone[card]:
                del zone[card]
            target[card] = target.get(card, 0) + 1
            drawn.append(card)
        if self.log is not None:
            self.note_draw(drawn, src, dst)
        return drawn

    def note_draw(self, drawn: list[str], src: str, dst: str) -> None:
        from meeple.runtime.narration import draw_line

        if self.unit is not None:
            self.unit.moves.extend((card, src, dst) for card in drawn)
        self.say(draw_line(self, drawn, src, dst))

    # ------------------------------------------------------------ chance, grants, the end

    def roll(self, dice: int, sides: int, who: Player | None) -> int:
        if type(self.rng) is random.Random and type(sides) is int and sides > 0:
            # The very draws of randint(1, sides) (its randrange draws _randbelow(sides) and adds 1),
            # without its checks of the arguments on every die: the same dice for the same seed. Only
            # with Python's own generator: another (a test's scripted one) is asked for randint.
            below = self.rng._randbelow  # type: ignore[attr-defined]  # CPython's, since 3.2
            total = dice
            for _ in range(dice):
                total += below(sides)
        else:
            total = sum([self.rng.randint(1, sides) for _ in range(dice)])
        if self.log is not None:
            self.say(f"  {who if who is not None else 'the game'} rolls {dice}d{sides}: {total}")
        return total

    def grant(
        self,
        action: str,
        args: tuple[tuple[str, Any], ...],
        times: int,
        decider: Player,
        free: bool,
        optional: bool,
    ) -> None:
        if times > 0:
            self.pending.append(
                {
                    "k": "grant",
                    "action": action,
                    "args": args,
                    "left": times,
                    "p": decider,
                    "free": free,
                    "optional": optional,
                }
            )

    def set_var(self, scope: str, name: str, value: Any) -> None:
        """A game (`gv`) or turn (`tv`) variable."""
        self.ver[scope] += 1
        getattr(self, scope)[name] = tuple(value) if isinstance(value, list) else value

    def set_scoped(self, scope: str, name: str, value: Any, part: str) -> None:
        """A variable of a named scope (`season.card`, `trick.passed`); `part`, its change counter's name
        (`scope_part`), named once where the statement is compiled."""
        ver = self.ver
        ver["sv"] += 1
        ver[part] += 1
        self.sv[scope] = {**self.sv[scope], name: tuple(value) if isinstance(value, list) else value}

    def set_scoped_again(self, scope: str, name: str, value: Any, part: str) -> None:
        """`set_scoped` after another set of the same scope in one run of an effect's statements (with only
        values worked out between them): the scope's variables are already this state's own copy, set in
        place."""
        ver = self.ver
        ver["sv"] += 1
        ver[part] += 1
        self.sv[scope][name] = tuple(value) if isinstance(value, list) else value

    def reset_scope(self, scope: str) -> None:
        """Every variable of a named scope back to its declared value; only those it changes are counted as
        changed (what reads the others keeps its results)."""
        ver = self.ver
        ver["sv"] += 1
        was = self.sv[scope]
        start, parts = self.game.scope_starts[scope]
        for name, value in start.items():
            old = was.get(name, _ABSENT)
            if old is not value and (old is _ABSENT or not _same(old, value)):
                ver[parts[name]] += 1
        self.sv[scope] = dict(start)  # the game's own copy stays as declared

    def perform(self, effect: Any, me: Player) -> None:
        """`perform`: run an effect (a card's, a named one) for `me`; none does nothing."""
        if effect is not None:
            effect(self, {"me": me})

    def give_lead(self, player: Player) -> None:
        """The next turn of the running round-robin phase goes to `player` (or the next one not skipped)."""
        for frame in reversed(self.stack):
            if frame["k"] == "phase" and "lead" in frame:
                frame["lead"] = None if player is None else Player(player)
                return
        raise RuleRuntimeError("`give lead` needs a phase with `turns: {round_robin: …}` running")

    def note(self, text: str) -> None:
        if self.log is not None:
            self.say(f"  {text}")

    def end_turn(self) -> None:
        """Close the current turn once the running effect is done: its open decisions are dropped."""
        self.ending_turn = True

    def end_game(self) -> None:
        """End the game now; the highest score wins (tie-breaks apply, tied leaders share)."""
        from meeple.runtime.engine import finish_by_score

        finish_by_score(self)

    def declare_winners(self, winners: list[Player] | None) -> None:
        self.over = True
        self.winners = list(winners) if winners is not None else None


_PLAIN = (bool, int, str, float, type(None))
_ABSENT = object()  # a variable a saved scope lacks


def _same(was: Any, now: Any) -> bool:
    """Whether a variable's value is one it already had, for all that reads it: the same object, equal
    plain values of one type, or nothing in both (a player and the number of its seat are not the same)."""
    if was is now:
        return True
    kind = type(now)
    if kind is not type(was):
        return False
    return (kind in _PLAIN and was == now) or (kind is tuple and not was and not now)
