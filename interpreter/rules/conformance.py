"""Which sections of a rule file the schema must check again: those not found clean by an earlier load.

The schema's top level is a plain list of sections (`game`, `board`, `actions` ...), each checked by its
own subschema, with the top level asking only which keys there are. So the schema's verdict on a section
depends on that section's value alone, and a section found clean once is clean wherever it appears: an
edit of `actions` checks `actions` again and nothing else, and a load that changed no section needs
neither the check nor jsonschema's import (a tenth of a second). A schema whose top level asks more than
which keys there are is always checked whole.
"""

from __future__ import annotations

import pickle
from typing import Any

from .. import cache
from ..errors import Diagnostic
from .index import SourceIndex

# The top level's keywords that leave each section's verdict to its own subschema
_PLAIN_TOP = {
    *("$schema", "$id", "title", "description", "$defs"),
    *("type", "required", "properties", "additionalProperties"),
}


def problems(data: Any, index: SourceIndex, schema: dict[str, Any], whole: str) -> list[Diagnostic]:
    """What the schema finds wrong with `data`, checking only what no load under the same `whole` key or
    with the same sections found clean before (`meeple.cache`)."""
    kept = cache.lookup("schema", whole)
    if kept is not None:
        for key in kept if isinstance(kept, tuple) else ():
            cache.lookup("schema-section", key)  # used again, so kept for the next edit
        return []
    if not _keys_fine(data, schema):
        from .validate import validate  # jsonschema: a tenth of a second to import, when needed

        whole_found = validate(data, index, schema)
        if not whole_found:
            cache.keep("schema", whole, True)
        return whole_found
    keys = {name: cache.digest(name, pickle.dumps(value, protocol=5)) for name, value in data.items()}
    unknown = [name for name, key in keys.items() if not cache.lookup("schema-section", key)]
    found: list[Diagnostic] = []
    if unknown:
        from .validate import _sort_key, validate_sections

        for name, diagnostics in validate_sections(data, index, schema, unknown).items():
            if diagnostics:
                found += diagnostics
            else:
                cache.keep("schema-section", keys[name], True)
        found.sort(key=_sort_key)  # file order, as the whole check gives
    if not found:
        cache.keep("schema", whole, tuple(keys.values()))
    return found


def _keys_fine(data: Any, schema: dict[str, Any]) -> bool:
    """Whether the schema's top level asks only which keys there are, and `data` has the right ones."""
    properties = schema.get("properties")
    return (
        set(schema) <= _PLAIN_TOP
        and schema.get("type") == "object"
        and schema.get("additionalProperties") is False
        and isinstance(properties, dict)
        and isinstance(data, dict)
        and all(name in data for name in schema.get("required", ()))
        and all(name in properties for name in data)
    )
