"""The `simultaneous` step: every listed player decides in secret, then the choices are applied together.

The engine still asks one player at a time, but nothing a player chooses changes the state before the
reveal, so a later player can learn nothing of an earlier choice:
- The step's frame (`{"k": "simul"}`) holds the players in the order they decide (`order`), whose turn it
  is (`pos`, `p`) and each one's choices so far (`picks`: one tuple of actions per player, up to `pos`).
- A player decides on a private copy of the state, the *scratch*: a clone with the step's `choose` frame
  for that player on top of a `wait` frame. The player's choices are played there (each may be stepwise,
  several may follow under `while` or `until`, and granted actions join in), which gives the next legal
  actions and tells when the decision is over (the flow is back at `wait`). The scratch is rebuilt from
  the recorded choices when needed (a clone or a loaded state has none) and can never draw at random:
  a chance step belongs after the reveal, where everyone sees its outcome at once.
- When the last player has decided, the frame gives way to the reveal: each player's choices are applied
  to the real state in the listed order, paying costs, running effects and logging as any action does.
  A choice that an earlier player's reveal made illegal is a rule error: simultaneous choices must not
  depend on each other. (The first player's choices were made on the state as it is, so they need no
  check; a choice made at the step's own `choose` frame is checked alone rather than by listing every
  legal action, and a narrated game, whose narration needs that list, reveals through `apply`.)
- When the step's choices are independent (compile/independence.py: no choice can change what another
  player is offered), a player who has decided hands its scratch on to the next one, who decides on it
  as it would on a copy of its own (what it is offered is the same, and it is never shown the others'
  choices: `own_scratch`). The last scratch then holds every choice applied in the listed order, and the
  reveal takes it as the game's state (`adopt`) instead of applying every choice again. A logged,
  narrated or covered game, a clone or a loaded state (whose scratch holds one player's choices) reveals
  by applying them, without the checks.
A view (`state.view(p)`) shows only p's own choices; `view.determinize(rng)` gives the other players who
have decided a fresh random decision that is legal in the dealt state, and lets a player still deciding
start afresh. The log says `p2 has chosen` when a decision is over; a game narrated seat by seat tells
each choice to its own player only, until the reveal.
"""

from __future__ import annotations

import random
from typing import Any

from meeple.compile.expressions import RuleRuntimeError
from meeple.compile.secrecy import Seats
from meeple.runtime import engine
from meeple.runtime.narration import Line
from meeple.runtime.view import HIDDEN
from meeple.values import Action, Player

# Actions a sampled decision may take (determinize) before it is given up as endless.
SAMPLE_LIMIT = 1000


class NoDraw(random.Random):
    """The random generator of a scratch: a secret choice may not roll or draw."""

    def random(self) -> float:
        raise _no_draw()

    def getrandbits(self, k: int) -> int:
        raise _no_draw()


NO_DRAW = NoDraw(0)  # shared: it has no state to change


def _no_draw() -> RuleRuntimeError:
    return RuleRuntimeError(
        "an action chosen in a `simultaneous` step cannot roll dice or draw at random before the reveal; "
        "do it in a step after the `simultaneous` one"
    )


def start(s: Any, step: Any, ph: int, st: int, me: Player) -> None:
    """Push the frame of a `simultaneous` step (its players are asked by `advance`)."""
    order = tuple(s.players) if step.players is None else _players(step.players(s, {"me": me}))
    s.stack.append({"k": "simul", "ph": ph, "st": st, "order": order, "pos": 0, "p": None, "picks": ()})


def _players(value: Any) -> tuple[Player, ...]:
    items = value if isinstance(value, list | tuple) else [value]
    if not all(isinstance(p, Player) for p in items):
        raise RuleRuntimeError(f"the players of a `simultaneous` step must be players, not {value!r}")
    return tuple(items)


def next_decider(s: Any, f: dict[str, Any]) -> bool:
    """Make the next player with something to decide the one to move; False once everyone has decided."""
    order = f["order"]
    while f["pos"] < len(order):
        if len(f["picks"]) <= f["pos"]:
            f["picks"] = (*f["picks"], ())
        f["p"] = order[f["pos"]]
        sc = scratch(s)
        if not done(sc):
            return True
        decided(s, f, sc)  # nothing (more) to decide: the next player
    return False


def decided(s: Any, f: dict[str, Any], sc: Any) -> None:
    """The player to move has decided on the scratch `sc`. When the step's choices are independent and
    `sc` holds the decisions of every player before, the next player decides on it too (what it is
    offered is the same; it is never shown `sc`, see `own_scratch`), and after the last one it is the
    revealed state as it is (`reveal`). Else the next player decides on a copy of its own."""
    pos = f["pos"]
    f["pos"] = pos + 1
    order = f["order"]
    picks = f["picks"]
    if not (
        sc._holds == pos
        and not sc.over
        and engine.game_step(s, f).independent
        and s.log is None
        and s.narrated is None
        and s.game.coverage is None
        and s.game.standing is None
        and len(set(order)) == len(order)  # each player's own zones are another's
        and (pos + 1 >= len(picks) or picks[pos + 1] == ())
    ):
        s._simul = None
        return
    sc._holds = pos + 1
    if pos + 1 < len(order):
        seat = order[pos + 1]
        sc.stack[-1] = {"k": "wait", "p": seat}  # in place of the wait of the player who decided
        sc.stack.append({"k": "choose", "ph": f["ph"], "st": f["st"], "p": seat})
        sc._legal = None
        engine.advance(sc)
    s._simul = sc


def own_scratch(s: Any) -> Any:
    """The scratch of the player to move as that player may see it: a copy of its own when the scratch
    holds the decisions of players before it."""
    sc = scratch(s)
    if not sc._holds:
        return sc
    f = s.stack[-1]
    picks = f["picks"][f["pos"]]
    return copy_for(s, f, f["order"][f["pos"]], () if picks == HIDDEN else picks)


def done(sc: Any) -> bool:
    """Whether the player deciding on the scratch `sc` has finished."""
    return bool(sc.over or sc.stack[-1]["k"] == "wait")


def scratch(s: Any) -> Any:
    """The private copy of the state on which the player to move decides (kept until it changes)."""
    sc = s._simul
    if sc is None:
        f = s.stack[-1]
        picks = f["picks"][f["pos"]]
        sc = s._simul = copy_for(s, f, f["order"][f["pos"]], () if picks == HIDDEN else picks)
    return sc


def copy_for(s: Any, f: dict[str, Any], seat: Player, picks: tuple[Action, ...]) -> Any:
    """A scratch for `seat`: the state with the step's `choose` frame for it, and `picks` played."""
    coverage = s.game.coverage
    if coverage is None:
        return _copy_for(s, f, seat, picks)
    real = coverage.take()  # what a private copy runs is counted at the reveal, not here
    try:
        return _copy_for(s, f, seat, picks)
    finally:
        coverage.take()
        coverage.hits.update(real)


def _copy_for(s: Any, f: dict[str, Any], seat: Player, picks: tuple[Action, ...]) -> Any:
    sc = s.copy_without_rng()
    sc.rng = NO_DRAW
    sc.stack.append({"k": "wait", "p": seat})
    sc.stack.append({"k": "choose", "ph": f["ph"], "st": f["st"], "p": seat})
    sc._legal = None
    engine.advance(sc)
    for action in picks:
        engine.apply(sc, action)
    return sc


def choose(s: Any, f: dict[str, Any], action: Action) -> None:
    """The player to move takes a (legal) action in secret: it is played on the scratch and recorded."""
    me = f["p"]
    sc = scratch(s)
    coverage = s.game.coverage
    if coverage is None:
        engine.apply(sc, action)
    else:  # rule coverage counts the choice once, when it is revealed and applied to the game
        real = coverage.take()
        try:
            engine.apply(sc, action)
        finally:
            coverage.take()
            coverage.hits.update(real)
    picks = f["picks"]
    f["picks"] = (*picks[:-1], (*picks[-1], action))
    if s.narrated is not None:  # the chooser is told its own choice; the others nothing yet
        s.say(Line([f"{me} (in secret): {action}"], Seats(frozenset({int(me)}))))
    if done(sc):
        if s.log is not None:
            s.say(f"{me} has chosen")
        decided(s, f, sc)


def reveal(s: Any, f: dict[str, Any]) -> None:
    """Everyone has decided: apply each player's choices in the listed order, in place of the frame."""
    s.stack.pop()
    sc, s._simul = s._simul, None
    if sc is not None and sc._holds == len(f["order"]) and not sc.over and s.log is None:
        adopt(s, sc)  # every decision is on it, applied in the listed order: the revealed state
        return
    who = [p for p, picks in zip(f["order"], f["picks"], strict=False) if picks]
    if who and s.log is not None:
        s.say(f"  the secret choices of {', '.join(str(p) for p in who)} are revealed")
    # The first player's choices were made on the state as it is: legal without a check; independent ones
    # are legal whatever was chosen before them.
    check = not engine.game_step(s, f).independent
    first = True
    for seat, picks in zip(f["order"], f["picks"], strict=False):
        if not picks or s.over:
            continue
        s.stack.append({"k": "wait", "p": seat})
        s.stack.append({"k": "choose", "ph": f["ph"], "st": f["st"], "p": seat})
        s._legal = None
        rest = picks if s.narrated is not None else _replay_plain(s, seat, picks, checked=check and not first)
        first = False
        if rest:
            engine.advance(s)
        for action in rest:
            if s.over:
                break
            if s.stack[-1]["k"] == "wait" or action not in engine.legal_actions(s):
                raise _conflict(seat, action)
            engine.apply(s, action)
        if not s.over:
            if s.stack[-1]["k"] == "choose" and not rest:
                s.stack.pop()  # the choices ran out where the player's own decision ended
            if s.stack[-1]["k"] != "wait":
                raise _conflict(seat, None)
            s.stack.pop()
    s._legal = None


def _replay_plain(s: Any, seat: Player, picks: tuple[Action, ...], checked: bool) -> tuple[Action, ...]:
    """Apply a player's choices made at the step's own `choose` frame without listing every legal action
    before each (each is checked alone); stop at one that is stepwise, a word, or follows an effect that
    pushed a decision (a grant), and return it and those after it, for `apply` to take in full."""
    f = s.stack[-1]
    step = engine.game_step(s, f)
    for i, action in enumerate(picks):
        a = s.game.actions.get(action.name)
        if s.over or s.stack[-1] is not f or a is None or action.partial:
            return picks[i:]
        params = dict(action.params)
        if checked and (
            (step.while_ is not None and not step.while_(s, {"me": seat}))
            or not engine.binding_legal(s, a, seat, params)
        ):
            raise _conflict(seat, action)
        if action.name == step.until or (not step.until and step.while_ is None):
            s.stack.pop()
        engine.execute(s, a, seat, params, False, action)
    return ()


# What a state is made of that the effects change, taken from a scratch holding every decision (`adopt`).
_ADOPTED = (
    *("gv", "pv", "tv", "sv", "zones", "pieces", "at", "sites", "_sites_shared", "supply", "awards"),
    *("ver", "seen", "next_id", "_kept", "_kept_stamps", "_pieces_seen", "_piece_lists", "held"),
    *("kinds", "_site_log"),
)


def adopt(s: Any, sc: Any) -> None:
    """Take the revealed state from a scratch on which every player decided in the listed order: it is
    what applying the choices again would give (the frames below the step's are the state's own; the
    effects of independent choices push none)."""
    for name in _ADOPTED:
        setattr(s, name, getattr(sc, name))
    s._legal = None
    s._listed = None
    s._memo = None


def _conflict(seat: Player, action: Action | None) -> RuleRuntimeError:
    what = (
        f"the secret choice {action} of {seat} is no longer legal" if action else f"{seat} has more to decide"
    )
    return RuleRuntimeError(
        f"at the reveal of a `simultaneous` step {what} after the choices of the players before it; "
        "the players' choices must not depend on each other"
    )


# ---------------------------------------------------------------- views and determinizing


def mask(f: dict[str, Any], viewer: int) -> None:
    """In a view's copy of the frame: every other player's choices become HIDDEN (even none so far)."""
    order = f["order"]
    f["picks"] = tuple(p if order[i] == viewer else HIDDEN for i, p in enumerate(f["picks"]))


def resample(s: Any, rng: random.Random) -> None:
    """In a determinized state: each hidden decision already made becomes a random legal one, and a player
    still deciding in secret starts afresh."""
    for f in s.stack:
        if f["k"] != "simul" or HIDDEN not in f["picks"]:
            continue
        picks = list(f["picks"])
        for i, seat in enumerate(f["order"][: len(picks)]):
            if picks[i] == HIDDEN:
                picks[i] = () if i == f["pos"] else sample(s, f, seat, rng)
        f["picks"] = tuple(picks)
    s._simul = None


def sample(s: Any, f: dict[str, Any], seat: Player, rng: random.Random) -> tuple[Action, ...]:
    """A whole decision of `seat`, each action drawn uniformly among the legal ones (none, should the rules
    fail on this deal or the decision not end)."""
    picks: list[Action] = []
    try:
        sc = copy_for(s, f, seat, ())
        while not done(sc) and len(picks) < SAMPLE_LIMIT:
            legal = engine.legal_actions(sc)
            if not legal:
                break
            action = legal[rng.randrange(len(legal))]
            engine.apply(sc, action)
            picks.append(action)
    except RuleRuntimeError:  # the rules cannot decide on this deal: no choice at all
        return ()
    return tuple(picks) if done(sc) else ()


def pending(s: Any) -> list[tuple[Player, Action]]:
    """The secret choices made so far in the `simultaneous` step on top of the flow (those a view of `s`
    shows), by player in the listed order; none outside such a step."""
    f = s.stack[-1] if s.stack and not s.over else None
    if f is None or f["k"] != "simul":
        return []
    return [
        (p, a) for p, picks in zip(f["order"], f["picks"], strict=False) if picks != HIDDEN for a in picks
    ]


def tentative(s: Any, player: int) -> Any:
    """The state as `player` expects it from its own secret choices: a copy with them applied (the others'
    are not known), for showing a player its decision so far and for bots judging it. `s` itself when no
    `simultaneous` step holds choices of the player."""
    stack = getattr(s, "stack", None)
    f = stack[-1] if stack else None
    if f is None or f.get("k") != "simul" or s.over:
        return s
    for i, seat in enumerate(f["order"][: len(f["picks"])]):
        if seat == player and f["picks"][i] not in ((), HIDDEN):
            if i == f["pos"]:
                return own_scratch(s)
            return copy_for(s, f, seat, f["picks"][i])
    return s
