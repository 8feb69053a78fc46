"""K2, rule by rule (shared/rules/k2.md with the data and defaults of DATA.md, section 001).

Each test stops a game at the first pick of day 1 under a clear sky with the risk tokens 0, 1 and 2 face
up (the `k2` and `make_k2` fixtures, see k2_setup.Expedition), puts climbers, tents, health and weather
where the rule needs them, plays the day through the public API and checks the outcome. Unless a test
says otherwise the game is for 3 players on the easy board (summer side), p1 holds the first-player
marker, and players whose cards a test does not name pick health_0, health_1, health_1 (no upward step).

The easy board, low to high (height = zone * 100 + links from base camp, the rule file's `height`):

    BASE - S1 - S2 - S3/S4 - S5/S6 - S7/S11 - S8/S12 - S9/S10      zone 0 (below 6000 m)
    S14, S13/S16, S15/S17/S18, S19/S20                              zone 1
    S21, S22/S24, S23/S25                                           zone 2
    S26, SUMMIT                                                     zone 3 (8000 m and above)

S6 and S12 cost 2 to enter, S17, S23, S26 and SUMMIT cost 3; the rest of zone 0 costs 1.
"""

from __future__ import annotations

import itertools
from collections import Counter

import k2_setup as ks
import pytest

from meeple import Player

P1, P2, P3 = 0, 1, 2

# DATA.md, 001: the 18 cards of each player.
DECK = {
    "move_3": 2,
    "move_2": 3,
    "move_1": 5,
    "rope_2_3": 1,
    "rope_1_3": 1,
    "rope_1_2": 1,
    "health_3": 1,
    "health_2": 1,
    "health_1": 2,
    "health_0": 1,
}
TOKENS = {"risk_0": 4, "risk_1": 11, "risk_2": 5}
# (health lost, extra cost, lowest zone hit; 9 = clear) for the three days of each tile.
CLEAR_DAY = (0, 0, 9)
WEATHER = {
    "summer_a": ((1, 0, 1), (1, 0, 2), (1, 0, 3)),
    "summer_b": ((2, 0, 3), (2, 0, 2), CLEAR_DAY),
    "summer_c": (CLEAR_DAY, CLEAR_DAY, CLEAR_DAY),
    "summer_d": (CLEAR_DAY, (1, 0, 2), (2, 0, 2)),
    "summer_e": (CLEAR_DAY, (2, 0, 1), CLEAR_DAY),
    "summer_f": ((1, 0, 1), CLEAR_DAY, (2, 0, 1)),
    "winter_a": ((1, 1, 2), (2, 0, 2), (0, 1, 1)),
    "winter_b": ((2, 1, 3), (2, 0, 1), CLEAR_DAY),
    "winter_c": ((1, 0, 1), (1, 1, 2), CLEAR_DAY),
    "winter_d": (CLEAR_DAY, (0, 1, 2), (3, 0, 3)),
    "winter_e": ((2, 0, 2), CLEAR_DAY, (1, 1, 1)),
    "winter_f": (CLEAR_DAY, (2, 1, 2), (2, 0, 3)),
}
# DATA.md: climbers allowed to end a move on one space, by zone and number of players (solo as 2).
ROOM = {
    0: {2: 2, 3: 3, 4: 3, 5: 4},
    1: {2: 2, 3: 2, 4: 3, 5: 3},
    2: {2: 1, 3: 2, 4: 2, 5: 2},
    3: {2: 1, 3: 1, 4: 1, 5: 1},
}
SPACE_OF_ZONE = {0: "S5", 1: "S13", 2: "S21", 3: "S26"}
# DATA.md, the easier board: id -> (zone, VP, cost, acc), and its 34 links.
EASY = {
    **{x: (0, 1, 1, 1) for x in ("BASE", "S1", "S2", "S3", "S4", "S5", "S7", "S8")},
    "S6": (0, 1, 2, 1),
    **{x: (0, 1, 1, 0) for x in ("S9", "S10", "S11")},
    "S12": (0, 1, 2, 0),
    **{x: (1, 2, 2, 0) for x in ("S13", "S14", "S15")},
    "S16": (1, 3, 1, 0),
    "S18": (1, 3, 1, -1),
    "S17": (1, 4, 3, -1),
    "S19": (1, 4, 2, -1),
    "S20": (1, 4, 2, -1),
    **{x: (2, 5, 2, -1) for x in ("S21", "S22", "S24")},
    "S25": (2, 6, 2, -1),
    "S23": (2, 6, 3, -2),
    "S26": (3, 7, 3, -2),
    "SUMMIT": (3, 10, 3, -2),
}
EASY_LINKS = (
    "BASE-S1 S1-S2 S2-S3 S2-S4 S3-S5 S4-S5 S4-S6 S5-S7 S6-S7 S7-S8 S8-S9 S9-S10 S6-S11 S11-S12 S10-S14 "
    "S10-S15 S11-S14 S12-S13 S13-S14 S14-S16 S15-S16 S13-S18 S16-S17 S18-S19 S18-S20 S17-S21 S19-S21 "
    "S20-S22 S21-S24 S22-S23 S24-S25 S23-S26 S25-S26 S26-SUMMIT"
).split()
HARD = {
    "W1": (3, 10, 3, -2),
    "W2": (3, 8, 2, -2),
    "W3": (3, 7, 2, -2),
    "W4": (3, 7, 1, -2),
    "W5": (2, 6, 3, -1),
    "W6": (2, 6, 2, -2),
    "W7": (2, 5, 3, -1),
    "W8": (2, 4, 2, -1),
    "W9": (2, 5, 1, -2),
    "W10": (1, 4, 2, -1),
    "W11": (1, 4, 2, -1),
    "W12": (1, 3, 2, 0),
    "W13": (1, 3, 2, -1),
    "W14": (1, 2, 1, 0),
    "W15": (1, 2, 1, 0),
    "W16": (1, 2, 2, 0),
    "W17": (1, 3, 1, 0),
    "W18": (0, 1, 1, 0),
    "W19": (0, 1, 2, 0),
    "W20": (0, 1, 2, 0),
    "W21": (0, 1, 1, 1),
    "W22": (0, 1, 2, 1),
    "W23": (0, 1, 2, 1),
    **{f"W{n}": (0, 1, 1, 1) for n in range(24, 30)},
    "BASE": (0, 1, 1, 1),
}
HARD_LINKS = (
    "W1-W2 W2-W3 W3-W4 W3-W5 W4-W6 W5-W7 W6-W9 W7-W8 W8-W10 W8-W11 W9-W11 W10-W12 W11-W13 W12-W15 W12-W16 "
    "W13-W17 W14-W15 W15-W16 W16-W17 W14-W18 W14-W19 W16-W20 W18-W19 W18-W21 W19-W23 W20-W22 W22-W23 "
    "W21-W24 W23-W25 W24-W25 W25-W27 W27-W28 W26-W28 W26-W29 W29-BASE"
).split()


def spaces(goes: set[str]) -> set[str]:
    """The spaces among the walk choices (without 'stop' and 'tent')."""
    return goes - {"stop", "tent"}


def links_of(game) -> set[frozenset[str]]:
    board = game.definition.board
    return {
        frozenset((x, y)) for x, ys in board.neighbours.items() for y in ys if board.kind_of[x] == "space"
    }


def tie_picks(cards: list[str]) -> dict[int, list[str]]:
    """p1 and p2 pick the same cards, so their upward sums tie and nobody takes a risk token."""
    return {P1: cards, P2: cards}


# ====================================================================== the box and the set-up


def test_each_player_owns_the_18_cards_of_data_md(k2):
    for p in k2.players:
        assert dict(k2.owned(p)) == DECK


def test_the_risk_tokens_are_4_zeros_11_ones_and_5_twos(k2_game):
    s = k2_game.new_game(seed=1)
    tokens = Counter(s.zones["risk_pile"]) + Counter(s.zones["risk_row"])
    assert dict(tokens) == TOKENS
    assert sum(s.zones["risk_row"].values()) == 3


def test_the_weather_tiles_are_the_summer_tiles_and_the_winter_default_of_data_md(k2_game):
    definitions = k2_game.definition.sym.definitions
    for tile, days in WEATHER.items():
        assert tuple(tuple(day) for day in definitions[tile]["days"]) == days, tile
    assert all(day[1] == 0 for tile, days in WEATHER.items() if tile.startswith("summer") for day in days)


@pytest.mark.parametrize("weather", ["summer", "winter"])
def test_two_tiles_of_the_chosen_set_are_shown_and_the_other_four_wait(weather):
    s = ks.load(3, weather=weather).new_game(seed=4)
    shown, waiting = s.zones["weather_shown"], s.zones["weather_deck"]
    assert sum(shown.values()) == 2 and sum(waiting.values()) == 4
    assert {t.split("_")[0] for t in (*shown, *waiting)} == {weather}
    assert set(s.gv["forecast"]) == set(shown)


def test_both_climbers_start_at_base_camp_with_health_1_and_1_vp_and_six_cards(k2):
    for p in k2.players:
        for shape in (1, 2):
            rec = k2.rec(k2.climber(p, shape))
            assert (rec["site"], rec["health"], rec["best"], rec["tent"]) == ("BASE", 1, 1, False)
        assert len(k2.hand(p)) == 6
        assert k2.score(p) == 2


def test_the_easy_board_is_the_table_and_links_of_data_md(k2_game):
    s = k2_game.new_game(seed=1)
    assert {x: (r["zone"], r["vp"], r["cost"], r["acc"]) for x, r in s.sites.items()} == EASY
    assert links_of(k2_game) == {frozenset(link.split("-")) for link in EASY_LINKS}
    assert [x for x, r in s.sites.items() if r.get("summit")] == ["SUMMIT"]


def test_the_hard_board_is_the_table_and_links_of_data_md():
    game = ks.load(3, board="hard")
    s = game.new_game(seed=1)
    assert {x: (r["zone"], r["vp"], r["cost"], r["acc"]) for x, r in s.sites.items()} == HARD
    assert links_of(game) == {frozenset(link.split("-")) for link in HARD_LINKS}
    assert [x for x, r in s.sites.items() if r.get("summit")] == ["W1"]


# ====================================================================== capacity


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("zone", [0, 1, 2, 3])
def test_a_space_holds_as_many_climbers_as_its_zone_allows_for_the_players(make_k2, players, zone):
    k2 = make_k2(players=players)
    site, room = SPACE_OF_ZONE[zone], ROOM[zone][max(2, players)]
    walker = k2.climber(P1)
    k2.put(walker, site, health=6)
    k2.crowd(site, room - 1, owner=players - 1)
    k2.day({P1: ["move_1", "health_0", "health_1"]})
    k2.set_out(walker, "move_1")
    assert "stop" in k2.goes()
    k2.crowd(site, 1, owner=players - 1)
    assert "stop" not in k2.goes()


def test_base_camp_holds_any_number_of_climbers(k2):
    walker = k2.climber(P1)
    k2.crowd("BASE", 9)
    k2.day({P1: ["move_1", "health_0", "health_1"]})
    k2.set_out(walker, "move_1")
    assert "stop" in k2.goes()
    assert k2.capacity("BASE") >= 99


@pytest.mark.parametrize("red_figure", [False, True])
def test_the_red_figure_adds_one_climber_at_7000_m_and_above_with_5_players(red_figure):
    k2 = ks.Expedition(ks.load(5, red_figure=red_figure))
    extra = 1 if red_figure else 0
    assert [k2.capacity(SPACE_OF_ZONE[z]) for z in range(4)] == [4, 3, 2 + extra, 1 + extra]


def test_the_red_figure_counts_only_with_5_players():
    k2 = ks.Expedition(ks.load(4, red_figure=True))
    assert [k2.capacity(SPACE_OF_ZONE[z]) for z in range(4)] == [3, 3, 2, 1]


def test_a_climber_passes_through_a_full_space_but_may_not_stop_there(k2):
    walker = k2.climber(P1)
    k2.put(walker, "S2")
    k2.crowd("S3", 3)
    k2.day({P1: ["move_2", "health_0", "health_1"]})
    k2.set_out(walker, "move_2")
    assert "S3" in k2.goes()
    k2.walk("S3")
    assert spaces(k2.goes()) == {"S2", "S5"}
    assert "stop" not in k2.goes()
    k2.walk("S5")
    assert k2.site(walker) == "S5"
    assert "stop" in k2.goes()


@pytest.mark.parametrize("cards, offered", [(["move_3", "move_2"], True), (["move_3", "move_1"], False)])
def test_a_full_space_is_entered_only_if_the_points_left_reach_a_space_with_room(k2, cards, offered):
    # S26 (zone 3, cost 3) is full; from it S25 costs 2, S23 and the summit 3
    walker = k2.climber(P1)
    k2.put(walker, "S25", health=6)
    k2.crowd("S26", 1)
    k2.day(tie_picks([*cards, "health_0"]))
    k2.set_out(walker, *cards)
    assert ("S26" in k2.goes()) is offered


def test_the_way_out_of_a_full_space_pays_the_weather_too(k2):
    k2.forecast("winter_a", "summer_c", day=1)  # +1 to enter a space of zone 2 and above
    walker = k2.climber(P1)
    k2.put(walker, "S25", health=6)
    k2.crowd("S26", 1)
    k2.day(tie_picks(["move_3", "move_3", "health_0"]))
    k2.set_out(walker, "move_3", "move_3")
    assert "S26" not in k2.goes()  # 4 in and 3 back out to S25: 7 > 6


def test_a_climber_passing_through_a_full_space_cannot_stay_there_by_pitching_a_tent(k2):
    walker = k2.climber(P1)
    k2.crowd("S1", 3)
    k2.day(tie_picks(["move_2", "health_0", "health_1"]))
    k2.set_out(walker, "move_2")
    k2.walk("S1")  # 1 point left: enough for S2 or base camp, or for a tent (cost 1)
    if "tent" in k2.goes():
        k2.walk("tent")
    # whatever it did, the climber can still leave the full space and cannot stop on it
    assert spaces(k2.goes())
    assert "stop" not in k2.goes()


# ====================================================================== movement


def test_entering_a_space_costs_its_difficulty(k2):
    # from S4: S2 and S5 cost 1, S6 costs 2
    one, two = k2.climber(P1, 1), k2.climber(P1, 2)
    k2.put(one, "S4")
    k2.put(two, "S4")
    k2.day(tie_picks(["move_1", "move_2", "health_0"]))
    k2.set_out(one, "move_1")
    assert spaces(k2.goes()) == {"S2", "S5"}
    k2.stop()
    k2.set_out(two, "move_2")
    assert spaces(k2.goes()) == {"S2", "S5", "S6"}
    k2.walk("S6")
    assert spaces(k2.goes()) == set()


def test_the_weather_adds_its_extra_cost_to_spaces_in_the_zones_it_hits(k2):
    k2.forecast("winter_a", "summer_c", day=1)  # +1 to enter a space of zone 2 and above
    walker = k2.climber(P1)
    k2.put(walker, "S19", health=6)
    k2.day(tie_picks(["move_2", "health_0", "health_1"]))
    k2.set_out(walker, "move_2")
    # S21 (zone 2) costs 2 + 1; S18 (zone 1, cost 1) is not hit
    assert spaces(k2.goes()) == {"S18"}
    assert (k2.call("step_cost", x="S21"), k2.call("step_cost", x="S19")) == (3, 2)


def test_the_weather_extra_cost_applies_going_down_inside_a_hit_zone(k2):
    k2.forecast("winter_a", "summer_c", day=1)
    walker = k2.climber(P1)
    k2.put(walker, "S24", health=6)
    k2.day(tie_picks(["move_2", "health_0", "health_1"]))
    k2.set_out(walker, "move_2")
    assert "S21" not in k2.goes()  # down into zone 2: 2 + 1


def test_unused_points_may_be_left_and_the_card_is_spent(k2):
    one, two = k2.climber(P1, 1), k2.climber(P1, 2)
    k2.day(tie_picks(["move_3", "health_0", "health_1"]))
    k2.set_out(one, "move_3")
    assert "stop" in k2.goes()  # the climber may stay where it is
    k2.walk("S1", "stop")
    assert k2.site(one) == "S1"
    # the 2 steps left cannot go to the other climber: the card is spent
    assert k2.zone("discard", P1) == {"move_3": 1}
    assert not k2.legal("set_out")
    assert k2.site(two) == "BASE"


def test_a_climber_may_go_up_and_down_in_one_turn_with_movement_cards(k2):
    walker = k2.climber(P1)
    k2.put(walker, "S2")
    k2.day(tie_picks(["move_3", "health_0", "health_1"]))
    k2.set_out(walker, "move_3")
    k2.walk("S3", "S2", "S1")
    assert k2.site(walker) == "S1"


def test_one_climber_may_move_with_two_cards_at_once(k2):
    walker = k2.climber(P1)
    k2.day(tie_picks(["move_2", "move_3", "health_0"]))
    k2.set_out(walker, "move_2", "move_3")
    k2.walk("S1", "S2", "S4", "S6")  # 1 + 1 + 1 + 2
    assert k2.site(walker) == "S6"
    assert spaces(k2.goes()) == set()


# ====================================================================== rope cards


def test_up_is_towards_the_summit(k2):
    height = {x: k2.call("height", x=x) for x in EASY}
    assert height["BASE"] < height["S1"] < height["S2"] < height["S4"] < height["S6"] < height["S11"]
    assert height["S12"] < height["S13"] < height["S18"] < height["S20"] < height["S22"] < height["S23"]
    assert height["S23"] < height["S26"] < height["SUMMIT"]


@pytest.mark.parametrize("way, reach", [("up", {"S5", "S6"}), ("down", {"S2"})])
def test_a_rope_card_moves_only_the_way_chosen(k2, way, reach):
    walker = k2.climber(P1)
    k2.put(walker, "S4")
    k2.day(tie_picks(["rope_2_3", "health_0", "health_1"]))
    k2.set_out(walker, "rope_2_3", way=way)
    assert spaces(k2.goes()) == reach


def test_a_rope_cards_points_carry_a_climber_through_a_full_space_on_its_way(k2):
    # S7 and S5 are full; from S7 the way out is up to S8 (cost 1), not back to S6 (cost 2)
    walker = k2.climber(P1)
    k2.put(walker, "S6")
    k2.crowd("S7", 3)
    k2.crowd("S5", 3)
    k2.day(tie_picks(["rope_2_3", "health_0", "health_1"]))
    k2.set_out(walker, "rope_2_3", way="up")
    assert "S7" in k2.goes()
    k2.walk("S7")
    assert spaces(k2.goes()) == {"S8"}
    assert "stop" not in k2.goes()


def test_a_rope_card_alone_goes_up_or_down_never_any_way(k2):
    k2.day(tie_picks(["rope_2_3", "health_0", "health_1"]))
    assert k2.offered("set_out", "dir") == {"up", "down"}


@pytest.mark.parametrize("way, steps", [("up", ["S1", "S2"]), ("down", ["S3", "S2", "S1"])])
def test_a_rope_card_gives_its_up_number_going_up_and_its_down_number_going_down(k2, way, steps):
    walker = k2.climber(P1)
    if way == "down":
        k2.put(walker, "S5")
    k2.day(tie_picks(["rope_2_3", "health_0", "health_1"]))
    k2.set_out(walker, "rope_2_3", way=way)
    k2.walk(*steps)
    assert spaces(k2.goes()) == set()


def test_rope_points_never_pay_a_step_the_other_way(k2):
    walker = k2.climber(P1)
    k2.put(walker, "S4")
    k2.day(tie_picks(["rope_2_3", "move_1", "health_0"]))
    k2.set_out(walker, "rope_2_3", "move_1", way="up")
    k2.walk("S5")  # paid by the rope: 1 rope point and the move_1 left
    k2.walk("S3")  # down: paid by the move_1
    # the last rope point still goes up (S5), but not down to S2
    assert spaces(k2.goes()) == {"S5"}


def test_a_movement_card_joined_to_a_rope_card_still_goes_either_way(k2):
    walker = k2.climber(P1)
    k2.put(walker, "S4")
    k2.day(tie_picks(["rope_1_2", "move_1", "health_0"]))
    k2.set_out(walker, "rope_1_2", "move_1", way="down")
    k2.walk("S2")  # rope
    assert spaces(k2.goes()) == {"S1", "S3", "S4"}  # the move_1 goes anywhere


@pytest.mark.parametrize("board", ["easy", "hard"])
def test_a_rope_card_can_take_every_link_one_way_and_a_level_link_both_ways(board):
    game = ks.load(3, board=board)
    k2 = ks.Expedition(game)
    for link in links_of(game):
        a, b = sorted(link)
        up, down = k2.call("goes_up", a=a, b=b), k2.call("goes_down", a=a, b=b)
        level = k2.call("height", x=a) == k2.call("height", x=b)
        assert up or down, (a, b)
        assert (up and down) == level, (a, b)
        assert k2.call("goes_up", a=b, b=a) == down and k2.call("goes_down", a=b, b=a) == up


def test_going_up_a_link_never_leads_to_fewer_vp(k2_game):
    k2 = ks.Expedition(k2_game)
    steps = [(a, b) for link in links_of(k2_game) for a, b in itertools.permutations(link)]
    up_to_fewer_vp = sorted(
        f"{a}->{b}" for a, b in steps if k2.call("goes_up", a=a, b=b) and EASY[b][1] < EASY[a][1]
    )
    assert up_to_fewer_vp == []


# ====================================================================== tents


@pytest.mark.parametrize("card, offered", [("move_1", False), ("move_2", True)])
def test_a_tent_costs_the_difficulty_of_its_space(k2, card, offered):
    walker = k2.climber(P1)
    k2.put(walker, "S6")  # cost 2
    k2.day(tie_picks([card, "health_0", "health_1"]))
    k2.set_out(walker, card)
    assert ("tent" in k2.goes()) is offered


def test_pitching_a_tent_spends_the_points_and_marks_the_climber(k2):
    walker = k2.climber(P1)
    k2.put(walker, "S6")
    k2.day(tie_picks(["move_3", "health_0", "health_1"]))
    k2.set_out(walker, "move_3")
    k2.walk("tent")
    assert k2.tents_at("S6") == [Player(P1)]
    assert k2.rec(walker)["tent"] is True
    assert spaces(k2.goes()) == {"S4", "S7", "S11"}  # 1 point left
    assert "tent" not in k2.goes()


def test_a_tent_pays_the_weather_extra_cost_in_the_zones_hit(k2):
    k2.forecast("winter_a", "summer_c", day=1)  # +1 in zone 2 and above
    walker = k2.climber(P1)
    k2.put(walker, "S21", health=6)  # cost 2
    k2.day(tie_picks(["move_2", "health_0", "health_1"]))
    k2.set_out(walker, "move_2")
    assert "tent" not in k2.goes()
    assert k2.call("tent_cost", x="S21") == 3


@pytest.mark.parametrize("way, offered", [("up", True), ("down", False)])
def test_a_rope_card_pays_a_tent_only_going_up(k2, way, offered):
    walker = k2.climber(P1)
    k2.put(walker, "S6")  # cost 2; the rope_1_3 gives 1 up or 3 down, the rope_2_3 2 up
    card = "rope_2_3" if way == "up" else "rope_1_3"
    k2.day(tie_picks([card, "health_0", "health_1"]))
    k2.set_out(walker, card, way=way)
    assert ("tent" in k2.goes()) is offered


def test_a_climber_may_move_on_and_pitch_its_tent_on_the_new_space(k2):
    walker = k2.climber(P1)
    k2.day(tie_picks(["move_3", "health_0", "health_1"]))
    k2.set_out(walker, "move_3")
    k2.walk("S1", "S2", "tent", "stop")
    assert k2.site(walker) == "S2"
    assert k2.tents_at("S2") == [Player(P1)]


def test_each_climber_pitches_one_tent_in_the_whole_game(k2):
    one, two = k2.climber(P1, 1), k2.climber(P1, 2)
    k2.day(tie_picks(["move_1", "move_1", "health_0"]))
    k2.set_out(one, "move_1")
    k2.walk("tent", "stop")
    k2.finish_day()
    # day 2: p2 holds the first-player marker, p1 acts last
    k2.day({P1: ["move_3", "move_1", "health_0"], P2: ["move_3", "move_1", "health_0"]})
    while k2.to_move != P1:
        k2.end()
    k2.set_out(one, "move_3")
    assert "tent" not in k2.goes()
    k2.stop()
    k2.set_out(two, "move_1")
    assert "tent" in k2.goes()  # the other climber still has its own


def test_several_tents_may_share_a_space(k2):
    k2.pitch("S3", P2)
    k2.pitch("S3", P3)
    walker = k2.climber(P1)
    k2.put(walker, "S3")
    k2.day(tie_picks(["move_1", "health_0", "health_1"]))
    k2.set_out(walker, "move_1")
    k2.walk("tent")
    assert sorted(k2.tents_at("S3")) == [Player(P1), Player(P2), Player(P3)]


def test_a_tent_gives_1_health_to_either_climber_of_its_colour_at_the_check(k2):
    # S9 has no acclimatisation: only the tent counts
    one, two = k2.climber(P1, 1), k2.climber(P1, 2)
    other = k2.climber(P2)
    k2.pitch("S9", P1)
    for pid in (one, two, other):
        k2.put(pid, "S9", health=3)
    k2.put(one, tent=True)  # climber 1 pitched it
    k2.day()
    k2.finish_day()
    assert (k2.health(one), k2.health(two), k2.health(other)) == (4, 4, 3)


def test_two_tents_of_one_colour_on_a_space_give_only_1_health(k2):
    walker = k2.climber(P1)
    k2.pitch("S9", P1)
    k2.pitch("S9", P1)
    k2.put(walker, "S9", health=3)
    k2.day()
    k2.finish_day()
    assert k2.health(walker) == 4


# ====================================================================== risk tokens


def test_the_highest_upward_sum_takes_one_of_the_three_face_up_tokens(k2):
    k2.day({P1: ["move_3", "move_2", "health_0"], P2: ["move_2", "move_1", "health_0"]}, token="risk_2")
    assert k2.s.pv[P1]["risk_left"] == 2
    assert k2.zone("risk_held", P1) == {"risk_2": 1}
    assert sum(k2.zone("risk_row").values()) == 3  # a face-down token was turned up
    assert sum(k2.zone("risk_pile").values()) == 20 - 4


def test_the_risk_taker_chooses_among_the_face_up_tokens(k2):
    k2.choose({P1: ["move_3", "move_2", "health_0"]})
    assert k2.to_move == P1
    assert k2.legal() == ["take_risk(token=risk_0)", "take_risk(token=risk_1)", "take_risk(token=risk_2)"]


@pytest.mark.parametrize(
    "p1_cards, taker",
    [
        (["rope_1_3", "health_2", "health_3"], P2),  # 1 up (not 3) against 2
        (["rope_2_3", "move_1", "health_0"], P1),  # 3 against 2
        (["health_3", "health_2", "move_2"], None),  # health cards count nothing: 2 against 2
    ],
    ids=["rope-counts-its-up-number", "rope-and-move", "health-counts-nothing"],
)
def test_the_upward_sum_counts_a_rope_cards_up_number_and_no_health_card(k2, p1_cards, taker):
    k2.day({P1: p1_cards, P2: ["move_2", "health_0", "health_1"]})
    assert k2.taker() == taker


def test_a_shared_highest_sum_takes_no_token_and_the_row_stays(k2):
    # p1 and p2 tie at 3, p3 is lower: nobody takes one (DATA.md, HARD_CASES K4: guess)
    k2.day(
        {
            P1: ["move_3", "health_0", "health_1"],
            P2: ["move_2", "move_1", "health_0"],
            P3: ["move_1", "health_0", "health_1"],
        }
    )
    assert k2.zone("risk_row") == {"risk_0": 1, "risk_1": 1, "risk_2": 1}
    assert all(k2.s.pv[p]["risk_left"] == 0 for p in k2.players)
    assert k2.said("shared")


def test_a_solo_player_always_takes_a_token(make_k2):
    k2 = make_k2(players=1)
    k2.deal(P1, ks.DULL)
    k2.pick(ks.DULL)  # an upward sum of 0
    assert k2.legal("take_risk")
    assert k2.to_move == P1


def test_the_face_up_row_is_refilled_from_the_used_tokens_when_the_pile_is_empty(k2):
    k2.s.zones["risk_used"] = dict(k2.zone("risk_pile"))
    k2.s.zones["risk_pile"] = {}
    k2.touch()
    k2.day({P1: ["move_3", "health_0", "health_1"]}, token="risk_1")
    assert sum(k2.zone("risk_row").values()) == 3
    assert sum(k2.zone("risk_pile").values()) + sum(k2.zone("risk_used").values()) == 20 - 3 - 1


def test_the_risk_must_be_applied_before_the_actions_end(k2):
    k2.day({P1: ["move_3", "health_0", "health_1"]}, token="risk_1")
    assert "end_actions" not in k2.legal()
    k2.do("risk_card(card=move_3)")
    assert "end_actions" in k2.legal()
    assert k2.s.pv[P1]["risk_left"] == 0


def test_risk_0_asks_nothing(k2):
    k2.day({P1: ["move_3", "health_0", "health_1"]}, token="risk_0")
    assert "end_actions" in k2.legal()
    assert not k2.legal("risk_card")


def test_the_risk_is_waived_when_nothing_can_take_it(k2):
    k2.day({P1: ["move_3", "health_0", "health_1"]}, token="risk_1")
    k2.s.zones["discard#0"] = dict(Counter(k2.zone("discard", P1)) + Counter(k2.zone("played", P1)))
    k2.s.zones["played#0"] = {}
    k2.touch()
    assert "end_actions" in k2.legal()


def test_a_risk_point_on_a_movement_card_takes_one_step_away(k2):
    walker = k2.climber(P1)
    k2.day({P1: ["move_3", "health_0", "health_1"]}, token="risk_1")
    k2.do("risk_card(card=move_3)")
    k2.set_out(walker, "move_3")
    k2.walk("S1", "S2")
    assert spaces(k2.goes()) == set()


def test_a_risk_point_on_a_health_card_takes_one_health_away(k2):
    walker = k2.climber(P1)
    k2.day({P1: ["move_1", "health_3", "health_0"]}, token="risk_1")
    k2.do("risk_card(card=health_3)")
    k2.heal(walker, "health_3")
    assert k2.health(walker) == 1 + 2


@pytest.mark.parametrize("way, steps", [("up", 1), ("down", 2)])
def test_a_risk_point_on_a_rope_card_comes_off_the_way_chosen(k2, way, steps):
    walker = k2.climber(P1)
    k2.put(walker, "S5")
    k2.day({P1: ["rope_2_3", "health_0", "health_1"]}, token="risk_1")
    k2.do("risk_card(card=rope_2_3)")
    k2.set_out(walker, "rope_2_3", way=way)
    path = ["S7", "S8"] if way == "up" else ["S3", "S2"]
    k2.walk(*path[:steps])
    assert spaces(k2.goes()) == set()


def test_the_risk_goes_on_a_climber_only_once_it_has_used_a_card(k2):
    one, two = k2.climber(P1, 1), k2.climber(P1, 2)
    k2.day({P1: ["move_1", "move_2", "health_0"]}, token="risk_1")
    assert k2.risk_targets() == {"move_1", "move_2", "health_0"}
    k2.set_out(one, "move_1")
    k2.stop()
    assert k2.risk_targets() == {"move_2", "health_0", one}
    assert two not in k2.risk_targets()
    k2.put(one, health=3)
    k2.risk_climber(one)
    assert k2.health(one) == 2


def test_healing_counts_as_using_a_card_for_the_risk(k2):
    one = k2.climber(P1, 1)
    k2.day({P1: ["move_1", "health_1", "health_0"]}, token="risk_1")
    k2.heal(one, "health_0")
    assert one in k2.risk_targets()


def test_a_risk_of_2_may_be_split_between_the_two_climbers(k2):
    one, two = k2.climber(P1, 1), k2.climber(P1, 2)
    k2.put(one, health=4)
    k2.put(two, health=4)
    k2.day({P1: ["move_1", "move_2", "health_0"]}, token="risk_2")
    k2.set_out(one, "move_1")
    k2.stop()
    k2.set_out(two, "move_2")
    k2.stop()
    k2.risk_climber(one)
    assert "end_actions" not in k2.legal()
    k2.risk_climber(two)
    assert (k2.health(one), k2.health(two)) == (3, 3)
    assert "end_actions" in k2.legal()


def test_a_risk_of_2_may_be_split_between_a_card_and_a_climber(k2):
    one = k2.climber(P1, 1)
    k2.put(one, health=4)
    k2.day({P1: ["move_3", "health_0", "health_1"]}, token="risk_2")
    k2.do("risk_card(card=move_3)")
    k2.set_out(one, "move_3")
    k2.walk("S1", "S2", "stop")
    k2.risk_climber(one)
    assert (k2.site(one), k2.health(one)) == ("S2", 3)


def test_a_risk_point_on_one_of_two_like_cards_used_together_takes_one_step_away(k2):
    walker = k2.climber(P1)
    k2.day({P1: ["move_1", "move_1", "health_0"]}, token="risk_1")
    k2.do("risk_card(card=move_1)")
    k2.set_out(walker, "move_1", "move_1")
    assert "S1" in k2.goes()  # 2 - 1 = 1 step


# ====================================================================== health


@pytest.mark.parametrize("site, after", [("S1", 4), ("S9", 3), ("S17", 2), ("S23", 1)])
def test_the_space_changes_health_at_the_check_by_its_acclimatisation(k2, site, after):
    walker = k2.climber(P1)
    k2.put(walker, site, health=3)
    k2.day()
    k2.finish_day()
    assert k2.health(walker) == after


def test_the_weather_takes_health_in_the_zones_it_hits_only(k2):
    k2.forecast("summer_a", "summer_c", day=1)  # 1 health lost from zone 1 up
    low, mid = k2.climber(P1, 1), k2.climber(P1, 2)
    high = k2.climber(P2)
    k2.put(low, "S9", health=3)  # zone 0, acc 0
    k2.put(mid, "S13", health=3)  # zone 1, acc 0
    k2.put(high, "S21", health=3)  # zone 2, acc -1
    k2.day()
    k2.finish_day()
    assert (k2.health(low), k2.health(mid), k2.health(high)) == (3, 2, 1)


def test_health_is_capped_at_6_at_the_check(k2):
    walker = k2.climber(P1)
    k2.pitch("S1", P1)
    k2.put(walker, "S1", health=5)  # +1 space, +1 tent
    k2.day()
    k2.finish_day()
    assert k2.health(walker) == 6


def test_health_is_capped_at_6_when_healing(k2):
    walker = k2.climber(P1)
    k2.put(walker, health=5)
    k2.day(tie_picks(["health_3", "health_0", "move_1"]))
    k2.heal(walker, "health_3")
    assert k2.health(walker) == 6


def test_one_climber_may_use_several_health_cards(k2):
    walker = k2.climber(P1)
    k2.day(tie_picks(["health_3", "health_2", "move_1"]))
    k2.heal(walker, "health_3")
    k2.heal(walker, "health_2")
    assert k2.health(walker) == 6


def test_a_climber_below_1_health_dies_and_scores_1(k2):
    dead, alive = k2.climber(P1, 1), k2.climber(P1, 2)
    k2.put(dead, "S23", health=2, best=6)  # acc -2
    k2.put(alive, "S13", health=4, best=2)
    k2.day()
    k2.finish_day()
    assert dead not in k2.s.pieces
    assert k2.climbers_at("S23") == []
    assert k2.s.pv[P1]["dead_vp"] == 1
    assert k2.score(P1) == 2 + 1
    assert k2.said("dies at S23")


def test_a_climber_at_exactly_1_health_lives(k2):
    walker = k2.climber(P1)
    k2.put(walker, "S23", health=3)
    k2.day()
    k2.finish_day()
    assert k2.health(walker) == 1


def test_the_solo_game_ends_at_once_when_a_climber_dies(make_k2):
    k2 = make_k2(players=1)
    dead, alive = k2.climber(P1, 1), k2.climber(P1, 2)
    k2.put(dead, "S23", health=1, best=6)
    k2.put(alive, "S21", health=5, best=5)
    k2.day()
    k2.finish_day()
    assert k2.s.is_over and k2.day_no == 1
    assert k2.score(P1) == 5 + 1


def test_family_variant_a_dead_climber_comes_back_below_6000_m_4_vp_lower(make_k2):
    k2 = make_k2(family=True)
    dead = k2.climber(P1, 2)
    k2.put(dead, "S23", health=1, best=6)
    k2.crowd("S5", 3)
    k2.day()
    k2.finish_day()
    assert k2.to_move == P1
    assert k2.offered("rescue", "space") == {x for x, rec in EASY.items() if rec[0] == 0} - {"S5"}
    assert "skip" in k2.legal()
    k2.rescue("S4")
    (back,) = k2.climbers_at("S4")
    assert (k2.rec(back)["owner"], k2.health(back), k2.best(back)) == (Player(P1), 1, 2)
    assert k2.s.pv[P1]["dead_vp"] == 0
    assert k2.score(P1) == 1 + 2


def test_family_variant_the_vp_of_a_rescued_climber_do_not_drop_below_1(make_k2):
    k2 = make_k2(family=True)
    dead = k2.climber(P1, 2)
    k2.put(dead, "S18", health=1, best=3)
    k2.day()
    k2.finish_day()
    k2.rescue("S1")
    (back,) = k2.climbers_at("S1")
    assert k2.best(back) == 1


def test_family_variant_the_rescue_card_is_played_once_per_game(make_k2):
    k2 = make_k2(family=True)
    one, two = k2.climber(P1, 1), k2.climber(P1, 2)
    k2.put(one, "S23", health=1, best=6)
    k2.put(two, "S9", health=6)
    k2.day()
    k2.finish_day()
    k2.rescue("S2")
    k2.finish_day()
    k2.put(two, "S23", health=1)
    k2.day()
    k2.finish_day()
    assert not k2.legal("rescue")
    assert two not in k2.s.pieces


def test_without_the_family_variant_no_rescue_is_offered(k2):
    dead = k2.climber(P1, 2)
    k2.put(dead, "S23", health=1, best=6)
    k2.day()
    k2.finish_day()
    assert k2.phase == "choose" and k2.day_no == 2


def test_family_variant_two_climbers_dying_the_same_day_share_the_one_rescue(make_k2):
    k2 = make_k2(family=True)
    for shape in (1, 2):
        k2.put(k2.climber(P1, shape), "S23", health=1, best=6)
    k2.day()
    k2.finish_day()
    k2.rescue("S2")
    assert not k2.legal("rescue")


def test_family_variant_the_rescued_climber_keeps_its_shape_and_its_pitched_tent(make_k2):
    k2 = make_k2(family=True)
    dead = k2.climber(P1, 2)
    k2.pitch("S23", P1)
    k2.put(dead, "S23", health=1, best=6, tent=True)
    k2.day()
    k2.finish_day()
    k2.rescue("S2")
    (back,) = k2.climbers_at("S2")
    assert (k2.rec(back)["shape"], k2.rec(back)["tent"]) == (2, True)


# ====================================================================== victory points


def test_the_best_space_reached_counts_even_after_going_down(k2):
    walker = k2.climber(P1)
    k2.put(walker, "S14", health=6, best=2)
    k2.day(tie_picks(["move_3", "health_0", "health_1"]))
    k2.set_out(walker, "move_3")
    k2.walk("S16", "S14", "stop")  # S16 is worth 3
    assert (k2.site(walker), k2.best(walker)) == ("S14", 3)
    assert k2.score(P1) == 3 + 1


def test_the_score_is_the_best_vp_of_both_climbers(k2):
    k2.put(k2.climber(P1, 1), "S21", health=6, best=5)
    k2.put(k2.climber(P1, 2), "S16", health=6, best=3)
    assert k2.score(P1) == 8


def test_the_climbers_reaching_the_summit_are_recorded_in_order(k2):
    first = k2.climber(P1)
    second = k2.climber(P2)
    k2.put(first, "S26", health=6, best=7)
    k2.day(tie_picks(["move_3", "health_0", "health_1"]))
    k2.set_out(first, "move_3")
    k2.walk("SUMMIT", "stop")
    k2.finish_day()
    assert k2.s.gv["summit_order"] == (Player(P1),)
    assert k2.best(first) == 10
    k2.put(first, "S25")
    k2.put(second, "S26", health=6, best=7)
    k2.day({P2: ["move_3", "health_0", "health_1"], P3: ["move_3", "health_0", "health_1"]})
    k2.set_out(second, "move_3")
    k2.walk("SUMMIT", "stop")
    assert k2.s.gv["summit_order"] == (Player(P1), Player(P2))
    assert k2.said("reaches the summit")


@pytest.mark.parametrize(
    "order, winners",
    [((P2, P1), [P2]), ((P1, P2), [P1]), ((), [P1, P2])],
    ids=["p2 first", "p1 first", "none"],
)
def test_a_tie_goes_to_the_player_who_reached_the_summit_first(k2, order, winners):
    for p, best in ((P1, 10), (P2, 10), (P3, 5)):
        k2.put(k2.climber(p, 1), best=best, health=6)
    k2.s.gv["summit_order"] = tuple(Player(p) for p in order)
    k2.touch()
    k2.play_until(lambda: k2.s.is_over, ks.rest)
    assert k2.score(P1) == k2.score(P2) == 11
    assert k2.s.winners == [Player(p) for p in winners]


# ====================================================================== cards


def test_the_picks_are_secret_until_the_reveal(k2):
    for p, cards in ((P1, ["move_3", "move_2", "health_0"]), (P2, ks.DULL), (P3, ks.DULL)):
        k2.deal(p, cards)
    k2.do("pick(card=health_0)")
    k2.do("pick(card=move_2)")
    # Picking changes nothing anyone sees, not even the picker's own zones: p1 keeps 6 cards in hand.
    for seat in (P1, P2):
        view = k2.s.view(seat)
        assert sum(view.zones["hand#0"].values()) == 6 and view.zones["played#0"] == {}
    assert k2.s.view(P2).stack[-1]["picks"] == ("?",)
    assert [str(a) for a in k2.s.view(P1).stack[-1]["picks"][0]] == [
        "pick(card=health_0)",
        "pick(card=move_2)",
    ]
    k2.do("pick(card=move_3)")
    assert k2.to_move == Player(P2)
    assert "move_3" not in str(k2.s.view(P2).stack) and k2.s.view(P2).zones["played#0"] == {}
    k2.pick(ks.DULL)
    assert k2.s.view(P3).zones["played#0"] == {} and k2.s.view(P3).zones["played#1"] == {}
    k2.pick(ks.DULL)
    # The last pick reveals everyone's cards at once.
    assert k2.s.view(P2).zones["played#0"] == {"health_0": 1, "move_2": 1, "move_3": 1}
    assert k2.s.view(P1).zones["played#2"] == {"health_0": 1, "health_1": 2}


def test_each_player_picks_exactly_3_of_the_6_cards(k2):
    for p, cards in ((P1, ["move_3", "move_2", "health_0"]), (P2, ks.DULL), (P3, ks.DULL)):
        k2.deal(p, cards)
    assert k2.to_move == Player(P1)
    k2.pick(["move_3", "move_2", "health_0"])
    assert k2.to_move == Player(P2)
    k2.pick(ks.DULL)
    k2.pick(ks.DULL)
    assert len(k2.hand(P1)) == 3
    assert k2.zone("played", P1) == {"move_3": 1, "move_2": 1, "health_0": 1}


def test_every_player_picks_from_the_same_state_whoever_picked_before(k2):
    """A later picker's options and view do not depend on what an earlier one picked."""
    for p in k2.players:
        k2.deal(p, ["move_3", "move_2", "health_0"])
    other = k2.s.clone()
    k2.pick(["move_3", "move_2", "health_0"])
    for _ in range(3):  # p1 picks otherwise: the first cards offered
        other.apply(other.legal_actions()[0])
    assert other.stack[-1]["picks"][0] != k2.s.stack[-1]["picks"][0]
    assert other.to_move == k2.to_move == Player(P2)
    assert [str(a) for a in other.legal_actions()] == k2.legal()
    assert other.view(P2).to_json() == k2.s.view(P2).to_json()


def test_the_picks_come_one_card_at_a_time_each_kind_offered_once(k2):
    k2.deal(P1, ["health_0", "health_1", "health_1", "move_1", "move_1", "move_1"])
    # in name order, so that 3 picks are one way; two copies are one choice
    assert k2.legal() == ["pick(card=health_0)", "pick(card=health_1)", "pick(card=move_1)"]
    k2.do("pick(card=health_1)")
    assert k2.legal() == ["pick(card=health_1)", "pick(card=move_1)"]
    k2.do("pick(card=move_1)")
    assert k2.legal() == ["pick(card=move_1)"]


def test_the_cards_are_drawn_back_to_6_at_the_end_of_the_day(k2):
    k2.day()
    k2.finish_day()
    for p in k2.players:
        assert len(k2.hand(p)) == 6
        assert sum(k2.zone("deck", p).values()) == 18 - 9
        assert sum(k2.zone("discard", p).values()) == 3


def test_the_played_cards_go_to_the_discard(k2):
    walker = k2.climber(P1)
    k2.day(tie_picks(["move_3", "health_0", "health_1"]))
    k2.set_out(walker, "move_3")
    k2.stop()
    assert k2.zone("discard", P1) == {"move_3": 1}
    k2.end()
    assert k2.zone("discard", P1) == {"move_3": 1, "health_0": 1, "health_1": 1}
    assert k2.zone("played", P1) == {}


def test_with_the_deck_spent_the_last_3_cards_are_played_then_the_discard_is_reshuffled(k2):
    for day in (6, 12, 18):
        k2.play_until(lambda: k2.day_no == day and k2.phase == "choose", ks.rest)  # noqa: B023
        for p in k2.players:
            assert sum(k2.zone("deck", p).values()) == 0
            assert len(k2.hand(p)) == 3
        if day < 18:
            k2.play_until(lambda: k2.day_no == day + 1, ks.rest)  # noqa: B023
            for p in k2.players:
                assert (len(k2.hand(p)), sum(k2.zone("deck", p).values())) == (6, 12)
                assert k2.zone("discard", p) == {}
    assert sum("reshuffles" in line for line in k2.s.log) == 2 * 3


# ====================================================================== the days


def test_the_first_player_marker_moves_left_each_day(k2):
    firsts = []
    for day in (1, 2, 3, 4):
        k2.play_until(lambda: k2.day_no == day and k2.phase == "choose", ks.rest)  # noqa: B023
        firsts.append(Player(k2.s.gv["first_player"]))
        k2.play_until(lambda: k2.phase == "actions", ks.rest)
        assert k2.to_move == firsts[-1]  # the marker's holder acts first (the picks are simultaneous)
    assert firsts == [Player(P1), Player(P2), Player(P3), Player(P1)]


def test_the_weather_tiles_advance_every_3_days_and_last_exactly_18_days(make_k2):
    k2 = make_k2(clear=False)
    definitions = k2.game.definition.sym.definitions
    seen: list[tuple[str, ...]] = []
    for day in range(1, 19):
        k2.play_until(lambda: k2.day_no == day and k2.phase == "actions", ks.rest)  # noqa: B023
        forecast = k2.s.gv["forecast"]
        assert k2.weather() == tuple(definitions[forecast[0]]["days"][(day - 1) % 3])
        seen.append(forecast)
    for day in range(2, 19):
        before, now = seen[day - 2], seen[day - 1]
        if (day - 1) % 3 == 0:
            assert now[0] == before[1]  # the tiles slide left
        else:
            assert now == before
    tiles = [forecast[0] for forecast in seen[::3]]
    assert len(set(tiles)) == 6
    assert all(t.startswith("summer") for t in tiles)
    assert len(seen[-1]) == 1  # the last tile: 3 days remain


def test_the_game_ends_after_exactly_18_days(k2):
    k2.play_until(lambda: k2.day_no == 18 and k2.phase == "choose", ks.rest)
    assert not k2.s.is_over
    k2.play_until(lambda: k2.s.is_over, ks.rest)
    assert k2.day_no == 18
    assert sum(line.startswith("== day") for line in k2.s.log) == 18


@pytest.mark.parametrize("board", ["easy", "hard"])
@pytest.mark.parametrize("weather", ["summer", "winter"])
def test_both_board_sides_and_both_weather_sets_load_and_play(board, weather):
    game = ks.load(3, board=board, weather=weather)
    s = game.new_game(seed=2, log=True)
    policy = ks.Climb(seed=2)
    capacity = game.definition.defs["capacity"]
    reached = 1
    while not s.is_over:
        legal = s.legal_actions()
        assert legal
        if not any(a.name == "walk" for a in legal):
            for site in s.sites:
                here = [p for p in s.at.get(site, ()) if s.pieces[p]["kind"] == "climber"]
                assert len(here) <= capacity(s, {"x": site}), site
        climbers = [rec for rec in s.pieces.values() if rec["kind"] == "climber"]
        assert all(rec["health"] <= 6 for rec in climbers)
        reached = max([reached, *(rec["best"] for rec in climbers)])
        s.apply(policy(s))
    assert s.gv["day"] == 18
    assert reached >= 4  # some climber got well above 6000 m
    assert s.winners
