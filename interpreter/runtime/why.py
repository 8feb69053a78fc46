"""Why an action is or is not legal now: the step that does not offer it, a parameter value outside its
domain, the first condition of `when` that fails (broken down to the sub-expression and its values), or the
part of the cost the player lacks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from meeple.compile.builtins import can_pay, distinct
from meeple.compile.ir import ActionDef
from meeple.errors import MeepleError, SourceSpan, did_you_mean
from meeple.runtime import engine
from meeple.runtime.breakdown import Explainer, shown
from meeple.values import Action, Bundle, Player

# What a `Why` found, in the order the engine looks: the game, the step, each parameter, `when`, the cost.
KINDS = ("legal", "game-over", "not-offered", "outside-domain", "condition", "cost", "no-completion")


class ActionTextError(MeepleError):
    """The action asked about cannot be read: a bad form, an unknown action or parameter name."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message + (f" ({hint})" if hint else ""))
        self.message, self.hint = message, hint


@dataclass
class Why:
    """The answer to "why is this move (il)legal?": `str()` reads it out, `to_dict()` gives it as data."""

    action: str
    player: Player | None
    kind: str  # one of KINDS
    headline: str
    because: list[str] = field(default_factory=list)  # the reasons, outermost first
    where: SourceSpan | None = None  # where the failing condition or cost is written

    @property
    def legal(self) -> bool:
        return self.kind == "legal"

    def __str__(self) -> str:
        lines = [self.headline]
        if self.where is not None:
            lines.append(f"  at {self.where.file}:{self.where.line}:{self.where.col}")
        lines += [f"  {line}" for line in self.because]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        where = None
        if self.where is not None:
            where = {"file": self.where.file, "line": self.where.line, "col": self.where.col}
        return {
            "action": self.action,
            "player": None if self.player is None else str(self.player),
            "legal": self.legal,
            "kind": self.kind,
            "headline": self.headline,
            "because": list(self.because),
            "where": where,
        }


# ---------------------------------------------------------------- reading the action


_HEAD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


def read_action(text: str) -> tuple[str, list[tuple[str, str]], bool]:
    """`name(key=value, …)` as (name, [(key, value text)], partial); values may hold commas in brackets."""
    m = _HEAD.match(text)
    if not m:
        raise ActionTextError(f"cannot read the action '{text}'", "write it as name(param=value, …)")
    name, inner = m.group(1), (m.group(2) or "").strip()
    pairs: list[tuple[str, str]] = []
    partial = False
    for part in _top_level_split(inner):
        part = part.strip()
        if part in ("…", "...", ""):
            partial = partial or bool(part)
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ActionTextError(f"cannot read '{part}' in '{text}'", "give each parameter as name=value")
        pairs.append((key.strip(), value.strip()))
    return name, pairs, partial


def _top_level_split(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _norm(text: str) -> str:
    return re.sub(r"[\s'\"]", "", text)


def _match(text: str, values: list[Any]) -> tuple[bool, Any]:
    wanted = _norm(text)
    for v in values:
        if _norm(str(v)) == wanted or _norm(shown(v)) == wanted:
            return True, v
    return False, None


def literal(text: str) -> Any:
    """A parameter value with no domain to look it up in: a player `p2`, a number, true/false, or a name."""
    t = text.strip().strip("'\"")
    if re.fullmatch(r"p[1-9][0-9]*", t):
        return Player(int(t[1:]) - 1)
    if re.fullmatch(r"-?[0-9]+", t):
        return int(t)
    return {"true": True, "false": False, "none": None}.get(t, t)


# ---------------------------------------------------------------- where the game stands


@dataclass
class Offer:
    """What the decision on top of the flow offers: to whom, which actions, with which bound arguments."""

    player: Player
    names: list[str]
    words: list[str]  # `until` words and `skip`, which are not declared actions
    bound: dict[str, Any]
    free: bool
    described: str


def offer_here(s: Any) -> Offer:
    f = s.stack[-1]
    game = s.game
    p = f["p"]
    if f["k"] == "choose":
        ph = game.phases[f["ph"]]
        step = ph.steps[f["st"]]
        names = list(step.actions)
        words = []
        if step.until in game.actions:
            names.append(step.until)
        elif step.until:
            words.append(step.until)
        if step.optional:
            words.append(engine.SKIP)
        offered = ", ".join(names + words)
        return Offer(p, names, words, {}, False, f"phase '{ph.name}', step {f['st'] + 1} offers {offered}")
    args = dict(f["args"])
    shown_args = ", ".join(f"{k}={v}" for k, v in args.items())
    what = f"{f['action']}({shown_args})" if args else f["action"]
    if f["k"] == "grant":
        words = [engine.SKIP] if f["optional"] else []
        return Offer(p, [f["action"]], words, args, f["free"], f"{p} must now decide the granted {what}")
    return Offer(p, [f["action"]], [], args, f["free"], f"{p} is deciding {what} one parameter at a time")


# ---------------------------------------------------------------- the answer


def why(s: Any, action: Action | str) -> Why:
    """Why `action` is legal or not for the player deciding now; raises ActionTextError on bad input."""
    typed = dict(action.params) if isinstance(action, Action) else None
    text = str(action)
    name, pairs, partial = read_action(text)
    if isinstance(action, Action):
        partial = action.partial
    game = s.game
    if s.is_over or not s.stack:
        return Why(text, None, "game-over", f"{text} is not legal: the game is over")
    if s.stack[-1]["k"] == "simul":  # a secret choice: asked of the chooser's private copy of the state
        from meeple.runtime.simultaneous import own_scratch

        return why(own_scratch(s), action)
    known = (
        set(game.actions) | {engine.SKIP} | {st.until for ph in game.phases for st in ph.steps if st.until}
    )
    if name not in known:
        raise ActionTextError(f"{game.id} has no action '{name}'", did_you_mean(name, sorted(known)))
    if name in game.actions:
        check_names(game.actions[name], [k for k, _ in pairs])
    offer = offer_here(s)
    me = offer.player
    if any(_norm(str(a)) == _norm(text) for a in s.legal_actions()):
        return Why(text, me, "legal", f"{text} is legal for {me} now")
    if name not in offer.names and name not in offer.words:
        headline = f"{text} is not offered to {me} now: {offer.described}"
        return Why(text, me, "not-offered", headline, [offered_where(game, name)])
    if name not in game.actions:  # an offered word with nothing else legal
        return Why(text, me, "not-offered", f"{text} is not offered now: nothing else is legal either")
    return _Walk(s, game.actions[name], offer, text).run(pairs, typed, partial)


def offered_where(game: Any, name: str) -> str:
    """Where in the flow an action is offered, or that it comes only when granted."""
    places = [
        f"phase '{ph.name}', step {i + 1}"
        for ph in game.phases
        for i, st in enumerate(ph.steps)
        if name in st.actions or name == st.until
    ]
    if not places:
        return f"{name} is never offered by a step: an effect grants it"
    return f"{name} is offered in " + "; ".join(places)


def check_names(a: ActionDef, keys: list[str]) -> None:
    names = [p.name for p in a.params]
    for key in keys:
        if key not in names:
            hint = did_you_mean(key, names) or (f"its parameters: {', '.join(names)}" if names else None)
            raise ActionTextError(f"{a.name} has no parameter '{key}'", hint or f"{a.name} takes none")


class _Walk:
    """Bind the parameters in order, checking what the engine checks at each level; stop at the first miss."""

    def __init__(self, s: Any, a: ActionDef, offer: Offer, text: str) -> None:
        self.s, self.a, self.offer, self.text = s, a, offer, text
        self.me = offer.player
        self.b: dict[str, Any] = {"me": offer.player, **offer.bound}
        self.explainer = Explainer(s)
        self.spec = (s.game.rules.get("actions") or {}).get(a.name) or {}
        # A cost the player cannot pay: the walk goes on, to say what else fails.
        self.unpaid: Why | None = None

    def run(self, pairs: list[tuple[str, str]], typed: dict[str, Any] | None, partial: bool) -> Why:
        found = self.walk(pairs, typed, partial)
        if self.unpaid is None:
            return found
        if found.kind in ("legal", "no-completion") or found.kind == self.unpaid.kind:
            return self.unpaid
        besides = found.headline.split(": ", 1)[-1]
        self.unpaid.because += [f"besides, {besides}", *(f"  {line}" for line in found.because)]
        return self.unpaid

    def fail(self, kind: str, reason: str, because: list[str] | None = None, where: Any = None) -> Why:
        return Why(
            self.text,
            self.me,
            kind,
            f"{self.text} is not legal for {self.me}: {reason}",
            because or [],
            where,
        )

    def walk(self, pairs: list[tuple[str, str]], typed: dict[str, Any] | None, partial: bool) -> Why:
        a = self.a
        names = [p.name for p in a.params]
        given = dict(pairs)
        for key, value in self.offer.bound.items():
            if key in given and _norm(given[key]) != _norm(str(value)):
                return self.fail(
                    "not-offered", f"{self.offer.described}, with {key}={value}, not {given[key]}"
                )
        missing = [nm for nm in names if nm not in given and nm not in self.offer.bound]
        if missing and not (partial or a.stepwise):
            raise ActionTextError(
                f"{a.name} needs {', '.join(missing)}",
                f"write {a.name}({', '.join(f'{m}=…' for m in names)})",
            )
        found = self.level(0)
        if found is not None:
            return found
        for k, p in enumerate(a.params):
            if p.name in self.offer.bound:
                pass
            elif p.name not in given:  # the rest is left open: can it still be completed?
                return self.completable(names[k:])
            elif p.domain is None:
                self.b[p.name] = typed[p.name] if typed and p.name in typed else literal(given[p.name])
            else:
                values = distinct(self.s, p.domain(self.s, self.b))
                ok, value = (
                    (typed[p.name] in values, typed[p.name]) if typed and p.name in typed else (False, None)
                )
                if not ok:
                    ok, value = _match(given[p.name], values)
                if not ok:
                    return self.outside(p.name, given[p.name], values)
                self.b[p.name] = value
            found = self.level(k + 1)
            if found is not None:
                return found
        note = " (it is decided one parameter at a time)" if a.stepwise else ""
        return Why(self.text, self.me, "legal", f"{self.text} is legal for {self.me} now{note}")

    def level(self, k: int) -> Why | None:
        """The checks that need the first k parameters, then the cost if it needs exactly those."""
        a, s, b = self.a, self.s, self.b
        for i, check in enumerate(a.checks[k]):
            if not check(s, b):
                node = a.check_nodes[k][i] if k < len(a.check_nodes) and i < len(a.check_nodes[k]) else None
                found = self.condition(node)
                if a.cost is not None and not self.offer.free and a.cost_level <= k and self.unpaid is None:
                    cost = a.cost(s, b)  # the cost is known by now: is it short too?
                    if not can_pay(s, self.me, cost):
                        found.because.append("besides, " + self.cost(cost).headline.split(": ", 1)[1])
                return found
        if a.cost is not None and not self.offer.free and a.cost_level == k:
            cost = a.cost(s, b)
            if not can_pay(s, self.me, cost) and self.unpaid is None:
                self.unpaid = self.cost(cost)
        return None

    def condition(self, node: Any) -> Why:
        src = str(self.spec.get("when", ""))
        if node is None:
            return self.fail("condition", f"its condition `{src}` is false")
        path = ("actions", self.a.name, "when")
        where = self.s.game.index.locate(path, node.pos) if self.s.game.index is not None else None
        lines = self.explainer.false_because(node, src, self.b)
        head = lines.pop(0) if lines else f"`{src[node.pos : node.end]}` is false"
        return self.fail("condition", head, lines, where)

    def cost(self, cost: Bundle) -> Why:
        have = self.s.pv[self.me]
        short = Bundle({r: n - have.get(r, 0) for r, n in cost.items() if have.get(r, 0) < n})
        holds = ", ".join(f"{have.get(r, 0)} {r}" for r in cost)
        where = (
            self.s.game.index.nearest_span(("actions", self.a.name, "cost")) if self.s.game.index else None
        )
        reason = f"it costs {cost} and {self.me} has {holds}: {short} short"
        return self.fail("cost", reason, [], where)

    def outside(self, name: str, given: str, values: list[Any]) -> Why:
        src = str((self.spec.get("params") or {}).get(name, name))
        if not values:
            return self.fail("outside-domain", f"{name} has no values here: `{src}` is empty")
        listed = ", ".join(shown(v) for v in values[:12]) + (", …" if len(values) > 12 else "")
        reason = f"{name}={given} is not among the values of `{src}` here"
        return self.fail("outside-domain", reason, [f"{name} may be ({len(values)}): {listed}"])

    def completable(self, rest: list[str]) -> Why:
        bound = {k: v for k, v in self.b.items() if k != "me"}
        found = next(engine.completions(self.s, self.a, self.me, bound, self.offer.free), None)
        if found is not None:
            return Why(
                self.text, self.me, "legal", f"{self.text} is legal for {self.me} now (to be completed)"
            )
        reason = f"no choice of {', '.join(rest)} makes it legal"
        return self.fail("no-completion", reason)
