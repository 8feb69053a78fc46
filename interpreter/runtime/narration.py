"""The log as each seat sees it: lines that carry, besides their full text, what each seat may read of them.

A game started with `new_game(narrate=True)` writes `Line`s (a `str`, the full text, so the log reads as
before) for actions, `log` statements and draws; `narrated(state.log, seat)` gives the lines for one seat:
- an action always shows its name; it shows a parameter to another seat when the seat may see what the
  parameter was chosen from (its domain and conditions) and no other legal value of it would leave the
  seat's view the same, or when its cards pass through a zone the seat sees (a secret pick shows as
  `pick(card=?)`, a sealed bid as `bid(n=?)`; a card played face up shows). A choice between actions
  of different names is never secret: a secret choice is one action with a parameter;
- a draw names the cards only to seats that see the zone they come from or go to (`2 cards drawn from
  p2.deck to p2.hand`);
- a `log` line shows each value to the seats allowed by compile/secrecy.py, `a card`, `2 cards` or `?` to
  the others, and is left out for a seat that may not know why it was written.
Working out the parameters plays every legal alternative on a copy, so narration is for watching and
testing (`meeple run --seat`), not for fast play.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from meeple.compile.secrecy import EVERYONE, Audience, ParamSeen, cards_in
from meeple.runtime.view import zone_visible
from meeple.values import Action, Bundle, Player


@dataclass(frozen=True)
class Shown:
    """A value inside a line: its text, who may read it, and what the others read instead."""

    text: str
    audience: Audience
    redacted: str


class Line(str):
    """A log line: the full text, and how each seat reads it."""

    parts: tuple[str | Shown, ...]
    context: Audience

    def __new__(cls, parts: Iterable[str | Shown], context: Audience = EVERYONE) -> Line:
        parts = tuple(parts)
        line = super().__new__(cls, "".join(p if isinstance(p, str) else p.text for p in parts))
        line.parts, line.context = parts, context
        return line

    def for_seat(self, seat: int) -> str | None:
        """The line as `seat` reads it, or None when that seat may not know it was written."""
        if not self.context.allows(seat):
            return None
        return "".join(
            p if isinstance(p, str) else p.text if p.audience.allows(seat) else p.redacted for p in self.parts
        )


def narrated(log: Iterable[str], seat: int) -> list[str]:
    """The lines of a narrated game's log as `seat` reads them (plain lines are public: turns, rolls)."""
    out = []
    for line in log:
        text = line.for_seat(seat) if isinstance(line, Line) else line
        if text is not None:
            out.append(text)
    return out


class Unit:
    """One action, step or the set-up, being narrated: the cards it moved and what each seat could not
    tell apart among the actor's choices."""

    def __init__(self, game: Any, actor: Player | None = None, params: dict[str, Any] | None = None) -> None:
        self.game = game
        self.actor = actor
        self.params = params or {}
        self.moves: list[tuple[str, str, str]] = []  # (card, from zone key, to zone key)
        self.hidden: dict[int, set[str]] = {}  # seat -> the parameters it may not know
        self._zones = {z.name: z for z in game.zones}

    def param_seen(self, seat: int, name: str) -> bool:
        if seat == self.actor or name not in self.hidden.get(seat, ()):
            return True
        cards = cards_in(self.params.get(name), self.game.sym.copies)
        return bool(cards) and all(self.card_seen(seat, c) for c in cards)

    def card_seen(self, seat: int, card: str) -> bool:
        return any(c == card and (self.sees(src, seat) or self.sees(dst, seat)) for c, src, dst in self.moves)

    def sees(self, key: str, seat: int) -> bool:
        zone = self._zones.get(key.partition("#")[0])
        return zone is not None and zone_visible(zone, key, seat)


def begin_action(s: Any, action: Action) -> Unit:
    """A unit for the action about to be applied, with the parameters each narrated seat may not know."""
    actor = s.to_move
    unit = Unit(s.game, actor, dict(action.params))
    seats = [q for q in s.narrated if q != actor]
    if seats:
        _hide_parameters(s, action, seats, unit)
    return unit


def _hide_parameters(s: Any, mine: Action, seats: list[int], unit: Unit) -> None:
    """A parameter chosen from what a seat may not see (a hand) is hidden from it, unless its cards pass
    through a zone the seat sees; one chosen from what the seat sees is hidden when another legal value of
    it would leave the seat's view the same (a bid written to a private variable)."""
    from meeple.runtime import engine

    legal = engine.legal_actions(s)
    plans = s.game.param_plans.get(mine.name, {})
    b = {"me": s.to_move, **dict(mine.params)}
    views: dict[tuple[Action, int], Any] = {}
    after: dict[Action, Any] = {}

    def seen(a: Action, q: int) -> Any:
        if (a, q) not in views:
            if a not in after:
                trial = s.clone()
                engine.apply(trial, a)
                after[a] = trial
            views[(a, q)] = after[a].view(q).snapshot()
        return views[(a, q)]

    for k, _ in mine.params:
        known = plans[k](s, b) if k in plans else EVERYONE
        alternatives = [a for a in legal if a.name == mine.name and _differs_only_in(a, mine, k)]
        for q in seats:
            if not known.allows(q) or any(seen(a, q) == seen(mine, q) for a in alternatives):
                unit.hidden.setdefault(q, set()).add(k)


def _differs_only_in(a: Action, b: Action, name: str) -> bool:
    if a.partial != b.partial or [k for k, _ in a.params] != [k for k, _ in b.params]:
        return False
    return all((va == vb) == (k != name) for (k, va), (_, vb) in zip(a.params, b.params))


def action_line(s: Any, me: Player, action: Action) -> str:
    """`p2: pick(card=move_3)`, as a Line when the game is narrated seat by seat."""
    unit = s.unit
    if unit is None or s.narrated is None:
        return f"{me}: {action}"
    parts: list[str | Shown] = [f"{me}: {action.name}"]
    if action.params or action.partial:
        parts.append("(")
        for i, (k, v) in enumerate(action.params):
            parts.append(("" if i == 0 else ", ") + f"{k}=")
            parts.append(Shown(str(v), ParamSeen(unit, k), "?"))
        parts.append((", …" if action.params else "…") + ")" if action.partial else ")")
    return Line(parts)


def zone_text(key: str) -> str:
    """`hand#1` as `p2.hand`, `encounters#desert` as `encounters[desert]`."""
    name, _, member = key.partition("#")
    if not member:
        return name
    return f"p{int(member) + 1}.{name}" if member.isdigit() else f"{name}[{member}]"


def draw_line(s: Any, drawn: list[str], src: str, dst: str) -> str:
    """`  2 cards drawn from p2.deck to p2.hand: health_0, move_3`; the names only to seats that may know."""
    count = (
        f"{len(drawn)} card{'' if len(drawn) == 1 else 's'} drawn from {zone_text(src)} to {zone_text(dst)}"
    )
    names = ", ".join(drawn)
    if s.unit is None:
        return f"  {count}: {names}" if drawn else f"  {count}"
    return Line([f"  {count}", Shown(f": {names}" if drawn else "", _DrawSeen(s.unit, src, dst), "")])


@dataclass(frozen=True)
class _DrawSeen(Audience):
    unit: Unit
    src: str
    dst: str

    def allows(self, seat: int) -> bool:
        return self.unit.sees(self.src, seat) or self.unit.sees(self.dst, seat)


def log_line(s: Any, parts: list[Any], context: Audience) -> str:
    """A `log` statement's line: text pieces and (value, text, audience) for each interpolation."""
    out: list[str | Shown] = ["  "]
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        value, text, audience = part
        out.append(Shown(text, audience, redacted(value, s.game.sym.copies)))
    return Line(out, context)


def redacted(value: Any, cards: Any) -> str:
    """What a seat reads in place of a value it may not know: `a card`, `3 cards`, or `?`."""
    held = cards_in(value, cards)
    if not held:
        return "?"
    count = sum(value.values()) if isinstance(value, dict | Bundle) else len(held)
    return "a card" if count == 1 else f"{count} cards"
