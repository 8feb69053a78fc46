"""YAML rule files loaded into plain values with a position index, and variants merged through `extends`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import yaml
from yaml.constructor import SafeConstructor
from yaml.scanner import Scanner

from ..errors import Diagnostic, InternalError, RulesError, SourceSpan, did_you_mean

PathKey = str | int
NodePath = tuple[PathKey, ...]
Position = tuple[int, int]  # 0-based line and column

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + name for name in ("null", "bool", "int", "float", "str")}
_TEXT_TAGS = {_TAG + "timestamp", _TAG + "binary"}  # kept as their source text, never as dates or bytes
_COLLECTION_TAGS = {_TAG + name for name in ("map", "seq", "set", "omap", "pairs")}
_MERGE_TAG = _TAG + "merge"
# Bounds that keep loading any text quick and small. The seed games hold under 2,000 nodes and 30 KB.
MAX_FILE_CHARS = 1_000_000  # a rule file's size: larger is refused before it is parsed
MAX_NODES = 100_000  # YAML nodes written in a file, and again nodes built once aliases are expanded
_RULE_SUFFIXES = (".yaml", ".yml")


# --------------------------------------------------------------------------- positions inside scalars


class _Tok(NamedTuple):
    text: str  # the characters this token contributes to the value
    line: int
    col: int
    width: int  # source characters consumed
    raw: bool  # a literal source character, not an escape


@dataclass
class _Line:
    toks: list[_Tok]
    start: Position
    escaped_break: bool = False

    @property
    def end(self) -> Position:
        if not self.toks:
            return self.start
        last = self.toks[-1]
        return (last.line, last.col + last.width)

    def strip(self, left: bool, right: bool) -> None:
        while left and self.toks and self.toks[0].raw and self.toks[0].text in " \t":
            self.toks.pop(0)
        while right and self.toks and self.toks[-1].raw and self.toks[-1].text in " \t":
            self.toks.pop()


def _escape(seg: str, i: int) -> tuple[int, str]:
    """Width and text of the double-quoted escape at seg[i]; width 0 means an escaped line break."""
    if i + 1 >= len(seg):
        return 0, ""
    char = seg[i + 1]
    if char in Scanner.ESCAPE_REPLACEMENTS:
        return 2, Scanner.ESCAPE_REPLACEMENTS[char]
    digits = Scanner.ESCAPE_CODES.get(char)
    if digits is None:
        return 2, char
    try:
        return 2 + digits, chr(int(seg[i + 2 : i + 2 + digits], 16))
    except ValueError:
        return 2 + digits, "?"


def _tokens(style: str | None, seg: str, line: int, col: int) -> _Line:
    out = _Line([], (line, col))
    i = 0
    while i < len(seg):
        if style == "'" and seg.startswith("''", i):
            out.toks.append(_Tok("'", line, col + i, 2, False))
            i += 2
        elif style == '"' and seg[i] == "\\":
            width, text = _escape(seg, i)
            if width == 0:
                out.escaped_break = True
                break
            out.toks.append(_Tok(text, line, col + i, width, False))
            i += width
        else:
            out.toks.append(_Tok(seg[i], line, col + i, 1, True))
            i += 1
    return out


@dataclass
class _Scalar:
    """A scalar's source placement: enough to map a character of its value back into the file."""

    lines: list[str]
    style: str | None
    start: Position
    end: Position
    value: str
    _table: tuple[str, list[Position]] | None = field(default=None, repr=False)

    def position(self, offset: int) -> Position:
        """0-based line and column of value character `offset` (len(value) gives the end)."""
        built, where = self._table or self._build()
        offset = max(0, min(offset, len(self.value)))
        good = next((i for i, (a, b) in enumerate(zip(built, self.value, strict=False)) if a != b), None)
        good = min(len(built), len(self.value)) if good is None else good
        if offset <= good and offset < len(where):
            return where[offset]
        line, col = where[min(good, len(where) - 1)]
        return (line, col + offset - good)

    def _build(self) -> tuple[str, list[Position]]:
        lines, seps = self._block_lines() if self.style in ("|", ">") else self._flow_lines()
        text: list[str] = []
        where: list[Position] = []
        prev: Position | None = None
        for line, sep in zip(lines, seps, strict=True):
            text.append(sep)
            where.extend([prev or line.start] * len(sep))
            for tok in line.toks:
                text.append(tok.text)
                where.extend([(tok.line, tok.col)] * len(tok.text))
            prev = line.end
        quote = 0 if self.style is None else 1
        where.append(prev or (self.start[0], self.start[1] + quote))
        self._table = ("".join(text), where)
        return self._table

    def _flow_lines(self) -> tuple[list[_Line], list[str]]:
        quote = 0 if self.style is None else 1
        (first, first_col), (last, last_col) = self.start, self.end
        raw_lines = []
        for number in range(first, last + 1):
            raw = self.lines[number] if number < len(self.lines) else ""
            lo = first_col + quote if number == first else 0
            hi = last_col - quote if number == last else len(raw)
            raw_lines.append(_tokens(self.style, raw[lo:hi], number, lo))
        for i, line in enumerate(raw_lines):
            line.strip(left=i > 0, right=i < len(raw_lines) - 1 and not line.escaped_break)
        lines, seps, blanks = raw_lines[:1], [""], 0
        for line in raw_lines[1:]:
            if not line.toks and not line.escaped_break:
                blanks += 1
                continue
            joined = lines[-1].escaped_break
            seps.append("\n" * blanks if joined or blanks else " ")
            lines.append(line)
            blanks = 0
        return lines, seps

    def _block_lines(self) -> tuple[list[_Line], list[str]]:
        first = self.start[0] + 1
        raws = self.lines[first : self.end[0] + 1]
        source_first = next((r for r in raws if r.strip(" ")), None)
        value_first = next((v for v in self.value.split("\n") if v.strip(" ")), None)
        if source_first is None or value_first is None:
            return [], []
        indent = _lead(source_first) - _lead(value_first)
        lines: list[_Line] = []
        seps: list[str] = []
        blanks = 0
        for number, raw in enumerate(raws, start=first):
            if raw.strip(" ") and _lead(raw) < indent:
                break
            line = _tokens(None, raw[indent:], number, indent)
            if not line.toks:
                blanks += 1
                continue
            seps.append(self._block_sep(lines[-1] if lines else None, line, blanks))
            lines.append(line)
            blanks = 0
        return lines, seps

    def _block_sep(self, prev: _Line | None, line: _Line, blanks: int) -> str:
        if prev is None:
            return "\n" * blanks
        if self.style == ">" and prev.toks[0].text not in " \t" and line.toks[0].text not in " \t":
            return "\n" * blanks if blanks else " "
        return "\n" * (blanks + 1)


def _lead(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


# --------------------------------------------------------------------------- the index


@dataclass
class _Entry:
    value: SourceSpan | None = None
    key: SourceSpan | None = None
    scalar: _Scalar | None = None


def _walk(value: Any, path: NodePath) -> Iterator[NodePath]:
    """Every path inside `value`, `path` itself first."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _walk(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _walk(child, (*path, i))


@dataclass
class SourceIndex:
    """Maps paths (mapping keys and sequence indices from the root) to where their keys and values are."""

    file: str = "<string>"
    entries: dict[NodePath, _Entry] = field(default_factory=dict)

    def value_span(self, path: Sequence[PathKey]) -> SourceSpan | None:
        """Where the value at `path` is written."""
        entry = self.entries.get(tuple(path))
        return entry.value if entry else None

    def key_span(self, path: Sequence[PathKey]) -> SourceSpan | None:
        """Where the mapping key naming the last element of `path` is written."""
        entry = self.entries.get(tuple(path))
        return entry.key if entry else None

    def nearest_span(self, path: Sequence[PathKey]) -> SourceSpan:
        """The value span of `path` or of its closest known ancestor; the file's start as a last resort."""
        path = tuple(path)
        for size in range(len(path), -1, -1):
            span = self.value_span(path[:size])
            if span is not None:
                return span
        return SourceSpan(self.file, 1, 1)

    def locate(self, path: Sequence[PathKey], offset: int, end: int | None = None) -> SourceSpan:
        """Where character `offset` of the scalar at `path` is in the file; with `end`, the span up to it."""
        entry = self.entries.get(tuple(path))
        if entry is None or entry.value is None:
            return self.nearest_span(path)
        if entry.scalar is None:
            return SourceSpan(entry.value.file, entry.value.line, entry.value.col + offset)
        line, col = entry.scalar.position(offset)
        if end is None:
            return SourceSpan(entry.value.file, line + 1, col + 1)
        end_line, end_col = entry.scalar.position(end)
        return SourceSpan(entry.value.file, line + 1, col + 1, end_line + 1, end_col + 1)

    def copy_subtree(self, other: SourceIndex, path: NodePath, value: Any) -> None:
        """Take the entries of `value` (found at `path`) from `other`."""
        for inner in _walk(value, path):
            if inner in other.entries:
                self.entries[inner] = other.entries[inner]

    def drop_subtree(self, path: NodePath, value: Any) -> None:
        """Forget the entries of `value` (found at `path`)."""
        for inner in _walk(value, path):
            self.entries.pop(inner, None)


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
                    node.style,
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


def _compose(text: str) -> yaml.Node | None:
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
    """A rules document with its variants merged, the index into every file used, and their texts."""

    data: dict[str, Any]
    index: SourceIndex
    sources: dict[str, str]


def _is_name(ref: str | Path) -> bool:
    return isinstance(ref, str) and "/" not in ref and "\\" not in ref and not ref.endswith(_RULE_SUFFIXES)


def _find_named(name: str, dirs: Sequence[Path], where: SourceSpan | None) -> Path:
    for folder in dirs:
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    known = {p.stem for folder in dirs if folder.is_dir() for p in folder.glob("*.yaml")}
    hint = did_you_mean(name, sorted(known)) or "looked in " + (", ".join(map(str, dirs)) or "nowhere")
    raise RulesError([Diagnostic("io/not-found", f"no rules named '{name}'", where, hint)])


def _merge(
    base: dict[str, Any],
    over: dict[str, Any],
    path: NodePath,
    src: tuple[SourceIndex, SourceIndex],
    out: SourceIndex,
) -> dict[str, Any]:
    """Mappings merge key by key (the variant wins); any other value is replaced; base order is kept."""
    base_index, over_index = src
    result: dict[str, Any] = {}
    for key in [*base, *(k for k in over if k not in base)]:
        inner = (*path, key)
        if key not in over:
            result[key] = base[key]
            out.copy_subtree(base_index, inner, base[key])
        elif isinstance(base.get(key), dict) and isinstance(over[key], dict):
            out.entries[inner] = over_index.entries.get(inner, _Entry())
            result[key] = _merge(base[key], over[key], inner, src, out)
        else:
            result[key] = over[key]
            out.copy_subtree(over_index, inner, over[key])
    return result


def _remove(data: dict[str, Any], index: SourceIndex, removals: Any, own: SourceIndex) -> list[Diagnostic]:
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
        parts = item.split(".")
        container: Any = data
        for part in parts[:-1]:
            container = container.get(part) if isinstance(container, dict) else None
        if not isinstance(container, dict) or parts[-1] not in container:
            hint = did_you_mean(parts[-1], container) if isinstance(container, dict) else None
            diagnostics.append(
                Diagnostic("rules/remove-unknown", f"cannot remove '{item}': no such key", where, hint)
            )
            continue
        index.drop_subtree(tuple(parts), container.pop(parts[-1]))
    return diagnostics


class _VariantLoader:
    """Loads a rules file and, recursively, the files it extends."""

    def __init__(self, search_dirs: Sequence[Path]) -> None:
        self.search_dirs = list(search_dirs)
        self.sources: dict[str, str] = {}

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
        text = _read(path).removeprefix("\ufeff")
        self.sources[str(path)] = text
        data, own = load_text(text, str(path))
        if not isinstance(data, dict):
            message = "the rules file is empty" if data is None else "the top level must be a mapping of keys"
            raise RulesError([Diagnostic("yaml/not-a-mapping", message, own.nearest_span(()))])
        has_extends, has_remove = "extends" in data, "remove" in data
        extends, removals = data.pop("extends", None), data.pop("remove", None)
        index = own
        if has_extends:
            where = own.nearest_span(("extends",))
            base_path = self.resolve_base(extends, path, where)
            if base_path.resolve() in (resolved for resolved, _ in chain):
                cycle = " -> ".join([*(name for _, name in chain), str(base_path)])
                raise RulesError([Diagnostic("rules/extends-cycle", f"extends cycle: {cycle}", where)])
            base, base_index = self.load(base_path, (*chain, (base_path.resolve(), str(base_path))))
            index = SourceIndex(own.file, {(): own.entries[()]})
            data = _merge(base, data, (), (base_index, own), index)
        diagnostics = _remove(data, index, removals, own) if has_remove else []
        if index is own:
            own.drop_subtree(("extends",), extends)
            own.drop_subtree(("remove",), removals)
        if diagnostics:
            raise RulesError(diagnostics)
        return data, index


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
    return LoadedRules(data, index, loader.sources)
