"""Lark's parser for the grammar, and the turning of its trees into nodes (`meeple.rules.nodes`): the part
of parsing that needs Lark, imported by meeple.rules.syntax when it first parses a text."""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from meeple import cache
from meeple.data import data_dir
from meeple.rules import nodes as n
from meeple.rules.syntax import MAX_DEPTH, START_RULES, ExprSyntaxError


def grammar_text() -> str:
    return (data_dir("grammar") / "meeple.lark").read_text(encoding="utf-8")


TABLES = "meeple.lark-tables"  # the parser tables shipped beside the grammar (package data)
# How the parser is built from the grammar: the same for a build and for the shipped tables' stamp
OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "start": list(START_RULES),
    "propagate_positions": True,
    "maybe_placeholders": True,
}


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The grammar's LALR parser: from the tables shipped with meeple when they are of this grammar and
    this version of Lark, else from those Lark keeps in the cache directory (built there the first time)."""
    return shipped_parser() or build_parser(cache_file())


def build_parser(cache: str | bool = False) -> Lark:
    return Lark(grammar_text(), **OPTIONS, cache=cache)


def cache_file() -> str | bool:
    """Where Lark keeps the parser tables it builds from the grammar, so a new process loads them instead
    of building them again (about 0.3 s): a file in meeple's cache directory (see `meeple.cache`). Lark
    stamps the file with the grammar, its own version and Python's, and the path of the file itself (so a
    copy elsewhere is built again); no directory means no file."""
    root = cache.directory()
    return False if root is None else str(root / "grammar.lark-tables")


def tables_stamp() -> tuple[bytes, bytes]:
    """What the shipped tables must have been built from: a digest of the grammar and the parser's options,
    and Lark's version (its tables are its own objects, pickled)."""
    options = repr(sorted(OPTIONS.items()))
    digest = hashlib.sha256((grammar_text() + options).encode("utf-8")).hexdigest()
    return digest.encode("ascii"), lark.__version__.encode("ascii")


def shipped_parser() -> Lark | None:
    """The parser from the tables shipped with meeple (a fresh machine's first command does not build
    them); None when there are none, or they are of another grammar or another version of Lark."""
    path = data_dir("grammar") / TABLES
    try:
        with path.open("rb") as f:
            if (f.readline().rstrip(b"\n"), f.readline().rstrip(b"\n")) != tables_stamp():
                return None
            return Lark.load(f)
    except Exception:  # noqa: BLE001 - missing or damaged tables are built, as Lark's own cache file is
        return None


def write_tables(path: Path) -> None:
    """Build the parser and write its tables, stamped, where `shipped_parser` reads them."""
    digest, version = tables_stamp()
    with path.open("wb") as f:
        f.write(digest + b"\n" + version + b"\n")
        build_parser().save(f)


def parse_text(text: str, start: str) -> n.Node:
    """Parse one string (not too long: see syntax.parse) into its node; raise ExprSyntaxError."""
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise _syntax_error(err, text) from None
    _check_tree(tree)
    try:
        node: n.Node = _ToNodes().transform(tree)
    except VisitError as err:  # a transformer problem is ours, unwrap it for a clear trace
        raise err.orig_exc from None
    return node


def _check_tree(tree: Tree) -> None:
    """Refuse a tree nested deeper than MAX_DEPTH and any name beginning with '_' (walked without recursion).

    A leading underscore is how Python spells its internals (`__class__`, `__import__`); no rule name
    needs one, so none can reach them, in an expression, a `log` brace or a statement.
    """
    stack: list[tuple[Tree | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            if node.type == "NAME" and node.startswith("_"):
                message = f"names beginning with '_' are reserved: '{node}'"
                raise ExprSyntaxError(message, node.start_pos or 0, "rename it to begin with a letter")
            continue
        if depth > MAX_DEPTH:
            pos = node.meta.start_pos if not getattr(node.meta, "empty", True) else 0
            raise ExprSyntaxError(
                f"the expression nests too deeply (more than {MAX_DEPTH} levels)",
                pos,
                "split it into defs",
            )
        stack.extend((child, depth + 1) for child in reversed(node.children) if child is not None)


_TOKEN_NAMES = {
    "RPAR": "')'",
    "LPAR": "'('",
    "RSQB": "']'",
    "LSQB": "'['",
    "COMMA": "','",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "$END": "the end",
    "DOT": "'.'",
    "EQUAL": "'='",
    "AUG_OP": "'+=' or '-='",
    "ADD_OP": "an operator",
    "MUL_OP": "an operator",
    "FOR": "'for'",
}


def _describe(expected: set[str]) -> str:
    names = sorted({_TOKEN_NAMES.get(e, e.lower().strip("_")) for e in expected})
    if len(names) > 6:
        return ""
    return "expected " + ", ".join(names)


def _syntax_error(err: UnexpectedInput, text: str) -> ExprSyntaxError:
    offset = getattr(err, "pos_in_stream", None)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        where = "the end of the text" if tok.type == "$END" else f"{tok.value!r}"
        offset = len(text) if tok.type == "$END" else (tok.start_pos or 0)
        return ExprSyntaxError(f"unexpected {where}", offset, _describe(set(err.expected)) or None)
    if isinstance(err, UnexpectedCharacters):
        at = err.pos_in_stream or 0
        return ExprSyntaxError(f"unexpected character {text[at]!r}", at)
    if isinstance(err, UnexpectedEOF):
        return ExprSyntaxError("unexpected end of the text", len(text))
    return ExprSyntaxError("cannot parse", offset or 0)


def _span(meta: Any) -> dict[str, int]:
    if getattr(meta, "empty", True):
        return {"pos": 0, "end": 0}
    return {"pos": meta.start_pos, "end": meta.end_pos}


def _tok_span(tok: Token) -> dict[str, int]:
    return {"pos": tok.start_pos or 0, "end": tok.end_pos or 0}


def _kwargs(tree: Any) -> tuple[n.Kwarg, ...]:
    return tuple(tree) if tree else ()


@v_args(meta=True)
class _ToNodes(Transformer):
    """Turn Lark trees into nodes; each method is named after its grammar rule or alias."""

    # -- start rules
    def start(self, meta, c):
        return c[0]

    # -- literals and names
    def int_lit(self, meta, c):
        return n.IntLit(int(c[0]), **_span(meta))

    def str_lit(self, meta, c):
        return n.StrLit(str(c[0])[1:-1], **_span(meta))

    def true_lit(self, meta, c):
        return n.BoolLit(True, **_span(meta))

    def false_lit(self, meta, c):
        return n.BoolLit(False, **_span(meta))

    def none_lit(self, meta, c):
        return n.NoneLit(**_span(meta))

    def name(self, meta, c):
        return n.Name(str(c[0]), **_span(meta))

    def attr(self, meta, c):
        return n.Attr(c[0], str(c[1]), **_span(meta))

    def index(self, meta, c):
        return n.Index(c[0], c[1], **_span(meta))

    def kwarg(self, meta, c):
        return n.Kwarg(str(c[0]), c[1], **_span(meta))

    def kwargs(self, meta, c):
        return tuple(c)

    def call_args(self, meta, c):
        return tuple(c)

    def call(self, meta, c):
        args = c[1] or ()
        pos = tuple(a for a in args if not isinstance(a, n.Kwarg))
        kws = tuple(a for a in args if isinstance(a, n.Kwarg))
        return n.Call(c[0], pos, kws, **_span(meta))

    def comp_if(self, meta, c):
        return c[0]

    def comp_for(self, meta, c):
        names = tuple(str(t) for t in c if isinstance(t, Token))
        rest = [x for x in c if not isinstance(x, Token)]
        return n.CompFor(names, rest[0], tuple(rest[1:]), **_span(meta))

    def for_clause(self, meta, c):
        names = tuple(str(t) for t in c if isinstance(t, Token))
        return n.ForClause(names, c[-1], **_span(meta))

    def gen_call(self, meta, c):
        return n.GenCall(c[0], c[1], tuple(c[2:]), **_span(meta))

    def list_lit(self, meta, c):
        return n.ListLit(tuple(x for x in c if x is not None), **_span(meta))

    def tuple_lit(self, meta, c):
        return n.TupleLit(tuple(x for x in c if x is not None), **_span(meta))

    def list_comp(self, meta, c):
        return n.ListComp(c[0], tuple(c[1:]), **_span(meta))

    # -- operators
    def bin_op(self, meta, c):
        return n.BinOp(str(c[1]), c[0], c[2], **_span(meta))

    def comp_op(self, meta, c):
        return " ".join(str(t) for t in c)

    def compare(self, meta, c):
        return n.Compare(c[0], tuple(c[1::2]), tuple(c[2::2]), **_span(meta))

    def and_op(self, meta, c):
        return n.BoolOp("and", tuple(c), **_span(meta))

    def or_op(self, meta, c):
        return n.BoolOp("or", tuple(c), **_span(meta))

    def not_op(self, meta, c):
        return n.NotOp(c[0], **_span(meta))

    def neg(self, meta, c):
        return n.Neg(c[0], **_span(meta))

    def range_lit(self, meta, c):
        return n.RangeLit(c[0], c[1], **_span(meta))

    def if_exp(self, meta, c):
        return n.IfExp(c[0], c[1], c[2], **_span(meta))

    # -- bundles
    def bundle_term(self, meta, c):
        amount = n.IntLit(int(c[0]), **_tok_span(c[0])) if isinstance(c[0], Token) else c[0]
        return n.BundleTerm(amount, c[1], **_span(meta))

    def key_path(self, meta, c):
        return n.KeyPath(tuple(str(t) for t in c), **_span(meta))

    def key_expr(self, meta, c):
        return n.KeyExpr(c[0], **_span(meta))

    # -- statements
    def gain(self, meta, c):
        return n.Gain(c[0], c[1], **_span(meta))

    def pay(self, meta, c):
        return n.Pay(c[0], c[1], **_span(meta))

    def lose(self, meta, c):
        return n.Lose(c[0], c[1], **_span(meta))

    def transfer(self, meta, c):
        return n.Transfer(c[0], c[1], c[2], **_span(meta))

    def let(self, meta, c):
        return n.Let(str(c[0]), c[1], **_span(meta))

    def assign(self, meta, c):
        return n.Assign(c[0], c[1], **_span(meta))

    def aug_assign(self, meta, c):
        return n.AugAssign(c[0], str(c[1]), c[2], **_span(meta))

    def add_to(self, meta, c):
        return n.AddTo(c[0], c[1], **_span(meta))

    def place(self, meta, c):
        return n.Place(str(c[0]), c[1], c[2], _kwargs(c[3]), **_span(meta))

    def remove(self, meta, c):
        return n.Remove(c[0], **_span(meta))

    def replace(self, meta, c):
        return n.Replace(c[0], str(c[1]), c[2], **_span(meta))

    def move_card(self, meta, c):
        return n.MoveCard(c[0], c[1], c[2], **_span(meta))

    def move_piece(self, meta, c):
        return n.MovePiece(c[0], c[1], **_span(meta))

    def draw(self, meta, c):
        return n.Draw(c[0], c[1], c[2], str(c[3]) if c[3] else None, **_span(meta))

    def roll(self, meta, c):
        dice, sides = str(c[0]).split("d")
        return n.Roll(int(dice), int(sides), str(c[1]), **_span(meta))

    def grant_args(self, meta, c):
        return ("args", _kwargs(c[0]))

    def grant_times(self, meta, c):
        return ("times", c[0])

    def grant_by(self, meta, c):
        return ("by", c[0])

    def grant_free(self, meta, c):
        return ("free", True)

    def grant_optional(self, meta, c):
        return ("optional", True)

    def grant(self, meta, c):
        opts = dict(c[1:])
        return n.Grant(
            str(c[0]),
            opts.get("args", ()),
            opts.get("times"),
            opts.get("by"),
            bool(opts.get("free")),
            bool(opts.get("optional")),
            **_span(meta),
        )

    def perform(self, meta, c):
        return n.Perform(c[0], **_span(meta))

    def log(self, meta, c):
        return n.Log(str(c[0])[1:-1], **_span(meta))

    def reset_scope(self, meta, c):
        return n.ResetScope(str(c[0]), **_span(meta))

    def give_lead(self, meta, c):
        return n.GiveLead(c[0], **_span(meta))

    def win(self, meta, c):
        return n.Win(c[0], **_span(meta))

    def end_game(self, meta, c):
        return n.EndGame(**_span(meta))

    def end_turn(self, meta, c):
        return n.EndTurn(**_span(meta))


if __name__ == "__main__":  # python -m meeple.rules.lark_parser grammar/meeple.lark-tables
    write_tables(Path(sys.argv[1]) if len(sys.argv) > 1 else data_dir("grammar") / TABLES)
