"""The typed syntax tree of the rule language: one frozen dataclass per grammar rule."""

from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass(frozen=True)
class Node:
    """Every node knows where it starts and ends inside its source string (character offsets)."""

    pos: int = field(default=0, compare=False, kw_only=True)
    end: int = field(default=0, compare=False, kw_only=True)


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True)
class StrLit(Node):
    value: str


@dataclass(frozen=True)
class BoolLit(Node):
    value: bool


@dataclass(frozen=True)
class NoneLit(Node):
    pass


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    key: Node


@dataclass(frozen=True)
class Kwarg(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class Call(Node):
    func: Node
    args: tuple[Node, ...]
    kwargs: tuple[Kwarg, ...]


@dataclass(frozen=True)
class CompFor(Node):
    names: tuple[str, ...]
    iter: Node
    conds: tuple[Node, ...]


@dataclass(frozen=True)
class GenCall(Node):
    func: Node
    elt: Node
    comps: tuple[CompFor, ...]


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class TupleLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class ListComp(Node):
    elt: Node
    comps: tuple[CompFor, ...]


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Compare(Node):
    left: Node
    ops: tuple[str, ...]
    rights: tuple[Node, ...]


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # "and" | "or"
    values: tuple[Node, ...]


@dataclass(frozen=True)
class NotOp(Node):
    operand: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class IfExp(Node):
    body: Node
    cond: Node
    orelse: Node


@dataclass(frozen=True)
class RangeLit(Node):
    start: Node
    stop: Node  # included


@dataclass(frozen=True)
class KeyPath(Node):
    """A bundle key written as a name (`rope`) or a dotted path (`t.terrain.produces`)."""

    parts: tuple[str, ...]


@dataclass(frozen=True)
class KeyExpr(Node):
    """A bundle key computed by an expression: `2 [r]`."""

    expr: Node


@dataclass(frozen=True)
class BundleTerm(Node):
    amount: Node
    key: KeyPath | KeyExpr


# ---------------------------------------------------------------- statements


@dataclass(frozen=True)
class Gain(Node):
    bundle: Node
    player: Node | None


@dataclass(frozen=True)
class Pay(Node):
    bundle: Node
    player: Node | None


@dataclass(frozen=True)
class Lose(Node):
    bundle: Node
    player: Node | None


@dataclass(frozen=True)
class Transfer(Node):
    bundle: Node
    source: Node
    dest: Node


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class Assign(Node):
    target: Node
    value: Node


@dataclass(frozen=True)
class AugAssign(Node):
    target: Node
    op: str
    value: Node


@dataclass(frozen=True)
class AddTo(Node):
    item: Node
    target: Node


@dataclass(frozen=True)
class Place(Node):
    kind: str
    site: Node
    owner: Node | None
    fields: tuple[Kwarg, ...]


@dataclass(frozen=True)
class Remove(Node):
    piece: Node


@dataclass(frozen=True)
class Replace(Node):
    piece: Node
    kind: str
    owner: Node | None


@dataclass(frozen=True)
class MoveCard(Node):
    card: Node
    source: Node
    dest: Node


@dataclass(frozen=True)
class MovePiece(Node):
    piece: Node
    site: Node


@dataclass(frozen=True)
class Draw(Node):
    count: Node
    source: Node
    dest: Node
    name: str | None


@dataclass(frozen=True)
class Roll(Node):
    dice: int
    sides: int
    name: str


@dataclass(frozen=True)
class Grant(Node):
    action: str
    args: tuple[Kwarg, ...]
    times: Node | None
    by: Node | None
    free: bool
    optional: bool


@dataclass(frozen=True)
class Perform(Node):
    block: Node


@dataclass(frozen=True)
class Log(Node):
    text: str


@dataclass(frozen=True)
class ResetScope(Node):
    scope: str


@dataclass(frozen=True)
class GiveLead(Node):
    player: Node


@dataclass(frozen=True)
class Win(Node):
    player: Node


@dataclass(frozen=True)
class EndGame(Node):
    pass


@dataclass(frozen=True)
class EndTurn(Node):
    pass


@dataclass(frozen=True)
class ForClause(Node):
    names: tuple[str, ...]
    iter: Node


def children(node: Node) -> list[Node]:
    """The nodes right below a node, in the order of its fields (the items of a tuple field in order)."""
    out: list[Node] = []
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Node):
                out.append(item)
    return out
