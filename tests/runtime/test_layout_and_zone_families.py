"""Layouts and zones on small inline rule files: layout steps that `draw:` from a pool larger than the
sites, a board `require:` re-drawn until it holds, zone families keyed by a value (`decks[k]`) in
expressions, statements, views and errors, `end game` stopping the running effect, a bundle shown in a
log line, and the `join` and `path` built-ins."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tiny_rules import load_tiny

import meeple
from meeple.compile.expressions import RuleRuntimeError

BASE = """
game:
  name: Tiny
  players: {min: 2, max: 4}
components:
  resources: [coin, gem]
"""

SEEDS = range(50)


def tiny(tmp_path: Path, body: str, players: int = 2) -> meeple.Game:
    return load_tiny(tmp_path, BASE + body, players)


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "broken.yaml"
    path.write_text(BASE + body, encoding="utf-8")
    return path


def places(tmp_path: Path, body: str) -> list[tuple[str, int]]:
    return [(d.code, d.span.line if d.span else 0) for d in meeple.check(write(tmp_path, body))]


def line_of(body: str, marker: str) -> int:
    (number,) = [i for i, line in enumerate((BASE + body).splitlines(), 1) if marker in line]
    return number


def notes(state: meeple.State) -> list[str]:
    """The log lines written by `log` statements (not the actions or turn headers)."""
    assert state.log is not None
    return [line.strip() for line in state.log if line.startswith("  ")]


def plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def field_of(state: meeple.State, name: str) -> dict[str, Any]:
    """Every site's value of one field."""
    return {site: fields.get(name) for site, fields in state.sites.items()}


ONE_ACTION = """
actions:
  wait: {effect: [gain 1 coin]}
flow:
  - phase: play
    turns: none
    do: [{choose: [wait]}]
"""

# --------------------------------------------------------------------------- draw: a pool of values

# Six cells drawn from fifteen tiles.
POOL = {"desert": 4, "grasslands": 1, "oasis": 10}
DRAWN = """
board:
  grid: {width: 3, height: 2}
  layout:
    - set: terrain
      on: cells
      draw: {desert: 4, grasslands: 1, oasis: 10}
"""


def test_a_draw_step_fills_every_site(tmp_path: Path) -> None:
    game = tiny(tmp_path, DRAWN + ONE_ACTION)
    for seed in SEEDS:
        assert all(value in POOL for value in field_of(game.new_game(seed=seed), "terrain").values())


def test_a_draw_step_never_uses_a_value_more_often_than_the_pool_holds_it(tmp_path: Path) -> None:
    game = tiny(tmp_path, DRAWN + ONE_ACTION)
    for seed in SEEDS:
        used = Counter(field_of(game.new_game(seed=seed), "terrain").values())
        assert all(used[value] <= POOL[value] for value in used)


def test_a_draw_step_leaves_different_values_out_in_different_games(tmp_path: Path) -> None:
    game = tiny(tmp_path, DRAWN + ONE_ACTION)
    deserts = {Counter(field_of(game.new_game(seed=seed), "terrain").values())["desert"] for seed in SEEDS}
    assert len(deserts) > 1


def test_the_same_seed_draws_the_same_layout(tmp_path: Path) -> None:
    game = tiny(tmp_path, DRAWN + ONE_ACTION)
    again = tiny(tmp_path, DRAWN + ONE_ACTION)
    for seed in (1, 2, 3):
        assert field_of(game.new_game(seed=seed), "terrain") == field_of(again.new_game(seed=seed), "terrain")


def test_a_pool_exactly_the_size_of_the_sites_uses_every_value(tmp_path: Path) -> None:
    board = DRAWN.replace("{desert: 4, grasslands: 1, oasis: 10}", "{desert: 4, grasslands: 1, oasis: 1}")
    game = tiny(tmp_path, board + ONE_ACTION)
    for seed in range(10):
        assert Counter(field_of(game.new_game(seed=seed), "terrain").values()) == {
            "desert": 4,
            "grasslands": 1,
            "oasis": 1,
        }


def test_a_pool_smaller_than_the_sites_cannot_lay_out_the_board(tmp_path: Path) -> None:
    board = DRAWN.replace("{desert: 4, grasslands: 1, oasis: 10}", "{desert: 2, oasis: 1}")
    game = tiny(tmp_path, board + ONE_ACTION)
    with pytest.raises(meeple.RulesError) as err:
        game.new_game(seed=1)
    assert [d.code for d in err.value.diagnostics] == ["rules/layout-count"]


def test_shuffle_still_needs_exactly_one_value_per_site(tmp_path: Path) -> None:
    game = tiny(tmp_path, DRAWN.replace("draw:", "shuffle:") + ONE_ACTION)
    with pytest.raises(meeple.RulesError) as err:
        game.new_game(seed=1)
    assert [d.code for d in err.value.diagnostics] == ["rules/layout-count"]


# --------------------------------------------------------------------------- require: drawn again


def test_require_draws_the_layout_again_until_its_condition_holds(tmp_path: Path) -> None:
    # One grasslands tile among fifteen: without `require` the middle cell is seldom grasslands.
    game = tiny(tmp_path, DRAWN + "  require: b2.terrain == 'grasslands'\n" + ONE_ACTION)
    for seed in SEEDS:
        assert game.new_game(seed=seed).sites["b2"]["terrain"] == "grasslands"


def test_without_require_the_same_layout_does_not_always_meet_the_condition(tmp_path: Path) -> None:
    game = tiny(tmp_path, DRAWN + ONE_ACTION)
    assert any(game.new_game(seed=seed).sites["b2"]["terrain"] != "grasslands" for seed in SEEDS)


def test_a_required_layout_still_depends_only_on_the_seed(tmp_path: Path) -> None:
    body = DRAWN + "  require: b2.terrain == 'grasslands'\n" + ONE_ACTION
    game, again = tiny(tmp_path, body), tiny(tmp_path, body)
    for seed in (1, 2, 3):
        assert field_of(game.new_game(seed=seed), "terrain") == field_of(again.new_game(seed=seed), "terrain")


def test_require_sees_the_whole_layout_and_may_use_a_metric(tmp_path: Path) -> None:
    # A river on most cells; the finish in the far corner must stay reachable on foot.
    body = """
board:
  grid: {width: 4, height: 3}
  layout:
    - set: terrain
      on: "[c for c in cells if c != a1 and c != d3]"
      draw: {river: 8, grasslands: 4}
    - set: terrain
      on: "[a1, d3]"
      at: [0, 1]
      values: [start, finish]
  require: distance(a1, d3, 'ground') != none
metrics:
  ground: {on: cell, enter: 1, blocked: b.terrain == 'river'}
vars:
  game: {route: none}
actions:
  look: {effect: ["set route = path(a1, d3, 'ground')"]}
flow:
  - phase: play
    turns: none
    do: [{choose: [look]}]
"""
    game = tiny(tmp_path, body)
    for seed in range(20):
        state = game.new_game(seed=seed)
        state.apply("look")
        route = plain(state.gv["route"])
        assert route is not None and route[0] == "a1" and route[-1] == "d3"
        assert all(state.sites[c]["terrain"] != "river" for c in route)


def test_require_that_no_layout_meets_is_reported_at_the_require_line(tmp_path: Path) -> None:
    body = DRAWN + "  require: any(c.terrain == 'lava' for c in cells)\n" + ONE_ACTION
    game = tiny(tmp_path, body)
    with pytest.raises(meeple.RulesError) as err:
        game.new_game(seed=1)
    assert [(d.code, d.span.line if d.span else 0) for d in err.value.diagnostics] == [
        ("rules/layout-require", line_of(body, "require:"))
    ]


def test_tries_limits_how_many_layouts_require_may_reject(tmp_path: Path) -> None:
    # One try: the first layout must meet the condition, and for some seeds it does not.
    body = DRAWN + "  require: b2.terrain == 'grasslands'\n  tries: 1\n" + ONE_ACTION
    game = tiny(tmp_path, body)
    outcomes = set()
    for seed in SEEDS:
        try:
            outcomes.add(game.new_game(seed=seed).sites["b2"]["terrain"])
        except meeple.RulesError as err:
            assert [d.code for d in err.diagnostics] == ["rules/layout-require"]
            outcomes.add("refused")
    assert outcomes == {"grasslands", "refused"}


# --------------------------------------------------------------------------- zone families

FAMILY = """
  cards:
    ant: {count: 2}
    bee: {}
    cat: {}
  zones:
    decks:
      keys: [low, high]
      visibility: hidden
      fill: {low: "[ant, bee]", high: "[cat]"}
    spent: {keys: [low, high]}
    hand: {per: player, visibility: owner}
"""


def family_game(tmp_path: Path, actions: str) -> meeple.Game:
    return tiny(
        tmp_path,
        FAMILY
        + """
vars:
  game: {out: none, key: high}
actions:
"""
        + actions
        + """
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [act]}]
""",
    )


def look(tmp_path: Path, expression: str) -> Any:
    """The value of an expression over FAMILY's zones at the start of a game."""
    state = family_game(tmp_path, f'  act: {{effect: ["set out = {expression}"]}}\n').new_game(seed=1)
    state.apply("act")
    return plain(state.gv["out"])


def test_a_zone_family_has_one_zone_per_key_each_with_its_own_fill(tmp_path: Path) -> None:
    state = family_game(tmp_path, "  act: {effect: [gain 1 coin]}\n").new_game(seed=1)
    assert state.zones["decks#low"] == {"ant": 2, "bee": 1}
    assert state.zones["decks#high"] == {"cat": 1}
    assert state.zones["spent#low"] == {} and state.zones["spent#high"] == {}


def test_a_single_fill_fills_every_zone_of_the_family_alike(tmp_path: Path) -> None:
    body = FAMILY.replace('fill: {low: "[ant, bee]", high: "[cat]"}', 'fill: "[bee, cat]"') + ONE_ACTION
    state = tiny(tmp_path, body).new_game(seed=1)
    assert state.zones["decks#low"] == state.zones["decks#high"] == {"bee": 1, "cat": 1}


def test_a_key_without_a_fill_starts_empty(tmp_path: Path) -> None:
    body = FAMILY.replace('fill: {low: "[ant, bee]", high: "[cat]"}', 'fill: {low: "[bee]"}') + ONE_ACTION
    state = tiny(tmp_path, body).new_game(seed=1)
    assert state.zones["decks#high"] == {}


def test_a_family_zone_is_read_by_a_quoted_key(tmp_path: Path) -> None:
    assert look(tmp_path, "[size(decks['low']), size(decks['high'])]") == [3, 1]


def test_a_family_zone_is_read_by_a_key_held_in_a_variable(tmp_path: Path) -> None:
    assert look(tmp_path, "[c for c in decks[key]]") == ["cat"]


def test_the_cards_of_a_family_zone_can_be_iterated_and_counted(tmp_path: Path) -> None:
    assert look(tmp_path, "[sorted(c for c in decks['low']), count(decks['low'], 'ant')]") == [
        ["ant", "ant", "bee"],
        2,
    ]


def test_draw_takes_cards_from_the_family_zone_of_a_parameter_key(tmp_path: Path) -> None:
    game = family_game(
        tmp_path,
        """  act:
    params: {k: "['low', 'high']"}
    effect: ["draw 1 from decks[k] to me.hand"]
""",
    )
    state = game.new_game(seed=1)
    state.apply("act(k=high)")
    assert state.zones["decks#high"] == {} and state.zones["hand#0"] == {"cat": 1}
    assert sum(state.zones["decks#low"].values()) == 3


def test_move_cards_moves_a_whole_family_zone_to_the_zone_of_the_same_key_in_another_family(
    tmp_path: Path,
) -> None:
    game = family_game(
        tmp_path,
        """  act:
    params: {k: "['low', 'high']"}
    effect: ["move cards decks[k] from decks[k] to spent[k]"]
""",
    )
    state = game.new_game(seed=1)
    state.apply("act(k=low)")
    assert state.zones["decks#low"] == {} and state.zones["spent#low"] == {"ant": 2, "bee": 1}
    assert state.zones["decks#high"] == {"cat": 1} and state.zones["spent#high"] == {}


def test_move_card_puts_one_card_into_a_family_zone_named_by_a_quoted_key(tmp_path: Path) -> None:
    game = family_game(
        tmp_path, """  act: {effect: ["move card ant from decks['low'] to spent['high']"]}\n"""
    )
    state = game.new_game(seed=1)
    state.apply("act")
    assert state.zones["decks#low"] == {"ant": 1, "bee": 1} and state.zones["spent#high"] == {"ant": 1}


def test_a_when_can_read_a_family_zone_of_a_parameter_key(tmp_path: Path) -> None:
    game = family_game(
        tmp_path,
        """  act:
    params: {k: "['low', 'high']"}
    when: size(decks[k]) > 1
    effect: ["draw 1 from decks[k] to me.hand"]
""",
    )
    assert [str(a) for a in game.new_game(seed=1).legal_actions()] == ["act(k=low)"]


def test_a_view_shows_only_the_size_of_a_hidden_family_zone(tmp_path: Path) -> None:
    state = family_game(tmp_path, "  act: {effect: [gain 1 coin]}\n").new_game(seed=1)
    for seat in (0, 1):
        view = state.view(seat)
        assert view.zones["decks#low"] == {"?": 3} and view.zones["decks#high"] == {"?": 1}


def test_a_view_shows_the_cards_of_a_family_that_is_not_hidden(tmp_path: Path) -> None:
    game = family_game(tmp_path, """  act: {effect: ["move card ant from decks['low'] to spent['low']"]}\n""")
    state = game.new_game(seed=1)
    state.apply("act")
    assert state.view(1).zones["spent#low"] == {"ant": 1}


def test_a_view_of_an_emptied_hidden_family_zone_is_empty(tmp_path: Path) -> None:
    game = family_game(tmp_path, """  act: {effect: ["draw 1 from decks['high'] to me.hand"]}\n""")
    state = game.new_game(seed=1)
    state.apply("act")
    assert state.view(1).zones["decks#high"] == {}


def test_a_game_with_zone_families_saves_and_resumes_identically(tmp_path: Path) -> None:
    game = family_game(
        tmp_path,
        """  act:
    params: {k: "['low', 'high']"}
    when: size(decks[k]) > 0
    effect: ["draw 1 from decks[k] to me.hand"]
""",
    )
    state = game.new_game(seed=4)
    state.apply("act(k=low)")
    copy = game.state_from_json(state.to_json())
    assert copy == state
    state.apply("act(k=low)")
    copy.apply("act(k=low)")
    assert copy == state


def test_reading_a_key_the_family_does_not_have_fails_at_run_time(tmp_path: Path) -> None:
    game = family_game(tmp_path, """  act: {effect: ["set out = size(decks['middle'])"]}\n""")
    state = game.new_game(seed=1)
    with pytest.raises(RuleRuntimeError, match="middle"):
        state.apply("act")


def test_drawing_from_a_key_the_family_does_not_have_fails_at_run_time(tmp_path: Path) -> None:
    game = family_game(tmp_path, """  act: {effect: ["draw 1 from decks['middle'] to me.hand"]}\n""")
    state = game.new_game(seed=1)
    with pytest.raises(RuleRuntimeError, match="middle"):
        state.apply("act")


def test_a_rule_failing_on_a_missing_key_is_a_meeple_error(tmp_path: Path) -> None:
    game = family_game(tmp_path, """  act: {effect: ["move card ant from decks['low'] to spent[me]"]}\n""")
    with pytest.raises(meeple.MeepleError):
        game.new_game(seed=1).apply("act")


def test_a_bare_family_name_in_an_expression_is_reported(tmp_path: Path) -> None:
    body = (
        FAMILY
        + """
actions:
  act: {when: size(decks) > 0, effect: [gain 1 coin]}
flow:
  - phase: play
    turns: none
    do: [{choose: [act]}]
"""
    )
    assert places(tmp_path, body) == [("name/bare-zone-family", line_of(body, "size(decks)"))]


def test_a_bare_family_name_where_a_statement_wants_a_zone_is_reported_as_a_bare_family(
    tmp_path: Path,
) -> None:
    body = (
        FAMILY
        + """
actions:
  act: {effect: [draw 1 from decks to me.hand]}
flow:
  - phase: play
    turns: none
    do: [{choose: [act]}]
"""
    )
    assert places(tmp_path, body) == [("name/bare-zone-family", line_of(body, "draw 1 from decks"))]


def test_a_fill_for_a_key_the_family_does_not_list_is_reported_at_that_fill(tmp_path: Path) -> None:
    body = FAMILY.replace('high: "[cat]"', 'hihg: "[cat]"') + ONE_ACTION
    assert places(tmp_path, body) == [("name/unknown-zone-key", line_of(body, "hihg"))]


def test_a_family_may_not_belong_to_each_player(tmp_path: Path) -> None:
    body = (
        FAMILY.replace("spent: {keys: [low, high]}", "spent: {keys: [low, high], per: player}") + ONE_ACTION
    )
    assert places(tmp_path, body) == [("rules/zone-keys", line_of(body, "spent:"))]


def test_a_family_may_not_be_seen_by_its_owner_only(tmp_path: Path) -> None:
    body = (
        FAMILY.replace("spent: {keys: [low, high]}", "spent: {keys: [low, high], visibility: owner}")
        + ONE_ACTION
    )
    assert places(tmp_path, body) == [("rules/zone-keys", line_of(body, "spent:"))]


# --------------------------------------------------------------------------- end game stops the effect

END = """
vars:
  game: {after: false}
routines:
  close: [end game, set after = true]
actions:
  act:
    effect:
%s
flow:
  - phase: play
    turns: clockwise
    repeat: true
    do: [{choose: [act]}]
"""


def ended(tmp_path: Path, effect: str) -> meeple.State:
    """A game whose first action runs `effect` (YAML list items indented by six spaces)."""
    state = tiny(tmp_path, END % effect).new_game(seed=1)
    state.apply("act")
    return state


def test_end_game_ends_the_game_at_once(tmp_path: Path) -> None:
    state = ended(tmp_path, "      - end game")
    assert state.is_over and state.legal_actions() == []


def test_statements_after_end_game_in_the_same_effect_do_not_run(tmp_path: Path) -> None:
    state = ended(
        tmp_path, "      - gain 1 coin\n      - end game\n      - gain 1 gem\n      - set after = true"
    )
    assert state.is_over and state.pv[0]["coin"] == 1 and state.pv[0]["gem"] == 0
    assert state.gv["after"] is False


def test_end_game_inside_an_if_stops_the_rest_of_the_effect(tmp_path: Path) -> None:
    state = ended(tmp_path, '      - if: "true"\n        then: [end game]\n      - gain 1 gem')
    assert state.is_over and state.pv[0]["gem"] == 0


def test_end_game_inside_a_for_stops_the_later_passes_and_the_rest_of_the_effect(tmp_path: Path) -> None:
    effect = """      - for: i in 1..3
        do:
          - gain 1 coin
          - if: i == 2
            then: [end game]
      - gain 1 gem"""
    state = ended(tmp_path, effect)
    assert state.is_over and state.pv[0]["coin"] == 2 and state.pv[0]["gem"] == 0


def test_end_game_in_a_routine_stops_the_routine_and_the_effect_that_performed_it(tmp_path: Path) -> None:
    state = ended(tmp_path, "      - perform close\n      - gain 1 gem")
    assert state.is_over and state.gv["after"] is False and state.pv[0]["gem"] == 0


def test_end_game_in_a_flow_step_stops_the_rest_of_the_step(tmp_path: Path) -> None:
    state = tiny(
        tmp_path,
        """
actions:
  wait: {effect: [gain 1 coin]}
flow:
  - phase: play
    turns: none
    do: [{step: [gain 1 coin, end game, gain 1 gem]}, {choose: [wait]}]
""",
    ).new_game(seed=1)
    assert state.is_over and state.pv[0]["coin"] == 1 and state.pv[0]["gem"] == 0


# --------------------------------------------------------------------------- log, join and path

SAY = """
vars:
  game: {loot: none}
actions:
  say: {effect: [%s]}
flow:
  - phase: play
    turns: none
    do: [{choose: [say]}]
"""


def said(tmp_path: Path, *statements: str) -> list[str]:
    """The log lines the statements write (each a YAML string of one statement)."""
    state = tiny(tmp_path, SAY % ", ".join(statements)).new_game(seed=1, log=True)
    state.apply("say")
    return notes(state)


def test_a_bundle_in_a_log_line_shows_each_amount_and_resource(tmp_path: Path) -> None:
    assert said(tmp_path, '"set loot = 1 coin + 2 gem"', "\"log 'loot: {loot}'\"") == ["loot: 1 coin + 2 gem"]


def test_an_empty_bundle_in_a_log_line_shows_nothing(tmp_path: Path) -> None:
    assert said(tmp_path, "\"log 'loot: {0 coin}'\"") == ["loot: nothing"]


def test_join_puts_a_comma_and_a_space_between_items(tmp_path: Path) -> None:
    assert said(tmp_path, "\"log '{join([1, 2, 3])}'\"") == ["1, 2, 3"]


def test_join_puts_the_given_separator_between_items(tmp_path: Path) -> None:
    assert said(tmp_path, '"log \'{join([1, 2, 3], \\" > \\")}\'"') == ["1 > 2 > 3"]


def test_join_of_one_item_is_that_item_and_of_none_is_empty(tmp_path: Path) -> None:
    assert said(tmp_path, "\"log '[{join([7])}][{join([])}]'\"") == ["[7][]"]


GRAPH = """
board:
  graph:
    spaces: {BASE: {}, A: {}, B: {}, C: {}, LONE: {}}
    links: [BASE-A, A-B, B-C, C-BASE]
"""


def route(tmp_path: Path, board: str, expression: str, seed: int = 1) -> Any:
    state = tiny(tmp_path, board + SAY % f'"set loot = {expression}"').new_game(seed=seed)
    state.apply("say")
    return plain(state.gv["loot"])


def test_path_lists_the_sites_from_start_to_end_both_included(tmp_path: Path) -> None:
    assert route(tmp_path, GRAPH, "path(BASE, B)") in (["BASE", "A", "B"], ["BASE", "C", "B"])


def test_path_from_a_site_to_itself_is_that_site_alone(tmp_path: Path) -> None:
    assert route(tmp_path, GRAPH, "path(A, A)") == ["A"]


def test_path_to_a_site_that_cannot_be_reached_is_none(tmp_path: Path) -> None:
    assert route(tmp_path, GRAPH, "path(BASE, LONE)") is None


def test_path_chooses_the_same_way_among_equally_short_ones_every_time(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 4, height: 4}\n"
    first = route(tmp_path, board, "[path(a1, d4), path(a1, d4)]")
    assert first[0] == first[1]
    for seed in (2, 3):
        assert route(tmp_path, board, "[path(a1, d4), path(a1, d4)]", seed=seed) == first


def test_join_of_a_path_makes_a_route_for_a_log_line(tmp_path: Path) -> None:
    body = "board:\n  grid: {width: 3, height: 1}\n"
    state = tiny(tmp_path, body + SAY % '"log \'route: {join(path(a1, c1), \\" > \\")}\'"').new_game(
        seed=1, log=True
    )
    state.apply("say")
    assert notes(state) == ["route: a1 > b1 > c1"]
