"""Typed game options: each is an integer, number, boolean, choice or string, with a range or a list of
choices. A value given on the command line (text) or through the API is converted to the option's type and
checked; a wrong one is a usage error naming the option and its type."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from meeple.errors import Diagnostic, RulesError, did_you_mean
from meeple.rules.loader import SourceIndex

TYPES = ("integer", "number", "boolean", "choice", "string")
_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")
_WORDS = {
    "integer": "an integer (a whole number)",
    "number": "a number",
    "boolean": "a boolean (true or false)",
    "string": "a string (text)",
}


class OptionValueError(ValueError):
    """A value that an option cannot take; `code` says which check it failed."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def show(value: Any) -> str:
    """A value as a user would write it: `true`, `10`, `'abc'`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"'{value}'" if isinstance(value, str) else repr(value)


def _plain(value: Any) -> str:
    return show(value) if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class OptionSpec:
    """One declared option: its type, default, range or choices and doc."""

    name: str
    type: str
    default: Any
    min: int | float | None = None
    max: int | float | None = None
    choices: tuple[Any, ...] | None = None
    doc: str | None = None

    def allowed(self) -> str:
        """The range or choices, in words: `3..30`, `at least 0`, `easy, hard`, or ''."""
        if self.choices is not None:
            return ", ".join(map(_plain, self.choices))
        if self.min is not None and self.max is not None:
            return f"{self.min}..{self.max}"
        if self.min is not None:
            return f"at least {self.min}"
        if self.max is not None:
            return f"at most {self.max}"
        return ""

    def words(self) -> str:
        """What the option takes: `an integer (a whole number) in 3..30`, `one of easy, hard`."""
        if self.type == "choice":
            return f"a choice: one of {self.allowed()}"
        words = _WORDS[self.type]
        if self.type == "boolean":
            return words
        if self.choices is not None:
            return f"{words}, one of {self.allowed()}"
        return f"{words} in {self.allowed()}" if self.allowed() else words

    def convert(self, value: Any) -> Any:
        """`value` as this option's type (text is parsed), checked against its range and choices."""
        converted = self._typed(value)
        if self.choices is not None:
            converted = self._chosen(value, converted)
        if isinstance(converted, (int, float)) and not isinstance(converted, bool):
            too_low = self.min is not None and converted < self.min
            if too_low or (self.max is not None and converted > self.max):
                raise OptionValueError("usage/option-range", f"takes {self.words()}, not {show(value)}")
        return converted

    def _typed(self, value: Any) -> Any:
        kind = self.type
        if kind == "choice":
            return value
        parsed = _parse(kind, value) if isinstance(value, str) and kind != "string" else value
        ok = {
            "integer": isinstance(parsed, int) and not isinstance(parsed, bool),
            "number": isinstance(parsed, (int, float))
            and not isinstance(parsed, bool)
            and math.isfinite(parsed),
            "boolean": isinstance(parsed, bool),
            "string": isinstance(parsed, (str, int, float)) and not isinstance(parsed, bool),
        }[kind]
        if not ok:
            raise OptionValueError("usage/option-type", f"takes {self.words()}, not {show(value)}")
        return str(parsed) if kind == "string" else parsed

    def _chosen(self, given: Any, value: Any) -> Any:
        for choice in self.choices or ():
            same = type(choice) is type(value) and choice == value
            if same or (isinstance(given, str) and _plain(choice) == given):
                return choice
        raise OptionValueError("usage/option-choice", f"takes {self.words()}, not {show(given)}")


def _parse(kind: str, text: str) -> Any:
    """Text from the command line as an integer, number or boolean; the text itself when it is none."""
    text = text.strip()
    if kind == "boolean":
        low = text.lower()
        return True if low in _TRUE else False if low in _FALSE else text
    try:
        return int(text)
    except ValueError:
        pass
    if kind == "number":
        try:
            return float(text)
        except ValueError:
            pass
    return text


def inferred_type(spec: dict[str, Any]) -> str:
    """The type an option declares, or the one its default tells: choices make a `choice`."""
    if isinstance(spec.get("type"), str):
        return str(spec["type"])
    default = spec.get("default")
    if isinstance(default, bool):
        return "boolean"
    if spec.get("choices") is not None:
        return "choice"
    if isinstance(default, int):
        return "integer"
    if isinstance(default, float):
        return "number"
    return "string"


def option_specs(data: dict[str, Any], index: SourceIndex) -> tuple[dict[str, OptionSpec], list[Diagnostic]]:
    """The declared options, and the problems of their declarations (a default of the wrong type...)."""
    declared = (data.get("game") or {}).get("options") or {}
    specs: dict[str, OptionSpec] = {}
    problems: list[Diagnostic] = []
    if not isinstance(declared, dict):
        return specs, problems
    for name, raw in declared.items():
        raw = raw if isinstance(raw, dict) else {}
        where = ("game", "options", name)
        kind = inferred_type(raw)
        if kind not in TYPES:  # the schema reports it; the default tells the type meanwhile
            kind = inferred_type({k: v for k, v in raw.items() if k != "type"})
        choices = raw.get("choices")
        spec = OptionSpec(
            str(name),
            kind,
            raw.get("default"),
            _number(raw.get("min")),
            _number(raw.get("max")),
            tuple(choices) if isinstance(choices, list) else None,
            raw.get("doc") if isinstance(raw.get("doc"), str) else None,
        )
        found = _spec_problems(spec, raw)
        problems += [
            Diagnostic(code, message, index.nearest_span((*where, key))) for code, key, message in found
        ]
        if not found:
            specs[str(name)] = spec
    return specs, problems


def _number(value: Any) -> int | float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _spec_problems(spec: OptionSpec, raw: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(code, key, message) for each mistake in one option's declaration."""
    out = []
    numeric = spec.type in ("integer", "number")
    if spec.type == "choice" and spec.choices is None:
        out.append(("rules/option-spec", "type", f"option '{spec.name}' is a choice but lists no `choices`"))
    if not numeric and ("min" in raw or "max" in raw):
        key = "min" if "min" in raw else "max"
        out.append(("rules/option-spec", key, f"option '{spec.name}' is a {spec.type}: it has no range"))
    if spec.min is not None and spec.max is not None and spec.min > spec.max:
        out.append(
            ("rules/option-spec", "min", f"option '{spec.name}' has min {spec.min} above max {spec.max}")
        )
    typed = OptionSpec(spec.name, spec.type, spec.default)
    for i, choice in enumerate(spec.choices or ()):
        if spec.type != "choice":
            try:
                typed.convert(choice)
            except OptionValueError:
                message = f"choice {show(choice)} of option '{spec.name}' is not {_WORDS[spec.type]}"
                out.append(("rules/option-spec", f"choices.{i}", message))
    if not out and "default" in raw:
        try:
            spec.convert(spec.default)
        except OptionValueError:
            message = f"option '{spec.name}' takes {spec.words()}: its default cannot be {show(spec.default)}"
            out.append(("rules/option-default", "default", message))
    return out


def resolve_options(data: dict[str, Any], given: dict[str, Any], index: SourceIndex) -> dict[str, Any]:
    """Every option's value: the defaults, then the `given` values converted and checked.

    A mistake in a declaration is a rules error at its line; a given value that is unknown or wrong is a
    usage error naming the option and what it takes, placed at the option's declaration.
    """
    specs, problems = option_specs(data, index)
    if problems:
        raise RulesError(problems)
    options = {name: spec.default for name, spec in specs.items()}
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(specs) or "none"
            hint = did_you_mean(str(name), specs) or f"the options of this game: {known}"
            where = index.nearest_span(("game", "options"))
            problems.append(Diagnostic("usage/unknown-option", f"unknown option '{name}'", where, hint))
            continue
        try:
            options[name] = spec.convert(value)
        except OptionValueError as err:
            hint = f"e.g. -o {name}={_plain(spec.default)}"
            if err.code == "usage/option-choice" and isinstance(value, str):
                hint = did_you_mean(value, [_plain(c) for c in spec.choices or ()]) or hint
            where = index.nearest_span(("game", "options", name))
            problems.append(Diagnostic(err.code, f"option '{name}' {err}", where, hint))
    if problems:
        raise RulesError(problems)
    return options


__all__ = ["TYPES", "OptionSpec", "OptionValueError", "inferred_type", "option_specs", "resolve_options"]
