"""Tabletop climber, rule by rule (shared/rules/tabletop_climber.md with the DATA.md defaults, 004).

Each test stops a 4-player game at the point a rule talks about (the `climber` and `make_climber`
fixtures, see climber_setup.Climber), deals the hands it needs, acts through the public API and
checks the outcome.  Unless a test says otherwise the game is in season 1 (Standard), and
`opens(p, …)` has p lead those cards on an empty field while keeping one more card in hand.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import climber_setup
import pytest

import meeple
from meeple import Bundle, Player
from meeple.runtime.engine import finish_by_score
from meeple.values import Action

P1, P2, P3, P4 = (Player(i) for i in range(4))

COLOURS = ("red", "blue", "green", "yellow")
INITIAL = frozenset(f"{c}_{n}" for c in COLOURS for n in range(1, 8))
HAND_SIZE = {1: 7, 2: 8, 3: 9, 4: 10, 5: 12}
SILVER_VP = {1: 2, 2: 3, 3: 3, 4: 4, 5: 5}
GOLD_VP = {"reverse": 6, "no_set": 7, "transfer": 7, "up_to_two": 8, "accident": 8, "revolution": 9}
FIELD_ZONES = ("hand", "field", "lodge")


def number(card: str) -> int:
    return int(card.rsplit("_", 1)[1])


def runs_in(plays: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    """The plays made of more than one number (runs)."""
    return {p for p in plays if len({number(c) for c in p}) > 1}


def by_size(plays: set[tuple[str, ...]], n: int) -> set[tuple[str, ...]]:
    return {p for p in plays if len(p) == n}


# ====================================================================== the cards and the set-up


def test_the_cards_are_28_initial_46_reinforcements_8_season_cards_and_the_start_card(climber_game):
    s = climber_game.new_game(seed=1)
    everything: Counter[str] = Counter()
    for zone in s.zones.values():
        everything.update(zone)
    high = {f"{c}_{n}": 2 for c in COLOURS for n in range(8, 12)}
    wild = {f"wild_{n}": 1 for n in range(8)}
    clear = {f"clear_{n}": 2 for n in (12, 13, 14)}
    seasons = {card: 1 for card in (*GOLD_VP, "standard", "climax")}
    assert everything == {**dict.fromkeys(INITIAL, 1), **high, **wild, **clear, **seasons, "start": 1}
    assert sum(high.values()) + sum(wild.values()) + sum(clear.values()) == 46


@pytest.mark.parametrize("players", [3, 4])
def test_each_team_starts_with_7_initial_cards_and_2_reinforcements(players):
    s = meeple.load(climber_setup.GAME, players=players).new_game(seed=2)
    for p in range(players):
        owned = Counter()
        for zone in ("team", "hand", "lodge"):  # the first decision is already the hand selection
            owned.update(s.zones[f"{zone}#{p}"])
        assert sum(n for card, n in owned.items() if card in INITIAL) == 7
        assert sum(n for card, n in owned.items() if card != "start") == 9
    # in a 3-player game the rest of the initial cards stay in the box
    assert sum(s.zones["initial_deck"].values()) == 28 - 7 * players
    assert sum(s.zones["reinforcements"].values()) == 46 - 2 * players


# ====================================================================== play types and following


def test_the_leader_may_play_a_single_a_set_or_a_run_and_may_not_pass(climber):
    climber.deal({P1: ["red_5", "blue_5", "red_6"]})
    climber.lead(P1)
    assert climber.plays() == {("blue_5",), ("red_5",), ("red_6",), ("blue_5", "red_5"), ("red_5", "red_6")}
    assert not climber.can_pass


def test_pass_is_offered_once_the_field_is_not_empty(climber):
    climber.opens(P1, "red_5")
    assert climber.to_move == P2
    assert climber.can_pass
    climber.pass_()
    assert climber.trick["passed"] == (P2,)
    assert climber.to_move == P3


def test_a_single_is_followed_by_a_higher_single_only(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_3", "blue_5", "green_6", "yellow_6", "wild_7"]})
    # not the lower 3 nor the equal 5; not the pair of 6s nor the run green 6-7
    assert climber.plays() == {("green_6",), ("yellow_6",), ("wild_7",)}


def test_a_set_is_cards_of_one_number_followed_by_a_higher_set_of_the_same_size(climber):
    climber.opens(P1, "red_5", "blue_5")
    assert (climber.trick["kind"], climber.trick["count"], climber.trick["rank"]) == ("set", 2, 5)
    climber.deal({P2: ["red_6", "blue_6", "green_6", "green_4", "yellow_4", "red_7"]})
    assert climber.plays() == {("blue_6", "red_6"), ("blue_6", "green_6"), ("green_6", "red_6")}


def test_a_run_is_consecutive_numbers_of_one_colour(climber):
    climber.deal({P1: ["red_3", "blue_4", "red_5", "red_6", "red_7"]})
    climber.lead(P1)
    assert runs_in(climber.plays()) == {("red_5", "red_6"), ("red_6", "red_7"), ("red_5", "red_6", "red_7")}


def test_a_run_is_followed_by_a_higher_run_of_the_same_length(climber):
    climber.opens(P1, "red_3", "red_4")
    assert (climber.trick["kind"], climber.trick["count"], climber.trick["rank"]) == ("run", 2, 4)
    climber.deal({P2: ["blue_4", "blue_5", "blue_6", "green_2", "green_3", "yellow_5", "red_6"]})
    assert climber.plays() == {("blue_4", "blue_5"), ("blue_5", "blue_6")}


def test_a_play_of_another_type_or_size_is_not_offered(climber):
    climber.opens(P1, "red_5", "blue_5", "green_5")
    climber.deal({P2: ["blue_8", "green_8", "clear_13", "red_9", "red_10", "red_11"]})
    # a pair, a single and a run of three are all stronger, but none is a set of three
    assert climber.legal() == ["pass"]


@pytest.mark.parametrize("seed", [3, 17, 40])
def test_the_plays_offered_are_the_candidate_plays_that_beat_the_field_in_order(climber_game, seed):
    # The rule file lists only the handfuls of the field's shape once a trick is open: the plays offered
    # must be exactly those of every candidate play (sets and runs) that passes the play's conditions,
    # in the same order, in every main-phase position of a random game.
    defs = climber_game.definition.defs
    s = climber_game.new_game(seed=seed)
    rng = random.Random(seed)
    checked = open_tricks = 0
    while not s.is_over:
        legal = s.legal_actions()
        frame = s.stack[-1]
        if frame["k"] == "choose" and any(a.name in ("play", "pass") for a in legal):
            me = frame["p"]
            hand = s.zones[f"hand#{int(me)}"]
            s._memo = None  # the defs evaluated as they stand, nothing kept
            candidates = list(dict.fromkeys(defs["candidate_plays"](s, {"h": hand})))
            expected = [
                str(c)
                for c in candidates
                if ("start" not in hand or "start" in c)
                and defs["shape_allowed"](s, {"cs": c})
                and (s.sv["trick"]["top"] is None or defs["beats_field"](s, {"cs": c}))
            ]
            assert [str(a["cards"]) for a in legal if a.name == "play"] == expected
            checked += 1
            open_tricks += s.sv["trick"]["top"] is not None
        s.apply(rng.choice(legal))
    assert checked > 50 and open_tricks > 25


# ====================================================================== wild and colourless cards


def test_a_wild_card_joins_a_run_of_any_colour(climber):
    climber.deal({P1: ["red_3", "wild_4", "red_5", "blue_5"]})
    climber.lead(P1)
    assert runs_in(climber.plays()) == {
        ("red_3", "wild_4"),
        ("red_5", "wild_4"),
        ("blue_5", "wild_4"),
        ("red_3", "red_5", "wild_4"),
    }


def test_a_wild_card_joins_a_set_of_its_printed_number_only(climber):
    climber.opens(P1, "red_4", "blue_4")
    climber.deal({P2: ["wild_5", "green_5", "blue_6", "yellow_3"]})
    assert climber.plays() == {("green_5", "wild_5")}
    climber.play("green_5", "wild_5")
    assert (climber.trick["kind"], climber.trick["count"], climber.trick["rank"]) == ("set", 2, 5)


def test_colourless_cards_never_join_a_run(climber):
    climber.deal({P1: ["red_10", "red_11", "clear_12", "clear_13", "clear_14"]})
    climber.lead(P1)
    assert runs_in(climber.plays()) == {("red_10", "red_11")}
    assert {("clear_13",), ("clear_14",)} <= climber.plays()


def test_a_lone_clear_12_is_a_set_of_two_that_beats_a_lower_pair(climber):
    climber.opens(P1, "red_5", "blue_5")
    climber.deal({P2: ["clear_12", "red_9"]})
    assert climber.plays() == {("clear_12",)}
    climber.play("clear_12")
    assert (climber.trick["kind"], climber.trick["count"], climber.trick["rank"]) == ("set", 2, 12)


def test_a_lone_clear_12_cannot_follow_a_single(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["clear_12", "red_9"]})
    assert climber.plays() == {("red_9",)}


@pytest.mark.parametrize(
    "field, answers",
    [
        (("red_5", "blue_5", "green_5"), set()),
        (("red_5", "blue_5", "green_5", "yellow_5"), {("clear_12", "clear_12")}),
    ],
    ids=["set of 3", "set of 4"],
)
def test_each_clear_12_adds_two_to_the_size_of_a_set(climber, field, answers):
    climber.opens(P1, *field)
    climber.deal({P2: ["clear_12", "clear_12", "red_9"]})
    assert climber.plays() == answers


# ====================================================================== the start card


def test_the_start_card_holder_must_open_with_it_alone(climber):
    assert climber.to_move == P1
    assert "start" in climber.hand(P1)
    assert climber.legal() == ["play(cards=1 start)"]


def test_the_start_card_is_answered_by_any_single_but_no_set_or_run(climber):
    climber.play("start")
    climber.deal({P2: ["wild_0", "red_3", "blue_3", "red_4"]})
    assert climber.to_move == P2
    assert climber.plays() == {("wild_0",), ("red_3",), ("blue_3",), ("red_4",)}
    assert climber.can_pass


def test_the_first_season_starts_with_p1_holding_the_start_card(make_climber):
    table = make_climber(phase="selection")
    assert table.zone("bench", P1) == {"start": 1}
    table.play_until(lambda: table.phase == "main")
    assert table.to_move == P1
    assert table.hand(P1).count("start") == 1
    assert table.season["starter"] == P1  # seen by all: the card went from the bench to the hand


# ====================================================================== passing and resetting


def test_the_field_resets_when_all_others_pass_and_the_player_on_top_leads(climber):
    climber.opens(P2, "red_5")
    for p in (P3, P4, P1):
        assert climber.to_move == p
        climber.pass_()
    assert climber.to_move == P2
    assert climber.trick["top"] is None
    assert climber.trick["passed"] == ()
    assert climber.zone("field", P2) == {}
    assert climber.zone("lodge", P2).get("red_5") == 1
    assert not climber.can_pass


def test_a_player_who_passed_is_skipped_until_the_field_resets(climber):
    climber.opens(P1, "red_3")
    climber.deal({P3: ["red_4", "blue_2"], P4: ["red_5", "blue_3"]})
    climber.pass_()  # p2
    climber.play("red_4")
    climber.play("red_5")
    climber.deal({P1: ["red_6", "blue_4"]})
    climber.play("red_6")
    assert climber.to_move == P3
    climber.pass_()
    climber.pass_()  # p4: all but p1 have passed
    assert climber.to_move == P1
    climber.play("blue_4")
    assert climber.to_move == P2


def test_an_8_cuts_the_field_and_its_player_leads(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_8", "blue_3"]})
    climber.play("red_8")
    assert climber.to_move == P2
    assert climber.trick["top"] is None
    assert climber.zone("field", P1) == {} and climber.zone("field", P2) == {}
    assert climber.zone("lodge", P2).get("red_8") == 1
    assert climber.plays() == {("blue_3",)}


def test_a_9_reverses_the_turn_order(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_9", "blue_3"]})
    climber.play("red_9")
    assert climber.to_move == P1
    climber.pass_()
    assert climber.to_move == P4


def test_the_order_reversed_by_a_9_lasts_until_the_field_resets(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_9", "blue_3", "green_3"]})
    climber.play("red_9")
    for p in (P1, P4, P3):
        assert climber.to_move == p
        climber.pass_()
    assert climber.to_move == P2
    climber.play("blue_3")
    assert climber.to_move == P3


def test_a_10_lets_its_player_put_a_hand_card_in_the_lodge(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_10", "blue_3", "green_4"]})
    climber.play("red_10")
    assert climber.to_move == P2
    assert climber.legal() == ["discard(card=blue_3)", "discard(card=green_4)", "skip"]
    climber.s.apply("discard(card=blue_3)")
    assert climber.hand(P2) == ["green_4"]
    assert climber.zone("lodge", P2).get("blue_3") == 1
    assert climber.to_move == P3


def test_the_discard_of_a_10_may_be_skipped(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_10", "blue_3", "green_4"]})
    climber.play("red_10")
    climber.s.apply("skip")
    assert climber.hand(P2) == ["blue_3", "green_4"]
    assert climber.to_move == P3


def test_an_11_reverses_the_strength_of_cards(climber):
    climber.opens(P1, "red_7")
    climber.deal({P2: ["blue_11", "blue_3"], P3: ["red_4", "green_10", "clear_14"]})
    climber.play("blue_11")
    assert climber.plays() == {("red_4",), ("green_10",)}


def test_the_strength_reversed_by_an_11_lasts_until_the_field_resets(climber):
    climber.opens(P1, "red_7")
    climber.deal({P2: ["blue_11", "red_4", "blue_3"], P3: ["red_3", "red_6"]})
    climber.play("blue_11")
    for _ in (P3, P4, P1):
        climber.pass_()
    climber.play("red_4")
    assert climber.to_move == P3
    assert climber.plays() == {("red_6",)}


def test_only_the_icon_of_the_highest_card_of_a_run_resolves(climber):
    climber.opens(P1, "red_6", "red_7")
    climber.deal({P2: ["red_8", "red_9", "blue_3"]})
    climber.play("red_8", "red_9")
    # the 9 reverses the order; the 8 below it does not cut
    assert climber.trick["top"] == Bundle({"red_8": 1, "red_9": 1})
    assert climber.to_move == P1


def test_a_run_topped_by_an_8_cuts(climber):
    climber.opens(P1, "red_5", "red_6")
    climber.deal({P2: ["red_7", "red_8", "blue_3"]})
    climber.play("red_7", "red_8")
    assert climber.trick["top"] is None
    assert climber.to_move == P2


# ====================================================================== emptying the hand


def test_a_player_who_emptied_the_hand_is_skipped(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_6"], P3: ["red_7", "blue_2"], P4: ["clear_13", "blue_3"]})
    climber.play("red_6")
    assert climber.season["finishers"] == (P2,)
    assert climber.to_move == P3
    climber.play("red_7")
    climber.play("clear_13")
    climber.deal({P1: ["clear_14", "blue_4"]})
    climber.play("clear_14")
    assert climber.to_move == P3


def test_when_the_emptied_hand_stays_on_top_the_next_player_leads(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_6"]})
    climber.play("red_6")
    for p in (P3, P4, P1):
        assert climber.to_move == p
        climber.pass_()
    assert climber.trick["top"] is None
    assert climber.to_move == P3
    assert not climber.can_pass


def test_a_player_who_emptied_the_hand_does_not_hold_up_the_reset(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_6"], P3: ["red_7", "blue_2"]})
    climber.play("red_6")
    climber.play("red_7")
    climber.pass_()  # p4
    climber.pass_()  # p1: everyone still playing, other than p3, has passed
    assert climber.trick["top"] is None
    assert climber.to_move == P3


def test_a_cut_that_empties_the_hand_passes_the_lead_to_the_next_player(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_8"]})
    climber.play("red_8")
    assert climber.season["finishers"] == (P2,)
    assert climber.trick["top"] is None
    assert climber.to_move == P3


def test_the_main_phase_ends_when_a_second_player_empties_the_hand(climber):
    climber.opens(P1, "red_5")
    climber.deal({P2: ["red_6"], P3: ["red_7"]})
    climber.play("red_6")
    climber.play("red_7")
    assert climber.phase != "main"
    assert climber.season_no == 2
    at = next(i for i, line in enumerate(climber.s.log) if "takes place 2" in line)
    assert climber.s.log[at] == "  p3 empties the hand and takes place 2"
    assert climber.s.log[at + 1] == "  p2 wins standard, p3 the silver card of season 1"


# ====================================================================== season rewards


def test_first_place_scores_the_gold_card_and_keeps_it(climber):
    climber.force_gold("reverse")
    climber.finish(P3, P1)
    assert climber.vp(P3) == 5
    assert climber.zone("won", P3) == {"standard": 1}
    assert all(climber.zone("won", p) == {} for p in (P1, P2, P4))


@pytest.mark.parametrize("gold", sorted(GOLD_VP))
def test_first_place_scores_the_vp_of_the_seasons_gold_card(make_climber, gold):
    table = make_climber(season=2, gold=gold)
    before = table.vp(P4)
    table.finish(P4, P1)
    assert table.vp(P4) - before == GOLD_VP[gold]
    assert table.zone("won", P4).get(gold) == 1


def test_first_place_takes_the_start_card_and_opens_the_next_season(climber):
    climber.force_gold("reverse")
    climber.finish(P3, P1)
    assert climber.zone("bench", P3) == {"start": 1}
    climber.play_until(lambda: climber.phase == "main")
    assert climber.to_move == P3
    assert climber.season["starter"] == P3
    assert climber.legal() == ["play(cards=1 start)"]


@pytest.mark.parametrize("season", sorted(SILVER_VP))
def test_second_place_scores_the_silver_vp_of_the_season(make_climber, season):
    table = make_climber(season=season)
    before = table.vp(P2), sum(table.zone("won", P2).values())
    table.finish(P3, P2)
    assert table.vp(P2) - before[0] == SILVER_VP[season]
    assert sum(table.zone("won", P2).values()) == before[1]  # the silver card is worth VP only


def test_reinforcements_are_drawn_one_for_first_two_for_second_three_for_the_others(climber):
    climber.force_gold("reverse")
    owned = climber.finish(P3, P1)
    assert {p: climber.count(p) - owned[p] for p in climber.players} == {P1: 2, P2: 3, P3: 1, P4: 3}


def test_every_card_returns_to_the_team_at_the_end_of_the_season(climber):
    climber.force_gold("reverse")
    lodged = {p: Counter(climber.zone("lodge", p)) for p in climber.players}
    lodged[P1]["start"] -= 1  # the start card goes to the winner's bench, not to a team
    climber.finish(P3, P1)
    assert climber.season_no == 2 and climber.phase == "selection"
    for p in climber.players:
        assert all(climber.zone(z, p) == {} for z in FIELD_ZONES), p
        team = Counter(climber.zone("team", p))
        assert team & +lodged[p] == +lodged[p], p
    # the cards played this season are back too
    assert climber.zone("team", P3).get("wild_1") == 1
    assert climber.zone("team", P1).get("clear_14") == 1


# ====================================================================== hand selection


@pytest.mark.parametrize("season", sorted(HAND_SIZE))
def test_the_hand_size_follows_the_silver_card_of_the_season(make_climber, season):
    table = make_climber(phase="selection")
    table.s.gv["season_no"] = season  # read when p2 starts selecting
    table.put("team", P2, ["red_8", "red_9", "red_10", "red_11", "clear_13"])
    table.play_until(lambda: table.to_move == P2)
    assert table.s.pv[P2]["quota"] == HAND_SIZE[season]


def test_a_team_smaller_than_the_hand_size_is_taken_whole(make_climber):
    table = make_climber(phase="selection")
    team = table.zone("team", P2)
    keep = sorted(team)[:5]
    for card in sorted(team)[5:]:
        table.zone("reinforcements")[card] = team.pop(card)
    table.touch()
    table.play_until(lambda: table.to_move == P2)
    assert table.s.pv[P2]["quota"] == 5
    table.play_until(lambda: table.to_move == P3)
    assert table.hand(P2) == keep
    assert table.zone("lodge", P2) == {}


def test_the_cards_not_selected_go_to_the_lodge(make_climber):
    table = make_climber(phase="selection")
    team = sorted(table.zone("team", P1))
    assert table.s.pv[P1]["quota"] == 7 and len(team) == 9
    for card in team[2:]:
        table.s.apply(f"pick(card={card})")
    assert table.to_move == P2
    assert table.zone("team", P1) == {}
    assert table.zone("lodge", P1) == {team[0]: 1, team[1]: 1}
    assert table.hand(P1) == team[2:]


def test_every_hand_of_the_right_size_can_be_selected_exactly_once(make_climber):
    table = make_climber(phase="selection")
    team = {"red_8": 2, "clear_12": 2, "wild_3": 1, "blue_1": 1, "green_5": 1, "yellow_4": 1, "red_2": 1}
    table.zone("team", P1).clear()
    table.zone("team", P1).update(team)
    table.touch()
    reached: Counter[tuple[str, ...]] = Counter()

    def walk(s):
        if s.to_move != P1:
            reached[tuple(sorted(Counter(s.zones["hand#0"]).elements()))] += 1
            return
        for action in s.legal_actions():
            walk(s.clone().apply(action))

    walk(table.s)
    units = sorted(Counter(team).elements())
    expected = {tuple(sorted(c)) for c in itertools.combinations(units, 7)}
    assert set(reached) == expected
    assert set(reached.values()) == {1}


# ====================================================================== season cards


def test_season_1_is_standard_with_no_special_rule(climber):
    assert climber.season_no == 1
    assert climber.zone("revealed") == {"standard": 1}
    assert climber.season == {
        "card": "standard",
        "finishers": (),
        "reverse": False,
        "no_sets": False,
        "max_cards": 99,
        "revolution": False,
        "climax": False,
        "transfer": False,
        "start_played": False,
        "starter": P1,
    }


def test_the_game_is_five_seasons_standard_first_climax_last_and_three_gold_cards_between(climber_game):
    s = climber_game.new_game(seed=3, log=True)
    while not s.over:
        s.apply(s.legal_actions()[0])
    seasons = [line.split()[3] for line in s.log if line.startswith("  season ")]
    assert len(seasons) == 5
    assert seasons[0] == "standard" and seasons[4] == "climax"
    assert len(set(seasons[1:4])) == 3 and set(seasons[1:4]) <= set(GOLD_VP)
    assert sum(s.zones["gold_deck"].values()) == 3
    assert sum(sum(s.zones[f"won#{p}"].values()) for p in range(4)) == 5


def test_in_a_reverse_season_turns_go_counterclockwise(make_climber):
    table = make_climber(season=2, gold="reverse")
    table.opens(P1, "red_5")
    for p in (P4, P3, P2):
        assert table.to_move == p
        table.pass_()
    assert table.to_move == P1


def test_the_start_card_is_answered_counterclockwise_in_a_reverse_season(make_climber):
    table = make_climber(season=2, gold="reverse")
    starter = table.to_move
    table.play("start")
    assert table.to_move == (starter - 1) % 4


def test_a_season_cards_rule_ends_with_its_season(make_climber):
    table = make_climber(season=2, gold="reverse")
    table.force_gold("up_to_two")
    table.finish(P1, P2)
    table.play_until(lambda: table.phase == "main")
    assert table.season["card"] == "up_to_two"
    assert table.season["reverse"] is False
    table.opens(P1, "red_5")
    assert table.to_move == P2


def test_a_no_set_season_offers_no_sets(make_climber):
    table = make_climber(season=2, gold="no_set")
    table.deal({P1: ["red_5", "blue_5", "red_6", "clear_13", "clear_13"]})
    table.lead(P1)
    assert table.plays() == {("blue_5",), ("red_5",), ("red_6",), ("clear_13",), ("red_5", "red_6")}


def test_in_a_no_set_season_a_clear_12_is_played_as_a_single(make_climber):
    table = make_climber(season=2, gold="no_set")
    table.opens(P1, "red_5")
    table.deal({P2: ["clear_12", "blue_3"]})
    assert table.plays() == {("clear_12",)}
    table.play("clear_12")
    assert (table.trick["kind"], table.trick["count"], table.trick["rank"]) == ("single", 1, 12)


def test_a_transfer_season_has_each_player_give_one_team_card_to_the_left(make_climber):
    table = make_climber(season=2, gold="transfer", phase="reveal")
    teams = {p: Counter(table.zone("team", p)) for p in table.players}
    given = {}
    for p in table.players:
        assert table.to_move == p
        assert {a.split("=")[1][:-1] for a in table.legal()} == set(teams[p])
        given[p] = sorted(teams[p])[-1]
        table.s.apply(f"give_left(card={given[p]})")
    assert table.phase == "selection"
    for p in table.players:
        right = Player((p - 1) % 4)
        expected = teams[p] - Counter([given[p]]) + Counter([given[right]])
        assert Counter(table.zone("team", p)) == expected, p


def test_transferred_cards_move_only_once_everyone_has_chosen(make_climber):
    table = make_climber(season=2, gold="transfer", phase="reveal")
    team = dict(table.zone("team", P1))
    card = next(c for c in sorted(team) if c not in table.zone("team", P2))
    table.s.apply(f"give_left(card={card})")
    assert table.to_move == P2
    assert card not in table.zone("team", P2)
    assert f"give_left(card={card})" not in table.legal()
    # The giver keeps the card until the reveal, and nobody else can tell which one it chose.
    assert table.zone("team", P1) == team
    for p in (P2, P3):
        assert table.s.view(p).stack[-1]["picks"][0] == "?"
        assert f"give_left(card={card})" not in table.s.view(p).to_json()
    assert table.s.view(P1).stack[-1]["picks"][0] == (Action("give_left", (("card", card),)),)


def test_no_card_changes_hands_in_a_season_that_is_not_transfer(make_climber):
    table = make_climber(season=2, gold="reverse", phase="selection")
    assert table.said("season 2 is reverse")
    assert not any("give_left" in line or "has chosen" in line for line in table.s.log)


def test_an_accident_season_sends_one_random_team_card_per_player_to_the_lodge(make_climber):
    table = make_climber(season=2, gold="accident", phase="selection")
    for p in table.players:
        assert sum(table.zone("lodge", p).values()) == 1
        (lost,) = table.zone("lodge", p)
        assert table.said(f"{p} loses {lost} to the lodge for this season")
    # p1's lost card cannot be selected (p1 holds a single copy of each of its cards here)
    (lost,) = table.zone("lodge", P1)
    assert lost not in table.zone("team", P1)
    assert f"pick(card={lost})" not in table.legal()


def test_the_accident_card_is_drawn_at_random(climber):
    climber.force_gold("accident")
    climber.before_the_last_card(P3, P1)
    climber.zone("reinforcements").clear()  # no draws: every team is the same in every replay
    lost = set()
    for seed in range(8):
        s = climber.s.clone()
        s.rng.seed(seed)
        s.apply("play(cards=1 clear_14)")
        (card,) = s.zones["lodge#1"]
        assert card in climber.zone("lodge", P2) or card in climber.hand(P2)
        lost.add(card)
    assert len(lost) > 1


def test_an_up_to_two_season_offers_no_play_of_more_than_two_cards(make_climber):
    table = make_climber(season=2, gold="up_to_two")
    table.deal({P1: ["red_3", "red_4", "red_5", "blue_5", "green_5"]})
    table.lead(P1)
    plays = table.plays()
    assert max(len(p) for p in plays) == 2
    assert by_size(plays, 2) == {
        ("red_3", "red_4"),
        ("red_4", "red_5"),
        ("blue_5", "red_5"),
        ("blue_5", "green_5"),
        ("green_5", "red_5"),
    }


def test_in_an_up_to_two_season_two_12s_are_one_play_that_counts_as_a_set_of_four(make_climber):
    table = make_climber(season=2, gold="up_to_two")
    table.deal({P1: ["clear_12", "clear_12", "red_3"]})
    table.lead(P1)
    assert ("clear_12", "clear_12") in table.plays()
    table.play("clear_12", "clear_12")
    assert (table.trick["kind"], table.trick["count"]) == ("set", 4)


def test_in_an_up_to_two_season_a_lone_12_still_beats_a_pair(make_climber):
    table = make_climber(season=2, gold="up_to_two")
    table.opens(P1, "red_5", "blue_5")
    table.deal({P2: ["clear_12", "red_9"]})
    assert table.plays() == {("clear_12",)}


def test_in_a_revolution_season_lower_cards_beat_higher_ones(make_climber):
    table = make_climber(season=2, gold="revolution")
    table.opens(P1, "red_5")
    table.deal({P2: ["red_3", "wild_0", "red_7", "clear_13"]})
    assert table.plays() == {("red_3",), ("wild_0",)}


def test_in_a_revolution_season_an_11_restores_the_normal_order(make_climber):
    table = make_climber(season=2, gold="revolution")
    table.opens(P1, "clear_13")
    table.deal({P2: ["blue_11", "blue_3"], P3: ["red_4", "green_10", "clear_14"]})
    table.play("blue_11")
    assert table.plays() == {("clear_14",)}


def test_in_a_revolution_season_the_start_card_is_still_answered_by_any_single(make_climber):
    table = make_climber(season=2, gold="revolution")
    starter = table.to_move
    table.play("start")
    nxt = Player((starter + 1) % 4)
    table.deal({nxt: ["wild_0", "red_3", "clear_13", "blue_4", "green_4"]})
    assert table.plays() == {("wild_0",), ("red_3",), ("clear_13",), ("blue_4",), ("green_4",)}


def test_a_climax_season_lets_players_add_cards_beyond_12(make_climber):
    table = make_climber(season=5, phase="selection")
    assert table.season["card"] == "climax"
    assert table.s.pv[P1]["quota"] == 12
    for _ in range(11):
        assert "done" not in table.legal()
        table.s.apply(table.legal("pick")[0])
    table.s.apply(table.legal("pick")[0])
    assert "done" in table.legal() and table.legal("pick")
    table.s.apply(table.legal("pick")[0])
    table.s.apply(table.legal("pick")[0])
    table.s.apply("done")
    assert table.s.pv[P1]["added"] == 2
    assert len(table.hand(P1)) == 14
    assert table.said("p1 adds 2 cards to the hand")
    assert table.to_move == P2


def done_when_offered(s):
    """Select the smallest hand allowed: stop adding cards as soon as `done` is offered."""
    legal = s.legal_actions()
    return next((a for a in legal if a.name == "done"), legal[0])


def test_the_climax_winner_scores_10_plus_the_cards_added(make_climber):
    table = make_climber(season=5, phase="selection")
    for _ in range(15):
        table.s.apply(table.legal("pick")[0])
    table.s.apply("done")
    table.play_until(lambda: table.phase == "main", done_when_offered)
    assert [table.s.pv[p]["added"] for p in table.players] == [3, 0, 0, 0]
    before = table.vp(P1), table.vp(P2)
    table.finish(P1, P2)
    assert table.s.over
    assert (table.vp(P1) - before[0], table.vp(P2) - before[1]) == (10 + 3, 5)


# ====================================================================== the end of the game


def set_vp(table, *vps: int) -> None:
    for p, vp in zip(table.players, vps):
        table.s.pv[p]["vp"] = vp
    table.touch()


def test_the_player_with_the_most_vp_wins(make_climber):
    table = make_climber(phase="selection")
    set_vp(table, 10, 14, 12, 9)
    finish_by_score(table.s)
    assert table.s.over and table.s.winners == [P2]


def test_a_vp_tie_goes_to_the_player_with_the_most_cards_in_the_team(make_climber):
    table = make_climber(phase="selection")
    set_vp(table, 14, 10, 14, 9)
    table.put("team", P3, ["clear_13"])
    finish_by_score(table.s)
    assert table.s.winners == [P3]


def test_a_tie_in_vp_and_team_size_is_shared(make_climber):
    table = make_climber(phase="selection")
    set_vp(table, 14, 10, 14, 9)
    finish_by_score(table.s)
    assert table.s.winners == [P1, P3]


def test_a_whole_game_is_won_by_vp_then_team_size(climber_game):
    s = climber_game.new_game(seed=5)
    while not s.over:
        s.apply(s.legal_actions()[0])
    best = max((s.pv[p]["vp"], sum(s.zones[f"team#{p}"].values())) for p in range(4))
    expected = [p for p in range(4) if (s.pv[p]["vp"], sum(s.zones[f"team#{p}"].values())) == best]
    assert s.winners == expected
