"""The compiled flow and the action table of a game, as readable text."""

from __future__ import annotations

import os
import textwrap
from typing import Any

from meeple.api import Game
from meeple.compile.ir import ActionDef, PhaseDef, StepDef
from meeple.compile.options import OptionSpec, option_specs, show
from meeple.rules.variants import shorten
from meeple.runtime.engine import SKIP

WIDTH = 100

TURN_ORDERS = {
    "clockwise": "turns clockwise",
    "counterclockwise": "turns counterclockwise",
    "snake": "turns in snake order (p1 to the last, then back)",
    "none": "no turns",
}


def explain(game: Game) -> str:
    """Header, options, flow, action table and end of a compiled game."""
    data = game.source.data if game.source is not None else {}
    parts = [_header(game, data), _flow(game, data), _actions(game, data), _end(data)]
    return "\n\n".join(p for p in parts if p)


def _header(game: Game, data: dict[str, Any]) -> str:
    spec = (data.get("game") or {}).get("players") or {}
    span = f" ({spec['min']} to {spec['max']})" if "min" in spec and "max" in spec else ""
    lines = [f"{game.name} ({game.id}), {game.players} players{span}"]
    specs = _specs(game)
    for name, value in game.options.items():
        spec = specs.get(name)
        kind = f" ({spec.type}{', ' + spec.allowed() if spec.allowed() else ''})" if spec else ""
        doc = f": {spec.doc}" if spec and spec.doc else ""
        lines.append(f"  option {name} = {_value(value)}{kind}{doc}")
    return "\n".join(lines)


# ---------------------------------------------------------------- options and variants


def _specs(game: Game) -> dict[str, OptionSpec]:
    if game.source is None:
        return {}
    return option_specs(game.source.data, game.source.index)[0]


def _value(value: Any) -> str:
    return show(value) if isinstance(value, bool) else str(value)


def explain_options(game: Game) -> str:
    """A table of the game's options: name, type, default, range or choices, doc (and a value given)."""
    specs = _specs(game)
    if not specs:
        return f"{game.name} has no options."
    rows = [("option", "type", "default", "allowed", "doc")]
    for name, spec in specs.items():
        now = game.options.get(name, spec.default)
        default = _value(spec.default) + (f" (now {_value(now)})" if now != spec.default else "")
        rows.append((name, spec.type, default, spec.allowed() or "any", spec.doc or ""))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [f"Options of {game.name} (-o NAME=VALUE)"]
    for row in rows:
        lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[4])
    return "\n".join(line.rstrip() for line in lines)


def options_record(game: Game) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "type": spec.type,
            "default": spec.default,
            "value": game.options.get(name, spec.default),
            "min": spec.min,
            "max": spec.max,
            "choices": list(spec.choices) if spec.choices is not None else None,
            "doc": spec.doc,
        }
        for name, spec in _specs(game).items()
    ]


def _shown(path: str) -> str:
    """A file name as short as it can be said: relative to here when it is below here."""
    relative = os.path.relpath(path) if os.path.isabs(path) else path
    return path if relative.startswith("..") else relative


def explain_diff(game: Game) -> str:
    """What a variant changes against its base, one change a line, each at the variant's line."""
    source = game.source
    assert source is not None and len(source.chain) > 1
    changes = sorted(source.own_changes, key=lambda c: (c.where.line, c.where.col) if c.where else (0, 0))
    head = f"{_shown(source.chain[0])} against {_shown(source.chain[1])}: "
    lines = [head + (f"{len(changes)} change{'s' if len(changes) != 1 else ''}" if changes else "no changes")]
    for c in changes:
        where = f"{_shown(c.where.file)}:{c.where.line}" if c.where else "?"
        values = ""
        if c.kind == "changed" and c.item is None and _scalar(c.old) and _scalar(c.new):
            values = f" ({shorten(_value(c.old))} -> {shorten(_value(c.new))})"
        lines.append(f"  {where}: {c.kind} {c.target}{values}")
    return "\n".join(lines)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def diff_record(game: Game) -> dict[str, Any]:
    source = game.source
    assert source is not None and len(source.chain) > 1
    return {
        "variant": source.chain[0],
        "base": source.chain[1],
        "changes": [c.to_dict() for c in source.own_changes],
    }


# ---------------------------------------------------------------- flow


def _flow(game: Game, data: dict[str, Any]) -> str:
    lines = ["Flow"]
    phases = iter(enumerate(game.definition.phases, 1))
    _flow_items(data.get("flow") or [], phases, lines, "  ")
    return "\n".join(lines)


def _flow_items(items: list[Any], phases: Any, lines: list[str], indent: str) -> None:
    """The phases in the order they were compiled, with the loops that hold them."""
    for src in items:
        src = src if isinstance(src, dict) else {}
        if "phases" in src:
            how = f"{src['times']} times" if "times" in src else "again and again"
            if "until" in src:
                how += f", until {_one_line(src['until'])}"
            scope = f", fresh `{src['scope']}` variables each time" if src.get("scope") else ""
            lines.append(f"{indent}loop {src.get('loop', '')}: {how}{scope}")
            _flow_items(src.get("phases") or [], phases, lines, indent + "  ")
            continue
        i, phase = next(phases)
        lines += _wrap(f"{i}. {phase.name}: {_turns(src)}, {_repeat(phase, src)}", indent, indent + "     ")
        steps_src: list[Any] = src["do"] if isinstance(src.get("do"), list) else []
        for k, step in enumerate(phase.steps):
            step_src = steps_src[k] if len(steps_src) == len(phase.steps) else None
            lines += _step(step, step_src, indent + "     ")


def _turns(src: dict[str, Any]) -> str:
    turns = src.get("turns", "clockwise")
    if not isinstance(turns, dict):
        return TURN_ORDERS.get(str(turns), str(turns))
    rr = turns.get("round_robin") or {}
    words = ["turns around the table"]
    if "first" in rr:
        words.append(f"from {_one_line(rr['first'])}")
    if "direction" in rr:
        words.append(f"in direction {_one_line(rr['direction'])}")
    if "skip" in rr:
        words.append(f"skipping p when {_one_line(rr['skip'])}")
    return " ".join(words)


def _repeat(phase: PhaseDef, src: dict[str, Any]) -> str:
    for key, words in (
        ("times", "repeated {} times"),
        ("until", "repeated until {}"),
        ("while", "repeated while {}"),
    ):
        if key in src:
            return words.format(_one_line(src[key]))
    return "repeated until the game ends" if phase.repeat else "once"


def _step(step: StepDef, src: Any, indent: str) -> list[str]:
    if step.kind in ("choose", "simultaneous"):
        head = f"choose actions until {step.until}: " if step.until else "choose one action: "
        if isinstance(src, dict) and "while" in src:
            head = (
                f"choose while {_one_line(src['while'])}"
                + (f", or {step.until}" if step.until else "")
                + ": "
            )
        if step.kind == "simultaneous":
            who = _one_line(src["players"]) if isinstance(src, dict) and "players" in src else "every player"
            head = f"in secret, revealed together ({who}): {head}"
        return _wrap(head + ", ".join(step.actions), indent, indent + "    ")
    body = src.get("step") if isinstance(src, dict) else None
    if not isinstance(body, list):
        return [f"{indent}do: effects with no decision"]
    out: list[str] = []
    for j, statement in enumerate(body):
        out += _wrap(("do: " if j == 0 else "    ") + _statement(statement), indent, indent + "        ")
    return out


def _statement(st: Any) -> str:
    """One statement of the rules, shortened to its head: nested blocks show as `…`."""
    if not isinstance(st, dict):
        return _one_line(st)
    if "for" in st:
        cond = f" if {_one_line(st['if'])}" if "if" in st else ""
        return f"for {_one_line(st['for'])}{cond}: …"
    if "if" in st:
        return f"if {_one_line(st['if'])}: …" + (" else: …" if "else" in st else "")
    return ", ".join(f"{k}: …" for k in st)


# ---------------------------------------------------------------- actions


def _actions(game: Game, data: dict[str, Any]) -> str:
    chosen_in: dict[str, list[str]] = {}
    for phase in game.definition.phases:
        for step in phase.steps:
            for name in (*step.actions, step.until):
                if name in game.definition.actions:
                    chosen_in.setdefault(name, []).append(phase.name)
    sources = data.get("actions") or {}
    lines = [f"Actions ({len(game.definition.actions)}; stepwise ones are decided one parameter at a time)"]
    for name, action in game.definition.actions.items():
        where = (
            f"chosen in {', '.join(dict.fromkeys(chosen_in[name]))}"
            if name in chosen_in
            else "granted by effects"
        )
        lines.append(f"  {name:<16} {'stepwise' if action.stepwise else 'atomic':<9} {where}")
        lines += _action_rows(action, sources.get(name) or {})
    until = sorted(
        {
            s.until
            for p in game.definition.phases
            for s in p.steps
            if s.until and s.until not in game.definition.actions
        }
    )
    pseudo = [f"{u} (ends a choose step)" for u in until] + [f"{SKIP} (declines an optional grant)"]
    lines += ["", "Pseudo-actions: " + ", ".join(pseudo)]
    return "\n".join(lines)


def _action_rows(action: ActionDef, src: dict[str, Any]) -> list[str]:
    params: dict[str, Any] = src["params"] if isinstance(src.get("params"), dict) else {}
    rows = []
    for p in action.params:
        if p.domain is None:
            rows.append((p.name, "input (bound by whoever grants the action)"))
        else:
            rows.append((p.name, f"from {_one_line(params.get(p.name, '(computed)'))}"))
    if not action.params:
        rows.append(("(none)", "no parameters"))
    for key in ("when", "cost"):
        if src.get(key) is not None:
            rows.append((key, _one_line(src[key])))
    return [line for label, text in rows for line in _wrap(f"{label:<12} {text}", " " * 6, " " * 19)]


# ---------------------------------------------------------------- end


def _end(data: dict[str, Any]) -> str:
    scoring, end = data.get("scoring") or {}, data.get("end") or {}
    rows = []
    if scoring.get("score"):
        rows.append(("score", _one_line(scoring["score"])))
    tiebreak = scoring.get("tiebreak")
    for t in tiebreak if isinstance(tiebreak, list) else [tiebreak] if tiebreak else []:
        rows.append(("tie-break", f"the most {_one_line(t)}"))
    for name, award in (scoring.get("awards") or {}).items():
        if isinstance(award, dict):
            rows.append(
                (
                    "award",
                    f"{name}: {award.get('points')} points for the most "
                    f"{_one_line(award.get('measure'))}, at least {award.get('min')}",
                )
            )
    if end.get("win"):
        check = f" (checked on: {end['check']})" if end.get("check") else ""
        rows.append(("win", _one_line(end["win"]) + check))
    elif rows:
        rows.append(("win", "the highest score when the flow ends"))
    if not rows:
        return ""
    return "\n".join(
        ["End"] + [ln for label, text in rows for ln in _wrap(f"{label:<12} {text}", "  ", " " * 15)]
    )


# ---------------------------------------------------------------- text helpers


def _one_line(value: Any) -> str:
    return " ".join(str(value).split())


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    ) or [first.rstrip()]
