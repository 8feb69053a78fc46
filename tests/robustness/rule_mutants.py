"""Broken copies of the seed rule files for the robustness suite, each knowing whether it must be an error.

`mutant(kind, seed_file, rng)` makes one mutant of a kind in KINDS, its choices drawn from `rng` (hypothesis
passes a `st.randoms()` so it can shrink them). Some kinds always break the file (an empty file, a cycle of
`extends`, a duplicate key); for the others the mutant must be reported as an error when an oracle says so:

- the mutated YAML, loaded plainly, is not a mapping or breaks the JSON Schema (checked by jsonschema itself);
- a mutated expression no longer parses with the grammar rule it was written for;
- a misspelt name inside an expression is a word found nowhere in the file nor among the language's names.

Every other mutant may check clean or with errors, but never crash, hang or point outside its files.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from lark import Token

import meeple
from meeple.compile.builtins import BUILTINS
from meeple.rules.lark_parser import parser
from meeple.rules.syntax import MAX_CHARS, ExprSyntaxError, parse

GAMES = Path(__file__).resolve().parents[2] / "games"
SEED_FILES = sorted(GAMES.glob("*.yaml"))
MAIN = "rules.yaml"  # the file each mutant is checked as; variants add others beside it

TRIED: Counter[str] = Counter()  # mutants checked, by kind (printed at the end of the session)
MUST_FAIL: Counter[str] = Counter()  # of those, the ones an oracle said must be errors
PLAYED: Counter[str] = Counter()  # clean mutants also played by `check --playouts`

DataPath = tuple[str | int, ...]


@dataclass
class Mutant:
    kind: str
    files: dict[str, bytes]  # file name -> content; MAIN is the one checked
    must_fail: bool
    note: str  # what was changed, for a failing test's message
    oracle: str = field(default="")

    def __str__(self) -> str:
        return f"{self.kind} ({self.note}){' must fail: ' + self.oracle if self.must_fail else ''}"


# --------------------------------------------------------------------------- plain YAML and the schema


class PlainLoader(yaml.SafeLoader):
    """YAML as meeple reads it: dates and binary kept as text, mapping keys as their source text."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        self.flatten_mapping(node)
        return {
            (k.value if isinstance(k, yaml.ScalarNode) else repr(k)): self.construct_object(v, deep=deep)
            for k, v in node.value
        }


PlainLoader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)
PlainLoader.add_constructor("tag:yaml.org,2002:binary", yaml.SafeLoader.construct_yaml_str)
PlainLoader.add_constructor("tag:yaml.org,2002:map", PlainLoader.construct_mapping)


@cache
def validator() -> Draft202012Validator:
    return Draft202012Validator(meeple.schema())


def plain(text: str) -> Any:
    return yaml.load(text, Loader=PlainLoader)  # noqa: S506 - a SafeLoader subclass


def schema_broken(text: str) -> str:
    """Why a text cannot be a clean rule file by YAML and the schema alone ('' when it may be)."""
    try:
        data = plain(text)
    except (yaml.YAMLError, RecursionError) as err:
        return f"not YAML: {type(err).__name__}"
    if not isinstance(data, dict):
        return "not a mapping"
    if "extends" in data:
        return ""  # a variant: the schema applies to the merged file
    error = next(iter(validator().iter_errors(data)), None)
    return f"schema: {error.message[:80]}" if error is not None else ""


def dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10**6)


# --------------------------------------------------------------------------- where the expressions are


EXPRESSION_REFS = {"expression": "expr", "condition": "expr", "statement": "stmt"}


def expression_strings(data: Any) -> list[tuple[DataPath, str]]:
    """Every string of a rule file the schema says is an expression, a statement or a `for` head, with
    the grammar rule it is parsed with."""
    found: list[tuple[DataPath, str]] = []
    _walk(data, meeple.schema(), (), None, found)
    return found


def _walk(value: Any, schema: Any, path: DataPath, rule: str | None, out: list[tuple[DataPath, str]]) -> None:
    if not isinstance(schema, dict):
        return
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        _walk(value, meeple.schema()["$defs"][name], path, EXPRESSION_REFS.get(name, rule), out)
    if "if" in schema:
        branch = "then" if validator().evolve(schema=schema["if"]).is_valid(value) else "else"
        _walk(value, schema.get(branch), path, rule, out)
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key, []):
            if validator().evolve(schema=option).is_valid(value):
                _walk(value, option, path, rule, out)
                break
    for option in schema.get("allOf", []):
        _walk(value, option, path, rule, out)
    if isinstance(value, str):
        if rule is not None and "$ref" not in schema:
            out.append((path, rule))
        return
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for k, v in value.items():
            if k in properties:
                inner = "for_clause" if k == "for" and "do" in properties else None
                _walk(v, properties[k], (*path, k), inner, out)
            elif isinstance(schema.get("additionalProperties"), dict):
                _walk(v, schema["additionalProperties"], (*path, k), None, out)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, v in enumerate(value):
            _walk(v, schema["items"], (*path, i), None, out)


def parses(text: str, rule: str) -> bool:
    try:
        parse(text, rule)
    except ExprSyntaxError:
        return False
    return True


def get(data: Any, path: DataPath) -> Any:
    for part in path:
        data = data[part]
    return data


def put(data: Any, path: DataPath, value: Any) -> None:
    get(data, path[:-1])[path[-1]] = value


def all_paths(data: Any, path: DataPath = ()) -> Iterator[tuple[DataPath, Any]]:
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from all_paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from all_paths(v, (*path, i))


# --------------------------------------------------------------------------- the seed files


@dataclass(frozen=True)
class Seed:
    path: Path
    text: str
    data: Any
    expressions: tuple[tuple[DataPath, str], ...]
    words: frozenset[str]  # every word of the file and every name the language knows

    @property
    def name(self) -> str:
        return self.path.stem


@cache
def seed(path: Path) -> Seed:
    text = path.read_text(encoding="utf-8")
    data = plain(text)
    exprs = tuple(expression_strings(data))
    game = meeple.load(path)
    sym = game.definition.sym
    known = {*BUILTINS, *sym.constants, *sym.definitions, *sym.resources, *sym.player_fields(), *sym.options}
    known |= {"me", "p", "players", "turn", "option", "none", "true", "false", "resources", "index"}
    return Seed(path, text, data, exprs, frozenset(re.findall(r"\w+", text)) | frozenset(known))


# --------------------------------------------------------------------------- the kinds of mutant

Maker = Callable[[Seed, random.Random], Mutant]
KINDS: dict[str, Maker] = {}


def kind(name: str) -> Callable[[Maker], Maker]:
    def register(fn: Maker) -> Maker:
        KINDS[name] = fn
        return fn

    return register


def mutant(kind_name: str, seed_path: Path, rng: random.Random) -> Mutant:
    return KINDS[kind_name](seed(seed_path), rng)


def from_text(kind_name: str, text: str, note: str, must: str = "") -> Mutant:
    """A one-file mutant; it must fail when `must` says why, or when YAML and the schema say so."""
    why = must or schema_broken(text)
    return Mutant(kind_name, {MAIN: text.encode("utf-8", "surrogatepass")}, bool(why), note, why)


def from_data(kind_name: str, data: Any, note: str, must: str = "") -> Mutant:
    return from_text(kind_name, dump(data), note, must)


# -- structure


@kind("delete-key")
def delete_key(s: Seed, rng: random.Random) -> Mutant:
    data = plain(s.text)
    paths = [p for p, v in all_paths(data) if p and isinstance(get(data, p[:-1]), dict)]
    path = rng.choice(paths)
    del get(data, path[:-1])[path[-1]]
    return from_data("delete-key", data, f"deleted {'.'.join(map(str, path))}")


WRONG_VALUES: list[Any] = [0, -1, 2.5, True, None, "", "x", "3 rope +", [], [1, "a"], {}, {"a": 1}, [[[]]]]


@kind("wrong-type")
def wrong_type(s: Seed, rng: random.Random) -> Mutant:
    data = plain(s.text)
    path, old = rng.choice([(p, v) for p, v in all_paths(data) if p])
    new = rng.choice([v for v in WRONG_VALUES if type(v) is not type(old)])
    put(data, path, new)
    return from_data("wrong-type", data, f"{'.'.join(map(str, path))}: {old!r:.40} -> {new!r}")


@kind("empty-list")
def empty_list(s: Seed, rng: random.Random) -> Mutant:
    data = plain(s.text)
    lists = [p for p, v in all_paths(data) if p and isinstance(v, list) and v]
    path = rng.choice(lists)
    put(data, path, [])
    return from_data("empty-list", data, f"emptied {'.'.join(map(str, path))}")


HUGE = [10**6, 10**9, 2**31, 2**63, 10**20, 10**100, -(10**9), -(2**63)]


@kind("huge-number")
def huge_number(s: Seed, rng: random.Random) -> Mutant:
    data = plain(s.text)
    numbers = [p for p, v in all_paths(data) if p and type(v) is int]
    in_text = [(p, r) for p, r in s.expressions if re.search(r"\b\d+\b", get(data, p))]
    big = rng.choice(HUGE)
    if in_text and rng.random() < 0.5:
        path, _ = rng.choice(in_text)
        old = get(data, path)
        spots = [m.span() for m in re.finditer(r"\b\d+\b", old)]
        a, b = rng.choice(spots)
        put(data, path, old[:a] + str(abs(big)) + old[b:])
        return from_data("huge-number", data, f"{'.'.join(map(str, path))}: {old[a:b]} -> {abs(big)}")
    path = rng.choice(numbers)
    put(data, path, big)
    return from_data("huge-number", data, f"{'.'.join(map(str, path))} = {big}")


# -- expressions


def _expression(s: Seed, rng: random.Random) -> tuple[Any, DataPath, str, str]:
    data = plain(s.text)
    path, rule = rng.choice(s.expressions)
    return data, path, rule, get(data, path)


# Grammar rules whose own NAME tokens bind a new name (`let x =`, `for x in`, `as x`): renaming one is no
# misspelling when the name is not used after it.
BINDERS = {"let", "draw", "roll", "for_clause", "comp_for"}


@kind("misspelt-name")
def misspelt_name(s: Seed, rng: random.Random) -> Mutant:
    data, path, rule, text = _expression(s, rng)
    tree = parser().parse(text, start=rule)
    binding = {
        id(t)
        for sub in tree.iter_subtrees()
        if str(sub.data) in BINDERS
        for t in sub.children
        if isinstance(t, Token) and t.type == "NAME"
    }
    names = [t for t in tree.scan_values(lambda v: isinstance(v, Token)) if t.type == "NAME"]
    if not names:
        return from_data("misspelt-name", data, "no name to misspell")
    tok = rng.choice(names)
    word = str(tok)
    i = rng.randrange(len(word))
    edits = [word[:i] + word[i + 1 :], word[:i] + word[i] + word[i:], word[:i] + "q" + word[i + 1 :]]
    if len(word) > 1 and i < len(word) - 1:
        edits.append(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
    new = rng.choice([e for e in edits if e != word] or [word + "q"])
    start = tok.start_pos or 0
    put(data, path, text[:start] + new + text[start + len(word) :])
    unknown = bool(re.fullmatch(r"[A-Za-z]\w*", new)) and new not in s.words and id(tok) not in binding
    why = f"'{new}' is no name of the file or the language" if unknown else ""
    return from_data("misspelt-name", data, f"{'.'.join(map(str, path))}: {word} -> {new}", why)


BREAKERS = list("()[]{}'\",.+-*/<>=!") + [
    "\x00",
    "\x07",
    "\u200b",
    "\u202e",
    "é",
    "中",
    "😀",
    "\ufeff",
    "\\",
    "\n",
]


@kind("broken-expression")
def broken_expression(s: Seed, rng: random.Random) -> Mutant:
    data, path, rule, text = _expression(s, rng)
    how = rng.choice(["truncate", "drop-bracket", "insert", "double"])
    if how == "truncate":
        cut = rng.randrange(len(text))
        new = text[:cut]
    elif how == "drop-bracket" and any(c in "()[]'\"" for c in text):
        i = rng.choice([i for i, c in enumerate(text) if c in "()[]'\""])
        new = text[:i] + text[i + 1 :]
    elif how == "double":
        new = text + " " + text
    else:
        i = rng.randrange(len(text) + 1)
        new = text[:i] + rng.choice(BREAKERS) + text[i:]
    put(data, path, new)
    why = "" if parses(new, rule) else f"{new!r:.60} does not parse as {rule}"
    return from_data("broken-expression", data, f"{'.'.join(map(str, path))}: {how}", why)


@kind("deep-expression")
def deep_expression(s: Seed, rng: random.Random) -> Mutant:
    data, path, rule, text = _expression(s, rng)
    depth = rng.choice([50, 99, 150, 1000, 5000])
    shape = rng.choice(["parens", "not", "sum", "list", "long"])
    if rule != "expr":
        shape = "long"
    new = {
        "parens": "(" * depth + text + ")" * depth,
        "not": "not " * depth + f"({text})",
        "sum": "0 + " * depth + "0 == 0 and " + f"({text})",
        "list": "[" * depth + "]" * depth + f" != [] and ({text})",
        "long": text + " " * (MAX_CHARS + 1 - len(text)) if rule != "stmt" else text + "  " * MAX_CHARS,
    }[shape]
    put(data, path, new)
    must = "longer than an expression may be" if shape == "long" else ""
    return from_data("deep-expression", data, f"{'.'.join(map(str, path))}: {shape} x{depth}", must)


# -- characters and lines of the text


@kind("unicode")
def unicode_text(s: Seed, rng: random.Random) -> Mutant:
    """A raw character put anywhere in the text: a non-printable one is a YAML error wherever it goes."""
    char = rng.choice(
        ["\x00", "\x01", "\x08", "\x0b", "\x1b", "\x7f", "\x9b", "\ufffe", "\ud800"]  # not allowed in YAML
        + ["é", "ß", "中", "😀", "\u200b", "\u202e", "\u00a0", "\u2028", "\t", "\r", "\x85"]
    )
    i = rng.randrange(len(s.text) + 1)
    text = s.text[:i] + char * rng.choice([1, 1, 3]) + s.text[i:]
    bad = re.search(r"[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]", char)
    why = f"the character U+{ord(char):04X} is not allowed in YAML" if bad else ""
    return from_text("unicode", text, f"U+{ord(char):04X} at {i}", why)


@kind("duplicate-key")
def duplicate_key(s: Seed, rng: random.Random) -> Mutant:
    lines = s.text.splitlines(keepends=True)
    candidates = []
    for key, value in _block_pairs(yaml.compose(s.text)):
        row = key.start_mark.line
        if value.end_mark.line == row and not lines[row][: key.start_mark.column].strip():
            candidates.append(row)
    row = rng.choice(candidates)
    text = "".join([*lines[: row + 1], lines[row], *lines[row + 1 :]])
    return from_text("duplicate-key", text, f"line {row + 1} twice", "a key written twice")


def _block_pairs(node: yaml.Node) -> Iterator[tuple[yaml.Node, yaml.Node]]:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if not node.flow_style and isinstance(key, yaml.ScalarNode):
                yield key, value
            yield from _block_pairs(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _block_pairs(item)


@kind("truncated-file")
def truncated_file(s: Seed, rng: random.Random) -> Mutant:
    cut = rng.randrange(len(s.text))
    return from_text("truncated-file", s.text[:cut], f"cut at {cut} of {len(s.text)}")


@kind("laughs")
def laughs(s: Seed, rng: random.Random) -> Mutant:
    """Anchors that copy anchors: 9 ** depth values once expanded, as a table."""
    depth = rng.randint(1, 12)
    rows = ["  lol0: &lol0 [x, x, x, x, x, x, x, x, x]"]
    rows += [f"  lol{i}: &lol{i} [{', '.join([f'*lol{i - 1}'] * 9)}]" for i in range(1, depth + 1)]
    text = s.text.replace("\ntables:\n", "\ntables:\n" + "\n".join(rows) + "\n", 1)
    if text == s.text:
        text = "tables:\n" + "\n".join(rows) + "\n" + s.text
    must = f"9^{depth + 1} values once expanded" if 9 ** (depth + 1) > 100_000 else ""
    return from_text("laughs", text, f"depth {depth}", must)


# -- whole files


@kind("not-a-rule-file")
def not_a_rule_file(s: Seed, rng: random.Random) -> Mutant:
    choice = rng.choice(["empty", "blank", "comment", "document", "null", "list", "number", "text", "bom"])
    text = {
        "empty": "",
        "blank": " \n\n\t\n",
        "comment": "# nothing but a comment\n",
        "document": "---\n...\n",
        "null": "null\n",
        "list": "- game\n- actions\n",
        "number": "42\n",
        "text": "Climbers of Verdon: the rules\nare in the book.\n",
        "bom": "\ufeff",
    }[choice]
    return from_text("not-a-rule-file", text, choice, "no rules at all")


@kind("binary")
def binary(s: Seed, rng: random.Random) -> Mutant:
    """Random bytes, alone or put into the text: an error unless they happen to make UTF-8 text that YAML
    and the schema accept (one byte in a comment, say)."""
    size = rng.choice([1, 16, 512, 5000])
    blob = bytes(rng.randrange(256) for _ in range(size))
    inside = rng.random() < 0.5
    if inside:
        at = rng.randrange(len(s.text))
        blob = s.text[:at].encode() + blob + s.text[at:].encode()
    note = f"{size} random bytes{' in the text' if inside else ''}"
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        return Mutant("binary", {MAIN: blob}, True, note, "not UTF-8")
    return from_text("binary", text, note)


@kind("huge-file")
def huge_file(s: Seed, rng: random.Random) -> Mutant:
    filler = rng.choice(["comment", "table", "string"])
    megabytes = 5_000_000
    if filler == "comment":
        text = s.text + "\n# " + "x" * megabytes + "\n"
    elif filler == "table":
        text = s.text + "\nbig:\n" + "".join(f"  k{i}: {i}\n" for i in range(megabytes // 14))
    else:
        text = s.text + "\nbig: '" + "y" * megabytes + "'\n"
    return from_text("huge-file", text, f"5 MB of {filler}", "a 5 MB file")


@kind("extends-cycle")
def extends_cycle(s: Seed, rng: random.Random) -> Mutant:
    length = rng.randint(1, 3)
    names = [MAIN.removesuffix(".yaml"), *(f"variant{i}" for i in range(1, length))]
    files = {}
    for i, name in enumerate(names):
        base = names[(i + 1) % length]
        body = s.text if i == length - 1 and rng.random() < 0.5 else "game: {name: Variant}\n"
        files[f"{name}.yaml"] = f"extends: {base}\n{body}".encode()
    return Mutant("extends-cycle", files, True, f"a cycle of {length}", "an extends cycle")


@kind("variant")
def variant(s: Seed, rng: random.Random) -> Mutant:
    """A variant of the seed game that changes one value: it may be clean, but a missing base is not."""
    data = plain(s.text)
    path, value = rng.choice([(p, v) for p, v in all_paths(data) if p and not isinstance(v, dict | list)])
    change = yaml.safe_dump({"x": value}, allow_unicode=True, width=10**6).removeprefix("x:").strip()
    body = ""
    for depth, part in enumerate(path):
        if isinstance(part, int):
            break
        body += "  " * depth + f"{part}:" + ("\n" if depth < len(path) - 1 else f" {change}\n")
    missing = rng.random() < 0.2
    files = {MAIN: f"extends: {'no_such_base' if missing else 'base'}\n{body}".encode()}
    files["base.yaml"] = s.text.encode()
    return Mutant(
        "variant", files, missing, f"changes {'.'.join(map(str, path))}", "a missing base" if missing else ""
    )
