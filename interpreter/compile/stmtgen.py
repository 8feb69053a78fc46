"""Write a compiled effect block out as one Python function, compiled once with `compile()`.

The statement compiler (statements.py) builds each block as closures and tags each runner with a plan:
what it calls and with which values. Here a block's plans become straight lines of source: the values'
generated expressions in place, `if:` and `for:` items as Python's own, nested blocks inlined. A runner
without a plan (a grant, a draw, a log line) is called as it is. The function behaves as the closures do:
the same calls in the same order, each block stopping once the game is over, and a Python error reported
at the rule (the expression, else the statement) whose line raised it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from itertools import count
from typing import Any

from meeple import cache
from meeple.compile.where import Where

Run = Callable[[Any, dict[str, Any]], None]
# A value whose source may stand in a line as it is: it cannot raise, nor costs anything to repeat.
_PLAIN = re.compile(r"(b\['\w+'\]|_k\d+|-?\d+|'[^'\\]*'|None|True|False)\Z")
_MAX_LINES = 2_000  # a block longer than this stays closures (Python's compiler copes, but it gains little)

# A plan, as the attribute `plan` of a runner:
#   ("call", render, fns, where)   evaluate fns in order, then the line render(their sources), at `where`
#   ("if", cond, then, orelse, test, scope)
#                                  cond an expression (test its node, in scope), then / orelse runners
#   ("for", names, it, cond, body, bucket)
#                                  cond an expression or None, body a runner; bucket None or (field, value):
#                                  the loop runs over a board's sites and cond asks that field == value
#   ("block", steps)               runners in order, stopping once the game is over


class _Unsupported(Exception):
    pass


class _Writer:
    def __init__(self, gen: Any) -> None:
        self.gen = gen
        self.lines: list[str] = []
        self.wheres: dict[int, Where] = {}
        self.temps = count()

    def add(self, pad: str, line: str, where: Where | None = None) -> None:
        self.lines.append(pad + line)
        if where is not None:
            self.wheres[len(self.lines) + 2] = where  # the def and `try:` lines come first
        if len(self.lines) > _MAX_LINES:
            raise _Unsupported("too long")

    def value(self, fn: Any, pad: str) -> str:
        """The source of an expression's value, worked out on a line of its own when it may raise."""
        if hasattr(fn, "const"):
            return str(self.gen.const(fn.const))
        source = getattr(fn, "source", None)
        if source is not None and hasattr(fn, "where"):  # generated, of the bindings `b`
            if _PLAIN.match(source):
                return str(source)
            temp = f"_t{next(self.temps)}"
            self.add(pad, f"{temp} = {source}", fn.where)
            return temp
        temp = f"_t{next(self.temps)}"
        self.add(pad, f"{temp} = {self.gen.const(fn)}(s, b)")  # closures locate their own errors
        return temp

    def run(self, step: Any, pad: str, stop: str) -> None:
        plan = getattr(step, "plan", None)
        if plan is None:
            call = f"{self.gen.const(step)}(s, b)"
            if getattr(step, "only_logged", False):  # a log line: nothing to run in a game not logged
                call = f"if s.log is not None: {call}"
            self.add(pad, call)
            return
        kind = plan[0]
        if kind == "call":
            _, render, fns, where = plan
            if getattr(render, "binds", False) and len(fns) == 1 and hasattr(fns[0], "where"):
                # `let`: only its value can fail, on the very line that binds it
                self.add(pad, render([fns[0].source]), fns[0].where)
                return
            values = [self.value(fn, pad) for fn in fns]
            self.add(pad, render(values), where)
        elif kind == "block":
            self.steps(plan[1], pad, stop, check_first=False)
        elif kind == "if":
            _, cond, then, orelse, test, scope = plan
            self.add(pad, f"if {self.test(cond, test, scope, pad)}:")
            self.branch(then, pad + "    ", stop)
            if _has_steps(orelse):
                self.add(pad, "else:")
                self.branch(orelse, pad + "    ", stop)
        elif kind == "for":
            _, names, it, cond, body, bucket = plan
            item = f"_i{next(self.temps)}"
            fresh = _fresh_list(getattr(it, "source", None))
            source = self.value(it, pad)
            if fresh:  # a list made here (`[building(c) for c in corners_of(t)]`): nothing else holds it
                pass
            elif self.gen.constant_sequence(source) is None:  # a copy: the body may change what it loops over
                source = f"list(_units({source}))"
            elif bucket is not None:  # only the sites whose field has the value asked (cond still tests it)
                source = f"_site_bucket(s, {source}, {bucket[0]!r}, {self.value(bucket[1], pad)})"
            self.add(pad, f"for {item} in {source}:", getattr(it, "where", None))
            inner = pad + "    "
            if len(names) == 1:
                self.add(inner, f"b[{names[0]!r}] = {item}")
            else:  # as the closures bind them: pair by pair, as many as both have
                self.add(inner, f"b.update(zip({self.gen.const(tuple(names))}, {item}))")
            if cond is not None:
                self.add(inner, f"if not {self.value(cond, inner)}:")
                self.add(inner + "    ", "continue")
            self.add(inner, "if s.over:")  # an earlier pass may have ended the game: the body stops
            self.add(inner + "    ", "continue")
            self.branch(body, inner, "continue")
        else:
            raise _Unsupported(kind)

    def test(self, cond: Any, node: Any, scope: dict[str, Any], pad: str) -> str:
        """The source of an `if:` test's value; a test that is a search (`any`/`all` of a comprehension,
        or a def of one) is worked out as loops first, where no memo is on."""
        where = getattr(cond, "where", None)
        lowered = None if node is None or where is None else self.gen.test_lines(node, scope, pad + "    ")
        if lowered is None:
            return self.value(cond, pad)
        lines, name = lowered
        self.add(pad, "if s._memo is None:")
        for line in lines:
            self.add("", line, where)
        self.add(pad, "else:")
        self.add(pad + "    ", f"{name} = {self.value(cond, pad + '    ')}")
        return name

    def branch(self, runner: Any, pad: str, stop: str) -> None:
        before = len(self.lines)
        self.steps(_steps_of(runner), pad, stop, check_first=False)
        if len(self.lines) == before:
            self.add(pad, "pass")

    def steps(self, steps: list[Any], pad: str, stop: str, check_first: bool) -> None:
        may_end = check_first
        for step in steps:
            if may_end:
                self.add(pad, "if s.over:")
                self.add(pad + "    ", stop)
            self.run(step, pad, stop)
            may_end = _may_end(step)


def _may_end(step: Any) -> bool:
    """Whether a runner may end the game: any but a statement known not to (only `win` and `end game`
    do, of those with a plan; a nested block or an `if:` as its statements)."""
    plan = getattr(step, "plan", None)
    if plan is None:
        return True
    if plan[0] == "call":
        return bool(getattr(plan[1], "ends", False))
    if plan[0] == "block":
        return any(_may_end(x) for x in plan[1])
    if plan[0] == "if":
        return _may_end(plan[2]) or _may_end(plan[3])
    return True  # a loop: its body checks before each pass


def _steps_of(runner: Any) -> list[Any]:
    plan = getattr(runner, "plan", None)
    if plan is not None and plan[0] == "block":
        return list(plan[1])
    return [runner]


def _has_steps(runner: Any) -> bool:
    plan = getattr(runner, "plan", None)
    return not (plan is not None and plan[0] == "block" and not plan[1])


_SET_SCOPED = re.compile(r"( +)s\.set_scoped\(('\w+'), ")
_VALUE_LINE = re.compile(r"( +)(?:_t\d+|b\['\w+'\]) = ")  # a value worked out: no statement runs


def _scoped_in_place(lines: list[str]) -> list[str]:
    """The lines with each set of a named scope's variable that follows a set of the same scope, with only
    values worked out between them at the same indentation, written in place (Effects.set_scoped_again):
    the first set gave the state a copy of the scope's variables of its own, which nothing since replaced."""
    out = []
    owned: tuple[str, str] | None = None  # (indentation, scope) of the last set, while the run lasts
    for line in lines:
        found = _SET_SCOPED.match(line)
        if found is not None:
            if owned == found.groups():
                line = line.replace("s.set_scoped(", "s.set_scoped_again(", 1)
            owned = (found.group(1), found.group(2))
        elif owned is not None:
            value = _VALUE_LINE.match(line)
            if value is None or value.group(1) != owned[0]:
                owned = None
        out.append(line)
    return out


_LOOP = re.compile(r"( +)for (_i\d+) in ")
_BINDS_ITEM = re.compile(r"( +)b\['(\w+)'\] = (_i\d+)\Z")
_B_NAME = re.compile(r"(?<![\w.'])b\b")  # the bindings `b` as a name (not `_b`, `s.b`, a string's b)
_B_KEYED = re.compile(r"b(?:\['\w+'\]|\.get\('\w+'[,)])")  # a read or write of one binding by its name


def _loop_names_local(lines: list[str]) -> list[str]:
    """The lines with the name a one-name `for:` binds read as the loop's own Python variable (`_i3`, not
    `b['b']`), when every use of the bindings in the block names a binding and the loop's name is bound
    nowhere else and used only in the loop's body: nothing else can read it there. The line that bound it
    becomes `pass`, so each line keeps its number (errors are located by line)."""
    if any(not _B_KEYED.match(line, m.start()) for line in lines for m in _B_NAME.finditer(line)):
        return lines  # `b` handed to a call (a closure, a nested block): it may read any name
    out = list(lines)
    for at, line in enumerate(lines[:-1]):
        loop = _LOOP.match(line)
        binds = _BINDS_ITEM.match(lines[at + 1])
        if loop is None or binds is None or binds.group(3) != loop.group(2):
            continue
        pad, name, item = len(loop.group(1)), binds.group(2), loop.group(2)
        end = at + 1
        while end < len(lines) and len(lines[end]) - len(lines[end].lstrip(" ")) > pad:
            end += 1
        keyed = (f"b['{name}']", f"b.get('{name}'")
        outside = [*lines[:at], line, *lines[end:]]
        if any(k in other for other in outside for k in keyed):
            continue
        if sum(other.lstrip().startswith(f"b['{name}'] = ") for other in lines) != 1:
            continue
        body = [x.replace(f"b['{name}']", item).replace(f"b.get('{name}')", item) for x in out[at + 2 : end]]
        if any(k in x for x in body for k in keyed):  # read with a default: left as it is
            continue
        out[at + 1] = f"{binds.group(1)}pass"
        out[at + 2 : end] = body
    return out


def block_function(block: Any, gen: Any, default: Where) -> Run | None:
    """`f(s, b)` running the block's statements, or None when it cannot be written out."""
    w = _Writer(gen)
    try:
        w.steps(_steps_of(block), "    ", "return", check_first=False)
    except _Unsupported:
        return None
    body = _loop_names_local(_scoped_in_place(w.lines)) or ["    pass"]
    source = "\n".join(
        [
            "def _block(s, b):",
            "  try:",
            *body,
            "  except _RUNTIME_ERRORS as err:",
            f"    raise _located_by_line(err, {gen.const(w.wheres)}, {gen.const(default)}) from err",
        ]
    )
    ns = gen.ns  # the generated expressions' namespace: the block is defined there and taken out
    try:
        exec(cache.compiled(source + "\n", "<effect>"), ns)  # noqa: S102 - our own source
    except (SyntaxError, RecursionError, MemoryError):  # nested beyond what Python compiles: closures
        return None
    fn: Run = ns.pop("_block")
    fn.source = source  # type: ignore[attr-defined]
    return fn


def _fresh_list(source: Any) -> bool:
    """Whether generated source makes a new list each time it runs (a list display or comprehension): one
    the body of a loop over it cannot change, which needs no copy."""
    if not isinstance(source, str) or not source.startswith("["):
        return False
    try:
        body = ast.parse(source, mode="eval").body
    except SyntaxError:
        return False
    return isinstance(body, ast.List | ast.ListComp)
