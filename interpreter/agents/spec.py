"""Agent specs: a registry name with options, `mcts:iterations=200:depth=20`, read and checked.

A list of specs is comma-separated; a comma-separated piece that is only `NAME=VALUE` continues the options
of the spec before it, so `mcts:iterations=200,depth=20,random` is two specs. Values are read as `yes`/`no`
(also true/false, on/off), `none`, whole or decimal numbers, or else the text itself.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

WORDS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False, "none": None}


def split_specs(text: str) -> list[str]:
    """`a:k=1,j=2,b` -> ['a:k=1:j=2', 'b']; raises ValueError on an option with no agent before it."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece:
            if not specs:
                raise ValueError(f"option '{piece}' comes before any agent name")
            specs[-1] += ":" + piece
        else:
            specs.append(piece)
    return specs


def value(text: str) -> Any:
    if text.lower() in WORDS:
        return WORDS[text.lower()]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`mcts:iterations=200` -> ('mcts', {'iterations': 200}); raises ValueError when malformed."""
    name, *parts = (p.strip() for p in spec.split(":"))
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, text = part.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"agent '{spec}': expected NAME=VALUE after ':', got '{part}'")
        options[key.strip()] = value(text.strip())
    return name, options


def build(spec: str, registry: Mapping[str, Callable[..., Any]]) -> Any:
    """The agent a spec names, made with its options and named by the spec; ValueError for any mistake."""
    name, options = parse_spec(spec)
    if name not in registry:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(registry)})")
    factory = registry[name]
    known = [p for p in inspect.signature(factory).parameters if p != "self"]
    for key in options:
        if key not in known:
            takes = f"its options are {', '.join(known)}" if known else "it takes no options"
            raise ValueError(f"agent '{name}' has no option '{key}' ({takes})")
    try:
        agent = factory(**options)
    except (TypeError, ValueError) as err:
        raise ValueError(f"agent '{spec}': {err}") from None
    if options:
        agent.name = ":".join(p.strip() for p in spec.split(":"))
    return agent
