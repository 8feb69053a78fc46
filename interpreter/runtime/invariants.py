"""Check a state against its rule file's `invariants:` (for soaks and `--check-invariants`, not in play)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meeple.compile.expressions import RuleRuntimeError
from meeple.errors import Diagnostic, RulesError
from meeple.values import Action, Player

_FAILURES = (RuleRuntimeError, TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError)


@dataclass(frozen=True)
class Broken:
    """One invariant that does not hold in a state (for one player, when it is checked per player)."""

    name: str
    span: Any
    player: Player | None
    detail: str

    def diagnostic(self, where: str = "") -> Diagnostic:
        who = f" for {self.player}" if self.player is not None else ""
        message = f"invariant '{self.name}' broken{who}: {self.detail}"
        return Diagnostic("rules/invariant", message + (f" ({where})" if where else ""), self.span)


class InvariantBroken(RulesError):
    """A game reached a state that breaks an invariant; its diagnostic says which, where, and when."""

    def __reduce__(self) -> tuple[Any, ...]:  # rebuilt from the diagnostics in another process
        return (InvariantBroken, (self.diagnostics,))


def broken(s: Any, held: dict[str, Any] | None = None) -> list[Broken]:
    """Every invariant of the game that the state breaks (none declared: none broken).

    With `held` (kept by the caller from one state of a game to the next), an invariant that held is
    stamped with the change counters of the parts of the state it reads, and is not worked out again
    while they stay the same: nothing it reads has changed."""
    found: list[Broken] = []
    if not s.game.invariants:
        return found
    ver = s.ver
    s._memo = {}  # the state does not change while it is checked: defs may be remembered
    if s.game.kept_defs:  # and results kept from before the last action are dropped where it changed a part
        s.game.refresh_kept(s)
    try:
        for inv in s.game.invariants:
            stamp = None
            if held is not None and inv.reads is not None:
                stamp = tuple([ver[part] for part in inv.reads])
                last = held.get(inv.name)
                if last is not None and last[0] is s and last[1] == stamp:  # counters of this very state
                    continue
            before = len(found)
            for p in s.players if inv.per_player else (None,):
                detail = _verdict(inv.check, s, {} if p is None else {"p": p})
                if detail is not None:
                    found.append(Broken(inv.name, inv.span, p, detail))
            if stamp is not None and len(found) == before:
                held[inv.name] = (s, stamp)  # type: ignore[index]
    finally:
        s._memo = None
    return found


def _verdict(check: Any, s: Any, b: dict[str, Any]) -> str | None:
    try:
        value = check(s, b)
    except _FAILURES as err:
        return f"cannot be worked out: {err}"
    if value is True:
        return None
    if value is False:
        return "it does not hold"
    return f"it gives {value!r}, not true or false"


def when(game_label: str, seed: int, step: int, action: Action | None) -> str:
    """Where in a game a state was reached: `k2 3p seed 7, step 12, after pick(card=move_1)`."""
    after = f", after {action}" if action is not None else " (the starting state)"
    return f"{game_label} seed {seed}, step {step}{after}"


class Watch:
    """`on_action` for play_game: checks the invariants of every state reached; raises InvariantBroken.

    Call it once with the starting state (no action), then play_game calls it after every action.
    """

    def __init__(self, label: str, seed: int) -> None:
        self.label, self.seed = label, seed
        self.step = 0
        self.last: Action | None = None
        self.held: dict[str, Any] = {}  # see `broken`: invariants that held, and on what they read

    def __call__(self, s: Any, action: Action | None = None) -> None:
        if action is not None:
            self.step, self.last = self.step + 1, action
        found = broken(s, self.held)
        if found:
            where = when(self.label, self.seed, self.step, self.last)
            raise InvariantBroken([b.diagnostic(where) for b in found])
