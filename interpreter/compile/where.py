"""Where a compiled rule is written, so a rule that fails while it runs is reported at its own line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from meeple.errors import RuleRuntimeError, SourceSpan
from meeple.rules.loader import SourceIndex

# What a rule may raise while it runs: Python's own errors on values of the wrong kind or size.
RUNTIME_ERRORS = (
    TypeError,
    ValueError,
    ArithmeticError,
    LookupError,
    AttributeError,
    RecursionError,
    MemoryError,
    RuleRuntimeError,
)


@dataclass(frozen=True)
class Where:
    """A rule's path in the rule file (`actions.trade.when`) and an offset inside its text."""

    index: SourceIndex
    path: tuple[str | int, ...]
    pos: int | None = None

    @property
    def rule(self) -> str:
        return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path).lstrip(".")

    def span(self) -> SourceSpan:
        if self.pos is None:
            return self.index.nearest_span(self.path)
        try:
            return self.index.locate(self.path, self.pos)
        except (LookupError, ValueError):
            return self.index.nearest_span(self.path)


def located(err: BaseException, where: Where) -> RuleRuntimeError:
    """`err`, raised while the rule at `where` ran, as a RuleRuntimeError saying which rule and where.

    An error already located by a rule it passed through (a def the rule called) keeps that place.
    """
    if isinstance(err, RuleRuntimeError):
        if err.span is None:
            err.span, err.rule = where.span(), where.rule
        return err
    message = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
    return RuleRuntimeError(message, where.span(), where.rule)


def located_by_line(err: BaseException, wheres: Mapping[int, Where], default: Where) -> RuleRuntimeError:
    """`located`, the rule found by the line of generated source that raised (its first traceback entry)."""
    tb = err.__traceback__
    return located(err, wheres.get(tb.tb_lineno, default) if tb is not None else default)
