"""Every rule file in examples/ (variants, tutorial, classic games) checks clean and plays to its end; each
seed game has a variant written only as its differences, which does what its comment says."""

from __future__ import annotations

import importlib.util
import random
import shutil
import sys
from pathlib import Path

import pytest

import meeple
from meeple.api import search_dirs
from meeple.rules.loader import load_rules
from meeple.tools.simulate import simulate

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


# --------------------------------------------------------------------------- the variants

VARIANTS = ROOT / "examples" / "variants"
SEED_GAMES = {p.stem for p in (ROOT / "games").glob("*.yaml")}


def variant(name: str) -> Path:
    return VARIANTS / f"{name}.yaml"


def test_every_seed_game_has_a_variant_written_as_its_differences():
    based_on = {}
    for path in sorted(VARIANTS.glob("*.yaml")):
        rules = load_rules(path, search_dirs())
        own = rules.own_changes
        assert len(rules.chain) == 2 and own, path  # extends a seed game and changes something
        based_on[Path(rules.chain[1]).stem] = path
        # Nothing is restated: a variant far shorter than its base, each change at one of its lines.
        assert len(path.read_text().splitlines()) < len(Path(rules.chain[1]).read_text().splitlines()) / 4
        assert {c.where.file for c in own} == {str(path)}
    assert set(based_on) == SEED_GAMES


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_variant_simulates_at_its_largest_player_count(path):
    spec = load_rules(path, search_dirs()).data["game"]["players"]
    report = simulate(meeple.load(path, players=spec["max"]), 3, seed=1)
    assert (
        report.games == 3 and sum(s.wins for s in report.seats) + report.shared_wins + report.no_winner == 3
    )
    assert report.actions.min > 0


def test_the_quick_verdon_drops_only_the_offer_from_the_base_flow():
    base, quick = meeple.load("climbers_of_verdon"), meeple.load(variant("verdon_quick"))
    base_flow = base.source.data["flow"]
    base_flow[1]["do"][1]["choose"].remove("offer_trade")
    assert quick.source.data["flow"] == base_flow  # the third step (new cards to hand) is kept
    assert "roll 2d6" not in variant("verdon_quick").read_text()
    assert quick.options == {"target_vp": 10}
    assert {"offer_trade", "accept_trade"}.isdisjoint(quick.definition.actions)
    for terrain, cost in quick.source.data["tables"]["climb_cost"].items():
        cheaper, dearer = units(cost), units(base.source.data["tables"]["climb_cost"][terrain])
        assert cheaper < dearer


def units(bundle: str) -> int:
    return sum(int(part.split()[0]) for part in bundle.split("+"))


def test_the_quick_verdon_is_shorter_than_the_base_on_the_same_seeds(capsys):
    bench = load_benchmark("variant_length")
    bench.main(["-n", "8", "--players", "3"])
    out = capsys.readouterr().out.splitlines()
    base, quick, difference = (line.split() for line in out[2:5])
    assert out[0].startswith("8 random games each")
    assert float(quick[-6]) < float(base[-6])  # mean turns
    assert float(difference[-6]) < 0 and float(difference[-3]) < 0  # turns and actions


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a clone"
)
def test_the_ab_benchmark_loads_two_revisions_side_by_side_and_plays_them_on_the_same_seeds(tmp_path):
    ab = load_benchmark("ab")
    ab.package("HEAD", "meeple_ab_head", tmp_path)
    ab.package(".", "meeple_ab_tree", tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        sides = {
            "base": importlib.import_module("meeple_ab_head"),
            "new": importlib.import_module("meeple_ab_tree"),
        }
        assert sides["base"].load is not sides["new"].load and sides["new"].load is not meeple.load
        line = ab.compare(sides, "examples/classic/tic_tac_toe.yaml", 2, 4, same_games=True)
        # A seed game is each side's own copy, never the work tree's games/ (found first from the project).
        own = {side: ab.rule_file(module, "k2") for side, module in sides.items()}
        assert own["base"].is_file() and own["new"].is_file() and own["base"] != own["new"]
        assert all(tmp_path in path.parents for path in own.values())
    finally:
        sys.path.remove(str(tmp_path))
    name, base_n, new_n, base_rate, new_rate, ratio = line.split()
    assert name.endswith("tic_tac_toe.yaml") and base_n == new_n and int(base_n) >= 4 * 5
    assert float(ratio) > 0


@pytest.mark.python_engine  # replaces a function of the engine or the built-ins
def test_the_bytecode_count_names_the_generated_functions_and_adds_up_line_by_line():
    bytecodes = load_benchmark("bytecodes")
    game = meeple.load(ROOT / "examples" / "classic" / "tic_tac_toe.yaml", players=2)
    by_function, decisions = bytecodes.count(game, 3)
    assert decisions >= 3 * 5  # a game of tic-tac-toe takes five moves at least
    assert by_function["engine.py:apply"] > 0 and any(label.startswith("<action ") for label in by_function)
    by_line, again = bytecodes.count(game, 3, "engine.py:apply")  # the same seeds: the same games
    assert again == decisions and sum(by_line.values()) == by_function["engine.py:apply"]
    assert {filename for filename, _ in by_line} == {str(Path(meeple.runtime.engine.__file__))}


def load_benchmark(name: str):
    if str(ROOT / "benchmarks") not in sys.path:  # as when run as a script: its own modules beside it
        sys.path.append(str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_broad_peak_variant_plays_its_own_mountain_in_winter():
    game = meeple.load(variant("k2_broad_peak_winter"), players=2)
    assert game.options["board"] == "broad" and game.options["weather"] == "winter"
    state = game.new_game(seed=4)
    assert "PEAK" in state.sites and "SUMMIT" not in state.sites
    assert all(card.startswith("winter_") for card in state.zones["weather_shown"])
    easy = meeple.load(variant("k2_broad_peak_winter"), players=2, options={"board": "easy"})
    assert "SUMMIT" in easy.new_game(seed=4).sites


def test_the_flush_variant_offers_flushes_and_plays_them_as_their_own_combination():
    game = meeple.load(variant("tabletop_climber_flushes"), players=3)
    for seed in range(20):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            flushes = [a for a in legal if a.name == "play" and is_flush(a["cards"])]
            if flushes:
                state.apply(flushes[0])
                assert state.sv["trick"]["kind"] == "flush"
                return
            state.apply(rng.choice(legal))
    pytest.fail("no flush was offered in 20 random games")


def is_flush(cards) -> bool:
    numbers = sorted(int(name.rsplit("_", 1)[1]) if "_" in name else -1 for name in cards)  # start: -1
    return (
        len(numbers) >= 3 and len(set(numbers)) == len(numbers) and numbers[-1] - numbers[0] >= len(numbers)
    )


def test_the_big_sky_variant_has_a_bigger_box_with_more_sky_and_the_same_islands():
    state = meeple.load(variant("pluvionauts_big_sky"), players=2).new_game(seed=2)
    terrains = [fields["terrain"] for site, fields in state.sites.items() if "terrain" in fields]
    assert len(terrains) == 61 and terrains.count("sky") == 40
    assert (terrains.count("plain"), terrains.count("forest"), terrains.count("mountain")) == (10, 6, 5)


def test_the_peers_paired_ratio_is_the_median_of_each_passes_own_ratio():
    peers = load_benchmark("compare_peers")

    def result(*actions: int):
        return peers.Result("side", [peers.Run(1, a, 1.0) for a in actions])

    # The machine slowed down for the whole second pass, and sped up for the peer's half of the third.
    meeple_side, peer = result(100, 20, 50), result(1000, 200, 2000)
    assert peers.paired(meeple_side, peer) == pytest.approx(0.1)  # the passes: 0.1, 0.1, 0.025
    assert peers.ratio(meeple_side, peer) == pytest.approx(0.05)  # the medians 50 and 1000, of two passes


def test_the_rounds_of_an_ab_comparison_alternate_the_order_and_report_each_rounds_ratio(capsys, monkeypatch):
    rounds = load_benchmark("ab_rounds")
    game = meeple.load(ROOT / "examples" / "classic" / "tic_tac_toe.yaml", players=2)
    assert rounds.rate(game, range(1, 4)) > 0  # actions a second over whole games
    played = []  # which side each timing played, by its package

    def timed(game, seeds):
        played.append(type(game).__module__.split(".")[0])
        return 2.0 if played[-1] == "meeple_b" else 1.0

    monkeypatch.setattr(rounds, "rate", timed)
    # The work tree against itself: after a warm-up of each, the new side first in the first round, the
    # base first in the second.
    argv = [".", ".", "--game", "examples/classic/tic_tac_toe.yaml", "--rounds", "2", "--games", "2"]
    assert rounds.main(argv) == 0
    assert played == ["meeple_a", "meeple_b", "meeple_b", "meeple_a", "meeple_a", "meeple_b"]
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "examples/classic/tic_tac_toe.yaml, 2 rounds of 2 games: new/base by round"
    assert printed[1].strip() == "2.000, 2.000" and printed[2].startswith("geometric mean 2.000")
    assert not any(m.split(".")[0] in ("meeple_a", "meeple_b") for m in sys.modules)  # dropped when done


def test_the_cache_profile_reads_each_total_of_cachegrinds_summary_not_its_split_lines():
    profile = load_benchmark("cache_profile")
    report = """==4857== I   refs:      2,681,864,907
==4857== I1  misses:       33,263,453
==4857== LLi misses:          176,713
==4857== D   refs:      1,242,148,869  (856,624,249 rd   + 385,524,620 wr)
==4857== D1  misses:       24,121,084  ( 22,171,355 rd   +   1,949,729 wr)
==4857== LLd misses:        2,622,711  (  2,231,811 rd   +     390,900 wr)
==4857== LL refs:          57,384,537  ( 55,434,808 rd   +   1,949,729 wr)
==4857== LL misses:         2,799,424  (  2,408,524 rd   +     390,900 wr)
==4857== Branches:        412,000,000  (400,000,000 cond +  12,000,000 ind)
==4857== Mispredicts:      42,000,000  ( 40,000,000 cond +   2,000,000 ind)
"""
    assert profile.parse(report) == {
        "instructions": 2_681_864_907,
        "L1i misses": 33_263_453,
        "L1d misses": 24_121_084,
        "last-level misses": 2_799_424,  # both levels' misses, not the data's (LLd) alone
        "branches missed": 42_000_000,
    }
    with pytest.raises(SystemExit, match="Mispredicts|branches missed"):
        profile.parse(report.split("==4857== Branches")[0])  # run without the branch simulation
