"""A `choose` step's listing is kept while nothing changes: back at the step after a decision elsewhere that
changed nothing (an offer declined), the same legal actions are handed out without listing them again. It
is kept when an action that may leave a decision (a stepwise one, or one whose effect grants or performs)
is taken at the step."""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple.runtime import engine

ASKING = """
game: {name: Asking, players: {min: 2, max: 2}}
components:
  resources: [gold]
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 1}}
vars:
  game: {turns: 0}
actions:
  put:
    params: {cell: "[c for c in cells if len(pieces_at(c)) == 0]"}
    cost: 1 gold
    effect: [place stone at cell for me]
  ask:
    params: {other: "[q for q in players if q != me]"}
    effect: [grant answer(asker=me) by other optional]
  answer:
    inputs: [asker]
    effect: [gain 1 gold to asker]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: turns >= 4
    do:
      - choose: [put, ask]
        until: pass
      - step: [turns += 1]
"""


def asking(tmp_path: Path, text: str = ASKING) -> meeple.Game:
    (tmp_path / "asking.yaml").write_text(text)
    return meeple.load(tmp_path / "asking.yaml", players=2)


def test_a_declined_offer_leaves_the_step_with_the_listing_it_had(tmp_path: Path) -> None:
    game = asking(tmp_path)
    assert game.definition.deciding == {"ask"}  # its effect grants: a decision may come before the step's
    state = game.new_game(seed=1)
    listed = engine.legal_actions(state)
    assert [str(a) for a in listed] == ["ask(other=p2)", "pass"]  # no gold: nothing to put
    state.apply("ask(other=p2)")
    assert [str(a) for a in state.legal_actions()] == ["answer(asker=p1)", "skip"]
    state.apply("skip")
    assert engine.legal_actions(state) is listed  # nothing changed: not listed again


def test_an_accepted_offer_that_changes_the_game_lists_the_step_again(tmp_path: Path) -> None:
    state = asking(tmp_path).new_game(seed=1)
    listed = engine.legal_actions(state)
    state.apply("ask(other=p2)")
    state.apply("answer(asker=p1)")  # p1 gains a gold: now a stone can be put
    again = engine.legal_actions(state)
    assert again is not listed
    puts = ["put(cell=a1)", "put(cell=b1)", "put(cell=c1)"]
    assert [str(a) for a in again] == [*puts, "ask(other=p2)", "pass"]


def test_a_clone_lists_its_own_step(tmp_path: Path) -> None:
    state = asking(tmp_path).new_game(seed=1)
    state.apply("ask(other=p2)")
    twin = state.clone()
    state.apply("skip")
    twin.apply("answer(asker=p1)")
    assert [str(a) for a in state.legal_actions()] == ["ask(other=p2)", "pass"]
    assert [str(a) for a in twin.legal_actions()][:1] == ["put(cell=a1)"]


def test_a_step_offering_an_action_whose_choices_are_drawn_at_random_is_listed_every_time(
    tmp_path: Path,
) -> None:
    drawn = ASKING.replace('"[q for q in players if q != me]"', '"[pick([q for q in players if q != me])]"')
    game = asking(tmp_path, drawn)
    assert game.definition.kept_steps == [[False, False]]
    assert asking(tmp_path).definition.kept_steps == [[True, False]]
    state = game.new_game(seed=1)
    listed = engine.legal_actions(state)
    state.apply("ask(other=p2)")
    state.apply("skip")
    assert engine.legal_actions(state) is not listed


PAIRS = """
game: {name: Pairs, players: {min: 2, max: 2}}
components:
  pieces: {stone: {supply: 9}}
board: {grid: {width: 3, height: 2}}
defs:
  free_cells(p): "[c for c in cells if len(pieces_at(c)) == 0]"
actions:
  pair:
    stepwise: true
    params: {a: "free_cells(me)", b: "[c for c in free_cells(me) if c > a]"}
    effect: [place stone at a for me, place stone at b for me]
flow:
  - phase: play
    turns: clockwise
    repeat: true
    until: len(pieces()) >= 4
    do: [{choose: [pair]}]
"""


def test_the_steps_of_a_stepwise_action_are_listed_from_the_results_kept_as_they_are(tmp_path: Path) -> None:
    """Between the steps of a stepwise action nothing changes: the next value's listing takes the results
    kept as the step's listing left them, without testing the parts they read again. After the action's
    effect the results are refreshed: the cells taken are no longer offered."""
    game = asking(tmp_path, PAIRS)
    assert any("free_cells" in names for _, names in game.definition.kept_defs)
    refresh = game.definition.refresh_kept
    calls = []

    def counted(s: object) -> None:
        calls.append(1)
        refresh(s)

    game.definition.__dict__["refresh_kept"] = counted  # the cached property's value, counted
    state = game.new_game(seed=1)
    state.apply(state.legal_actions()[0])  # the offer of `pair`
    assert [str(a) for a in state.legal_actions()][:2] == ["pair(a=a1, …)", "pair(a=b1, …)"]
    asked = len(calls)
    state.apply("pair(a=b1, …)")
    assert [str(a) for a in state.legal_actions()] == [f"pair(a=b1, b={c})" for c in ("c1", "b2", "c2")]
    assert len(calls) == asked  # the second step: listed without a refresh
    state.apply("pair(a=b1, b=c1)")
    state.apply(state.legal_actions()[0])  # the other player's offer
    assert len(calls) > asked
    offered = [str(a) for a in state.legal_actions()]
    assert offered[0] == "pair(a=a1, …)" and not any("b1" in a or "c1" in a for a in offered)
