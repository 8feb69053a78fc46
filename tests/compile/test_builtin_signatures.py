"""The checker reads each built-in's parameters (`signature_of`): from the function where it can, else from
what pyparts.py declares for it, which must say what builtins.py defines. Either way for every built-in,
compiled (mypyc) or not."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from meeple.compile import pyparts
from meeple.compile.builtins import BUILTINS
from meeple.compile.pyparts import signature_of

SOURCE = Path(__file__).resolve().parents[2] / "interpreter" / "compile" / "builtins.py"


def defined_parameters(name: str) -> list[tuple[str, object]]:
    """The parameters of the function `name` in builtins.py's source, after the state: (name, default)."""
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    (fn,) = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == name]
    args = fn.args.args
    defaults = [inspect.Parameter.empty] * (len(args) - len(fn.args.defaults)) + [
        ast.literal_eval(d) for d in fn.args.defaults
    ]
    return [(a.arg, d) for a, d in zip(args, defaults)][1:]


@pytest.mark.parametrize("name", sorted(pyparts._DECLARED))
def test_a_declared_signature_says_what_the_builtin_defines(name):
    assert list(pyparts._DECLARED[name]) == defined_parameters(name)
    params = signature_of(BUILTINS[name]).parameters
    assert [(p.name, p.default) for p in params.values()][1:] == defined_parameters(name)


def test_every_builtin_has_a_signature_the_checker_can_read():
    for name, fn in BUILTINS.items():
        params = list(signature_of(fn).parameters.values())
        assert params and params[0].name == "s", name  # the state first, then the rule's arguments
