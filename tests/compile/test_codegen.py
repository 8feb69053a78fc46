"""Generated Python source for expressions and action enumeration (interpreter/compile/codegen.py).

The closures are the reference: with MEEPLE_CODEGEN=0 the engine runs them alone, and every seed game must
play exactly the same game, action for action, either way.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from meeple.compile import codegen
from meeple.compile.expressions import RuleRuntimeError
from meeple.compile.where import Where
from meeple.rules.loader import SourceIndex

ROOT = Path(__file__).resolve().parents[2]
SEED_GAMES = sorted(p.stem for p in (ROOT / "games").glob("*.yaml"))


def offers_along_a_random_game(game: meeple.Game, seed: int, limit: int = 400) -> list[str]:
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    seen = []
    while not state.is_over and len(seen) < limit:
        legal = state.legal_actions()
        seen.append(" | ".join(map(str, legal)))
        state.apply(rng.choice(legal))
    seen.append(state.to_json())
    return seen


@pytest.mark.parametrize("name", SEED_GAMES)
def test_a_seed_game_offers_the_same_actions_with_generated_source_as_with_closures(name, monkeypatch):
    players = 3
    fast = meeple.load(ROOT / "games" / f"{name}.yaml", players=players)
    monkeypatch.setenv("MEEPLE_CODEGEN", "0")
    slow = meeple.load(ROOT / "games" / f"{name}.yaml", players=players)
    assert all(a.fast is None for a in slow.definition.actions.values())
    for seed in (1, 2):
        assert offers_along_a_random_game(fast, seed) == offers_along_a_random_game(slow, seed)


@pytest.mark.parametrize("name", SEED_GAMES)
def test_every_action_of_a_seed_game_has_a_generated_enumerator(name):
    game = meeple.load(ROOT / "games" / f"{name}.yaml", players=3)
    assert [n for n, a in game.definition.actions.items() if a.fast is None] == []


def load_tiny(tmp_path: Path, text: str, players: int) -> meeple.Game:
    path = tmp_path / "tiny.yaml"
    path.write_text(text, encoding="utf-8")
    assert meeple.check(path) == []
    return meeple.load(path, players=players)


def test_a_generated_expression_reads_the_state_directly_and_computes_constant_parts_once(tmp_path):
    game = load_tiny(
        tmp_path,
        """
game: {name: Tiny, players: {min: 1, max: 2}}
components: {resources: [coin]}
vars:
  game: {round: 0}
actions:
  tick:
    when: round + (2 * 3) < 100
    effect: [round += 1]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [tick]}]
""",
        players=1,
    )
    (check,) = game.definition.actions["tick"].checks[0]
    assert "s.gv['round']" in check.source
    assert "6" in check.source and "2 * 3" not in check.source


def test_a_type_mismatch_inside_generated_source_is_a_rule_error_not_a_python_one(tmp_path):
    game = load_tiny(
        tmp_path,
        """
game: {name: Tiny, players: {min: 1, max: 2}}
vars:
  game: {label: 'x'}
actions:
  tick:
    when: label + 1 > 0
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [tick]}]
""",
        players=1,
    )
    with pytest.raises(RuleRuntimeError, match="TypeError") as caught:
        game.new_game(seed=1).legal_actions()
    assert caught.value.rule == "actions.tick.when"
    assert caught.value.span is not None and (caught.value.span.line, caught.value.span.col) == (7, 11)


def test_an_unknown_node_falls_back_to_the_closures():
    from meeple.compile.expressions import ExprCompiler
    from meeple.compile.symbols import Sink, Symbols

    class Strange(codegen.n.Node):
        pass

    gen = codegen.SourceGen(ExprCompiler(Symbols(), Sink(None), {}))  # type: ignore[arg-type]
    assert gen.function(Strange(), {}, Where(SourceIndex(), ())) is None


def test_a_parameter_that_is_not_a_plain_name_is_never_written_into_source():
    """A rule file's keys may be any text; only plain names become Python names (else: the closures)."""
    from meeple.compile.expressions import ExprCompiler
    from meeple.compile.symbols import Sink, Symbols
    from meeple.rules.syntax import parse

    gen = codegen.SourceGen(ExprCompiler(Symbols(), Sink(None), {}))  # type: ignore[arg-type]
    sneaky = "x): import os  #"
    where = Where(SourceIndex(), ())
    assert gen.function(parse("1 + 2"), {sneaky: None}, where, (sneaky,)) is None
    located = (lambda node: where, where)
    assert codegen.action_enumerator(gen, "give", [(sneaky, None)], [[], []], None, {}, *located) is None
    enumerator = codegen.action_enumerator(
        gen, "give", [("n", parse("[1, 2]"))], [[], []], None, {}, *located
    )
    assert enumerator is not None
