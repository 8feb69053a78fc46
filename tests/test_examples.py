"""Every rule file in examples/ (variants, tutorial, classic games) checks clean and plays to its end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT / "examples")))
def test_an_example_rule_file_checks_clean_and_a_random_game_of_it_ends(path):
    assert meeple.check(path) == []
    game = meeple.load(path)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(20_000):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert state.is_over and state.winners


def test_the_fixed_map_variant_lays_its_rows_and_keeps_the_base_rules():
    game = meeple.load(ROOT / "examples" / "variants" / "caravan_fixed_map.yaml", players=2)
    first, second = game.new_game(seed=1), game.new_game(seed=2)
    assert first.sites == second.sites  # the same map whatever the seed
    assert first.sites["a1"]["terrain"] == "start" and first.sites["j8"]["terrain"] == "finish"
    assert [first.sites[c]["terrain"] for c in ("f1", "f3", "f7")] == ["river", "grasslands", "grasslands"]
    assert "travel" in {a.name for a in first.legal_actions()}
