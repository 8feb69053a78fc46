"""Variants: a rules file that `extends` another is merged into it by name, edits the base's lists with
`+name`/`-name`, deletes by path with `remove:`, and records each change with the line that made it.

The merge rules, one per kind of value:
- mappings merge key by key; the variant's value wins, keys new to the base come after the base's keys;
- a list whose every item is a mapping named by `phase`, `loop` or `name` merges item by item by that name;
  an item the base lacks is added where the variant lists it (after the variant's previous item);
- a list whose every item is `+name` or `-name` edits the base's list: `-x` drops x, `+x` appends it;
- any other value (and an empty list) replaces the base's value whole.
`remove:` then deletes dotted paths from the merged document; a path goes into a list by an item's name,
its position (a number) or, in a list of names, the name itself: `flow.climbing.do.turn.choose.trade`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import Diagnostic, SourceSpan, did_you_mean
from .index import NodePath, PathKey, SourceIndex, _Entry

ID_KEYS = ("phase", "loop", "name")  # the keys that name an item of a list
_EDIT = re.compile(r"^([+-])\s*([A-Za-z_][A-Za-z0-9_]*)$")
_QUOTED = re.compile(r"'([A-Za-z_][A-Za-z0-9_.]*)'")
_SHOWN = 40  # characters of a value shown in a change
_VERBS = {"added": "adds", "changed": "changes", "removed": "removes"}
_ITEM_VERBS = {"added": "adds", "removed": "drops"}


@dataclass(frozen=True)
class Change:
    """One thing a variant changed against its base, and the variant's line that changed it."""

    kind: str  # added, changed or removed
    path: str  # dotted, list items by their name: flow.climbing.do.turn.choose
    where: SourceSpan | None  # the variant's line
    was: SourceSpan | None = None  # where the base had set the value
    item: str | None = None  # a name added to or dropped from a list by `+name`/`-name`
    old: Any = None
    new: Any = None

    @property
    def target(self) -> str:
        """What changed: the path, or the list item within it."""
        return f"{self.path}: {self.item}" if self.item is not None else self.path

    def names(self) -> set[str]:
        """The names this change is about: the item, the path's last part (a def's without its
        parameters) and the path itself."""
        last = self.path.rsplit(".", 1)[-1]
        return {n for n in (self.item, last, last.split("(", 1)[0].strip(), self.path) if n}

    def describe(self) -> str:
        """`changed game.options.target_vp.default from 13 to 10`, in words."""
        if self.item is not None:
            into = "to" if self.kind == "added" else "from"
            return f"{_ITEM_VERBS[self.kind]} '{self.item}' {into} {self.path}"
        if self.kind == "changed" and _is_plain(self.old) and _is_plain(self.new):
            return f"changes {self.path} from {shorten(self.old)} to {shorten(self.new)}"
        return f"{_VERBS[self.kind]} {self.path}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "path": self.path,
            "item": self.item,
            "file": self.where.file if self.where else None,
            "line": self.where.line if self.where else None,
            "base_file": self.was.file if self.was else None,
            "base_line": self.was.line if self.was else None,
            "old": self.old if _is_plain(self.old) else None,
            "new": self.new if _is_plain(self.new) else None,
        }


def _is_plain(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def shorten(value: Any) -> str:
    """A value in one short line, for lists of changes."""
    text = " ".join(str(value).split())
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def identity(item: Any) -> tuple[str, str] | None:
    """The key and name that name a list item (`phase: climbing` gives ('phase', 'climbing')), if any."""
    if isinstance(item, dict):
        for key in ID_KEYS:
            if isinstance(item.get(key), str):
                return (key, item[key])
    return None


def is_edit_list(value: Any) -> bool:
    """A non-empty list of `+name` and `-name` strings: an edit of the base's list."""
    return (
        isinstance(value, list) and bool(value) and all(isinstance(v, str) and _EDIT.match(v) for v in value)
    )


def _named_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(identity(v) for v in value)


def _dotted(parts: Sequence[str]) -> str:
    return ".".join(parts)


class Merger:
    """Merges one variant into its (already merged) base, filling the merged index and the changes."""

    def __init__(self, base: SourceIndex, over: SourceIndex, out: SourceIndex) -> None:
        self.base_index, self.over_index, self.out = base, over, out
        self.changes: list[Change] = []
        self.diagnostics: list[Diagnostic] = []

    # ------------------------------------------------------------------ helpers

    def _over_span(self, path: NodePath) -> SourceSpan | None:
        return self.over_index.value_span(path) or self.over_index.key_span(path)

    def _base_span(self, path: NodePath) -> SourceSpan | None:
        return self.base_index.value_span(path)

    def _own(self, path: NodePath, to: NodePath) -> None:
        self.out.entries[to] = self.over_index.entries.get(path, _Entry())

    def _error(self, code: str, message: str, path: NodePath, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, self.over_index.nearest_span(path), hint))

    # ------------------------------------------------------------------ values

    def merge(
        self, base: Any, over: Any, paths: tuple[NodePath, NodePath, NodePath], shown: list[str]
    ) -> Any:
        """The merged value of `base` (at paths[0] in the base) and `over` (paths[1]), placed at paths[2]."""
        bp, op, to = paths
        if isinstance(base, dict) and isinstance(over, dict):
            return self.mapping(base, over, paths, shown)
        if isinstance(base, list) and is_edit_list(over):
            return self.edit(base, over, paths, shown)
        if isinstance(base, list) and _named_list(over):
            return self.named(base, over, paths, shown)
        if over != base:
            self.changes.append(
                Change(
                    "changed", _dotted(shown), self._over_span(op), self._base_span(bp), old=base, new=over
                )
            )
        return self.fresh(over, op, to, shown, record=False)

    def fresh(self, over: Any, op: NodePath, to: NodePath, shown: list[str], record: bool = True) -> Any:
        """A value the base does not have (or that replaces the base's whole): the variant's, as written."""
        if record:
            self.changes.append(Change("added", _dotted(shown), self._over_span(op), new=over))
        if is_edit_list(over):  # nothing to edit: `+x` adds x, `-x` has nothing to drop
            return self.edit([], over, ((), op, to), shown, record=False)
        self.out.copy_subtree(self.over_index, op, over, to)
        return over

    def mapping(
        self,
        base: dict[str, Any],
        over: dict[str, Any],
        paths: tuple[NodePath, NodePath, NodePath],
        shown: list[str],
    ) -> dict[str, Any]:
        bp, op, to = paths
        self._own(op, to)
        result: dict[str, Any] = {}
        for key in [*base, *(k for k in over if k not in base)]:
            inner = ((*bp, key), (*op, key), (*to, key))
            if key not in over:
                result[key] = base[key]
                self.out.copy_subtree(self.base_index, inner[0], base[key], inner[2])
            elif key not in base:
                result[key] = self.fresh(over[key], inner[1], inner[2], [*shown, key])
            else:
                result[key] = self.merge(base[key], over[key], inner, [*shown, key])
        return result

    def named(
        self, base: list[Any], over: list[Any], paths: tuple[NodePath, NodePath, NodePath], shown: list[str]
    ) -> list[Any]:
        """Items matched by name merge in the base's place; new ones follow the variant's item before them."""
        bp, op, to = paths
        first: dict[tuple[str, str], int] = {}
        twice: set[tuple[str, str]] = set()
        for i, item in enumerate(base):
            ident = identity(item)
            if ident in first:
                twice.add(ident)
            elif ident is not None:
                first[ident] = i
        order: list[tuple[str, int]] = [("base", i) for i in range(len(base))]
        matched: dict[int, int] = {}
        waiting: list[tuple[str, int]] = []  # new items listed before any matched one
        cursor: int | None = None
        seen: set[tuple[str, str]] = set()
        for j, item in enumerate(over):
            ident = identity(item)
            assert ident is not None
            key, name = ident
            if ident in seen:
                self._error("rules/extends-twice", f"{key} '{name}' is listed twice", (*op, j))
                continue
            seen.add(ident)
            if ident in twice:
                self._error(
                    "rules/extends-ambiguous",
                    f"the base has more than one item with {key} '{name}' in {_dotted(shown) or 'the file'}",
                    (*op, j),
                    "give the base's items different names",
                )
                continue
            if ident in first:
                i = first[ident]
                matched[i] = j
                cursor = order.index(("base", i))
                if waiting:
                    order[cursor:cursor] = waiting
                    cursor += len(waiting)
                    waiting = []
            elif cursor is None:
                waiting.append(("over", j))
            else:
                cursor += 1
                order.insert(cursor, ("over", j))
        order += waiting
        self._own(op, to)
        result = []
        for k, (side, i) in enumerate(order):
            place = (*to, k)
            if side == "over":
                name = identity(over[i])[1]  # type: ignore[index]
                result.append(self.fresh(over[i], (*op, i), place, [*shown, name]))
            elif i in matched:
                name = identity(base[i])[1]  # type: ignore[index]
                j = matched[i]
                result.append(self.merge(base[i], over[j], ((*bp, i), (*op, j), place), [*shown, name]))
            else:
                result.append(base[i])
                self.out.copy_subtree(self.base_index, (*bp, i), base[i], place)
        return result

    def edit(
        self,
        base: list[Any],
        over: list[str],
        paths: tuple[NodePath, NodePath, NodePath],
        shown: list[str],
        record: bool = True,
    ) -> list[Any]:
        """`-x` drops the item x (a name, or an item named x), `+x` appends x."""
        bp, op, to = paths
        # each item with the base path it comes from, or else the variant's span of its name
        items: list[tuple[Any, NodePath | None, SourceSpan | None]] = [
            (item, (*bp, i), None) for i, item in enumerate(base)
        ]
        where = _dotted(shown)
        for j, text in enumerate(over):
            match = _EDIT.match(text)
            assert match is not None
            sign, name = match.groups()
            span = self.over_index.locate((*op, j), match.start(2), len(text))
            present = [k for k, (item, _, _) in enumerate(items) if _names_item(item, name)]
            if sign == "-" and not present:
                listed = [_item_name(item) for item, _, _ in items]
                hint = did_you_mean(name, listed) or (
                    f"the list holds {', '.join(listed)}" if listed else "the list is empty"
                )
                self._error(
                    "rules/edit-missing",
                    f"cannot drop '{name}' from {where}: it is not there",
                    (*op, j),
                    hint,
                )
            elif sign == "-":
                _, old_path, _ = items.pop(present[0])
                if record:
                    was = self._base_span(old_path) if old_path is not None else None
                    self.changes.append(Change("removed", where, span, was, item=name))
            elif present:
                self._error(
                    "rules/edit-duplicate", f"cannot add '{name}' to {where}: it is there already", (*op, j)
                )
            else:
                items.append((name, None, span))
                if record:
                    self.changes.append(Change("added", where, span, item=name))
        self._own(op, to)
        for k, (item, path, added) in enumerate(items):
            if path is not None:
                self.out.copy_subtree(self.base_index, path, item, (*to, k))
            else:
                self.out.entries[(*to, k)] = _Entry(value=added)
        return [item for item, _, _ in items]


def _item_name(item: Any) -> str:
    ident = identity(item)
    return ident[1] if ident else str(item)


def _names_item(item: Any, name: str) -> bool:
    ident = identity(item)
    return item == name or (ident is not None and ident[1] == name)


# --------------------------------------------------------------------------- remove


def _find_item(items: list[Any], part: str) -> int | None:
    """The position a path part names in a list: an item's name, a position, or a name in a list of names."""
    for i, item in enumerate(items):
        if _names_item(item, part):
            return i
    if part.isdigit() and int(part) < len(items):
        return int(part)
    return None


def remove_paths(
    data: dict[str, Any], index: SourceIndex, removals: Any, own: SourceIndex, changes: list[Change]
) -> list[Diagnostic]:
    """Delete each dotted path listed under `remove:`, reporting the ones that name nothing."""
    if not isinstance(removals, list):
        return [
            Diagnostic(
                "rules/remove-invalid",
                "'remove' must be a list of dotted paths",
                own.nearest_span(("remove",)),
            )
        ]
    diagnostics = []
    for i, item in enumerate(removals):
        where = own.nearest_span(("remove", i))
        if not isinstance(item, str) or not item:
            diagnostics.append(
                Diagnostic(
                    "rules/remove-invalid", "expected a dotted path such as 'actions.offer_trade'", where
                )
            )
            continue
        problem = _remove_one(data, index, item, where, changes)
        if problem is not None:
            diagnostics.append(problem)
    return diagnostics


def _remove_one(
    data: dict[str, Any], index: SourceIndex, dotted: str, where: SourceSpan, changes: list[Change]
) -> Diagnostic | None:
    parts = dotted.split(".")
    container: Any = data
    path: list[PathKey] = []
    for depth, part in enumerate(parts):
        key: PathKey | None
        if isinstance(container, dict):
            key = part if part in container else None
            candidates = list(container)
        elif isinstance(container, list):
            key = _find_item(container, part)
            candidates = [_item_name(c) for c in container]
        else:
            key, candidates = None, []
        if key is None:
            known = ".".join(parts[:depth]) or "the file"
            hint = did_you_mean(part, candidates) or (
                f"{known} has no parts to remove" if not candidates else None
            )
            return Diagnostic(
                "rules/remove-unknown", f"cannot remove '{dotted}': {known} has no '{part}'", where, hint
            )
        if depth == len(parts) - 1:
            was = index.value_span((*path, key))
            value = container[key]
            if isinstance(container, list):
                assert isinstance(key, int)
                index.drop_item(tuple(path), container, key)
                container.pop(key)
            else:
                index.drop_subtree((*path, key), value)
                del container[key]
            changes.append(Change("removed", dotted, where, was, old=value))
            return None
        path.append(key)
        container = container[key]  # type: ignore[index]
    return None


# --------------------------------------------------------------------------- notes on errors


def attribute(
    diagnostics: Sequence[Diagnostic], chain: Sequence[str], changes: Sequence[Change]
) -> list[Diagnostic]:
    """Notes on problems found in a base file that name what a variant removed or changed.

    A line of the base that was fine may be wrong once merged: the base's flow still offers an action the
    variant removed. The problem stays at the base's line; the note names the variant's line that broke it.
    `chain` lists the files from the variant to the furthest base.
    """
    if not changes:
        return list(diagnostics)
    rank = {name: i for i, name in enumerate(chain)}
    out = []
    for d in diagnostics:
        if d.span is None or rank.get(d.span.file, 0) == 0:
            out.append(d)
            continue
        named = set(_QUOTED.findall(d.message))
        notes = [
            f"{c.where.file}:{c.where.line}:{c.where.col}: the variant {c.describe()}"
            for c in changes
            if c.where is not None
            and rank.get(c.where.file, len(chain)) < rank[d.span.file]
            and c.kind != "added"
            and named & c.names()
        ]
        out.append(replace(d, notes=(*d.notes, *dict.fromkeys(notes))) if notes else d)
    return out
