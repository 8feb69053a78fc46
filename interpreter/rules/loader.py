"""YAML rule files loaded into plain values with a position index, and variants merged through `extends`."""

from __future__ import annotations

import pickle
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from .. import cache
from ..errors import Diagnostic, InternalError, RulesError, SourceSpan, did_you_mean
from . import sections
from .index import NodePath, PathKey, SourceIndex, _Entry, _Scalar
from .variants import Change, Merger, attribute, remove_paths

__all__ = [
    "Change",
    "LoadedRules",
    "NodePath",
    "PathKey",
    "SourceIndex",
    "load_file",
    "load_rules",
    "load_text",
    "rules_path",
]

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + name for name in ("null", "bool", "int", "float", "str")}
_TEXT_TAGS = {_TAG + "timestamp", _TAG + "binary"}  # kept as their source text, never as dates or bytes
_COLLECTION_TAGS = {_TAG + name for name in ("map", "seq", "set", "omap", "pairs")}
_MERGE_TAG = _TAG + "merge"
# Bounds that keep loading any text quick and small. The seed games hold under 2,000 nodes and 30 KB.
MAX_FILE_CHARS = 1_000_000  # a rule file's size: larger is refused before it is parsed
MAX_NODES = 100_000  # YAML nodes written in a file, and again nodes built once aliases are expanded
_RULE_SUFFIXES = (".yaml", ".yml")


# --------------------------------------------------------------------------- nodes to plain values


class _Builder:
    """Turns a composed node tree into plain values, filling the index and collecting diagnostics."""

    def __init__(self, filename: str, text: str) -> None:
        self.file = filename
        self.lines = text.splitlines()
        self.index = SourceIndex(filename)
        self.diagnostics: list[Diagnostic] = []
        self.constructor = SafeConstructor()
        self.active: set[int] = set()
        self.budget = MAX_NODES

    def span(self, node: yaml.Node) -> SourceSpan:
        start, end = node.start_mark, node.end_mark
        return SourceSpan(self.file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def report(self, code: str, message: str, node: yaml.Node, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, self.span(node), hint))

    def build(self, node: yaml.Node, path: NodePath) -> Any:
        self.budget -= 1
        if self.budget < 0:  # only aliases can get here: composing stopped at the same count
            message = f"aliases expand the document to more than {MAX_NODES:,} values"
            hint = "an anchor copied into anchors that are copied again grows exponentially; write values out"
            raise RulesError([Diagnostic("yaml/too-large", message, self.span(node), hint)])
        if id(node) in self.active:
            self.report("yaml/recursive-alias", "an alias refers to a node that contains it", node)
            return None
        entry = self.index.entries.setdefault(path, _Entry())
        entry.value = self.span(node)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.ScalarNode):
                entry.scalar = _Scalar(
                    self.lines,
                    node.style or None,  # a plain scalar's style: None from PyYAML, '' from libyaml
                    (node.start_mark.line, node.start_mark.column),
                    (node.end_mark.line, node.end_mark.column),
                    node.value,
                )
                return self.scalar(node)
            self.check_collection_tag(node)
            if isinstance(node, yaml.SequenceNode):
                return [self.build(child, (*path, i)) for i, child in enumerate(node.value)]
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, path)
            raise InternalError(f"unexpected YAML node {type(node).__name__}")
        finally:
            self.active.discard(id(node))

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag in _SCALAR_TAGS:
            try:
                return SafeConstructor.yaml_constructors[node.tag](self.constructor, node)
            except (ValueError, KeyError):
                kind = node.tag.removeprefix(_TAG)
                self.report("yaml/bad-scalar", f"'{node.value}' is not a valid {kind}", node)
                return node.value
        if node.tag not in _TEXT_TAGS:
            self.report("yaml/unsupported-tag", f"unsupported tag '{node.tag}'", node)
        return node.value

    def check_collection_tag(self, node: yaml.Node) -> None:
        if node.tag not in _COLLECTION_TAGS:
            self.report("yaml/unsupported-tag", f"unsupported tag '{node.tag}'", node)

    def key(self, node: yaml.Node) -> str | None:
        if isinstance(node, yaml.ScalarNode):
            return str(node.value)
        self.report("yaml/non-scalar-key", "mapping keys must be plain names, not collections", node)
        return None

    def mapping(self, node: yaml.MappingNode, path: NodePath) -> dict[str, Any]:
        chosen: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in self.merged_pairs(node):
            key = self.key(key_node)
            if key is not None:
                chosen[key] = (key_node, value_node)
        explicit: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            key = None if key_node.tag == _MERGE_TAG else self.key(key_node)
            if key is None:
                continue
            if key in explicit:
                first = explicit[key].start_mark
                hint = f"first defined at line {first.line + 1}, column {first.column + 1}"
                self.report("yaml/duplicate-key", f"duplicate key '{key}'", key_node, hint)
                continue
            explicit[key] = key_node
            chosen[key] = (key_node, value_node)
        result = {}
        for key, (key_node, value_node) in chosen.items():
            self.index.entries.setdefault((*path, key), _Entry()).key = self.span(key_node)
            result[key] = self.build(value_node, (*path, key))
        return result

    def merged_pairs(self, node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
        """Pairs brought in by `<<` merge keys, lowest priority first (explicit keys override them later)."""
        pairs: list[tuple[yaml.Node, yaml.Node]] = []
        for key_node, value_node in node.value:
            if key_node.tag != _MERGE_TAG:
                continue
            sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for source in reversed(sources):
                if not isinstance(source, yaml.MappingNode) or id(source) in self.active:
                    self.report("yaml/bad-merge", "'<<' must merge a mapping or a list of mappings", source)
                    continue
                self.active.add(id(source))
                pairs += self.merged_pairs(source)
                pairs += [(k, v) for k, v in source.value if k.tag != _MERGE_TAG]
                self.active.discard(id(source))
        return pairs


# --------------------------------------------------------------------------- loading one file


def _clamped(filename: str, text: str, line: int, column: int) -> SourceSpan:
    """A 0-based mark as a span inside the text: the end of the file is the end of its last line."""
    lines = text.splitlines() or [""]
    if line >= len(lines):
        return SourceSpan(filename, len(lines), len(lines[-1]) + 1)
    return SourceSpan(filename, line + 1, column + 1)


class _TooManyNodes(Exception):
    """Composing stopped: the text holds more than MAX_NODES nodes."""

    def __init__(self, mark: yaml.Mark) -> None:
        super().__init__()
        self.mark = mark


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, stopping once the text has composed MAX_NODES nodes."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.nodes_left = MAX_NODES

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        self.nodes_left -= 1
        if self.nodes_left < 0:
            raise _TooManyNodes(self.peek_event().start_mark)
        return super().compose_node(parent, index)


# libyaml's composer, about ten times quicker than PyYAML's own, where PyYAML was built with it.
_CLoader: Any = getattr(yaml, "CSafeLoader", None)
_HEADER_COMMENT = re.compile(r"[|>][-+0-9]*#")  # a comment right after a block scalar's `|` or `>`
_QUICK_DEPTH = 2000  # the deepest nesting given to libyaml (it crashed at 40,000 levels, not at 20,000)
_LINE_START = re.compile(r"^[ ?:-]*", re.MULTILINE)  # a line's indent and the `- `, `? ` or `: ` after it


def _nesting_bound(text: str) -> int:
    """At least how deep the text's collections nest: every bracket may open one more, and a collection in
    block style starts at the start of a line or after its `- `, `? ` or `: `, no further left than the one
    holding it, and further right unless it is a list held by a mapping (so two to a column at most)."""
    deepest_start = max(map(len, _LINE_START.findall(text)), default=0)
    return text.count("[") + text.count("{") + 2 * deepest_start + 2


def safe_loader_for(text: str) -> Any:
    """PyYAML's safe loader class to read `text` with: libyaml's where PyYAML has it and the text does not
    nest deep enough to crash it, else PyYAML's own (the two may differ on a text PyYAML refuses, see
    `_quick_compose`)."""
    return _CLoader if _CLoader is not None and _nesting_bound(text) <= _QUICK_DEPTH else yaml.SafeLoader


def _quick_compose(text: str) -> tuple[yaml.Node | None, int, bool] | None:
    """The text composed by libyaml: its node, the count of nodes the bounded loader would compose (one
    per node written and one per alias) and whether a node is reached twice (an alias). None where libyaml
    is missing or fails, or could crash, or reads the text otherwise than PyYAML: the bounded loader then
    composes it and reports what is wrong in its own words. The cases below were found by comparing the
    two on mutated seed files and odd texts (benchmarks/README.md, twenty-fifth round)."""
    if safe_loader_for(text) is not _CLoader:
        return None  # no libyaml, or a text nested deep enough to crash its composer (it recurses in C)
    if "\t" in text or _HEADER_COMMENT.search(text):
        return None  # PyYAML refuses a tab after a value or inside brackets, and a comment after `|` or `>`
    if not text.endswith("\n") or "\ufeff" in text:
        return None  # libyaml ends the last node of a text no newline ends on the next line, counts a column
        # for a byte-order mark inside the text (PyYAML, none) and takes a line holding only the mark
    loader = _CLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    if node is None:
        return None, 0, False
    seen = {id(node)}
    todo = [node]
    count, shared = 1, False
    while todo:
        parent = todo.pop()
        value = parent.value
        if not isinstance(value, list):
            continue
        for item in value:
            for child in item if isinstance(item, tuple) else (item,):
                count += 1
                if (
                    parent.flow_style
                    and not getattr(child, "style", True)
                    and ("?" in child.value or not child.value)
                ):
                    return None  # PyYAML refuses the `?`, and places the missing value a column earlier
                if id(child) in seen:
                    shared = True
                else:
                    seen.add(id(child))
                    todo.append(child)
    return node, count, shared


def _compose(text: str) -> yaml.Node | None:
    quick = _quick_compose(text)
    if quick is not None and quick[1] <= MAX_NODES:
        return quick[0]
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_node()  # type: ignore[no-any-return]
    finally:
        loader.dispose()


def _syntax_diagnostic(exc: yaml.YAMLError, filename: str, text: str) -> Diagnostic:
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        line, col = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character))
        message = f"unacceptable character #x{code:04x}: {exc.reason}"
        return Diagnostic("yaml/syntax", message, SourceSpan(filename, line, col))
    problem = getattr(exc, "problem", None)
    context = getattr(exc, "context", None)
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    span = _clamped(filename, text, mark.line, mark.column) if mark else SourceSpan(filename, 1, 1)
    hint = None
    context_mark = getattr(exc, "context_mark", None)
    if problem and context:
        hint = context
        if context_mark is not None:
            hint += f" at line {context_mark.line + 1}, column {context_mark.column + 1}"
    return Diagnostic("yaml/syntax", str(problem or context or exc), span, hint)


def load_text(text: str, filename: str = "<string>") -> tuple[Any, SourceIndex]:
    """Parse one YAML document into plain values and the index of where each one is written."""
    text = text.removeprefix("\ufeff")  # an editor shows no column for a byte-order mark
    if len(text) > MAX_FILE_CHARS:
        message = (
            f"the file is too large for a rule file ({len(text):,} characters, at most {MAX_FILE_CHARS:,})"
        )
        raise RulesError([Diagnostic("yaml/too-large", message, SourceSpan(filename, 1, 1))])
    key = cache.digest(filename, text)
    kept = cache.lookup("yaml", key)
    if kept is not None:
        try:
            blob, kept_parts = kept
            data, index = pickle.loads(blob)
            for part in kept_parts:
                cache.lookup("yaml-section", part)  # used again, so kept for the next edit
            return data, index
        except Exception:  # noqa: BLE001, S110 - a damaged entry: compose the text again
            pass
    parts: list[str] = []
    loaded = _by_sections(text, filename, parts) or _whole(text, filename)
    cache.keep("yaml", key, (pickle.dumps(loaded, protocol=pickle.HIGHEST_PROTOCOL), tuple(parts)))
    return loaded


def _whole(text: str, filename: str) -> tuple[Any, SourceIndex]:
    """The text composed as one document: every error of a broken file is found and reported here."""
    try:
        node = _compose(text)
        builder = _Builder(filename, text)
        data = None if node is None else builder.build(node, ())
    except yaml.YAMLError as exc:
        raise RulesError([_syntax_diagnostic(exc, filename, text)], {filename: text}) from exc
    except _TooManyNodes as exc:
        where = _clamped(filename, text, exc.mark.line, exc.mark.column)
        message = f"the file holds more than {MAX_NODES:,} values, too many for a rule file"
        raise RulesError([Diagnostic("yaml/too-large", message, where)], {filename: text}) from None
    except RecursionError as exc:
        diagnostic = Diagnostic("yaml/too-deep", "the document nests too deeply", SourceSpan(filename, 1, 1))
        raise RulesError([diagnostic], {filename: text}) from exc
    if builder.diagnostics:
        raise RulesError(builder.diagnostics, {filename: text})
    return data, builder.index


def _by_sections(text: str, filename: str, parts: list[str]) -> tuple[dict[str, Any], SourceIndex] | None:
    """The text composed section by section (`sections`), each section's result kept on its own, so an
    edit composes again only the sections it changed; None when the text cannot be cut or a section is
    anything but a clean mapping of one key (the whole text then finds the problem and reports it).
    The keys of the sections' kept results are added to `parts`."""
    pieces = sections.split(text)
    if pieces is None:
        return None
    data: dict[str, Any] = {}
    index = SourceIndex(filename)
    file_lines = text.splitlines()
    nodes = 0
    moved: list[dict[NodePath, _Entry]] = []
    keys = []
    for first, piece in pieces:
        keys.append(cache.digest(filename, piece))
        composed = _section(piece, filename, keys[-1])
        if composed is None:
            return None
        value, own, count = composed
        nodes += count
        name = next(iter(value))
        if name in data or nodes > MAX_NODES:
            return None
        data[name] = value[name]
        moved.append(sections.shifted(own, first, file_lines))
    start, end = moved[0][()].value, moved[-1][()].value
    if start is None or end is None:
        return None
    index.entries[()] = _Entry(SourceSpan(filename, start.line, start.col, end.end_line, end.end_col))
    for entries in moved:
        del entries[()]
        index.entries.update(entries)
    parts += keys
    return data, index


class _SectionLoader(_BoundedLoader):
    """The bounded loader, noting any anchor or alias: a section may not share nodes with another."""

    anchored = False

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if getattr(self.peek_event(), "anchor", None) is not None:
            self.anchored = True
        return super().compose_node(parent, index)


def _compose_section(piece: str) -> tuple[yaml.Node | None, int]:
    """A section's node and the count of nodes composed; no node when it holds an alias, or where
    PyYAML composes it an anchor (building its values could then grow past the bounds)."""
    quick = _quick_compose(piece)
    if quick is not None:
        node, count, shared = quick
        return (None if shared else node), count
    loader = _SectionLoader(piece)
    try:
        node = loader.get_single_node()
    finally:
        loader.dispose()
    return (None if loader.anchored else node), MAX_NODES - loader.nodes_left


def _section(piece: str, filename: str, key: str) -> tuple[dict[str, Any], SourceIndex, int] | None:
    """One section's value (a mapping of one key), its index as if it began the file, and its node count;
    None when it is not that, or holds an anchor, or anything in it is wrong. `key` names its kept result."""
    kept = cache.lookup("yaml-section", key)
    if kept is not None:
        try:
            return pickle.loads(kept)  # type: ignore[no-any-return]
        except Exception:  # noqa: BLE001, S110 - a damaged entry: compose the section again
            pass
    try:
        node, count = _compose_section(piece)
        if node is None:
            return None
        builder = _Builder(filename, piece)
        data = builder.build(node, ())
    except (yaml.YAMLError, _TooManyNodes, RecursionError):
        return None
    if builder.diagnostics or not isinstance(data, dict) or len(data) != 1:
        return None
    composed = (data, builder.index, count)
    cache.keep("yaml-section", key, pickle.dumps(composed, protocol=pickle.HIGHEST_PROTOCOL))
    return composed


def _read(path: Path, where: SourceSpan | None = None) -> str:
    try:
        size = path.stat().st_size
        if size > 4 * MAX_FILE_CHARS:  # more characters than load_text takes, whatever the encoding
            message = f"'{path}' is too large for a rule file ({size:,} bytes)"
            raise RulesError([Diagnostic("yaml/too-large", message, where or SourceSpan(str(path), 1, 1))])
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise RulesError([Diagnostic("io/not-found", f"no such file: '{path}'", where)]) from exc
    except UnicodeDecodeError as exc:
        message = f"'{path}' is not UTF-8 text: {exc.reason} (byte 0x{exc.object[exc.start]:02x})"
        raise RulesError([Diagnostic("io/not-utf8", message, where or _byte_place(str(path), exc))]) from exc
    except OSError as exc:
        raise RulesError(
            [Diagnostic("io/unreadable", f"cannot read '{path}': {exc.strerror}", where)]
        ) from exc


def _byte_place(filename: str, exc: UnicodeDecodeError) -> SourceSpan:
    """The line and column of the first byte that is not UTF-8 (the text before it decodes)."""
    before = bytes(exc.object[: exc.start]).decode("utf-8", errors="replace")
    line = before.count("\n") + 1
    return SourceSpan(filename, line, len(before) - (before.rfind("\n") + 1) + 1)


def load_file(path: str | Path) -> tuple[Any, SourceIndex]:
    """Read a UTF-8 YAML file and load it with `load_text`."""
    return load_text(_read(Path(path)), str(path))


# --------------------------------------------------------------------------- variants: extends and remove


@dataclass
class LoadedRules:
    """A rules document with its variants merged, the index into every file used, and their texts.

    `chain` lists the files merged, the variant first and its furthest base last; `changes` holds what
    each variant changed against its base, with the variant's line (see `variants`).
    """

    data: dict[str, Any]
    index: SourceIndex
    sources: dict[str, str]
    chain: list[str] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)

    @property
    def own_changes(self) -> list[Change]:
        """What the file itself (not the bases it extends) changed against its base."""
        return [c for c in self.changes if c.where is not None and c.where.file == self.index.file]

    def attribute(self, diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
        """The diagnostics, with a note on those in a base file that a variant's change broke."""
        return attribute(diagnostics, self.chain, self.changes)


def _is_name(ref: str | Path) -> bool:
    return isinstance(ref, str) and "/" not in ref and "\\" not in ref and not ref.endswith(_RULE_SUFFIXES)


def _find_named(name: str, dirs: Sequence[Path], where: SourceSpan | None) -> Path:
    for folder in dirs:
        candidate = folder / f"{name}.yaml"
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # a name no file can have (too long for the system): not found
            continue
    known = {p.stem for folder in dirs if folder.is_dir() for p in folder.glob("*.yaml")}
    hint = did_you_mean(name, sorted(known)) or "looked in " + (", ".join(map(str, dirs)) or "nowhere")
    raise RulesError([Diagnostic("io/not-found", f"no rules named '{name}'", where, hint)])


class _VariantLoader:
    """Loads a rules file and, recursively, the files it extends."""

    def __init__(self, search_dirs: Sequence[Path]) -> None:
        self.search_dirs = list(search_dirs)
        self.sources: dict[str, str] = {}
        self.chain: list[str] = []
        self.changes: list[Change] = []  # the furthest base's variant first

    def resolve_base(self, ref: Any, variant: Path, where: SourceSpan) -> Path:
        if not isinstance(ref, str) or not ref:
            raise RulesError([Diagnostic("rules/extends-invalid", "'extends' must name a rules file", where)])
        if _is_name(ref):
            return _find_named(ref, [variant.parent, *self.search_dirs], where)
        base = variant.parent / ref
        if not base.is_file():
            raise RulesError([Diagnostic("io/not-found", f"no such file: '{base}'", where)])
        return base

    def load(self, path: Path, chain: tuple[tuple[Path, str], ...]) -> tuple[dict[str, Any], SourceIndex]:
        cache.reading(path)  # a base's own loads may have kept what this one needs
        text = _read(path).removeprefix("\ufeff")
        self.sources[str(path)] = text
        self.chain.append(str(path))
        data, own = load_text(text, str(path))
        if not isinstance(data, dict):
            message = "the rules file is empty" if data is None else "the top level must be a mapping of keys"
            raise RulesError([Diagnostic("yaml/not-a-mapping", message, own.nearest_span(()))])
        has_extends, has_remove = "extends" in data, "remove" in data
        extends, removals = data.pop("extends", None), data.pop("remove", None)
        index = own
        diagnostics: list[Diagnostic] = []
        if has_extends:
            where = own.nearest_span(("extends",))
            base_path = self.resolve_base(extends, path, where)
            if base_path.resolve() in (resolved for resolved, _ in chain):
                cycle = " -> ".join([*(name for _, name in chain), str(base_path)])
                raise RulesError([Diagnostic("rules/extends-cycle", f"extends cycle: {cycle}", where)])
            base, base_index = self.load(base_path, (*chain, (base_path.resolve(), str(base_path))))
            index = SourceIndex(own.file, {(): own.entries[()]})
            merger = Merger(base_index, own, index)
            data = merger.mapping(base, data, ((), (), ()), [])
            diagnostics += merger.diagnostics
            self.changes += merger.changes
        if has_remove:
            diagnostics += remove_paths(data, index, removals, own, self.changes)
        if index is own:
            own.drop_subtree(("extends",), extends)
            own.drop_subtree(("remove",), removals)
        if diagnostics:
            raise RulesError(diagnostics)
        return data, index


def rules_path(path_or_name: str | Path, search_dirs: Sequence[Path] = ()) -> Path | None:
    """The file a path or a seed game's name stands for; None for a name no file has (`load_rules`
    reports it)."""
    if not _is_name(path_or_name):
        return Path(path_or_name)
    try:
        return _find_named(str(path_or_name), list(search_dirs), None)
    except RulesError:
        return None


def load_rules(path_or_name: str | Path, search_dirs: Sequence[Path] = ()) -> LoadedRules:
    """Load a rules file by path, or by name from `search_dirs`, merging the files it `extends`."""
    loader = _VariantLoader(search_dirs)
    try:
        if _is_name(path_or_name):
            path = _find_named(str(path_or_name), loader.search_dirs, None)
        else:
            path = Path(path_or_name)
        data, index = loader.load(path, ((path.resolve(), str(path)),))
    except RulesError as exc:
        exc.sources = {**loader.sources, **exc.sources}
        raise
    return LoadedRules(data, index, loader.sources, loader.chain, loader.changes)
