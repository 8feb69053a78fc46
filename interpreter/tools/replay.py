"""Saved games as traces: the state after every action kept as a small change to the one before, and a
trace replayed against rules (perhaps edited since) up to the first step where the game diverges.

A trace (`meeple run --save`) holds the seed and the actions, `start` (the state after the set-up, as the
JSON of `State.to_json`) and `steps`: for action i, the changes that turn the state before it into the
state after it, each `[path]` (a key removed) or `[path, value]`. The game diverges at the first step whose
action is not legal in the replayed game, or whose resulting state differs from the saved one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.api import Game
from meeple.errors import IllegalActionError
from meeple.runtime.state import decode
from meeple.values import Action

Key = str | int
JsonPath = tuple[Key, ...]
ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "(absent)"})()
# Not a part of the game's state: the rule file's name (a copy under another name is the same game).
IGNORED = frozenset({"game"})
TUPLE = "$tuple"  # how a state's JSON writes a tuple: {"$tuple": [...]}
SHOWN = 12  # legal actions and differences listed in a report; the JSON has all of them


# ---------------------------------------------------------------- differences between JSON values


def changes(old: Any, new: Any, path: JsonPath = ()) -> Iterator[tuple[JsonPath, Any, Any]]:
    """The smallest parts of two JSON values that differ, as (path, old, new); ABSENT for a missing key.

    A typed value (`{"$player": 0}`, a bundle, a tuple…) is one part; lists of the same length are
    compared item by item, others as wholes."""
    if _same(old, new):
        return
    if _plain_dict(old) and _plain_dict(new):
        for k in sorted(old.keys() | new.keys()):
            yield from changes(old.get(k, ABSENT), new.get(k, ABSENT), (*path, k))
    elif _tuple(old) and _tuple(new) and len(old[TUPLE]) == len(new[TUPLE]):  # the generator's state, say
        for i, (a, b) in enumerate(zip(old[TUPLE], new[TUPLE], strict=True)):
            yield from changes(a, b, (*path, TUPLE, i))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from changes(a, b, (*path, i))
    else:
        yield path, old, new


def _tuple(value: Any) -> bool:
    return isinstance(value, dict) and value.keys() == {TUPLE} and isinstance(value[TUPLE], list)


def _plain_dict(value: Any) -> bool:
    return isinstance(value, dict) and not any(k.startswith("$") for k in value)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: `true` is not `1`, nor `1.0`, at any depth."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    return bool(a == b)


def delta(old: Any, new: Any) -> list[list[Any]]:
    """What turns `old` into `new`: `[path]` removes a key, `[path, value]` sets one."""
    return [[list(p)] if b is ABSENT else [list(p), b] for p, _, b in changes(old, new)]


def patched(value: Any, change: Sequence[Sequence[Any]]) -> Any:
    """`value` with a `delta` applied (a new value; `value` is left as it was)."""
    value = json.loads(json.dumps(value))
    for item in change:
        path = list(item[0])
        if not path:
            value = item[1]
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        if len(item) == 1:
            del parent[path[-1]]
        else:
            parent[path[-1]] = item[1]
    return value


def path_text(path: JsonPath) -> str:
    """`pv[0].rope`, `zones.hand#1.volunteer`: how a report names a part of a state."""
    text = ""
    for key in path:
        if key != TUPLE:
            text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    if path[:1] == ("rng",):
        text += " (the random generator)"
    return text or "(the whole state)"


def value_text(value: Any, width: int = 60) -> str:
    """A value of a state's JSON as a rule file would show it: p1, 2 rope + 1 chalk, [a, b]."""
    if value is ABSENT:
        return "(absent)"
    text = _show(decode(value))
    return text if len(text) <= width else text[: width - 1] + "…"


def _show(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_show, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ---------------------------------------------------------------- recording


def state_json(state: Any) -> dict[str, Any]:
    data = json.loads(state.to_json())
    return {k: v for k, v in data.items() if k not in IGNORED}


def record_steps(game: Game, seed: int, actions: Sequence[Action | str]) -> dict[str, Any]:
    """`start` and `steps` of a trace: the game replayed from its seed, each state kept as a delta."""
    state = game.new_game(seed=seed)
    before = state_json(state)
    start, steps = before, []
    for action in actions:
        state.apply(action)
        after = state_json(state)
        steps.append(delta(before, after))
        before = after
    return {"start": start, "steps": steps}


def trace_text(record: dict[str, Any]) -> str:
    """A saved game as JSON text: the record indented, `start` on one line and each step on a line of its
    own, so a golden trace kept in version control diffs by step."""
    head = {k: v for k, v in record.items() if k not in ("start", "steps")}
    text = json.dumps(head, indent=1)[: -len("\n}")]
    if "start" in record:
        text += ',\n "start": ' + json.dumps(record["start"], separators=(",", ":"))
    if "steps" in record:
        rows = (json.dumps(step, separators=(",", ":")) for step in record["steps"])
        text += ',\n "steps": [\n' + ",\n".join(f"  {row}" for row in rows) + "\n ]"
    return text + "\n}\n"


# ---------------------------------------------------------------- replaying


class BadTrace(ValueError):
    """The saved states of a trace do not make sense (an edited or truncated file)."""


@dataclass
class Divergence:
    """The first step where a replayed game leaves its trace (step 0 is the set-up)."""

    step: int
    action: str | None  # the saved action of that step (None for the set-up)
    player: str | None  # who took it in the saved game (None when not known)
    kind: str  # "set-up", "illegal", "state" (the state after the step differs), "final" or "ended"
    legal: list[str] = field(default_factory=list)  # for "illegal": what is legal there now
    differences: list[tuple[JsonPath, Any, Any]] = field(default_factory=list)  # (path, saved, now)

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "action": self.action,
            "player": self.player,
            "kind": self.kind,
            "legal": self.legal,
            "differences": [
                {"part": path_text(p), "path": list(p), "saved": _json(a), "now": _json(b)}
                for p, a, b in self.differences
            ],
        }


def _json(value: Any) -> Any:
    return None if value is ABSENT else value


@dataclass
class Replay:
    """What replaying a trace found: how far it agreed, and its divergence (None: it replays identically)."""

    actions: int  # in the trace
    replayed: int  # actions that replayed identically before the divergence (all of them without one)
    checked: str  # what each step was compared with: "states", "final state" or "actions only"
    divergence: Divergence | None
    final: Any = None  # the replayed state at the end (None after a divergence)


def replay_trace(game: Game, record: dict[str, Any]) -> Replay:
    """Replay a saved game's actions on `game`, comparing every state with the saved one where it has them."""
    actions = [str(a) for a in record["actions"]]
    expected, steps = record.get("start"), record.get("steps")
    if steps is not None and (not isinstance(steps, list) or len(steps) != len(actions)):
        count = len(steps) if isinstance(steps, list) else "no list of"
        raise BadTrace(f"{count} saved states for {len(actions)} actions")
    if steps is not None and not isinstance(expected, dict):
        raise BadTrace("saved states but no start state")
    final = record.get("final")
    checked = "states" if steps is not None else "final state" if isinstance(final, dict) else "actions only"
    state = game.new_game(seed=int(record["seed"]))
    if expected is not None:
        differences = list(changes(expected, state_json(state)))
        if differences:
            return Replay(len(actions), 0, checked, Divergence(0, None, None, "set-up", [], differences))
    for i, text in enumerate(actions):
        player = None if state.to_move is None else str(state.to_move)
        if state.is_over:
            return Replay(len(actions), i, checked, Divergence(i + 1, text, None, "ended"))
        try:
            action = state.find_action(text)
        except IllegalActionError:
            legal = [str(a) for a in state.legal_actions()]
            return Replay(len(actions), i, checked, Divergence(i + 1, text, player, "illegal", legal))
        state.apply(action)
        if steps is not None:
            try:
                expected = patched(expected, steps[i])
            except (LookupError, TypeError, ValueError):
                raise BadTrace(f"step {i + 1} of the saved states does not fit the state before it") from None
            differences = list(changes(expected, state_json(state)))
            if differences:
                diverged = Divergence(i + 1, text, player, "state", [], differences)
                return Replay(len(actions), i, checked, diverged)
    if isinstance(final, dict):  # with steps too: a trace whose final state was edited is caught
        saved = {k: v for k, v in final.items() if k not in IGNORED}
        differences = list(changes(saved, state_json(state)))
        if differences:
            last = actions[-1] if actions else None
            diverged = Divergence(len(actions), last, None, "final", [], differences)
            return Replay(len(actions), len(actions), checked, diverged)
    return Replay(len(actions), len(actions), checked, None, state)


# ---------------------------------------------------------------- the report


HEADLINES = {
    "set-up": "the state after the set-up differs",
    "illegal": "is no longer legal there",
    "state": "the state after it differs",
    "final": "the final state differs",
    "ended": "the replayed game is already over there",
}


def report_lines(result: Replay) -> list[str]:
    """The divergence in words: the step, its action, and the parts of the two states that differ."""
    d = result.divergence
    if d is None:
        return []
    who = f"{d.player} " if d.player else ""
    if d.kind == "set-up":
        lines = [f"The game diverges at the set-up (step 0): {HEADLINES['set-up']}."]
    elif d.kind == "final":
        lines = [f"All {result.actions} actions replay, but {HEADLINES['final']} (step {d.step})."]
    else:
        at = f"The game diverges at step {d.step} of {result.actions}: {who}{d.action}"
        lines = [f"{at} {HEADLINES['illegal']}." if d.kind == "illegal" else f"{at}: {HEADLINES[d.kind]}."]
    if d.kind == "illegal":
        shown = ", ".join(d.legal[:SHOWN]) + (f", … ({len(d.legal)} in all)" if len(d.legal) > SHOWN else "")
        lines.append(f"  legal there now: {shown or 'nothing'}")
        lines.append("  the states before it are the same" if result.checked == "states" else "")
    rows = grouped(d.differences)
    if rows:
        width = max(len(part) for part, _ in rows[:SHOWN])
        lines.append(f"  {'part':<{width}}  saved -> now")
        lines += [f"  {part:<{width}}  {change}" for part, change in rows[:SHOWN]]
        if len(rows) > SHOWN:
            lines.append(f"  … and {len(rows) - SHOWN} more parts differ (--format json lists them all)")
    return [line for line in lines if line]


def grouped(differences: Sequence[tuple[JsonPath, Any, Any]]) -> list[tuple[str, str]]:
    """Report rows (part, change): the items of one list that differ in more than three places are one
    row (the random generator's state, say), every other difference a row of its own."""
    per_list: dict[JsonPath, int] = {}
    for p, _, _ in differences:
        if p and isinstance(p[-1], int):
            per_list[p[:-1]] = per_list.get(p[:-1], 0) + 1
    rows: list[tuple[str, str]] = []
    shown: set[JsonPath] = set()
    for p, a, b in differences:
        parent = p[:-1]
        if p and isinstance(p[-1], int) and per_list[parent] > 3:
            if parent not in shown:
                rows.append((path_text(parent), f"{per_list[parent]} items differ"))
                shown.add(parent)
            continue
        rows.append((path_text(p), f"{value_text(a)} -> {value_text(b)}"))
    return rows
