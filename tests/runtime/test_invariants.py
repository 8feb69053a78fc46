"""The `invariants:` section: conditions checked per player or once, reported with their line when broken,
by `broken(state)`, the soak and `meeple run/simulate --check-invariants`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tiny_rules import load_tiny

import meeple
from meeple.runtime.invariants import InvariantBroken, Watch, broken
from meeple.tools.cli import main
from meeple.tools.soak import play_checked, soak

JAR = """
game:
  name: Coin Jar
  players: {min: 2, max: 3}
components:
  resources: [coin]
vars:
  game: {rounds: 0}
actions:
  take: {effect: [gain 1 coin]}
  wait: {}
flow:
  - phase: main
    turns: clockwise
    repeat: true
    until: rounds >= 4
    do:
      - step: ["rounds += 1 if me == first(players) else 0"]
      - choose: [take, wait]
scoring:
  score: p.coin
invariants:
%s
"""


def jar(tmp_path: Path, invariants: str, players: int = 2) -> meeple.Game:
    return load_tiny(tmp_path, JAR % invariants, players)


def test_an_invariant_that_mentions_p_is_checked_for_every_player(tmp_path: Path) -> None:
    game = jar(tmp_path, "  few_coins: p.coin <= 1\n  few_rounds: rounds <= 9")
    per_player = {inv.name: inv.per_player for inv in game.definition.invariants}
    assert per_player == {"few_coins": True, "few_rounds": False}
    s = game.new_game(seed=1)
    s.apply("take")  # p1 has 1 coin: still fine
    assert broken(s) == []
    s.apply("take")
    s.apply("take")  # p1 has 2 coins, p2 has 1
    found = broken(s)
    assert [(b.name, b.player) for b in found] == [("few_coins", meeple.Player(0))]


def test_a_name_bound_by_a_comprehension_does_not_make_an_invariant_per_player(tmp_path: Path) -> None:
    game = jar(tmp_path, "  - all(p.coin <= 1 for p in players)")
    (inv,) = game.definition.invariants
    assert not inv.per_player
    assert inv.name == "all(p.coin <= 1 for p in players)"  # a list item is named by its text
    s = game.new_game(seed=1)
    for action in ("take", "take", "take"):
        s.apply(action)
    assert [(b.name, b.player) for b in broken(s)] == [(inv.name, None)]


def test_a_broken_invariant_is_located_at_its_line_in_the_rule_file(tmp_path: Path) -> None:
    game = jar(tmp_path, "  few_coins: p.coin <= 0")
    s = game.new_game(seed=1)
    s.apply("take")
    (b,) = broken(s)
    d = b.diagnostic("somewhere")
    line = (JAR % "  few_coins: p.coin <= 0").splitlines().index("  few_coins: p.coin <= 0") + 1
    assert d.code == "rules/invariant"
    assert (Path(d.span.file).name, d.span.line) == ("tiny.yaml", line)
    assert "few_coins" in d.message and "p1" in d.message and "somewhere" in d.message


def test_an_invariant_that_gives_no_truth_value_or_fails_is_reported_not_raised(tmp_path: Path) -> None:
    game = jar(tmp_path, "  a_player: first(players)\n  out_of_range: '[1, 2][rounds + 5] == 1'")
    details = {b.name: b.detail for b in broken(game.new_game(seed=1))}
    assert details["a_player"] == "it gives p1, not true or false"
    assert details["out_of_range"].startswith("cannot be worked out")


def test_the_watch_names_the_seed_the_step_and_the_action_of_the_first_broken_state(tmp_path: Path) -> None:
    game = jar(tmp_path, "  few_coins: p.coin <= 1")
    s = game.new_game(seed=5)
    watch = Watch("jar 2p", 5)
    watch(s)
    for action in ("take", "wait"):
        s.apply(action)
        watch(s, meeple.Action(action))
    s.apply("take")
    with pytest.raises(InvariantBroken) as err:
        watch(s, meeple.Action("take"))
    assert "jar 2p seed 5, step 3, after take" in err.value.diagnostics[0].message


def test_an_invariant_is_worked_out_again_only_when_a_part_it_reads_has_changed(tmp_path: Path) -> None:
    rules = "  coins_kept: p.coin >= 0\n  few_rounds: rounds <= 4\n  lucky: chance(1, 2) or true"
    game = jar(tmp_path, rules)
    calls = {inv.name: 0 for inv in game.definition.invariants}

    def counted(inv: Any) -> Any:
        def check(s: Any, b: dict[str, Any]) -> Any:
            calls[inv.name] += 1
            return inv.check(s, b)

        return replace(inv, check=check)

    game.definition.invariants = tuple(counted(inv) for inv in game.definition.invariants)
    s = game.new_game(seed=2)
    watch = Watch("jar 2p", 2)
    watch(s)
    states = 1
    while not s.is_over:  # nobody takes a coin: the players' parts never change, the round counter does
        s.apply("wait")
        watch(s, meeple.Action("wait"))
        states += 1

    assert [inv.reads for inv in game.definition.invariants] == [("res",), ("gv",), None]  # coin: a resource
    assert calls["coins_kept"] == 2  # once for each player, at the start
    assert 4 <= calls["few_rounds"] < states  # the rounds changed, not at every action
    assert calls["lucky"] == states  # it draws at random: worked out every time


def test_what_held_in_one_state_is_worked_out_again_in_another_with_the_same_counters(tmp_path: Path) -> None:
    game = jar(tmp_path, "  few_coins: p.coin <= 0")
    held: dict[str, Any] = {}
    first, second = game.new_game(seed=1), game.new_game(seed=1)
    second.pv[0]["coin"] = 3  # changed behind the effects: the change counters stay as they were
    assert first.ver == second.ver

    assert broken(first, held) == []
    assert [b.name for b in broken(second, held)] == ["few_coins"]


def test_a_soak_counts_games_and_actions_and_reports_each_broken_game(tmp_path: Path) -> None:
    game = jar(tmp_path, "  few_coins: p.coin <= 2")
    report = soak(game, 12, seed=0)
    assert report.games == 12
    assert report.actions == sum(play_checked(game, s).actions for s in range(12))
    takes = [s for s in range(12) if play_checked(game, s).failure is not None]
    assert report.failed_games == len(takes) > 0  # a random player takes a third coin in some games
    assert all("tiny.yaml:" in f and "few_coins" in f and " seed " in f for f in report.failures)


def test_a_soak_in_two_processes_gives_the_same_figures(tmp_path: Path) -> None:
    game = jar(tmp_path, "  few_coins: p.coin <= 2")
    one, two = soak(game, 10, seed=3), soak(game, 10, seed=3, workers=2)
    assert (one.games, one.actions, one.failed_games, one.failures) == (
        two.games,
        two.actions,
        two.failed_games,
        two.failures,
    )


@pytest.mark.parametrize("command", ["run", "simulate"])
def test_check_invariants_on_the_command_line_is_a_located_error_naming_the_seed(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    jar(tmp_path, "  few_coins: p.coin <= 0")
    path = str(tmp_path / "tiny.yaml")
    extra = ["-n", "3", "--no-progress", "--workers", "2"] if command == "simulate" else ["-q"]
    code = main([command, path, "--seed", "2", "--check-invariants", *extra])
    err = capsys.readouterr().err
    assert code == 1
    assert "error[rules/invariant]: invariant 'few_coins' broken" in err
    assert "tiny.yaml:" in err and "seed 2, step " in err and "  few_coins: p.coin <= 0" in err


def test_without_check_invariants_a_broken_invariant_is_not_looked_at(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jar(tmp_path, "  few_coins: p.coin <= 0")
    assert main(["run", str(tmp_path / "tiny.yaml"), "-q"]) == 0


STONES = """
game: {name: Stones, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 1}}
defs:
  stones(c): "len([x for x in pieces_at(c) if x.kind == 'stone'])"
actions:
  put:
    params: {cell: "[c for c in cells if stones(c) == 0]"}
    effect: [place stone at cell for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces('stone')) >= 2
    do: [{choose: [put]}]
invariants:
  counted: stones('a1') + stones('b1') + stones('c1') == len(pieces('stone'))
"""


def test_an_invariant_calling_a_def_whose_results_are_kept_sees_the_state_as_it_is(tmp_path: Path) -> None:
    game = load_tiny(tmp_path, STONES, players=2)
    assert ("stones",) in [names for _, names in game.definition.kept_defs]
    s = game.new_game(seed=1)
    s.apply("put(cell=a1)")  # listing p2's actions keeps stones() for every cell
    assert broken(s) == []
    s.apply("put(cell=b1)")  # the game ends: nothing is listed after it to refresh the kept results
    assert s.is_over and broken(s) == []
