"""Pluvionauts, rule by rule (shared/rules/pluvionauts.md with the defaults of DATA.md, section 002).

Each test sets up the situation a rule talks about on a cleared game (the `sky` fixture, see
pluvionauts_setup.Sky: every cell sky, no dice, no buildings, p1 about to drive), acts through the public
API or reads a def of the rule file, and checks the outcome.

The board is the radius-3 hexagon; the rows of cells, top to bottom:

        t0  t1  t2  t3
      t4  t5  t6  t7  t8
    t9  t10 t11 t12 t13 t14
  t15 t16 t17 t18 t19 t20 t21
    t22 t23 t24 t25 t26 t27
      t28 t29 t30 t31 t32
        t33 t34 t35 t36

t18 is the centre (CENTRE); RING1 holds its six neighbours, RING2 the twelve cells two steps away.
"""

from __future__ import annotations

from collections import Counter

import pluvionauts_setup as ps
import pytest

from meeple import Player
from meeple.values import Bundle

P1, P2, P3 = (Player(i) for i in range(3))

ENTER_COST = {"sky": 1, "plain": 1, "forest": 2, "mountain": 3}
LIFT = {"plain": 1, "forest": 2, "mountain": 3}
ISLANDS = {"plain": 10, "forest": 6, "mountain": 5}
TERRAINS = ("plain", "forest", "mountain")
KINDS = ("walls", "lighthouses", "water_towers")
CENTRE = "t18"
RING1 = {"t11", "t12", "t17", "t19", "t24", "t25"}
RING2 = {"t5", "t6", "t7", "t10", "t13", "t16", "t20", "t23", "t26", "t29", "t30", "t31"}
MIDDLE_ROW = ("t15", "t16", "t17", "t18", "t19", "t20", "t21")
CORNERS = ("t0", "t3", "t15", "t21", "t33", "t36")  # the six corner cells, none next to another

# DATA.md, 002, the DEFAULT deck: (type, weather, terrain, n, support, bonus).
DECK = {
    "rain_on_plains": ("weather", "rain", "plain", 4, 2, 1),
    "rain_on_forests": ("weather", "rain", "forest", 3, 3, 1),
    "rain_on_mountains": ("weather", "rain", "mountain", 2, 3, 2),
    "thunder_on_plains": ("weather", "thunder", "plain", 3, 2, 1),
    "thunder_on_forests": ("weather", "thunder", "forest", 2, 3, 1),
    "thunder_on_mountains": ("weather", "thunder", "mountain", 2, 4, 1),
    "big_plain": ("region_size", None, "plain", 5, 2, 1),
    "big_forest": ("region_size", None, "forest", 4, 3, 1),
    "big_mountain": ("region_size", None, "mountain", 3, 3, 2),
    "plain_regions": ("region_count", None, "plain", 3, 2, 1),
    "forest_regions": ("region_count", None, "forest", 3, 3, 1),
    "mountain_regions": ("region_count", None, "mountain", 2, 2, 1),
}
WEATHER_CARDS = [c for c, (kind, *_) in DECK.items() if kind == "weather"]
SIZE_CARDS = [c for c, (kind, *_) in DECK.items() if kind == "region_size"]
COUNT_CARDS = [c for c, (kind, *_) in DECK.items() if kind == "region_count"]


def card(name: str) -> dict[str, object]:
    kind, weather, terrain, n, support, bonus = DECK[name]
    return {"type": kind, "weather": weather, "terrain": terrain, "n": n, "support": support, "bonus": bonus}


def tow_from(sky, tile: str, fuel: int) -> None:
    """Drive the balloon onto the island `tile` (in place) so that p1 now chooses where to tow it."""
    sky.drive_in_place(tile, fuel)


def play_out(sky) -> list[Player]:
    """Play quiet turns until the game ends; returns who played each turn."""
    turns = []
    for _ in range(20):
        if sky.s.is_over:
            return turns
        turns.append(sky.to_move)
        sky.finish_turn()
    raise AssertionError(f"the game has not ended after 20 more turns: {turns}")


def validate_third_request(sky, p: Player) -> None:
    """Bring p, holding two validated requests, to validate a third (big_plain, met on the middle row)."""
    while sky.to_move != p:
        sky.finish_turn()
    sky.islands("plain", *MIDDLE_ROW[:5])
    sky.give(p, "thunder_on_forests", "thunder_on_mountains", zone="validated")
    sky.give(p, "big_plain")
    sky.set_support(p, 7)
    sky.to_action_step("t0")
    sky.do("validate(card=big_plain)")


# ====================================================================== the box


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_box_holds_21_islands_and_16_sky_cells(pluvionauts_game, seed):
    s = pluvionauts_game.new_game(seed=seed)
    tiles = pluvionauts_game.definition.board.collections["tiles"]
    assert len(tiles) == 37
    assert Counter(s.sites[t]["terrain"] for t in tiles) == {**ISLANDS, "sky": 16}


def test_the_islands_are_shuffled_over_the_box(pluvionauts_game):
    tiles = pluvionauts_game.definition.board.collections["tiles"]
    layouts = {
        tuple(pluvionauts_game.new_game(seed=seed).sites[t]["terrain"] for t in tiles) for seed in range(5)
    }
    assert len(layouts) > 1


def test_buildings_have_90_slots_between_two_cells(pluvionauts_game):
    board = pluvionauts_game.definition.board
    inner = [side for side in board.collections["sides"] if len(board.tiles_of[side]) == 2]
    assert len(inner) == 90


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_weather_dice_start_on_two_distinct_cells(pluvionauts_game, seed):
    s = pluvionauts_game.new_game(seed=seed)
    dice = [rec for rec in s.pieces.values() if rec["kind"] == "weather_die"]
    assert len(dice) == 2
    assert dice[0]["site"] != dice[1]["site"]
    assert all(1 <= d["value"] <= 6 for d in dice)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_two_hidden_requests_and_the_pool_is_full(players):
    s = ps.load(players=players).new_game(seed=1)
    assert all(sum(s.zones[f"requests#{p}"].values()) == 2 for p in range(players))
    assert sum(s.zones["request_deck"].values()) == 12 - 2 * players
    assert dict(s.gv["pool"]) == ps.POOL
    assert all(not s.zones[f"validated#{p}"] for p in range(players))


def test_the_request_deck_is_the_default_deck_of_data_md(pluvionauts_game):
    definitions = pluvionauts_game.definition.sym.definitions
    for name in DECK:
        assert {k: definitions[name][k] for k in card(name)} == card(name), name
    s = pluvionauts_game.new_game(seed=1)
    in_zones = Counter()
    for zone in s.zones.values():
        in_zones.update(zone)
    assert in_zones == dict.fromkeys(DECK, 1)


# ====================================================================== distance


@pytest.mark.parametrize("terrain", ["sky", *TERRAINS])
def test_the_cell_of_the_die_is_at_distance_zero_whatever_its_terrain(sky, terrain):
    sky.islands(terrain, CENTRE)
    assert sky.distance(CENTRE, CENTRE) == 0
    assert sky.distance(CENTRE, "t19") == 1  # leaving a cell costs nothing


@pytest.mark.parametrize("terrain, cost", ENTER_COST.items())
def test_entering_a_cell_costs_by_its_terrain(sky, terrain, cost):
    sky.islands(terrain, "t19")
    assert sky.distance(CENTRE, "t19") == cost


def test_a_path_costs_the_sum_of_the_cells_it_enters(sky):
    sky.islands("mountain", *sky.tiles)
    sky.islands("sky", CENTRE)
    sky.islands("plain", "t19")
    sky.islands("forest", "t20")
    assert sky.distance(CENTRE, "t21") == 1 + 2 + 3


def test_the_distance_is_the_cheapest_way_not_the_straight_one(sky):
    sky.islands("mountain", "t19")
    # straight through the mountain: 3 + 1; around it over t25 and t26: 1 + 1 + 1
    assert sky.distance(CENTRE, "t20") == 3


def test_a_wall_between_two_cells_forces_the_way_around(sky):
    sky.islands("plain", "t19")
    assert sky.distance(CENTRE, "t19") == 1
    sky.build("walls", CENTRE, "t19")
    assert sky.distance(CENTRE, "t19") == 2
    assert sky.distance("t19", CENTRE) == 2


def test_within_keeps_only_the_cells_in_range(sky):
    sky.islands("forest", "t19")
    sky.islands("mountain", "t17")
    sky.islands("plain", "t12")
    assert sky.within(CENTRE, 1) == {CENTRE, "t11", "t12", "t24", "t25"}
    assert {"t19", "t17"} & sky.within(CENTRE, 2) == {"t19"}
    assert "t17" in sky.within(CENTRE, 3)


def test_within_counts_the_way_around_a_wall(sky):
    sky.islands("plain", "t19")
    sky.build("walls", CENTRE, "t19")
    assert "t19" not in sky.within(CENTRE, 1)
    assert "t19" in sky.within(CENTRE, 2)


# ====================================================================== weather


@pytest.mark.parametrize("value", range(1, 7))
def test_a_weather_die_wets_the_cells_up_to_min_of_its_value_and_three(sky, value):
    sky.put_die(CENTRE, value)
    wet = {t for t in sky.tiles if sky.weather(t) != "dry"}
    assert wet == sky.hex_ring(CENTRE, 0, min(value, 3))


@pytest.mark.parametrize("value", range(1, 7))
def test_a_weather_die_thunders_up_to_its_value_minus_three(sky, value):
    sky.put_die(CENTRE, value)
    stormy = {t for t in sky.tiles if sky.thunder(t)}
    assert stormy == (sky.hex_ring(CENTRE, 0, value - 3) if value > 3 else set())
    assert not any(sky.rain(t) for t in stormy), "a cell under thunder has no rain"


def test_the_weather_range_is_measured_with_the_travel_distance(sky):
    sky.put_die(CENTRE, 2)
    sky.islands("forest", "t19")  # distance 2
    sky.islands("mountain", "t17")  # distance 3
    sky.islands("plain", "t11")  # distance 1, and t10 behind it 2
    assert {t: sky.weather(t) for t in ("t19", "t17", "t11", "t10", "t20", "t16")} == {
        "t19": "rain",
        "t17": "dry",
        "t11": "rain",
        "t10": "rain",
        "t20": "dry",  # 3 behind the forest, and 3 around it
        "t16": "dry",  # 4 behind the mountain, 3 round by t11 and t10
    }


def test_a_wall_keeps_the_weather_out(sky):
    sky.put_die(CENTRE, 1)
    sky.islands("plain", "t19")
    assert sky.weather("t19") == "rain"
    sky.build("walls", CENTRE, "t19")
    assert sky.weather("t19") == "dry"


def test_a_lighthouse_turns_thunder_into_rain_on_both_cells_beside_it(sky):
    sky.put_die(CENTRE, 6)
    sky.islands("plain", "t19")
    sky.build("lighthouses", CENTRE, "t19")
    assert {t: sky.weather(t) for t in (CENTRE, "t19", "t17", "t12", "t20")} == {
        CENTRE: "rain",
        "t19": "rain",
        "t17": "thunder",
        "t12": "thunder",
        "t20": "thunder",
    }


def test_a_lighthouse_brings_no_rain_to_dry_cells(sky):
    sky.islands("plain", "t1")
    sky.build("lighthouses", "t0", "t1")
    assert sky.weather("t0") == sky.weather("t1") == "dry"


def test_a_water_tower_brings_rain_to_both_cells_beside_it(sky):
    sky.islands("plain", "t1")
    sky.build("water_towers", "t0", "t1")
    assert {t: sky.weather(t) for t in ("t0", "t1", "t5", "t2")} == {
        "t0": "rain",
        "t1": "rain",
        "t5": "dry",
        "t2": "dry",
    }


def test_a_water_tower_does_not_stop_thunder(sky):
    sky.put_die(CENTRE, 6)
    sky.islands("plain", "t19")
    sky.build("water_towers", CENTRE, "t19")
    assert sky.weather(CENTRE) == sky.weather("t19") == "thunder"


# ====================================================================== driving


@pytest.mark.parametrize(
    "fuel, reach",
    [
        (1, {CENTRE} | RING1 - {"t19"}),
        # the forest t19 is 2 away; t20 lies 3 behind it and 3 around it
        (2, {CENTRE} | RING1 | RING2 - {"t20"}),
    ],
    ids=["fuel 1", "fuel 2"],
)
def test_the_balloon_drives_only_to_cells_within_its_fuel(sky, fuel, reach):
    sky.islands("forest", "t19")
    sky.islands("plain", "t17")
    sky.put_balloon(CENTRE, fuel)
    assert sky.offered("drive", "cell") == reach


def test_driving_moves_the_balloon(sky):
    sky.put_balloon(CENTRE, 3)
    sky.do("drive(cell=t30)")
    assert sky.balloon["site"] == "t30"
    assert sky.balloon["fuel"] == 3


def test_the_balloon_cannot_drive_through_a_wall(sky):
    sky.islands("plain", "t25")
    sky.build("walls", CENTRE, "t25")
    sky.put_balloon(CENTRE, 1)
    assert "t25" not in sky.offered("drive", "cell")
    sky.put_balloon(CENTRE, 2)
    assert "t25" in sky.offered("drive", "cell")


def test_driving_is_the_only_thing_to_do_after_the_throw(sky):
    sky.put_balloon(CENTRE, 1)
    assert {a.split("(")[0] for a in sky.legal()} == {"drive"}


# ====================================================================== towing


def test_a_balloon_on_a_sky_cell_tows_nothing(sky):
    sky.islands("plain", "t19")
    sky.drive_in_place(CENTRE, 1)
    assert sky.legal("tow") == []
    assert "skip" in sky.legal()


@pytest.mark.parametrize("fuel", [6, 5, 4])
def test_an_island_is_towed_to_sky_cells_within_seven_minus_the_fuel(sky, fuel):
    sky.islands("plain", CENTRE)
    tow_from(sky, CENTRE, fuel)
    assert sky.offered("tow", "dest") == sky.hex_ring(CENTRE, 1, 7 - fuel)


def test_the_tow_range_is_measured_with_the_travel_distance(sky):
    sky.islands("plain", CENTRE)
    sky.islands("forest", "t11", "t12")
    tow_from(sky, CENTRE, 5)
    # range 2: not onto the forests; t5, t6 and t7 lie 3 away behind or around them
    assert sky.offered("tow", "dest") == RING1 - {"t11", "t12"} | RING2 - {"t5", "t6", "t7"}


def test_an_island_is_towed_only_onto_a_sky_cell(sky):
    sky.islands("plain", CENTRE, "t19", "t24")  # both within the range of 1
    tow_from(sky, CENTRE, 6)
    assert sky.offered("tow", "dest") == {"t11", "t12", "t17", "t25"}


@pytest.mark.parametrize("terrain", TERRAINS)
def test_towing_moves_the_terrain_leaves_sky_and_carries_the_balloon(sky, terrain):
    sky.islands(terrain, CENTRE)
    tow_from(sky, CENTRE, 6)
    sky.do("tow(dest=t25)")
    assert (sky.terrain(CENTRE), sky.terrain("t25")) == ("sky", terrain)
    assert Counter(sky.terrains().values()) == {"sky": 36, terrain: 1}
    assert (sky.balloon["site"], sky.balloon["fuel"]) == ("t25", 1)  # the die flipped: 7 - 6
    assert sky.to_move == P1 and "skip" in sky.legal()


@pytest.mark.parametrize(
    "balloon, neighbour",
    [(CENTRE, "sky"), (CENTRE, "plain"), ("t19", "plain")],
    ids=["island next to sky", "first island of two", "second island of two"],
)
def test_a_wall_freezes_the_islands_beside_it(sky, balloon, neighbour):
    sky.islands("plain", CENTRE)
    sky.islands(neighbour, "t19")
    sky.build("walls", CENTRE, "t19")
    sky.drive_in_place(balloon, 6)
    assert sky.legal("tow") == []
    assert "skip" in sky.legal()


@pytest.mark.parametrize("kind", ["lighthouses", "water_towers"])
def test_other_buildings_do_not_freeze_an_island(sky, kind):
    sky.islands("plain", CENTRE)
    sky.build(kind, CENTRE, "t19")
    tow_from(sky, CENTRE, 6)
    assert sky.offered("tow", "dest") == RING1


# ====================================================================== altitude


@pytest.mark.parametrize("terrain", TERRAINS)
def test_an_island_towed_under_a_weather_die_raises_it_by_its_terrain(sky, terrain):
    die = sky.put_die("t25", 2)
    bystander = sky.put_die("t24", 2)
    sky.islands(terrain, CENTRE)
    tow_from(sky, CENTRE, 6)
    sky.do("tow(dest=t25)")
    assert sky.die_value(die) == 2 + LIFT[terrain]
    assert sky.die_value(bystander) == 2
    assert sky.dice() == [("t25", 2 + LIFT[terrain]), ("t24", 2)]


@pytest.mark.parametrize("terrain", TERRAINS)
def test_an_island_towed_away_from_under_a_weather_die_lowers_it(sky, terrain):
    die = sky.put_die(CENTRE, 5)
    sky.islands(terrain, CENTRE)
    tow_from(sky, CENTRE, 6)
    sky.do("tow(dest=t25)")
    assert sky.die_value(die) == 5 - LIFT[terrain]
    assert sky.dice() == [(CENTRE, 5 - LIFT[terrain])], "the die stays where it is"


@pytest.mark.parametrize(
    "under, value, after",
    [("dest", 5, 6), ("dest", 6, 6), ("src", 2, 1), ("src", 1, 1)],
    ids=["raised to 6", "kept at 6", "lowered to 1", "kept at 1"],
)
def test_a_weather_die_stays_between_one_and_six(sky, under, value, after):
    die = sky.put_die("t25" if under == "dest" else CENTRE, value)
    sky.islands("mountain", CENTRE)
    tow_from(sky, CENTRE, 6)
    sky.do("tow(dest=t25)")
    assert sky.die_value(die) == after


# ====================================================================== buildings


@pytest.mark.parametrize("kind", KINDS)
def test_taking_a_building_moves_it_from_the_pool_to_the_player(sky, kind):
    sky.to_action_step(CENTRE)
    sky.do(f"take_building(kind={kind})")
    assert sky.held(P1) == {k: int(k == kind) for k in KINDS}
    assert sky.pool == {k: n - int(k == kind) for k, n in ps.POOL.items()}


def test_a_building_the_pool_has_run_out_of_cannot_be_taken(sky):
    sky.s.gv["pool"] = Bundle({"walls": 6, "water_towers": 3})
    sky.to_action_step(CENTRE)
    assert sky.offered("take_building", "kind") == {"walls", "water_towers"}


def test_a_building_goes_only_on_a_free_side_of_the_balloons_cell_with_an_island_beside_it(sky):
    sky.islands("plain", "t19", "t17")
    sky.islands("forest", "t24")
    sky.build("lighthouses", CENTRE, "t17")  # taken: not free
    sky.hold(P1, walls=1)
    sky.to_action_step(CENTRE)
    assert sky.offered("place_building", "slot") == {sky.side(CENTRE, "t19"), sky.side(CENTRE, "t24")}


def test_a_building_is_never_placed_on_the_rim_of_the_box(sky):
    sky.islands("plain", "t20")
    sky.hold(P1, water_towers=1)
    tow_from(sky, "t20", 6)
    sky.do("tow(dest=t21)")  # the balloon rides to the rim cell t21, now an island
    board = sky.board
    inner = {sky.side("t21", t) for t in ("t14", "t20", "t27")}
    assert len([s for s in board.sides_of["t21"] if len(board.tiles_of[s]) == 1]) == 3
    assert sky.offered("place_building", "slot") == inner


@pytest.mark.parametrize("kind", KINDS)
def test_placing_a_building_costs_the_one_held(sky, kind):
    sky.islands("plain", "t19")
    sky.hold(P1, **{kind: 1})
    sky.to_action_step(CENTRE)
    pool = sky.pool
    sky.do(f"place_building(kind={kind}, slot={sky.side(CENTRE, 't19')})")
    assert sky.buildings_at(sky.side(CENTRE, "t19")) == [ps.BUILDING[kind]]
    assert sky.held(P1) == dict.fromkeys(KINDS, 0)
    assert sky.pool == pool


def test_only_held_buildings_can_be_placed(sky):
    sky.islands("plain", "t19")
    sky.hold(P1, lighthouses=1)
    sky.to_action_step(CENTRE)
    assert sky.offered("place_building", "kind") == {"lighthouses"}
    sky.hold(P1)
    assert sky.legal("place_building") == []


@pytest.mark.parametrize("kind", ["lighthouses", "water_towers"])
def test_a_building_falls_back_to_the_pool_when_its_last_island_is_towed_away(sky, kind):
    sky.islands("plain", CENTRE)
    side = sky.build(kind, CENTRE, "t17")
    tow_from(sky, CENTRE, 6)
    sky.do("tow(dest=t25)")  # t25 is not next to t17
    assert sky.buildings_at(side) == []
    assert sky.pool == ps.POOL


def test_a_building_stands_while_another_island_is_beside_it(sky):
    sky.islands("plain", CENTRE, "t17")
    side = sky.build("lighthouses", CENTRE, "t17")
    tow_from(sky, CENTRE, 6)
    sky.do("tow(dest=t25)")
    assert sky.buildings_at(side) == ["lighthouse"]
    assert sky.pool["lighthouses"] == 2


def test_a_building_between_the_old_and_new_cell_of_a_tow_stands(sky):
    sky.islands("forest", CENTRE)
    side = sky.build("water_towers", CENTRE, "t25")
    tow_from(sky, CENTRE, 6)
    sky.do("tow(dest=t25)")
    assert sky.buildings_at(side) == ["water_tower"]
    assert sky.pool["water_towers"] == 2


def test_a_placed_wall_freezes_the_island_for_good(sky):
    sky.islands("plain", "t19")
    sky.hold(P1, walls=1)
    sky.to_action_step(CENTRE)
    sky.do(f"place_building(kind=walls, slot={sky.side(CENTRE, 't19')})")
    while sky.to_move != P1:
        sky.finish_turn()
    sky.put_balloon("t19", 6)
    sky.do("drive(cell=t19)")
    assert sky.legal("tow") == []


# ====================================================================== requests


@pytest.mark.parametrize("name", SIZE_CARDS)
def test_a_region_size_request_needs_one_connected_region_of_its_size(sky, name):
    _, _, terrain, n, _, _ = DECK[name]
    sky.islands(terrain, *MIDDLE_ROW[: n - 1])
    assert not sky.met(name)
    sky.islands(terrain, MIDDLE_ROW[-1])  # n cells, but not in one piece
    assert not sky.met(name)
    sky.islands(terrain, MIDDLE_ROW[n - 1])
    assert sky.met(name)


def test_a_wall_splits_a_region(sky):
    sky.islands("plain", *MIDDLE_ROW[:5])
    assert sky.met("big_plain")
    sky.build("walls", "t17", "t18")
    assert not sky.met("big_plain")


def test_a_region_size_request_counts_only_its_terrain(sky):
    sky.islands("plain", *MIDDLE_ROW[:4])
    sky.islands("forest", MIDDLE_ROW[4])
    assert not sky.met("big_plain")


@pytest.mark.parametrize("name", COUNT_CARDS)
def test_a_region_count_request_needs_enough_separate_regions(sky, name):
    _, _, terrain, n, _, _ = DECK[name]
    sky.islands(terrain, *CORNERS[: n - 1])
    assert not sky.met(name)
    sky.islands(terrain, "t1")  # next to t0: the same region
    assert not sky.met(name)
    sky.islands(terrain, CORNERS[n - 1])
    assert sky.met(name)


def test_a_wall_between_two_islands_makes_two_regions(sky):
    sky.islands("plain", "t0", CENTRE, "t19")
    assert not sky.met("plain_regions")
    sky.build("walls", CENTRE, "t19")
    assert sky.met("plain_regions")


@pytest.mark.parametrize("name", WEATHER_CARDS)
def test_a_weather_request_needs_enough_cells_of_its_terrain_under_its_weather(sky, name):
    _, weather, terrain, n, _, _ = DECK[name]
    sky.put_die(CENTRE, 3 if weather == "rain" else 6)
    ring = sorted(RING1)
    sky.islands(terrain, *ring[: n - 1])
    sky.islands("plain" if terrain != "plain" else "forest", ring[n - 1])
    assert not sky.met(name)
    sky.islands(terrain, ring[n - 1])
    assert sky.met(name)


def test_a_rain_request_does_not_count_cells_under_thunder(sky):
    sky.islands("plain", *sorted(RING1)[:4])
    die = sky.put_die(CENTRE, 3)
    assert sky.met("rain_on_plains")
    sky.s.pieces[die] = {**sky.s.pieces[die], "value": 4}
    sky.touch()
    assert not sky.met("rain_on_plains")
    assert sky.met("thunder_on_plains")


def test_a_lighthouse_can_turn_a_thunder_request_into_a_rain_request(sky):
    sky.put_die(CENTRE, 6)
    sky.islands("mountain", "t12", "t19")  # both 3 away
    assert sky.met("thunder_on_mountains") and not sky.met("rain_on_mountains")
    sky.build("lighthouses", "t12", "t19")
    assert sky.met("rain_on_mountains") and not sky.met("thunder_on_mountains")


def test_a_water_tower_alone_can_meet_a_rain_request(sky):
    sky.islands("mountain", "t0", "t1")
    assert not sky.met("rain_on_mountains")
    sky.build("water_towers", "t0", "t1")
    assert sky.met("rain_on_mountains")


def test_only_a_request_that_is_met_can_be_validated(sky):
    sky.islands("plain", *MIDDLE_ROW[:5])
    sky.give(P1, "big_plain", "rain_on_plains")
    sky.to_action_step("t0")
    assert sky.offered("validate", "card") == {"big_plain"}


def test_validating_shows_the_card_adds_its_support_and_draws_another(sky):
    sky.islands("plain", *MIDDLE_ROW[:5])
    sky.give(P1, "big_plain", "rain_on_plains")
    sky.to_action_step("t0")
    sky.do("validate(card=big_plain)")
    assert sky.validated(P1) == {"big_plain": 1}
    assert sky.support(P1) == 2
    held = sky.requests(P1)
    assert sum(held.values()) == 2 and held.get("rain_on_plains") == 1 and "big_plain" not in held
    assert sum(sky.deck.values()) == 12 - 3
    assert sky.to_move == P2, "the optional action ends the turn"


def test_a_player_takes_one_optional_action_per_turn(sky):
    sky.islands("plain", *MIDDLE_ROW[:5])
    sky.give(P1, "big_plain", "plain_regions")
    sky.to_action_step("t0")
    sky.do("take_building(kind=walls)")
    assert sky.to_move == P2
    assert sky.validated(P1) == {}


# ====================================================================== the end


@pytest.mark.parametrize("closer", [P1, P2, P3])
def test_after_a_third_validated_request_each_other_player_plays_one_last_turn(sky, closer):
    validate_third_request(sky, closer)
    assert not sky.s.is_over
    others = [Player((closer + i) % 3) for i in (1, 2)]
    assert play_out(sky) == others


def test_the_game_goes_on_after_a_second_validated_request(sky):
    sky.islands("plain", *MIDDLE_ROW[:5])
    sky.give(P1, "thunder_on_forests", zone="validated")
    sky.give(P1, "big_plain")
    sky.to_action_step("t0")
    sky.do("validate(card=big_plain)")
    for _ in range(6):
        sky.finish_turn()
    assert not sky.s.is_over


def test_a_later_third_request_does_not_put_the_end_off(sky):
    validate_third_request(sky, P1)
    # p2 also validates a third request during its last turn
    sky.islands("mountain", "t33", "t34", "t35")
    sky.give(P2, "rain_on_plains", "rain_on_forests", zone="validated")
    sky.give(P2, "big_mountain")
    sky.to_action_step("t36")
    sky.do("validate(card=big_mountain)")
    assert play_out(sky) == [P3]


def test_the_score_is_the_support_plus_the_bonus_of_validated_requests_still_met(sky):
    sky.islands("plain", *MIDDLE_ROW[:5])
    sky.islands("mountain", "t33", "t34", "t35")
    sky.give(P1, "big_plain", "rain_on_plains", "big_mountain", zone="validated")
    sky.set_support(P1, 7)
    assert sky.score(P1) == 7 + 1 + 2  # rain_on_plains is not met: no bonus
    sky.islands("sky", "t35")
    assert sky.score(P1) == 7 + 1


@pytest.mark.parametrize(
    "p2_support, winners",
    [(10, [P1, P2]), (11, [P2]), (9, [P1])],
    ids=["tie shares the win", "p2 ahead", "p1 ahead"],
)
def test_the_highest_score_wins_and_a_tie_shares_the_win(sky, p2_support, winners):
    validate_third_request(sky, P1)  # support 7 + 2, and big_plain's bonus 1 while it stays met
    sky.set_support(P2, p2_support)
    play_out(sky)
    assert sky.score(P1) == 10
    assert sky.s.winners == winners


def test_the_game_ends_by_score_after_the_last_round():
    sky = ps.Sky(ps.load(players=3, max_rounds=5))
    sky.set_support(P2, 1)
    turns = play_out(sky)
    assert len(turns) == 3 * 5  # five rounds, from p1's first turn
    assert sky.s.gv["round"] == 5 + 1
    assert sky.s.winners == [P2]


# ====================================================================== the throw


def test_the_balloon_lands_on_a_cell_with_the_rolled_fuel(sky):
    sky.script(randint=[4], choice=["t30"])  # p2's throw: the roll, then the cell
    sky.finish_turn()
    assert sky.to_move == P2
    assert (sky.balloon["site"], sky.balloon["fuel"]) == ("t30", 4)
    assert sky.offered("drive", "cell") == sky.hex_ring("t30", 0, 4)


def test_a_throw_that_misses_once_is_tried_again():
    sky = ps.Sky(ps.load(players=3, miss_percent=90))
    sky.script(randrange=[0, 99])  # p2's throws: off the box (0 < 90), then on it
    sky.finish_turn()
    assert sky.to_move == P2
    assert sky.legal("drive")
    assert "p2 throws the balloon off the box and tries once more" in "\n".join(sky.s.log)


def test_a_throw_that_misses_twice_passes_the_turn_to_the_next_player():
    sky = ps.Sky(ps.load(players=3, miss_percent=90))
    sky.script(randrange=[0, 0, 99])  # p2 misses twice; p3's throw lands
    sky.finish_turn()
    assert sky.to_move == P3
    assert sky.legal("drive")


def test_a_balloon_landing_between_three_cells_lets_the_player_choose_one():
    sky = ps.Sky(ps.load(players=3, between_percent=100))
    landings = [a for a in sky.s.legal_actions() if a.name == "land_on"]
    cells = {dict(a.params)["cell"] for a in landings}
    assert len(landings) == 3 and len(cells) == 3
    assert all(set(sky.neighbours(c)) >= cells - {c} for c in cells), "three cells around one corner"
    assert {a.name for a in sky.s.legal_actions()} == {"land_on"}
    chosen = landings[1]
    cell = dict(chosen.params)["cell"]
    sky.s.apply(chosen)
    assert sky.balloon["site"] == cell
    assert sky.offered("drive", "cell") == sky.hex_ring(cell, 0, sky.balloon["fuel"])


@pytest.mark.parametrize("knock_sixths", [0, 6], ids=["never knocked", "always knocked"])
def test_a_throw_may_knock_each_weather_die_onto_a_neighbouring_cell(knock_sixths):
    sky = ps.Sky(ps.load(players=3, knock_sixths=knock_sixths))
    before = [sky.put_die(CENTRE, 1), sky.put_die("t0", 1)]
    sky.finish_turn()  # p2 throws
    after = sky.dice()
    assert len(before) == len(after) == 2
    for (site, value), home in zip(after, (CENTRE, "t0")):
        assert 1 <= value <= 6
        if knock_sixths == 0:
            assert (site, value) == (home, 1)
        else:
            assert site in sky.neighbours(home)
