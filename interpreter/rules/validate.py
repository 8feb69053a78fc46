"""Schema checks over loaded rules: every jsonschema error turned into a short, located diagnostic."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ..errors import Diagnostic, SourceSpan, did_you_mean
from .loader import PathKey, SourceIndex

_TYPE_NAMES = {"object": "mapping", "array": "list"}
_MAX_SHOWN = 8  # enum members listed in a message
_MAX_TEXT = 40  # characters of a string value quoted in a message
_BOUNDS = {
    "minimum": "a number >= {}",
    "maximum": "a number <= {}",
    "exclusiveMinimum": "a number > {}",
    "exclusiveMaximum": "a number < {}",
    "minItems": "at least {} items",
    "maxItems": "at most {} items",
    "minLength": "at least {} characters",
    "maxLength": "at most {} characters",
    "minProperties": "at least {} keys",
    "maxProperties": "at most {} keys",
}
_SIZES: dict[str, Callable[[Any], str]] = {
    "Items": lambda v: f"{len(v)} items",
    "Length": lambda v: f"{len(v)} characters",
    "Properties": lambda v: f"{len(v)} keys",
}


def _type_name(instance: Any) -> str:
    """The schema type of a loaded value, with YAML's words for objects and arrays."""
    if instance is None:
        return "null"
    if isinstance(instance, bool):
        return "boolean"
    if isinstance(instance, int):
        return "integer"
    if isinstance(instance, float):
        return "number"
    if isinstance(instance, str):
        return "string"
    return "list" if isinstance(instance, list) else "mapping"


def _show(value: Any) -> str:
    """A value as it would be written in YAML, shortened."""
    if isinstance(value, str):
        return f"'{value}'" if len(value) <= _MAX_TEXT else f"'{value[: _MAX_TEXT - 3]}...'"
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return str(value) if isinstance(value, (int, float)) else _type_name(value)


def _describe(instance: Any) -> str:
    name = _type_name(instance)
    return name if isinstance(instance, (list, dict)) or instance is None else f"{name} {_show(instance)}"


def _expected_types(types: str | Sequence[str]) -> str:
    names = [types] if isinstance(types, str) else list(types)
    return " or ".join(_TYPE_NAMES.get(name, name) for name in names)


def _dotted(path: Sequence[PathKey]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".")


def _path(error: ValidationError) -> tuple[PathKey, ...]:
    return tuple(error.absolute_path)


def _expected(error: ValidationError) -> Any:
    """The keyword's value in the schema (what was expected)."""
    return error.validator_value


def _schema(error: ValidationError) -> Mapping[str, Any]:
    return error.schema if isinstance(error.schema, Mapping) else {}


def _diag(error: ValidationError, message: str, span: SourceSpan, hint: str | None = None) -> Diagnostic:
    return Diagnostic(f"schema/{error.validator}", message, span, hint)


def _at_value(error: ValidationError, index: SourceIndex) -> SourceSpan:
    path = _path(error)
    if "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str):
        return index.key_span((*path, error.instance)) or index.nearest_span(path)
    return index.nearest_span(path)


# --------------------------------------------------------------------------- one handler per keyword


def _type(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    message = f"expected {_expected_types(_expected(error))}, got {_describe(error.instance)}"
    return [_diag(error, message, _at_value(error, index))]


def _required(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    path = _path(error)
    names = [n for n in _expected(error) if error.message.startswith(f"{n!r} ")] or ["?"]
    owner = f"'{_dotted(path)}'" if path else "the top level"
    span = index.key_span(path) or index.nearest_span(path)
    return [_diag(error, f"{owner} is missing required key '{names[0]}'", span)]


def _additional_properties(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    path = _path(error)
    allowed = list(_schema(error).get("properties", {}))
    patterns = list(_schema(error).get("patternProperties", {}))
    extras = [
        key
        for key in (error.instance if isinstance(error.instance, dict) else {})
        if key not in allowed and not any(re.search(p, key) for p in patterns)
    ]
    where = f" in '{_dotted(path)}'" if path else ""
    return [
        _diag(
            error,
            f"unknown key '{key}'{where}",
            index.key_span((*path, key)) or index.nearest_span(path),
            did_you_mean(key, allowed),
        )
        for key in extras
    ]


def _enum(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    options = list(_expected(error))
    shown = ", ".join(_show(o) for o in options[:_MAX_SHOWN]) + (", ..." if len(options) > _MAX_SHOWN else "")
    message = f"expected one of {shown}; got {_describe(error.instance)}"
    hint = None
    if isinstance(error.instance, str):
        hint = did_you_mean(error.instance, [o for o in options if isinstance(o, str)])
    return [_diag(error, message, _at_value(error, index), hint)]


def _const(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    message = f"expected {_show(error.validator_value)}, got {_describe(error.instance)}"
    return [_diag(error, message, _at_value(error, index))]


def _bound(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    keyword = str(error.validator)
    size = next((f for suffix, f in _SIZES.items() if keyword.endswith(suffix)), None)
    got = size(error.instance) if size else _describe(error.instance)
    message = f"expected {_BOUNDS[keyword].format(error.validator_value)}, got {got}"
    return [_diag(error, message, _at_value(error, index))]


def _pattern(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    message = f"{_show(error.instance)} does not match the pattern '{error.validator_value}'"
    return [_diag(error, message, _at_value(error, index))]


def _alternatives(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    """An anyOf/oneOf error that best_match could not narrow down to one alternative."""
    path = _path(error)
    here = [sub for sub in error.context or () if _path(sub) == path]
    if here and all(sub.validator == "type" for sub in here):
        types: list[str] = []
        for sub in here:
            value = _expected(sub)
            types += [value] if isinstance(value, str) else list(value)
        message = f"expected {_expected_types(list(dict.fromkeys(types)))}, got {_describe(error.instance)}"
        return [Diagnostic("schema/type", message, _at_value(error, index))]
    if error.validator == "oneOf" and not error.context:
        return [_diag(error, "matches more than one of the allowed forms", _at_value(error, index))]
    return [
        _diag(
            error, f"{_describe(error.instance)} matches none of the allowed forms", _at_value(error, index)
        )
    ]


def _fallback(error: ValidationError, index: SourceIndex) -> list[Diagnostic]:
    message = error.message if len(error.message) <= 2 * _MAX_TEXT else error.message[: 2 * _MAX_TEXT] + "..."
    return [_diag(error, message, _at_value(error, index))]


_HANDLERS: dict[str, Callable[[ValidationError, SourceIndex], list[Diagnostic]]] = {
    "type": _type,
    "required": _required,
    "additionalProperties": _additional_properties,
    "enum": _enum,
    "const": _const,
    "pattern": _pattern,
    "anyOf": _alternatives,
    "oneOf": _alternatives,
    **dict.fromkeys(_BOUNDS, _bound),
}


def _best(error: ValidationError) -> ValidationError:
    """The sub-error jsonschema's best_match would report for an anyOf/oneOf failure."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        return best_match([error]) or error
    return error


def _sort_key(diagnostic: Diagnostic) -> tuple[str, int, int]:
    span = diagnostic.span
    return (span.file, span.line, span.col) if span else ("", 0, 0)


def diagnose(errors: Iterable[ValidationError], index: SourceIndex) -> list[Diagnostic]:
    """Turn validation errors into located diagnostics, without duplicates, sorted by position."""
    found: list[Diagnostic] = []
    for error in errors:
        chosen = _best(error)
        found += _HANDLERS.get(str(chosen.validator), _fallback)(chosen, index)
    return sorted(dict.fromkeys(found), key=_sort_key)


def validate(data: Any, index: SourceIndex, schema: dict[str, Any]) -> list[Diagnostic]:
    """Check loaded rules against a JSON Schema (draft 2020-12); an empty list means they conform."""
    return diagnose(Draft202012Validator(schema).iter_errors(data), index)


def validate_sections(
    data: Mapping[str, Any], index: SourceIndex, schema: dict[str, Any], names: Sequence[str]
) -> dict[str, list[Diagnostic]]:
    """Check each named top-level section of `data` on its own against its subschema in `schema` (the top
    level's own keywords, which keys are required or allowed, are left to the caller)."""
    validator = Draft202012Validator({**schema, "required": []})
    return {name: diagnose(validator.iter_errors({name: data[name]}), index) for name in names}
