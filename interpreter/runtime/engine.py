"""Legal actions and applying them: parameter enumeration, costs, effects, settling, the scheduler."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from meeple.compile.builtins import can_pay, distinct
from meeple.compile.ir import ActionDef
from meeple.errors import IllegalActionError, RuleRuntimeError
from meeple.runtime import simultaneous as simul
from meeple.runtime.narration import Unit, action_line, begin_action
from meeple.values import Action, Player, bare_action, stepwise_offer

SKIP = "skip"
WIN = "win"  # with a player, the key of the counters at which the win condition last failed for them
SETTLED = ("settled",)  # the key of the turn's player and the counters at which `settle` last ran


# ---------------------------------------------------------------- enumeration


def completions(
    s: Any, a: ActionDef, me: Player, bound: dict[str, Any], free: bool
) -> Iterator[dict[str, Any]]:
    """Every full parameter binding that makes the action legal, in a stable order."""
    b = {"me": me, **bound}
    params = a.params
    last = len(params)

    def ok(level: int) -> bool:
        for check in a.checks[level]:
            if not check(s, b):
                return False
        if a.cost is not None and not free and a.cost_level == level:
            return can_pay(s, me, a.cost(s, b))
        return True

    def walk(k: int) -> Iterator[dict[str, Any]]:
        if k == last:
            yield b
            return
        p = params[k]
        if p.domain is None or p.name in bound:
            if ok(k + 1):
                yield from walk(k + 1)
            return
        for value in distinct(s, p.domain(s, b)):
            b[p.name] = value
            if ok(k + 1):
                yield from walk(k + 1)
        b.pop(p.name, None)

    if ok(0):
        yield from walk(0)


def enumerate_action(s: Any, a: ActionDef, me: Player, bound: dict[str, Any], free: bool) -> list[Action]:
    if a.stepwise:  # offered once; its parameters are then decided one at a time
        if a.listing is not None and not bound and not free:  # its offer, if any binding is legal
            return a.listing(s, me, [])  # type: ignore[no-any-return]
        if a.fast is not None:
            found = bool(a.fast(s, me, bound, free, True))
        else:
            found = next(completions(s, a, me, bound, free), None) is not None
        if not found:
            return []
        return [stepwise_offer(a.name) if not bound else Action(a.name, tuple(bound.items()), True)]
    if a.fast is not None:  # the generated loops
        return a.fast(s, me, bound, free, False)  # type: ignore[no-any-return]
    names = [p.name for p in a.params]
    return [Action(a.name, tuple((nm, b[nm]) for nm in names)) for b in completions(s, a, me, bound, free)]


def stepwise_options(s: Any, a: ActionDef, me: Player, bound: dict[str, Any], free: bool) -> list[Action]:
    """The next parameter's values that can still be completed, each as a (partial) action."""
    chosen = a.chosen  # the commonest case first: no input, and the parameters decided so far in order
    if chosen is not None and len(bound) < len(chosen) and tuple(bound) == chosen[: len(bound)]:
        decided = len(bound)
        nxt = a.params[decided]
        partial = decided < len(chosen) - 1
        loops = a.stepped[decided] if a.stepped else None  # written for exactly these decided
        if loops is not None:
            if not partial:  # the last: each listed action is already the one to offer
                return loops(s, me, bound, free, False)  # type: ignore[no-any-return]
            return _partials(a.name, tuple(bound.items()), nxt.name, loops(s, me, bound, free, False))
        if not partial and a.fast is not None:  # the last: each listed action is already the one to offer
            return a.fast(s, me, bound, free, False)  # type: ignore[no-any-return]
    else:
        free_params = [p for p in a.params if p.domain is not None and p.name not in bound]
        if not free_params:
            return enumerate_action(s, a, me, bound, free) if bound else []
        nxt = free_params[0]
        partial = len(free_params) > 1
        if not partial and a.fast is not None and all(p.name in bound for p in a.params if p.domain is None):
            # The last value to choose: one pass of the generated loops lists them all (its domain in
            # order, each value once, since every other parameter is given).
            at = a.params.index(nxt)
            done = a.fast(s, me, bound, free, False)
            if at == len(a.params) - 1 and list(bound) == [p.name for p in a.params[:at]]:
                return done  # given in the order declared, each listed action is already the one to offer
            return [Action(a.name, (*bound.items(), (nxt.name, d.params[at][1]))) for d in done]
    prefix = tuple(bound.items())
    values = a.next_values.get(nxt.name) if partial else None
    if values is not None:  # the generated loops: each value that can be completed, in one pass
        return _partials(a.name, prefix, nxt.name, values(s, me, bound, free, False))
    out = []
    for value in distinct(s, nxt.domain(s, {"me": me, **bound})):  # type: ignore[misc]
        trial = {**bound, nxt.name: value}
        if a.fast is not None:
            found = bool(a.fast(s, me, trial, free, True))
        else:
            found = next(completions(s, a, me, trial, free), None) is not None
        if found:
            out.append(Action(a.name, (*prefix, (nxt.name, value)), partial))
    return out


def _partials(name: str, prefix: tuple[tuple[str, Any], ...], key: str, values: list[Any]) -> list[Action]:
    """The partial Action `name(prefix, key=value, …)` of each value, in order."""
    # `partial` given by position: as a keyword it costs more than the rest of the Action
    return [Action(name, (*prefix, (key, value)), True) for value in values]


def binding_legal(s: Any, a: ActionDef, me: Player, params: dict[str, Any]) -> bool:
    """Whether one full binding of `a` (no input, no free cost) is legal for `me` now: each value in its
    domain, each condition and the cost met. Cheaper than listing every legal action when one is known."""
    s._memo = {}
    kept, s._kept = s._kept, {}  # results are remembered for this check only (no stamps to refresh)
    try:
        b: dict[str, Any] = {"me": me}
        for p in a.params:
            if p.name not in params or p.domain is None:
                return False
            if params[p.name] not in distinct(s, p.domain(s, b)):
                return False
            b[p.name] = params[p.name]
        if a.fast is not None:  # the generated loops, every value given: the conditions and the cost
            return bool(a.fast(s, me, params, False, True))
        return next(completions(s, a, me, params, False), None) is not None
    finally:
        s._memo = None
        s._kept = kept


def legal_actions(s: Any) -> list[Action]:
    if s.over or not s.stack:
        return []
    legal = s._legal
    if legal is not None:
        return legal
    f = s.stack[-1]
    kind = f["k"]
    if kind == "choose":  # the listing kept when a decision above this frame began, if nothing changed
        listed = s._listed
        if listed is not None and listed[0] is f and listed[1] == s.ver:
            s._legal = listed[2]
            return listed[2]
    elif kind == "simul":  # a secret choice: what the player may do on its private copy
        s._legal = legal_actions(simul.scratch(s))
        return s._legal
    s._memo = {}
    if s.game.kept_defs:
        s.game.refresh_kept(s)
    try:
        out = _legal_here(s, f, kind)
    finally:
        s._memo = None
    s._legal = out
    return out


def _legal_here(s: Any, f: dict[str, Any], kind: str) -> list[Action]:
    game = s.game
    out: list[Action] = []
    if kind == "choose":
        ph, st = f["ph"], f["st"]
        me = f["p"]
        listings, end = game.step_listings[ph][st]
        if listings is not None:  # each action's listing (enumerate_action's commonest case, without it)
            for listing in listings:
                listing(s, me, out)
        else:
            for listing, a in game.listers[ph][st]:
                if listing is not None:
                    listing(s, me, out)
                else:
                    out.extend(enumerate_action(s, a, me, {}, False))
        if end is not None:  # the word that ends the step (in a step that is not optional)
            out.append(end)
        else:
            step = game.phases[ph].steps[st]
            if step.until in game.actions:  # a declared action that ends the step when taken
                if step.until not in step.actions:
                    out.extend(enumerate_action(s, game.actions[step.until], me, {}, False))
            elif step.until:
                out.append(bare_action(step.until))
            if step.optional and out:
                out.append(bare_action(SKIP))
    elif kind == "grant":
        out = enumerate_action(s, game.actions[f["action"]], f["p"], dict(f["args"]), f["free"])
        if f["optional"] and out:
            out.append(bare_action(SKIP))
    elif kind == "partial":
        out = stepwise_options(s, game.actions[f["action"]], f["p"], dict(f["args"]), f["free"])
    return out


# ---------------------------------------------------------------- applying


def apply(s: Any, action: Any) -> Any:
    """Apply one legal action (or its printed form) to the state in place; returns the state, for chaining.
    It is `State.apply` itself: no call in between."""
    legal = s._legal  # the listing kept, as legal_actions would answer, without its call
    if legal is None or s.over or not s.stack:
        legal = legal_actions(s)
    for offered in legal:  # most callers hand back one of the listed objects: no comparison needed
        if offered is action:
            break
    else:
        if isinstance(action, str):  # its printed form
            action = s.find_action(action)
        elif action not in legal:
            shown = ", ".join(str(a) for a in legal[:12]) + (" …" if len(legal) > 12 else "")
            raise IllegalActionError(f"illegal action {action}; legal now: {shown or 'none'}")
    f = s.stack[-1]
    kind = f["k"]
    if kind == "simul":  # kept secret until everyone has chosen
        s._legal = None
        simul.choose(s, f, action)
        advance(s)
        return s
    if s.narrated is not None:  # before anything changes: what each seat can tell of the choice
        s.unit = begin_action(s, action)
    s._legal = None
    me = f["p"]
    name = action.name
    game = s.game
    if kind == "choose":
        step = game.phases[f["ph"]].steps[f["st"]]
        if action.partial or name in game.deciding:
            stays = action.partial or step.until or step.while_ is not None
            if stays and game.kept_steps[f["ph"]][f["st"]]:
                # a decision above the step begins (a stepwise action's next step, or a grant its effect
                # may make): back at the step with nothing changed, its listing is this one (legal_actions).
                # Not for a step that ends with this action: it is gone before its effect runs.
                s._listed = (f, dict(s.ver), legal)
        elif not step.until and step.while_ is None and name != SKIP:
            # The commonest decision: an action of a step that offers one and is done (the rest below).
            s.stack.pop()
            execute(s, game.actions[name], me, action.params, False, action)
            advance(s)
            return s
    else:
        step = None
    if step is not None and name == step.until and name not in game.actions:
        if s.log is not None:  # a line is formatted only for a game that keeps its log
            s.say(f"{me}: {action}")
        s.stack.pop()
        advance(s)
        return s
    if name == SKIP and kind in ("grant", "choose"):
        if s.log is not None:
            s.say(f"{me}: skip {f['action']}" if kind == "grant" else f"{me}: skip")
        s.stack.pop()
        advance(s)
        return s
    if action.partial:
        if kind == "partial":
            f["args"] = action.params
            free = f["free"]
        else:  # a granted action keeps its bound arguments and its free cost while it is stepped
            free = f["free"] if kind == "grant" else False
            s.stack.append(
                {"k": "partial", "action": action.name, "args": action.params, "p": me, "free": free}
            )
        # Nothing has changed but the decision: the next value to choose, as `advance` would list it first
        # (it takes over only where none can be chosen). The results kept are as the listing of this
        # action left them: listed without a refresh (legal_actions, written out).
        s._memo = {}
        try:
            s._legal = stepwise_options(s, game.actions[name], me, dict(action.params), free)
        finally:
            s._memo = None
        if not s._legal:
            advance(s)
        return s
    free = False
    if kind == "partial":
        s.stack.pop()
        f = s.stack[-1]
        kind = f["k"]
        step = game_step(s, f) if kind == "choose" else None
    if step is not None:
        if name == step.until or (not step.until and step.while_ is None):
            s.stack.pop()
    elif kind == "grant":
        free = f["free"]
        f["left"] -= 1
        if f["left"] <= 0:
            s.stack.pop()
    execute(s, game.actions[name], me, action.params, free, action)
    advance(s)
    return s


def rule_error(s: Any, message: str, section: str) -> RuleRuntimeError:
    """A failure of a whole section of the rules (the flow, the standing rules), at its place in the file."""
    index = s.game.index
    return RuleRuntimeError(message, index.nearest_span((section,)) if index is not None else None, section)


def game_step(s: Any, f: dict[str, Any]) -> Any:
    return s.game.phases[f["ph"]].steps[f["st"]]


def execute(
    s: Any,
    a: ActionDef,
    me: Player,
    params: dict[str, Any] | tuple[tuple[str, Any], ...],
    free: bool,
    action: Action,
) -> None:
    b = {"me": me}
    b.update(params)
    if s.log is not None:
        s.say(action_line(s, me, action))
    if a.cost is not None and not free:
        s.pay(me, with_memo(s, a.cost, b) if a.cost_memo else a.cost(s, b))
    if s.pending:
        s.pending = []
    a.effect(s, b)
    if s.pending or s.ending_turn:  # after_effect, written out
        push_pending(s)
    game = s.game
    if game.standing is not None or game.awards or game.win is not None:
        settle(s)


def with_memo(s: Any, fn: Any, b: dict[str, Any]) -> Any:
    """`fn(s, b)` (an action's cost) with the memo a listing has: the defs it calls answer from the results
    kept across decisions, as they did when the action was listed, those of a changed part dropped first
    (at a reveal, an earlier player's choices have changed the state since)."""
    before = s._memo
    s._memo = {}
    if s.game.kept_defs:
        s.game.refresh_kept(s)
    try:
        return fn(s, b)
    finally:
        s._memo = before


def after_effect(s: Any) -> None:
    """After an effect ran: the frames it pushed (or the end of the turn), then the awards and the win."""
    if s.pending or s.ending_turn:
        push_pending(s)
    game = s.game
    if game.standing is not None or game.awards or game.win is not None:
        settle(s)


def push_pending(s: Any) -> None:
    if s.ending_turn:
        s.ending_turn = False
        while s.stack and s.stack[-1]["k"] not in ("turn", "wait"):
            s.stack.pop()
        if s.stack and s.stack[-1]["k"] == "turn":  # a secret choice's turn ends at its `wait`
            s.stack.pop()
        s.pending = []
        return
    for frame in reversed(s.pending):
        s.stack.append(frame)
    s.pending = []


def settle(s: Any) -> None:
    """After every change: update the sticky awards, then check the win condition. Not again while every
    part they read is as it was after the last time (GameDef.settle_counters), neither can come out
    otherwise: nothing at all for the same turn's player, the win alone for another."""
    game = s.game
    if s.over:
        return
    if game.standing is not None:
        run_standing(s)
    counters = game.settle_counters
    if counters is None:
        _settle(s, game)
        return
    seen = s.seen
    stamp = counters(s.ver)
    last = seen.get(SETTLED)
    if last is not None and last[1] == stamp:
        if last[0] == s.turn_player:
            return
        check_win(s, game)  # a new turn, nothing else changed: the awards' holders stay
    else:
        _settle(s, game)
        stamp = counters(s.ver)  # the awards' holders as they now are
    seen[SETTLED] = (s.turn_player, stamp)


def _settle(s: Any, game: Any) -> None:
    for award in game.awards:
        update_award(s, award)
    check_win(s, game)


def check_win(s: Any, game: Any) -> None:
    """The win condition of the players it is checked for now (the turn's, or every one from it)."""
    if game.win is None or s.turn_player is None:
        return
    if game.win_check == "own_turn":
        candidates = [s.turn_player]
    else:
        n = len(s.players)
        candidates = [Player((s.turn_player + i) % n) for i in range(n)]
    counters = game.win_counters
    for p in candidates:
        if counters is not None:  # skipped while what it reads is as it was when it last failed
            stamp = counters[p](s.ver)
            if s.seen.get((WIN, p)) == stamp:
                continue
        if game.win(s, {"p": p}):
            if s.log is not None:
                s.say(f"{p} wins with {game.score(s, {'p': p})} points")
            s.declare_winners([p])
            return
        if counters is not None:
            s.seen[(WIN, p)] = stamp


def run_standing(s: Any) -> None:
    """The standing rules, again and again until a pass changes nothing (at most 20 passes)."""
    b = {"me": s.turn_player} if s.turn_player is not None else {}
    for _ in range(20):
        before = sum(s.ver.values())
        s.game.standing(s, dict(b))
        if sum(s.ver.values()) == before:
            return
    raise rule_error(
        s, "the standing rules still change the game after 20 passes; do two of them fight?", "standing"
    )


def update_award(s: Any, award: Any) -> None:
    counters = award.counters
    stamp = counters(s.ver) if counters is not None else None
    if stamp is not None and s.seen.get(award.name) == stamp:
        return
    if award.per_player:  # something it reads changed: the measures of the players whose part did
        values = _measures(s, award)
        if values is None:
            s.seen[award.name] = stamp
            return
    else:
        _open_memo(s, award)
        try:
            values = [award.measure(s, {"p": p}) for p in s.players]
        finally:
            s._memo = None
    holder = s.awards.get(award.name)
    if holder is not None and values[holder] < award.minimum:
        holder = None
    best = max(values)
    if best >= award.minimum and (holder is None or best > values[holder]):
        leaders = [p for p in s.players if values[p] == best]
        holder = leaders[0] if len(leaders) == 1 else holder
    if holder != s.awards.get(award.name):
        if s.log is not None and holder is not None:
            s.say(f"  {award.name} goes to {holder}")
        elif s.log is not None:
            s.say(f"  nobody holds {award.name}")
        s.awards[award.name] = holder
        s.ver["awards"] += 1
    if counters is not None:
        s.seen[award.name] = counters(s.ver)


def _open_memo(s: Any, award: Any) -> None:
    """Before an award's measuring: a listing's memo, the results kept across decisions brought up to date
    first, where its measure calls a def (a measure calling none needs neither)."""
    if award.memo:
        s._memo = {}
        if s.game.kept_defs:
            s.game.refresh_kept(s)


def _measures(s: Any, award: Any) -> list[Any] | None:
    """An award's measure of every player, each worked out again only when a part it reads has changed
    since (a player's own pieces, say); None when none has, and so neither can the holder."""
    values = []
    fresh = False
    seen = s.seen
    for p in s.players:
        stamp = award.counters_of(p)(s.ver)
        key = (award.name, p)
        found = seen.get(key)
        if found is not None and found[0] == stamp:
            values.append(found[1])
            continue
        if not fresh:
            fresh = True
            _open_memo(s, award)
        try:
            value = award.measure(s, {"p": p})
        except BaseException:
            s._memo = None
            raise
        seen[key] = (stamp, value)
        values.append(value)
    s._memo = None
    return values if fresh else None


# ---------------------------------------------------------------- the scheduler


def turn_order(kind: str, n: int, first: int) -> list[Player]:
    seats = [Player((first + i) % n) for i in range(n)]
    if kind == "none":  # the steps run once, for the first player
        return seats[:1]
    if kind == "counterclockwise":
        return [seats[0], *reversed(seats[1:])]
    if kind == "snake":
        return seats + seats[::-1]
    return seats


def start_turn(s: Any, p: Player, phase: str, quiet: bool = False) -> None:
    s.turn_player = p
    s.turn_no += 1
    s.tv = dict(s.game.sym.turn_vars)
    s.ver["tv"] += 1
    if s.log is not None and not quiet:
        s.say(f"-- {phase}, turn {s.turn_no}: {p} --")


def enter(s: Any, node: tuple[str, int]) -> None:
    """Push the frame that runs one phase or loop of the flow."""
    kind, idx = node
    if kind == "loop":
        frame = {"k": "loop", "loop": idx, "i": 0, "n": 0}
        if begin_iteration(s, frame):
            s.stack.append(frame)
        return
    ph = s.game.phases[idx]
    if ph.round_robin is not None:
        s.stack.append({"k": "phase", "ph": idx, "cur": None, "lead": None})
        return
    first = int(ph.first(s, {})) if ph.first is not None else 0
    order = turn_order(ph.turns, len(s.players), first)
    s.stack.append({"k": "phase", "ph": idx, "order": order, "pos": 0, "round": 1})


def begin_iteration(s: Any, f: dict[str, Any]) -> bool:
    """Start the loop's next pass: False once it has run its times or its `until` holds."""
    lp = s.game.loops[f["loop"]]
    if lp.times is not None and f["n"] >= lp.times:
        return False
    if lp.until is not None and lp.until(s, {}):
        return False
    f["n"] += 1
    f["i"] = 0
    if lp.scope is not None:
        s.reset_scope(lp.scope)
    if f["loop"] and s.log is not None:
        s.say(f"== {lp.name} {f['n']} ==")
    return True


def next_seat(s: Any, f: dict[str, Any]) -> Player | None:
    """Who takes the next turn of a round-robin phase; None when every seat is skipped."""
    rr = s.game.phases[f["ph"]].round_robin
    n = len(s.players)
    step = 1 if rr.direction(s, {}) >= 0 else -1
    if f.get("lead") is not None:
        seat, f["lead"] = f["lead"], None
    elif f["cur"] is None:
        seat = rr.first(s, {})
        if seat is None:
            return None
    else:
        seat = (f["cur"] + step) % n
    players = s.players  # each seat's Player, made once
    for _ in range(n):
        p = players[seat % n]
        if rr.skip is None or not rr.skip(s, {"p": p}):
            return p
        seat = (seat + step) % n
    return None


def advance(s: Any) -> None:
    """Run the flow until a player must decide or the game is over."""
    game = s.game
    phases = game.phases
    stack = s.stack  # the frames are pushed and popped in place, never replaced while the flow runs
    for _ in _FLOW_STEPS:  # a bound on the steps without a decision (the `else` below)
        if s.over:
            return
        if not stack:
            finish_by_score(s)
            return
        f = stack[-1]
        kind = f["k"]
        # The frames by how often the flow meets them: a phase starting a turn goes on with that turn in
        # the same pass; a turn; then the decisions.
        if kind == "phase":
            ph = phases[f["ph"]]
            if ph.until is not None and ph.until(s, {}):
                stack.pop()
                continue
            if ph.round_robin is not None:
                p = next_seat(s, f)
                if p is None:
                    stack.pop()
                    continue
                f["cur"] = p
            else:
                if f["pos"] >= len(f["order"]):  # the round is over
                    if not ph.repeat:
                        stack.pop()
                        continue
                    f["pos"] = 0
                    f["round"] += 1
                    if ph.first is not None:  # the first-player marker may have moved
                        f["order"] = turn_order(ph.turns, len(s.players), int(ph.first(s, {})))
                    if not f["order"]:
                        continue
                    # Nothing has changed since `until` was tested above: the next round starts at once.
                p = f["order"][f["pos"]]
                f["pos"] += 1
            if s.log is None:  # start_turn, written out for the commonest turn
                s.turn_player = p
                s.turn_no += 1
                s.tv = dict(game.sym.turn_vars)
                s.ver["tv"] += 1
            else:  # a round-robin phase's turns are never `none`: its turns are announced
                start_turn(s, p, ph.name, quiet=ph.turns == "none")
            f = {"k": "turn", "ph": f["ph"], "i": 0, "p": p}
            stack.append(f)
            kind = "turn"  # starting a turn cannot end the game: its first step follows at once
        if kind == "turn":
            steps = phases[f["ph"]].steps
            i = f["i"]
            if i >= len(steps):
                stack.pop()
                continue
            step = steps[i]
            f["i"] = i + 1
            if step.kind == "do":
                if s.narrated is not None:
                    s.unit = Unit(game, f["p"])
                s.pending = []
                step.block(s, {"me": f["p"]})
                after_effect(s)
                if i + 1 == len(steps) and stack[-1] is f and not s.over:  # the turn's last step: it ends
                    stack.pop()
            elif step.kind == "simultaneous":
                simul.start(s, step, f["ph"], i, f["p"])
            else:
                stack.append({"k": "choose", "ph": f["ph"], "st": i, "p": f["p"]})
                if step.while_ is None and legal_actions(s):  # the decision, without a pass of the loop
                    return
        elif kind == "loop":
            lp = game.loops[f["loop"]]
            if f["i"] < len(lp.body):
                f["i"] += 1
                enter(s, lp.body[f["i"] - 1])
            elif not begin_iteration(s, f):
                stack.pop()
        elif kind == "simul":
            if simul.next_decider(s, f):
                return
            simul.reveal(s, f)
        elif kind == "wait":  # the end of a secret decision, on its private copy or at the reveal
            return
        elif kind == "game":  # a state saved before loops existed: the top level, in order
            stack[-1] = {"k": "loop", "loop": 0, "i": f["i"], "n": 1}
        else:
            if kind == "choose":
                step = phases[f["ph"]].steps[f["st"]]
                if step.while_ is not None and not step.while_(s, {"me": f["p"]}):
                    s._legal = None
                    stack.pop()
                    continue
            if legal_actions(s):
                return
            s._legal = None
            stack.pop()
    else:
        raise rule_error(
            s, "the flow made no decision in 100000 steps; is a phase empty and repeating?", "flow"
        )


_FLOW_STEPS = range(100_000)  # the most steps of the flow `advance` takes without a decision


def finish_by_score(s: Any) -> None:
    """The flow ran out: the highest score wins (all tied leaders share it)."""
    game = s.game
    ranks = {p: (game.score(s, {"p": p}), *(t(s, {"p": p}) for t in game.tiebreak)) for p in s.players}
    best = max(ranks.values())
    s.declare_winners([p for p, v in ranks.items() if v == best])
