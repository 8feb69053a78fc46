"""The flow features on small inline rule files: loops of phases, `turns: none`, round-robin turns with a
lead and skips, named scopes and `reset`, routines, `log` interpolation, `choose` with `while` and an
`until` action, `move cards`, and score tie-breaks."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_rules import load_tiny

import meeple
from meeple.errors import RuleRuntimeError

BASE = """
game:
  name: Tiny
  players: {min: 2, max: 4}
components:
  resources: [coin, gem]
"""


def tiny(tmp_path: Path, body: str, players: int = 3) -> meeple.Game:
    return load_tiny(tmp_path, BASE + body, players)


def play(state: meeple.State, *actions: str) -> list[int]:
    """Apply the actions in order; the seats of the players who took them."""
    seats = []
    for action in actions:
        seats.append(int(state.to_move))
        state.apply(action)
    return seats


def play_first_legal(state: meeple.State, limit: int = 200) -> list[int]:
    """Play the first legal action until the game is over; the seat of each decider."""
    seats = []
    for _ in range(limit):
        if state.is_over:
            return seats
        seats.append(int(state.to_move))
        state.apply(state.legal_actions()[0])
    raise AssertionError(f"not over after {limit} actions")


def notes(state: meeple.State) -> list[str]:
    """The log lines written by `log` statements and loop headers (not the actions or gains)."""
    assert state.log is not None
    return [line.strip() for line in state.log if line.startswith(("  ", "=="))]


# --------------------------------------------------------------------------- loops of phases


def test_a_loop_runs_its_phases_the_given_number_of_times_with_a_header_each_pass(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  take: {effect: [gain 1 coin]}
flow:
  - loop: season
    times: 3
    phases:
      - phase: play
        turns: clockwise
        do: [{choose: [take]}]
""",
        players=2,
    )
    state = game.new_game(seed=1, log=True)
    assert play_first_legal(state) == [0, 1, 0, 1, 0, 1]
    assert [line for line in state.log if line.startswith("==")] == [
        "== season 1 ==",
        "== season 2 ==",
        "== season 3 ==",
    ]
    assert state.pv[0]["coin"] == 3


def test_a_loop_resets_its_scope_at_the_start_of_every_pass(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  season: {plays: 0}
actions:
  take: {effect: [season.plays += 1]}
flow:
  - loop: season
    times: 2
    scope: season
    phases:
      - phase: play
        turns: clockwise
        do: [{choose: [take]}]
""",
    )
    state = game.new_game(seed=1)
    before_each_take = []
    while not state.is_over:
        before_each_take.append(state.sv["season"]["plays"])
        state.apply("take")
    assert before_each_take == [0, 1, 2, 0, 1, 2]


def test_a_loop_checks_its_until_before_every_pass(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  game: {taken: 0}
actions:
  take: {effect: [taken += 2]}
flow:
  - loop: round
    until: taken >= 3
    phases:
      - phase: play
        turns: none
        do: [{choose: [take]}]
""",
    )
    state = game.new_game(seed=1)
    assert play_first_legal(state) == [0, 0]  # 0 -> 2 -> 4: the third pass never starts
    assert state.gv["taken"] == 4


def test_a_loop_whose_until_already_holds_runs_no_pass(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  game: {ran: false}
actions:
  take: {effect: [set ran = true]}
flow:
  - loop: never
    until: "true"
    phases:
      - phase: play
        turns: none
        do: [{choose: [take]}]
  - phase: after
    turns: none
    do: [{step: [gain 1 gem]}]
""",
    )
    state = game.new_game(seed=1)
    assert state.is_over and state.gv["ran"] is False and state.pv[0]["gem"] == 1


def test_nested_loops_reset_the_inner_scope_every_inner_pass_and_the_outer_one_every_outer_pass(
    tmp_path: Path,
) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  year: {plays: 0}
  month: {plays: 0}
actions:
  take: {effect: [year.plays += 1, month.plays += 1, "log '{year.plays}/{month.plays}'"]}
flow:
  - loop: year
    times: 2
    scope: year
    phases:
      - loop: month
        times: 2
        scope: month
        phases:
          - phase: play
            turns: none
            do: [{choose: [take]}, {choose: [take]}]
""",
    )
    state = game.new_game(seed=1, log=True)
    play_first_legal(state)
    assert notes(state) == [
        "== year 1 ==",
        "== month 1 ==",
        "1/1",
        "2/2",
        "== month 2 ==",
        "3/1",
        "4/2",
        "== year 2 ==",
        "== month 1 ==",
        "1/1",
        "2/2",
        "== month 2 ==",
        "3/1",
        "4/2",
    ]


# --------------------------------------------------------------------------- turns: none


def test_turns_none_runs_the_steps_once_for_the_first_player_without_a_turn_header(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  take: {effect: [gain 1 coin]}
flow:
  - phase: deal
    turns: none
    do: [{step: [gain 1 gem]}, {choose: [take]}]
""",
    )
    state = game.new_game(seed=1, log=True)
    assert play(state, "take") == [0]
    assert state.is_over
    assert [(r["coin"], r["gem"]) for r in state.pv] == [(1, 1), (0, 0), (0, 0)]
    assert not any(line.startswith("--") for line in state.log)


# --------------------------------------------------------------------------- round-robin turns

ROUND_ROBIN = """
vars:
  game: {direction: 1, plays: 0}
  player: {out: false}
actions:
  take: {effect: [plays += 1]}
  flip: {effect: [plays += 1, set direction = -direction]}
  lead_p3: {effect: [plays += 1, "give lead to players[2]"]}
  quit: {effect: [plays += 1, set me.out = true]}
flow:
  - phase: play
    turns:
      round_robin:
        first: players[1]
        direction: direction
        skip: p.out
    until: plays >= 8
    do: [{choose: [take, flip, lead_p3, quit]}]
"""


def test_round_robin_turns_start_with_first_and_go_around_the_table(tmp_path: Path) -> None:
    state = tiny(tmp_path, ROUND_ROBIN, players=4).new_game(seed=1)
    assert play(state, "take", "take", "take", "take", "take") == [1, 2, 3, 0, 1]


def test_round_robin_reads_the_direction_before_every_turn(tmp_path: Path) -> None:
    state = tiny(tmp_path, ROUND_ROBIN, players=4).new_game(seed=1)
    assert play(state, "take", "flip", "take", "take", "flip", "take") == [1, 2, 1, 0, 3, 0]


def test_round_robin_passes_over_skipped_players(tmp_path: Path) -> None:
    state = tiny(tmp_path, ROUND_ROBIN, players=4).new_game(seed=1)
    assert play(state, "quit", "take", "take", "take", "take") == [1, 2, 3, 0, 2]


def test_round_robin_ends_when_the_phase_until_holds(tmp_path: Path) -> None:
    state = tiny(tmp_path, ROUND_ROBIN, players=4).new_game(seed=1)
    play(state, *["take"] * 8)
    assert state.is_over and state.gv["plays"] == 8


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("direction: 1", "direction: 'left'", "direction"),
        ("first: players[1]", "first: \"'p2'\"", "first"),
    ],
)
def test_a_direction_or_first_seat_that_is_not_a_number_is_an_error_at_its_place(
    tmp_path: Path, old: str, new: str, where: str
) -> None:
    text = ROUND_ROBIN.replace(old, new)
    with pytest.raises(RuleRuntimeError) as error:
        tiny(tmp_path, text, players=4).new_game(seed=1)
    shown = "'left'" if where == "direction" else "'p2'"
    assert f"must be a player or a number, not {shown}" in str(error.value)
    assert error.value.rule == f"flow[0].turns.round_robin.{where}"
    span = error.value.span
    assert span is not None
    line = Path(span.file).read_text(encoding="utf-8").splitlines()[span.line - 1]
    assert line.strip().startswith(f"{where}: ")


def test_a_phase_whose_first_player_is_a_text_is_an_error_at_its_first(tmp_path: Path) -> None:
    body = """
vars:
  game: {starter: '3 rope +'}
actions:
  take: {effect: [gain 1 coin]}
flow:
  - phase: play
    first: starter
    do: [{choose: [take]}]
"""
    with pytest.raises(RuleRuntimeError) as error:
        tiny(tmp_path, body).new_game(seed=1)
    assert "a seat must be a player or a number, not '3 rope +'" in str(error.value)
    assert error.value.rule == "flow[0].first"


def test_give_lead_makes_that_player_take_the_next_turn(tmp_path: Path) -> None:
    state = tiny(tmp_path, ROUND_ROBIN, players=4).new_game(seed=1)
    assert play(state, "take", "take", "lead_p3", "take", "take") == [1, 2, 3, 2, 3]


def test_give_lead_to_a_skipped_player_goes_to_the_next_player_after_them(
    tmp_path: Path,
) -> None:
    state = tiny(tmp_path, ROUND_ROBIN, players=4).new_game(seed=1)
    # p3 (seat 2) drops out; seat 3 then gives the lead to p3, who is skipped: seat 3 again, not seat 1.
    assert play(state, "take", "quit", "lead_p3", "take") == [1, 2, 3, 3]


def test_give_lead_to_a_skipped_player_looks_for_the_next_one_counterclockwise_too(tmp_path: Path) -> None:
    state = tiny(tmp_path, ROUND_ROBIN, players=4).new_game(seed=1)
    assert play(state, "take", "quit", "flip", "lead_p3", "take") == [1, 2, 3, 1, 1]


def test_a_round_robin_phase_ends_when_every_seat_is_skipped(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  player: {out: false}
actions:
  quit: {effect: [set me.out = true]}
flow:
  - phase: play
    turns: {round_robin: {skip: p.out}}
    do: [{choose: [quit]}]
  - phase: after
    turns: none
    do: [{step: [gain 1 gem]}]
""",
    )
    state = game.new_game(seed=1)
    assert play_first_legal(state) == [0, 1, 2]
    assert state.pv[0]["gem"] == 1


# --------------------------------------------------------------------------- named scopes and routines


def test_a_named_scope_is_read_and_set_with_its_name_and_reset_restores_the_declared_values(
    tmp_path: Path,
) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  trick: {top: none, passed: [], count: 0}
actions:
  lay: {effect: [set trick.top = me, add me to trick.passed, trick.count += 1]}
  clear: {effect: [reset trick]}
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [lay, clear], until: end_turn}]
""",
    )
    state = game.new_game(seed=1)
    state.apply("lay").apply("lay")
    assert state.sv["trick"] == {"top": meeple.Player(0), "passed": (0, 0), "count": 2}
    state.apply("clear")
    assert state.sv["trick"] == {"top": None, "passed": (), "count": 0}


def test_a_routine_runs_with_perform_and_the_same_me(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  round: {bids: 0}
routines:
  reward:
    - gain 2 coin
    - round.bids += 1
actions:
  bid: {effect: [gain 1 gem, perform reward]}
flow:
  - phase: play
    turns: clockwise
    do: [{choose: [bid]}]
""",
    )
    state = game.new_game(seed=1)
    play(state, "bid", "bid")
    assert [(r["coin"], r["gem"]) for r in state.pv] == [(2, 1), (2, 1), (0, 0)]
    assert state.sv["round"]["bids"] == 2


def test_a_routine_can_give_the_lead_and_reset_a_scope(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  game: {plays: 0}
  trick: {top: none}
routines:
  close_trick:
    - give lead to trick.top
    - reset trick
actions:
  top: {effect: [plays += 1, set trick.top = me]}
  pass:
    effect:
      - plays += 1
      - if: plays % 3 == 0
        then: [perform close_trick]
flow:
  - phase: play
    turns: {round_robin: {}}
    until: plays >= 6
    do: [{choose: [top, pass]}]
""",
    )
    state = game.new_game(seed=1)
    # p2 takes the top, p3 passes: the third play closes the trick and p2 (seat 1) leads, not p1.
    assert play(state, "pass", "top", "pass") == [0, 1, 2]
    assert state.sv["trick"] == {"top": None}
    assert int(state.to_move) == 1


# --------------------------------------------------------------------------- log interpolation


def test_log_interpolates_expressions_in_braces(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  game: {hits: 2, flag: true, nothing: none}
actions:
  shout:
    effect:
      - gain 1 coin + 2 gem
      - "log '{me} has {me.coin + me.gem} ({me.resources}); {hits * 10}% {flag} {nothing} {1..3}'"
flow:
  - phase: play
    turns: none
    do: [{choose: [shout]}]
""",
    )
    state = game.new_game(seed=1, log=True)
    state.apply("shout")
    assert notes(state)[-1] == "p1 has 3 (1 coin + 2 gem); 20% true none 1, 2, 3"


def test_a_log_without_braces_is_written_as_it_is(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  shout: {effect: ["log 'plain text, 100%'"]}
flow:
  - phase: play
    turns: none
    do: [{choose: [shout]}]
""",
    )
    state = game.new_game(seed=1, log=True)
    state.apply("shout")
    assert notes(state) == ["plain text, 100%"]


# --------------------------------------------------------------------------- choose: while and until


def test_a_choose_step_with_while_asks_again_while_the_condition_holds(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  pick: {effect: [gain 1 coin]}
flow:
  - phase: draft
    turns: clockwise
    do: [{choose: [pick], while: me.coin < 3}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    assert play_first_legal(state) == [0, 0, 0, 1, 1, 1]


def test_a_choose_step_whose_while_is_false_at_the_start_is_skipped(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  pick: {effect: [gain 1 coin]}
  other: {effect: [gain 1 gem]}
flow:
  - phase: draft
    turns: clockwise
    do: [{choose: [pick], while: me.gem > 0}, {choose: [other]}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["other"]


def test_an_until_action_is_offered_only_when_its_when_holds_and_its_effect_ends_the_step(
    tmp_path: Path,
) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  pick: {effect: [gain 1 coin]}
  done:
    when: me.coin >= 2
    effect: [gain 5 gem]
flow:
  - phase: draft
    turns: clockwise
    do: [{choose: [pick], until: done}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    state.apply("pick")
    assert [str(a) for a in state.legal_actions()] == ["pick"]
    state.apply("pick")
    assert [str(a) for a in state.legal_actions()] == ["pick", "done"]
    state.apply("done")
    assert int(state.to_move) == 1 and state.pv[0]["gem"] == 5


def test_while_and_an_until_action_together_stop_at_whichever_comes_first(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  pick: {effect: [gain 1 coin]}
  done: {when: me.coin >= 1}
flow:
  - phase: draft
    turns: clockwise
    do: [{choose: [pick], while: me.coin < 3, until: done}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    assert play(state, "pick", "done", "pick", "pick", "pick") == [0, 0, 1, 1, 1]
    assert state.is_over and [r["coin"] for r in state.pv] == [1, 3]


def test_a_bare_until_word_is_always_offered_alongside_while(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  pick: {effect: [gain 1 coin]}
flow:
  - phase: draft
    turns: clockwise
    do: [{choose: [pick], while: me.coin < 3, until: end_turn}]
""",
        players=2,
    )
    state = game.new_game(seed=1)
    assert [str(a) for a in state.legal_actions()] == ["pick", "end_turn"]
    assert play(state, "end_turn", "pick") == [0, 1]


def test_an_until_action_also_listed_in_choose_is_offered_once(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
actions:
  pick: {effect: [gain 1 coin]}
  done: {effect: [gain 1 gem]}
flow:
  - phase: draft
    turns: clockwise
    do: [{choose: [pick, done], until: done}]
""",
        players=2,
    )
    assert [str(a) for a in game.new_game(seed=1).legal_actions()] == ["pick", "done"]


# --------------------------------------------------------------------------- move cards

CARDS = """
  cards:
    ace: {count: 2}
    king: {}
    queen: {}
  zones:
    deck: {fill: cards}
    hand: {per: player}
    discard: {}
"""


def test_move_cards_moves_every_card_of_a_zone_a_list_or_a_bundle(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        CARDS
        + """
actions:
  deal_list: {effect: ["move cards ['ace', 'king'] from deck to me.hand"]}
  deal_rest: {effect: [move cards deck from deck to me.hand]}
  shed: {effect: [move cards me.hand from me.hand to discard]}
  shed_pair: {effect: ["move cards [c for c in discard if c == 'ace'] from discard to me.hand"]}
flow:
  - phase: play
    turns: none
    do: [{choose: [deal_list]}, {choose: [deal_rest]}, {choose: [shed]}, {choose: [shed_pair]}]
""",
    )
    state = game.new_game(seed=1)
    state.apply("deal_list")
    assert state.zones["hand#0"] == {"ace": 1, "king": 1}
    state.apply("deal_rest")
    assert state.zones["deck"] == {} and state.zones["hand#0"] == {"ace": 2, "king": 1, "queen": 1}
    state.apply("shed")
    assert state.zones["hand#0"] == {} and state.zones["discard"] == {"ace": 2, "king": 1, "queen": 1}
    state.apply("shed_pair")
    assert state.zones["hand#0"] == {"ace": 2} and state.zones["discard"] == {"king": 1, "queen": 1}


def test_move_cards_of_a_bundle_moves_every_copy_and_stops_at_the_first_copy_the_zone_lacks(
    tmp_path: Path,
) -> None:
    game = tiny(
        tmp_path,
        """
  cards:
    ace: {count: 3}
    king: {}
  zones:
    deck: {fill: cards}
    hand: {per: player}
    discard: {}
actions:
  take:
    params: {b: "bundles(deck, 3)"}
    effect: [move cards b from deck to me.hand]
  toss: {effect: [move card ace from deck to discard]}
  back: {effect: [move cards me.hand from discard to deck]}
flow:
  - phase: play
    turns: none
    do: [{choose: [take]}, {choose: [toss]}, {choose: [back]}]
""",
    )
    state = game.new_game(seed=1)
    taken = next(a for a in state.legal_actions() if str(a["b"]) == "2 ace + 1 king")
    state.apply(taken)
    assert state.zones["deck"] == {"ace": 1} and state.zones["hand#0"] == {"ace": 2, "king": 1}
    state.apply("toss")
    assert state.zones["deck"] == {} and state.zones["discard"] == {"ace": 1}
    # The hand names two aces and the discard holds one: it moves, as one copy at a time would move it,
    # and the second is the error; the king, named after the aces, is never reached.
    with pytest.raises(RuleRuntimeError, match="no ace in discard"):
        state.apply("back")
    assert state.zones["discard"] == {} and state.zones["deck"] == {"ace": 1}


def test_move_card_moves_one_copy(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        CARDS
        + """
actions:
  take: {effect: [move card ace from deck to me.hand]}
flow:
  - phase: play
    turns: none
    do: [{choose: [take]}]
""",
    )
    state = game.new_game(seed=1)
    state.apply("take")
    assert state.zones["deck"] == {"ace": 1, "king": 1, "queen": 1} and state.zones["hand#0"] == {"ace": 1}


# --------------------------------------------------------------------------- tie-breaks

TIES = """
vars:
  player: {vp: 0, spare: 0}
actions:
  bank:
    params: {vp: "[1, 2]", spare: "[0, 1]"}
    effect: [me.vp += vp, me.spare += spare]
flow:
  - phase: one_round
    turns: clockwise
    do: [{choose: [bank]}]
"""


def tie_game(tmp_path: Path, scoring: str) -> meeple.State:
    return tiny(tmp_path, TIES + scoring).new_game(seed=1)


def test_a_tiebreak_picks_the_winner_among_players_tied_on_score(tmp_path: Path) -> None:
    state = tie_game(tmp_path, "scoring: {score: p.vp, tiebreak: p.spare}\n")
    state.apply("bank(vp=2, spare=0)").apply("bank(vp=2, spare=1)").apply("bank(vp=1, spare=1)")
    assert state.is_over and state.winners == [1]


def test_a_list_of_tiebreaks_is_compared_in_order(tmp_path: Path) -> None:
    state = tie_game(tmp_path, "scoring: {score: p.vp, tiebreak: [p.spare, -p.index]}\n")
    state.apply("bank(vp=2, spare=1)").apply("bank(vp=2, spare=1)").apply("bank(vp=2, spare=0)")
    assert state.winners == [0]


def test_players_tied_on_score_and_every_tiebreak_share_the_win(tmp_path: Path) -> None:
    state = tie_game(tmp_path, "scoring: {score: p.vp, tiebreak: p.spare}\n")
    state.apply("bank(vp=2, spare=1)").apply("bank(vp=2, spare=1)").apply("bank(vp=1, spare=1)")
    assert state.winners == [0, 1]


def test_a_tiebreak_never_overturns_a_higher_score(tmp_path: Path) -> None:
    state = tie_game(tmp_path, "scoring: {score: p.vp, tiebreak: p.spare}\n")
    state.apply("bank(vp=2, spare=0)").apply("bank(vp=1, spare=1)").apply("bank(vp=1, spare=1)")
    assert state.winners == [0]


# --------------------------------------------------------------------------- saving


def test_a_game_saved_inside_a_loop_and_a_round_robin_phase_resumes_identically(tmp_path: Path) -> None:
    game = tiny(
        tmp_path,
        """
vars:
  game: {direction: 1, plays: 0}
  player: {out: false}
  round: {plays: 0}
actions:
  take: {effect: [plays += 1, round.plays += 1]}
  flip: {effect: [plays += 1, set direction = -direction]}
  lead_p3: {effect: [plays += 1, "give lead to players[2]"]}
  quit: {effect: [plays += 1, set me.out = true]}
flow:
  - loop: outer
    times: 2
    scope: round
    phases:
      - phase: play
        turns: {round_robin: {first: "players[1]", direction: direction, skip: p.out}}
        until: plays >= 8
        do: [{choose: [take, flip, lead_p3, quit]}]
""",
        players=4,
    )
    state = game.new_game(seed=1)
    play(state, "take", "flip", "quit")
    copy = game.state_from_json(state.to_json())
    assert copy == state
    for action in ("take", "lead_p3", "take"):
        state.apply(action)
        copy.apply(action)
    assert copy == state and copy.sv == {"round": {"plays": 3}}


# --------------------------------------------------------------------------- diagnostics of the flow features


def places(tmp_path: Path, body: str) -> list[tuple[str, int]]:
    path = tmp_path / "broken.yaml"
    path.write_text(BASE + body, encoding="utf-8")
    return [(d.code, d.span.line if d.span else 0) for d in meeple.check(path)]


def line_of(body: str, marker: str) -> int:
    (number,) = [i for i, line in enumerate((BASE + body).splitlines(), 1) if marker in line]
    return number


def test_an_unknown_name_in_a_tiebreak_is_reported(tmp_path: Path) -> None:
    body = TIES + "scoring: {score: p.vp, tiebreak: [p.spare, luck]}\n"
    assert places(tmp_path, body) == [("name/unknown-name", line_of(body, "luck"))]


def test_a_routine_named_like_an_action_is_reported_where_it_is_declared(tmp_path: Path) -> None:
    body = """
routines:
  take: [gain 1 gem]
actions:
  take: {effect: [gain 1 coin]}
flow:
  - phase: play
    do: [{choose: [take]}]
"""
    lines = {line for _, line in places(tmp_path, body)}
    assert lines and lines <= {line_of(body, "take: [gain 1 gem]"), line_of(body, "take: {effect")}


MARKER_FLOW = """
vars:
  game: {marker: 0, plays: 0}
actions:
  go:
    effect:
      - set plays = plays + 1
      - if: plays % 3 == 0
        then: [set marker = (marker + 1) % 3]
flow:
  - phase: rounds
    turns: clockwise
    first: players[marker]
    repeat: true
    until: plays >= LIMIT
    do:
      - choose: [go]
scoring:
  score: "0"
"""


def test_a_repeating_phase_starts_each_round_at_the_first_player_marker(tmp_path: Path) -> None:
    state = tiny(tmp_path, MARKER_FLOW.replace("LIMIT", "9")).new_game(seed=1)
    # The marker moves on after each round of three: each round starts one seat later.
    assert play_first_legal(state) == [0, 1, 2, 1, 2, 0, 2, 0, 1]
    assert state.is_over


def test_a_repeating_phase_whose_until_holds_mid_round_or_at_its_end_stops_there(tmp_path: Path) -> None:
    for limit, turns in ((4, 4), (6, 6)):
        state = tiny(tmp_path, MARKER_FLOW.replace("LIMIT", str(limit))).new_game(seed=1)
        assert len(play_first_legal(state)) == turns
        assert state.is_over and state.gv["plays"] == limit
