"""Climbers of Verdon, rule by rule (shared/rules/climbers_of_verdon.md with the DATA.md defaults).

Each test sets up the situation a rule talks about on a cleared main-phase game (the `table`
fixture, see verdon_setup.Table), acts through the public API and checks the outcome.

Board sites used below (the radius-2 hex board; t9 is the centre tile):
  X = c24 touches t5, t9, t10; its neighbours are c18, c19, c30.
  FAR = c40 touches t13, t14, t17 (no tile shared with X, and far from it).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import meeple
from meeple import Player
from meeple.data import data_dir

P1, P2, P3, P4 = (Player(i) for i in range(4))

RESOURCES = ("rope", "nut", "bolt", "crashpad", "chalk")
TERRAINS = ("mountain", "big_wall", "cliff", "boulder_field", "cave")
PRODUCES = {
    "mountain": "rope",
    "big_wall": "nut",
    "cliff": "bolt",
    "boulder_field": "crashpad",
    "cave": "chalk",
}
NOTHING = {r: 0 for r in RESOURCES}

# The costs as the rule book states them.
ROPE_COST = {"rope": 1, "bolt": 1}
PROJECT_COST = {"nut": 1, "bolt": 1, "rope": 1, "crashpad": 1}
CARD_COST = {"nut": 1, "crashpad": 1, "chalk": 1}
CLIMB_COST = {
    "mountain": {"rope": 3, "chalk": 1, "nut": 1},
    "big_wall": {"nut": 3, "rope": 1, "bolt": 1},
    "cliff": {"bolt": 3, "nut": 1, "crashpad": 1},
    "boulder_field": {"crashpad": 3, "bolt": 1, "chalk": 1},
    "cave": {"chalk": 3, "rope": 1, "crashpad": 1},
}
REPEAT_COST = {
    "mountain": {"rope": 3, "chalk": 1},
    "big_wall": {"nut": 3, "chalk": 1},
    "cliff": {"bolt": 3, "chalk": 1},
    "boulder_field": {"crashpad": 3, "chalk": 1},
    "cave": {"chalk": 4},
}
VP_CARDS = ("free_solo_climb", "write_a_book", "open_a_gym", "competition_victory", "classic_climb")
DECK = {
    "fan_club": 14,
    "sponsorship": 2,
    "expedition": 2,
    "community_support": 2,
    "friendly_rivalry": 2,
    **{card: 1 for card in VP_CARDS},
}

X, FAR = "c24", "c40"
# A roll that produces on no tile once `only_number` has not handed it out: both dice show 1.
QUIET = (1, 1)


def plus(*bundles: dict[str, int]) -> dict[str, int]:
    out = dict(NOTHING)
    for b in bundles:
        for k, v in b.items():
            out[k] += v
    return out


def corners_of_actions(table, name: str) -> set[str]:
    return {a["corner"] for a in table.legal_actions(name)}


def make_x_tiles(table, *terrains: str) -> tuple[str, ...]:
    """Give X's three tiles these terrains (in the order of tiles_of); returns the tiles."""
    tiles = table.board.tiles_of[X]
    for tile, terrain in zip(tiles, terrains):
        table.set_tile(tile, terrain)
    return tiles


def quiet_dice(table) -> None:
    """Make sure a roll of 2 produces nothing anywhere (the next turns can then be rolled as (1, 1))."""
    for t in table.tiles:
        if table.number(t) == 2:
            table.set_number(t, 12)


# ====================================================================== the board


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_board_has_19_tiles_with_the_rule_books_terrain_counts(verdon_game, seed):
    s = verdon_game.new_game(seed=seed)
    tiles = verdon_game.definition.board.collections["tiles"]
    assert len(tiles) == 19
    assert Counter(s.sites[t]["terrain"] for t in tiles) == {
        "mountain": 3,
        "big_wall": 4,
        "cliff": 4,
        "boulder_field": 3,
        "cave": 4,
        "grass": 1,
    }


def test_the_tiles_are_laid_out_at_random(verdon_game):
    tiles = verdon_game.definition.board.collections["tiles"]
    layouts = {tuple(verdon_game.new_game(seed=seed).sites[t]["terrain"] for t in tiles) for seed in range(5)}
    assert len(layouts) > 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_18_number_tokens_lie_on_the_non_grass_tiles(verdon_game, seed):
    s = verdon_game.new_game(seed=seed)
    tiles = verdon_game.definition.board.collections["tiles"]
    grass = [t for t in tiles if s.sites[t]["terrain"] == "grass"]
    numbers = Counter(s.sites[t].get("number") for t in tiles if t not in grass)
    assert numbers == {2: 1, 12: 1, **{n: 2 for n in (3, 4, 5, 6, 8, 9, 10, 11)}}
    assert sum(numbers.values()) == 18
    assert [s.sites[t].get("number") for t in grass] == [None]


def test_the_board_has_54_locations_and_72_paths(verdon_game):
    b = verdon_game.definition.board
    assert len(b.collections["corners"]) == 54
    assert len(b.collections["sides"]) == 72
    assert all(len(b.ends[side]) == 2 for side in b.collections["sides"])
    assert all(1 <= len(b.tiles_of[c]) <= 3 for c in b.collections["corners"])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nine_training_camps_lie_on_the_border_five_dedicated_and_four_generic(verdon_game, seed):
    s = verdon_game.new_game(seed=seed)
    b = verdon_game.definition.board
    ring = b.collections["border_sides"]
    camps = {site: fields["camp"] for site, fields in s.sites.items() if "camp" in fields}
    assert set(camps) <= set(ring)
    assert Counter(camps.values()) == {
        "generic": 4,
        "rope": 1,
        "nut": 1,
        "bolt": 1,
        "crashpad": 1,
        "chalk": 1,
    }
    # DATA.md default: gaps 3, 3, 4 around the coast, the frame turned as a whole.
    at = sorted(ring.index(site) for site in camps)
    gaps = [(at[(i + 1) % 9] - at[i]) % len(ring) for i in range(9)]
    assert any(gaps[i:] + gaps[:i] == [3, 3, 4] * 3 for i in range(9))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_access_token_starts_on_the_grass_tile(verdon_game, seed):
    s = verdon_game.new_game(seed=seed)
    assert s.sites[s.gv["token"]]["terrain"] == "grass"


def test_the_publicity_deck_holds_the_27_cards_of_the_rule_book(verdon_game):
    s = verdon_game.new_game(seed=1)
    assert s.zones["publicity_deck"] == DECK
    assert sum(s.zones["publicity_deck"].values()) == 27
    assert all(not s.zones[f"hand#{p}"] for p in range(4))


# ====================================================================== starting the game


def test_the_start_placements_go_in_snake_order(verdon_game, play_setup):
    s = verdon_game.new_game(seed=3)
    assert play_setup(s) == [P1, P2, P3, P4, P4, P3, P2, P1]


def test_after_the_set_up_each_player_has_two_projects_and_two_ropes(verdon_game, play_setup):
    s = verdon_game.new_game(seed=4)
    play_setup(s)
    kinds = Counter((rec["owner"], rec["kind"]) for rec in s.pieces.values())
    assert kinds == {(p, k): 2 for p in (P1, P2, P3, P4) for k in ("project", "fixed_rope")}
    assert s.to_move == P1
    assert "end_turn" in [str(a) for a in s.legal_actions()]


def test_a_start_placement_puts_a_project_on_its_chosen_tile_and_a_rope_next_to_it(verdon_game):
    s = verdon_game.new_game(seed=5)
    b = verdon_game.definition.board
    tile = next(t for t in b.tiles_of[X] if s.sites[t]["terrain"] != "grass")
    path = b.sides_of[X][2]
    assert all(a["path"] in b.sides_of[a["corner"]] for a in s.legal_actions())
    s.apply(f"place_start(corner={X}, tile={tile}, path={path})")
    placed = {rec["site"]: (rec["kind"], rec["owner"], rec.get("home")) for rec in s.pieces.values()}
    assert placed == {X: ("project", P1, tile), path: ("fixed_rope", P1, None)}


def test_each_start_project_gives_one_resource_from_its_adjacent_producing_tiles(verdon_game):
    s = verdon_game.new_game(seed=6)
    b = verdon_game.definition.board
    tiles = b.tiles_of[X]
    home = next(t for t in tiles if s.sites[t]["terrain"] != "grass")
    s.apply(f"place_start(corner={X}, tile={home}, path={b.sides_of[X][0]})")
    options = {a["res"] for a in s.legal_actions()}
    produced = {PRODUCES[s.sites[t]["terrain"]] for t in tiles if s.sites[t]["terrain"] != "grass"}
    assert s.to_move == P1
    assert {a.name for a in s.legal_actions()} == {"start_resource"}
    assert options == produced
    res = sorted(options)[0]
    s.apply(f"start_resource(at={X}, res={res})")
    assert {r: s.pv[P1][r] for r in RESOURCES} == plus({res: 1})
    assert s.to_move == P2


def test_start_placements_obey_the_distance_rule(verdon_game):
    s = verdon_game.new_game(seed=2)
    b = verdon_game.definition.board
    home = next(t for t in b.tiles_of[X] if s.sites[t]["terrain"] != "grass")
    s.apply(f"place_start(corner={X}, tile={home}, path={b.sides_of[X][0]})")
    s.apply(s.legal_actions()[0])
    corners = {a["corner"] for a in s.legal_actions()}
    assert s.to_move == P2
    assert X not in corners
    assert not corners & set(b.neighbours[X])
    assert set(b.neighbours[b.neighbours[X][0]]) - {X} <= corners


# ====================================================================== fixed ropes


def test_a_rope_costs_one_rope_and_one_bolt(table):
    table.put("project", X, P1, home=table.board.tiles_of[X][0])
    path = table.board.sides_of[X][1]
    table.hold(P1, rope=1, bolt=1, nut=2)
    table.do("build_rope", path=path)
    assert table.at(path) == [("fixed_rope", P1)]
    assert table.resources(P1) == plus({"nut": 2})
    assert table.s.supply[P1]["fixed_rope"] == 71


@pytest.mark.parametrize(
    "held", [{"rope": 1}, {"bolt": 1}, {"rope": 0}], ids=["no bolt", "no rope", "nothing"]
)
def test_a_rope_cannot_be_built_without_a_rope_and_a_bolt(table, held):
    table.put("project", X, P1, home=table.board.tiles_of[X][0])
    table.hold(P1, nut=5, chalk=5, crashpad=5, **held)
    assert table.legal("build_rope") == []


def test_a_rope_must_touch_an_own_project_route_or_rope(table):
    b = table.board
    table.put("project", X, P1, home=b.tiles_of[X][0])
    table.put("route", FAR, P1, home=b.tiles_of[FAR][0])
    rope_ends = ("c8", "c13")
    table.put("fixed_rope", table.side(*rope_ends), P1)
    # Other players' pieces give p1 no access.
    table.put("project", "c33", P2, home=b.tiles_of["c33"][0])
    table.put("fixed_rope", table.side("c33", "c38"), P2)
    table.hold(P1, rope=9, bolt=9)
    touching = {side for c in (X, FAR, *rope_ends) for side in b.sides_of[c]} - {table.side(*rope_ends)}
    assert {a["path"] for a in table.legal_actions("build_rope")} == touching


def test_a_rope_cannot_be_built_on_a_path_that_has_a_rope(table):
    b = table.board
    table.put("project", X, P1, home=b.tiles_of[X][0])
    taken = b.sides_of[X][0]
    table.put("fixed_rope", taken, P2)
    table.hold(P1, rope=9, bolt=9)
    paths = {a["path"] for a in table.legal_actions("build_rope")}
    assert taken not in paths
    assert set(b.sides_of[X]) - {taken} <= paths


# The rule file says "touches one's own project, route or fixed rope" through `reach(p)`, the set of locations
# a player reaches, and `rope_paths(p)`, the paths at those, each worked out once per change of the pieces;
# and it asks whether a corner is an end of one's fixed ropes (`rope_ends(p)`, so that only those corners are
# tried) before whether it is far enough from every building. The book's wording, location by location, and
# in the book's order:
BOOK_WORDING = {
    'rope_paths(p): "distinct([s for c in reach(p) for s in sides_of(c)])"': (
        'owns_building(p, c): "building(c) != none and building(c).owner == p"\n'
        '  has_rope_at(p, c): "any(r.owner == p for s in sides_of(c) for r in pieces_at(s))"\n'
        '  rope_reaches(p, s): "any(owns_building(p, c) or has_rope_at(p, c) for c in ends(s))"'
    ),
    "and path in rope_paths(me)": "and rope_reaches(me, path)",
    "corner in rope_ends(me) and far_enough(corner)": "far_enough(corner) and has_rope_at(me, corner)",
    "route.site in reach(me) and": "(owns_building(me, route.site) or has_rope_at(me, route.site)) and",
    "blocked=[b.site for b in pieces('project') + pieces('route') if b.owner != p]": (
        "blocked=[b.site for b in pieces() if b.kind != 'fixed_rope' and b.owner != p]"
    ),
}


def test_the_reach_of_a_player_allows_what_the_book_wording_allows(tmp_path):
    """Random games in lock step, one on the seed file and one on the book's wording of access: the same
    legal actions at every decision."""
    text = (data_dir("games") / "climbers_of_verdon.yaml").read_text(encoding="utf-8")
    for ours, book in BOOK_WORDING.items():
        assert text.count(ours) == 1, ours
        text = text.replace(ours, book)
    (tmp_path / "worded.yaml").write_text(text, encoding="utf-8")
    seed_file = meeple.load("climbers_of_verdon", players=4)
    worded = meeple.load(tmp_path / "worded.yaml", players=4)
    decisions = 0
    for seed in range(1, 4):
        a, b, rng = seed_file.new_game(seed=seed), worded.new_game(seed=seed), random.Random(seed)
        while not a.is_over:
            listed = a.legal_actions()
            assert [str(x) for x in listed] == [str(x) for x in b.legal_actions()]
            i = rng.randrange(len(listed))
            a.apply(listed[i])
            b.apply(b.legal_actions()[i])
            decisions += 1
        assert b.is_over and a.winners == b.winners
    assert decisions > 1000


# ====================================================================== projects


def test_a_project_costs_a_nut_a_bolt_a_rope_and_a_crashpad(table):
    b = table.board
    y = b.neighbours[X][0]
    table.put("fixed_rope", table.side(X, y), P1)
    tile = b.tiles_of[y][0]
    table.hold(P1, chalk=3, **PROJECT_COST)
    table.do("build_project", corner=y, tile=tile)
    assert table.at(y) == [("project", P1)]
    assert table.resources(P1) == plus({"chalk": 3})
    assert table.s.supply[P1]["project"] == 4
    assert table.score(P1) == 1


@pytest.mark.parametrize("missing", ["nut", "bolt", "rope", "crashpad"])
def test_a_project_cannot_be_built_without_its_full_cost(table, missing):
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.hold(P1, **{**PROJECT_COST, missing: 0}, chalk=5)
    assert table.legal("build_project") == []


def test_a_project_must_touch_an_own_rope(table):
    b = table.board
    table.put("fixed_rope", table.side(X, "c30"), P1)
    table.put("fixed_rope", table.side(FAR, "c44"), P2)
    table.put("route", "c13", P1, home=b.tiles_of["c13"][0])
    table.hold(P1, **{r: 5 for r in RESOURCES})
    assert corners_of_actions(table, "build_project") == {X, "c30"}


@pytest.mark.parametrize("owner", [P1, P2], ids=["own", "other player's"])
@pytest.mark.parametrize("kind", ["project", "route"])
def test_a_project_cannot_be_built_next_to_another_project_or_route(table, kind, owner):
    b = table.board
    a, bb, c, d = table.chain(3, start=X)
    for side in table.sides_along([a, bb, c, d]):
        table.put("fixed_rope", side, P1)
    table.put(kind, a, owner, home=b.tiles_of[a][0])
    table.hold(P1, **{r: 5 for r in RESOURCES})
    # a is taken, bb is one path away from it; c and d are two and three paths away.
    assert corners_of_actions(table, "build_project") == {c, d}


def test_a_project_home_is_chosen_among_the_tiles_of_its_location(table):
    tiles = make_x_tiles(table, "cave", "cliff", "mountain")
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.hold(P1, **PROJECT_COST)
    assert {a["tile"] for a in table.legal_actions("build_project") if a["corner"] == X} == set(tiles)
    table.do("build_project", corner=X, tile=tiles[2])
    (pid,) = table.pieces("project", P1)
    assert table.piece(pid)["site"] == X
    assert table.piece(pid)["home"] == tiles[2]


def test_a_project_cannot_have_the_grass_tile_as_home(table):
    tiles = make_x_tiles(table, "grass", "cliff", "mountain")
    table.set_token(table.board.tiles_of[FAR][0])
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.hold(P1, **PROJECT_COST)
    assert {a["tile"] for a in table.legal_actions("build_project") if a["corner"] == X} == set(tiles[1:])


def test_a_project_cannot_be_established_on_the_token_tile(table):
    tiles = make_x_tiles(table, "cave", "cliff", "mountain")
    table.set_token(tiles[1])
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.hold(P1, **PROJECT_COST)
    assert {a["tile"] for a in table.legal_actions("build_project") if a["corner"] == X} == {
        tiles[0],
        tiles[2],
    }


def test_a_player_has_five_projects_in_supply(table):
    assert table.s.supply[P1] == {"fixed_rope": 72, "project": 5, "route": 4}
    table.set_supply(P1, "project", 0)
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.hold(P1, **PROJECT_COST)
    assert table.legal("build_project") == []


# ====================================================================== climbing


@pytest.mark.parametrize("terrain", TERRAINS)
def test_climbing_an_own_project_costs_by_its_home_terrain(table, terrain):
    others = [t for t in TERRAINS if t != terrain]
    home, *_ = make_x_tiles(table, terrain, others[0], others[1])
    pid = table.put("project", X, P1, home=home)
    cost = CLIMB_COST[terrain]
    short = next(iter(cost))
    table.hold(P1, **{**cost, short: cost[short] - 1})
    assert table.legal("climb") == []
    table.hold(P1, **cost)
    table.do("climb", project=pid)
    assert table.resources(P1) == NOTHING
    assert table.piece(pid)["kind"] == "route"


def test_a_climbed_project_becomes_a_route_that_keeps_its_home(table):
    tiles = make_x_tiles(table, "cave", "cliff", "mountain")
    pid = table.put("project", X, P1, home=tiles[1])
    table.hold(P1, **CLIMB_COST["cliff"])
    assert table.score(P1) == 1
    table.do("climb", project=pid)
    assert table.at(X) == [("route", P1)]
    assert table.piece(pid)["home"] == tiles[1]
    assert table.s.supply[P1]["project"] == 5
    assert table.s.supply[P1]["route"] == 3
    assert table.score(P1) == 2


def test_a_player_cannot_climb_another_players_project(table):
    home, *_ = make_x_tiles(table, "cliff", "cave", "mountain")
    table.put("project", X, P2, home=home)
    table.hold(P1, **{r: 9 for r in RESOURCES})
    assert table.legal("climb") == []


def test_a_project_homed_on_the_token_tile_cannot_be_climbed(table):
    tiles = make_x_tiles(table, "cliff", "cave", "mountain")
    pid = table.put("project", X, P1, home=tiles[0])
    table.hold(P1, **{r: 9 for r in RESOURCES})
    table.set_token(tiles[0])
    assert table.legal("climb") == []
    table.set_token(tiles[1])
    assert table.can("climb", project=pid)


def test_a_player_has_four_routes_in_supply(table):
    pid = table.put("project", X, P1, home=make_x_tiles(table, "cliff")[0])
    table.hold(P1, **{r: 9 for r in RESOURCES})
    assert table.can("climb", project=pid)
    table.set_supply(P1, "route", 0)
    assert not table.can("climb", project=pid)


# ====================================================================== income


@pytest.mark.parametrize(
    "kind, homed_on_rolled_tile, income",
    [("project", False, 1), ("project", True, 2), ("route", False, 2), ("route", True, 4)],
)
def test_income_is_one_per_project_two_per_route_doubled_on_the_home_tile(
    table, kind, homed_on_rolled_tile, income
):
    rolled, other, _ = make_x_tiles(table, "cliff", "cave", "mountain")
    table.only_number(rolled, 8)
    table.put(kind, X, P3, home=rolled if homed_on_rolled_tile else other)
    table.end_turn(3, 5)
    assert table.s.to_move == P2
    assert table.resources(P3) == plus({"bolt": income})
    assert all(table.resources(p) == NOTHING for p in (P1, P2, P4))


def test_every_building_around_the_rolled_tile_earns_for_its_owner(table):
    b = table.board
    rolled, home, _ = make_x_tiles(table, "big_wall", "cave", "mountain")
    table.only_number(rolled, 5)
    far_corner = next(c for c in b.corners_of[rolled] if c != X and c not in b.neighbours[X])
    table.put("project", X, P2, home=home)
    table.put("route", far_corner, P4, home=rolled)
    table.put("fixed_rope", b.sides_of[X][0], P1)  # ropes earn nothing
    table.end_turn(2, 3)
    assert table.resources(P2) == plus({"nut": 1})
    assert table.resources(P4) == plus({"nut": 4})
    assert table.resources(P1) == NOTHING
    assert table.resources(P3) == NOTHING


def test_a_roll_of_another_number_earns_nothing(table):
    first, home, third = make_x_tiles(table, "big_wall", "cave", "mountain")
    table.only_number(first, 5)
    table.only_number(home, 9)
    table.only_number(third, 10)
    table.put("route", X, P2, home=home)
    table.end_turn(2, 4)
    assert table.resources(P2) == NOTHING


def test_a_building_earns_from_each_adjacent_tile_that_shows_the_rolled_number(table):
    first, second, home = make_x_tiles(table, "cliff", "cave", "mountain")
    table.only_number(first, 6)
    table.set_number(second, 6)
    table.put("project", X, P3, home=home)
    table.end_turn(3, 3)
    assert table.resources(P3) == plus({"bolt": 1, "chalk": 1})


def test_the_tile_with_the_access_token_produces_nothing(table):
    rolled, home, _ = make_x_tiles(table, "big_wall", "cave", "mountain")
    table.only_number(rolled, 5)
    table.put("route", X, P2, home=rolled)
    table.set_token(rolled)
    table.end_turn(2, 3)
    assert table.resources(P2) == NOTHING


def test_the_grass_tile_has_no_number_and_never_produces(table):
    grass, mountain, cave = make_x_tiles(table, "grass", "mountain", "cave")
    table.set_token(table.board.tiles_of[FAR][0])
    table.only_number(mountain, 4)
    table.only_number(cave, 9)
    table.put("project", X, P3, home=mountain)
    assert table.number(grass) is None
    earned = Counter()
    for first, second in [(1, r - 1) if r <= 7 else (6, r - 6) for r in range(2, 13) if r != 7]:
        s = table.s.clone()
        table.s, kept = s, table.s
        table.end_turn(first, second)
        earned.update({r: n for r, n in table.resources(P3).items() if n})
        table.s = kept
    assert earned == {"rope": 2, "chalk": 1}


# ====================================================================== rolling 7, the access token


def test_rolling_seven_lets_the_roller_move_the_token_to_another_tile_and_nobody_earns(table):
    home, *_ = make_x_tiles(table, "cliff", "cave", "mountain")
    table.put("route", X, P3, home=home)
    before = table.token
    table.end_turn(3, 4)
    frame = table.s.stack[-1]
    assert table.s.to_move == P2
    assert frame["k"] == "grant" and frame["action"] == "move_token"
    assert {a.name for a in table.s.legal_actions()} == {"move_token"}
    assert {a["tile"] for a in table.s.legal_actions()} == set(table.tiles) - {before}
    assert all(table.resources(p) == NOTHING for p in (P1, P2, P3, P4))
    table.do("move_token", tile=home)
    assert table.token == home
    assert "end_turn" in table.legal()


def test_the_token_cannot_stay_where_it_is(table):
    table.end_turn(6, 1)
    assert not table.can("move_token", tile=table.token)
    assert len(table.legal("move_token")) == 18


# ====================================================================== repeating routes


@pytest.mark.parametrize("terrain", TERRAINS)
def test_repeating_a_route_costs_by_its_home_terrain_and_gives_both_players_a_point(table, terrain):
    others = [t for t in TERRAINS if t != terrain]
    home, *_ = make_x_tiles(table, terrain, others[0], others[1])
    route = table.put("route", X, P2, home=home)
    table.put("fixed_rope", table.board.sides_of[X][0], P1)
    cost = REPEAT_COST[terrain]
    short = next(iter(cost))
    table.hold(P1, **{**cost, short: cost[short] - 1})
    assert table.legal("repeat_route") == []
    table.hold(P1, **cost)
    assert (table.score(P1), table.score(P2)) == (0, 2)
    table.do("repeat_route", route=route)
    assert table.resources(P1) == NOTHING
    assert (table.score(P1), table.score(P2)) == (1, 3)
    assert table.piece(route)["kind"] == "route"
    assert table.piece(route)["owner"] == P2


def test_a_player_repeats_a_route_once_a_turn_and_others_can_too(table):
    home, *_ = make_x_tiles(table, "cliff", "cave", "mountain")
    quiet_dice(table)
    route = table.put("route", X, P2, home=home)
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.put("fixed_rope", table.side(X, "c19"), P3)
    for p in (P1, P3):
        table.hold(p, bolt=6, chalk=2)
    table.do("repeat_route", route=route)
    assert table.legal("repeat_route") == []
    table.end_turn(*QUIET)  # p2
    table.end_turn(*QUIET)  # p3
    assert table.s.to_move == P3
    table.do("repeat_route", route=route)
    assert (table.score(P1), table.score(P2), table.score(P3)) == (1, 4, 1)
    table.end_turn(*QUIET)  # p4
    table.end_turn(*QUIET)  # p1 again: a new turn, a new repeat of the same route
    assert table.can("repeat_route", route=route)
    table.do("repeat_route", route=route)
    assert (table.score(P1), table.score(P2)) == (2, 5)


def test_a_route_can_be_repeated_only_with_access_to_its_location(table):
    home, *_ = make_x_tiles(table, "cliff", "cave", "mountain")
    route = table.put("route", X, P2, home=home)
    table.hold(P1, **{r: 9 for r in RESOURCES})
    assert table.legal("repeat_route") == []
    # a rope one path away from the route's location is not enough
    table.put("fixed_rope", table.side("c18", "c13"), P1)
    assert table.legal("repeat_route") == []
    table.put("fixed_rope", table.side("c18", X), P1)
    assert table.can("repeat_route", route=route)


def test_own_routes_and_projects_cannot_be_repeated(table):
    b = table.board
    table.put("route", X, P1, home=b.tiles_of[X][0])
    table.put("project", FAR, P2, home=b.tiles_of[FAR][0])
    table.put("fixed_rope", b.sides_of[FAR][0], P1)
    table.hold(P1, **{r: 9 for r in RESOURCES})
    assert table.legal("repeat_route") == []


def test_a_route_homed_on_the_token_tile_cannot_be_repeated(table):
    tiles = make_x_tiles(table, "cliff", "cave", "mountain")
    route = table.put("route", X, P2, home=tiles[0])
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.hold(P1, **{r: 9 for r in RESOURCES})
    table.set_token(tiles[0])
    assert table.legal("repeat_route") == []
    table.set_token(tiles[1])
    assert table.can("repeat_route", route=route)


# ====================================================================== publicity cards


def test_buying_a_card_costs_a_nut_a_crashpad_and_a_chalk_and_draws_from_the_deck(table):
    table.hold(P1, rope=2, **CARD_COST)
    deck_before = dict(table.deck)
    table.do("buy_card")
    assert table.resources(P1) == plus({"rope": 2})
    assert sum(table.deck.values()) == 26
    assert sum(table.new_cards(P1).values()) == 1
    (card,) = table.new_cards(P1)
    assert deck_before[card] - table.deck.get(card, 0) == 1
    table.end_turn(*QUIET)
    assert table.hand(P1) == {card: 1} and table.new_cards(P1) == {}


@pytest.mark.parametrize("missing", ["nut", "crashpad", "chalk"])
def test_a_card_cannot_be_bought_without_its_full_cost(table, missing):
    table.hold(P1, **{**CARD_COST, missing: 0}, rope=5, bolt=5)
    assert table.legal("buy_card") == []


def test_no_card_can_be_bought_once_the_deck_is_empty(table):
    table.set_deck({})
    table.hold(P1, **CARD_COST)
    assert table.legal("buy_card") == []


def test_a_card_cannot_be_played_on_the_turn_it_was_bought(table):
    table.set_deck({"sponsorship": 2})
    quiet_dice(table)
    table.hold(P1, **CARD_COST)
    table.do("buy_card")
    assert table.new_cards(P1) == {"sponsorship": 1} and table.hand(P1) == {}
    assert table.legal("play_card") == []
    for _ in range(4):
        table.end_turn(*QUIET)
    assert table.s.to_move == P1
    assert table.legal("play_card") == ["play_card(card=sponsorship)"]


def test_a_card_bought_this_turn_does_not_block_an_older_copy(table):
    table.give_card(P1, "sponsorship")
    table.set_deck({"sponsorship": 1})
    table.hold(P1, **CARD_COST)
    table.do("buy_card")
    assert table.hand(P1) == {"sponsorship": 1} and table.new_cards(P1) == {"sponsorship": 1}
    assert table.legal("play_card") == ["play_card(card=sponsorship)"]


def test_only_one_card_can_be_played_per_turn(table):
    table.give_card(P1, "sponsorship")
    table.give_card(P1, "fan_club")
    assert len(table.legal("play_card")) == 2
    table.do("play_card", card="sponsorship")
    table.do("take_resource", res="rope")
    table.do("take_resource", res="rope")
    assert table.legal("play_card") == []
    assert table.hand(P1) == {"fan_club": 1}


def test_the_fan_club_card_moves_the_access_token(table):
    table.give_card(P1, "fan_club")
    before = table.token
    target = table.board.tiles_of[X][0]
    table.do("play_card", card="fan_club")
    assert {a["tile"] for a in table.legal_actions("move_token")} == set(table.tiles) - {before}
    table.do("move_token", tile=target)
    assert table.token == target
    assert table.hand(P1) == {}
    assert table.played(P1) == {"fan_club": 1}


def test_the_sponsorship_card_gives_two_resources_of_choice(table):
    table.give_card(P1, "sponsorship")
    table.do("play_card", card="sponsorship")
    assert {a["res"] for a in table.legal_actions("take_resource")} == set(RESOURCES)
    table.do("take_resource", res="chalk")
    assert {a["res"] for a in table.legal_actions("take_resource")} == set(RESOURCES)
    table.do("take_resource", res="bolt")
    assert table.resources(P1) == plus({"chalk": 1, "bolt": 1})
    assert table.legal("take_resource") == []
    assert "end_turn" in table.legal()


def test_the_expedition_card_builds_two_ropes_for_free(table):
    b = table.board
    table.put("project", X, P1, home=b.tiles_of[X][0])
    table.give_card(P1, "expedition")
    table.do("play_card", card="expedition")
    first = table.side(X, "c18")
    second = table.side("c18", "c13")
    assert {a["path"] for a in table.legal_actions("build_rope")} == set(b.sides_of[X])
    table.do("build_rope", path=first)
    table.do("build_rope", path=second)
    assert table.at(first) == [("fixed_rope", P1)]
    assert table.at(second) == [("fixed_rope", P1)]
    assert table.resources(P1) == NOTHING
    assert table.s.supply[P1]["fixed_rope"] == 70
    assert table.legal("build_rope") == []


@pytest.mark.parametrize("built", [0, 1])
def test_the_expedition_ropes_are_optional(table, built):
    table.put("project", X, P1, home=table.board.tiles_of[X][0])
    table.give_card(P1, "expedition")
    table.do("play_card", card="expedition")
    if built:
        table.do("build_rope", path=table.side(X, "c18"))
    assert "skip" in table.legal()
    table.do("skip")
    assert len(table.pieces("fixed_rope", P1)) == built
    assert table.played(P1) == {"expedition": 1}
    assert table.resources(P1) == NOTHING
    assert "end_turn" in table.legal()
    assert table.legal("build_rope") == []


def test_community_support_takes_one_resource_from_each_player_and_two_from_those_with_over_five(table):
    table.hold(P2, rope=5)
    table.hold(P3, nut=6)
    table.hold(P4)
    table.give_card(P1, "community_support")
    table.do("play_card", card="community_support")
    assert table.resources(P1) == plus({"rope": 1, "nut": 2})
    assert table.resources(P2) == plus({"rope": 4})
    assert table.resources(P3) == plus({"nut": 4})
    assert table.resources(P4) == NOTHING


def test_community_support_picks_the_resource_at_random_from_what_the_player_holds(table):
    table.hold(P2, rope=1, nut=1, chalk=1)
    table.give_card(P1, "community_support")
    table.do("play_card", card="community_support")
    (taken,) = [r for r, n in table.resources(P1).items() if n]
    assert taken in ("rope", "nut", "chalk")
    assert table.resources(P1) == plus({taken: 1})
    assert table.resources(P2) == plus({"rope": 1, "nut": 1, "chalk": 1}, {taken: -1})


def test_friendly_rivalry_targets_only_other_players_projects(table):
    b = table.board
    theirs = table.put("project", X, P2, home=b.tiles_of[X][0])
    table.put("project", FAR, P1, home=b.tiles_of[FAR][0])
    table.put("route", "c13", P3, home=b.tiles_of["c13"][0])
    table.give_card(P1, "friendly_rivalry")
    table.do("play_card", card="friendly_rivalry")
    assert [a["project"] for a in table.legal_actions("rivalry")] == [theirs]


@pytest.mark.parametrize(
    "mine, theirs, owner",
    [(5, 2, P1), (2, 5, P2), (4, 4, None)],
    ids=["player wins", "opponent wins", "tie"],
)
def test_friendly_rivalry_gives_the_higher_roller_a_route_in_place_of_the_project(table, mine, theirs, owner):
    home, *_ = make_x_tiles(table, "cliff", "cave", "mountain")
    project = table.put("project", X, P2, home=home)
    table.give_card(P1, "friendly_rivalry")
    table.do("play_card", card="friendly_rivalry")
    table.dice(mine, theirs)
    table.do("rivalry", project=project)
    if owner is None:
        assert table.at(X) == [("project", P2)]
        assert (table.score(P1), table.score(P2)) == (0, 1)
    else:
        assert table.at(X) == [("route", owner)]
        assert table.piece(project)["home"] == home
        assert table.score(owner) == 2
        assert table.score(P2 if owner == P1 else P1) == 0
    assert "end_turn" in table.legal()


@pytest.mark.parametrize("card", VP_CARDS)
def test_a_victory_point_card_counts_one_point_in_hand_and_is_not_played(table, card):
    assert table.score(P1) == 0
    table.give_card(P1, card)
    assert table.score(P1) == 1
    assert table.legal("play_card") == []


# ====================================================================== trading


def test_the_bank_trades_four_of_a_resource_for_one_of_any_other(table):
    table.hold(P1, nut=3)
    assert table.legal("trade") == []
    table.hold(P1, nut=4)
    assert {a["get"] for a in table.legal_actions("trade")} == set(RESOURCES) - {"nut"}
    table.do("trade", give="nut", get="chalk")
    assert table.resources(P1) == plus({"chalk": 1})


def camp_side(table, kind: str) -> tuple[str, tuple[str, str]]:
    side = next(s for s in table.board.collections["border_sides"] if table.s.sites[s].get("camp") == kind)
    return side, table.board.ends[side]


@pytest.mark.parametrize("end", [0, 1])
@pytest.mark.parametrize("building", ["project", "route"])
def test_a_generic_camp_trades_three_to_one_with_a_building_at_either_end(table, building, end):
    _, ends = camp_side(table, "generic")
    corner = ends[end]
    table.put(building, corner, P1, home=table.board.tiles_of[corner][0])
    table.hold(P1, bolt=2)
    assert table.legal("trade") == []
    table.hold(P1, bolt=3)
    table.do("trade", give="bolt", get="rope")
    assert table.resources(P1) == plus({"rope": 1})


@pytest.mark.parametrize("resource", RESOURCES)
def test_a_resource_camp_trades_its_own_resource_two_to_one(table, resource):
    _, ends = camp_side(table, resource)
    corner = ends[1]
    table.put("project", corner, P1, home=table.board.tiles_of[corner][0])
    other = next(r for r in RESOURCES if r != resource)
    table.hold(P1, **{resource: 2, other: 3})
    assert {str(a["give"]) for a in table.legal_actions("trade")} == {resource}
    table.do("trade", give=resource, get=other)
    assert table.resources(P1) == plus({other: 4})


@pytest.mark.parametrize("kind", ["generic", "chalk"])
def test_a_rope_or_another_players_building_at_a_camp_gives_no_access(table, kind):
    side, (a, b) = camp_side(table, kind)
    table.put("fixed_rope", side, P1)
    table.put("project", b, P2, home=table.board.tiles_of[b][0])
    table.hold(P1, chalk=3)
    assert table.legal("trade") == []


def test_a_player_cannot_trade_a_resource_for_the_same_resource(table):
    table.hold(P1, rope=8)
    assert {a["get"] for a in table.legal_actions("trade")} == set(RESOURCES) - {"rope"}


def test_an_accepted_trade_offer_moves_both_bundles(table):
    table.hold(P1, rope=2, bolt=1)
    table.hold(P2, nut=1, chalk=3)
    table.do("offer_trade", partner=P2, give={"rope": 2}, get={"chalk": 1})
    assert table.s.to_move == P2
    assert {a.name for a in table.s.legal_actions()} == {"accept_trade", "skip"}
    table.do("accept_trade", partner=P1, give={"rope": 2}, get={"chalk": 1})
    assert table.resources(P1) == plus({"bolt": 1, "chalk": 1})
    assert table.resources(P2) == plus({"nut": 1, "chalk": 2, "rope": 2})
    assert table.s.to_move == P1
    assert "end_turn" in table.legal()


def test_a_declined_trade_offer_moves_nothing(table):
    table.hold(P1, rope=2)
    table.hold(P3, nut=1)
    table.do("offer_trade", partner=P3, give={"rope": 1}, get={"nut": 1})
    assert table.s.to_move == P3
    table.do("skip")
    assert table.resources(P1) == plus({"rope": 2})
    assert table.resources(P3) == plus({"nut": 1})
    assert table.s.to_move == P1


def test_a_trade_offer_gives_only_what_one_holds_and_asks_only_what_the_partner_holds(table):
    table.hold(P1, rope=1)
    table.hold(P2, nut=1)
    table.step("offer_trade")
    assert [a["partner"] for a in table.s.legal_actions()] == [P2]  # p3 and p4 hold nothing
    table.step("offer_trade", partner=P2)
    assert [str(a["give"]) for a in table.s.legal_actions()] == ["1 rope"]
    table.step("offer_trade", partner=P2, give={"rope": 1})
    assert [str(a["get"]) for a in table.s.legal_actions()] == ["1 nut"]


def test_a_trade_offer_can_only_be_accepted_while_the_partner_can_pay(table):
    table.hold(P1, rope=2)
    table.hold(P2, nut=1)
    table.do("offer_trade", partner=P2, give={"rope": 1}, get={"nut": 1})
    assert table.legal("accept_trade") != []
    table.hold(P2)  # the partner no longer holds the nut asked for
    assert table.legal("accept_trade") == []
    table.hold(P2, nut=1)
    table.hold(P1)  # nor does the offering player still hold the rope
    assert table.legal("accept_trade") == []


# ====================================================================== emblems


def settle(table) -> None:
    """Any action settles the emblems; p1 swaps 4 nut at the bank (it needs nut 4 more than held)."""
    table.hold(P1, nut=4)
    table.do("trade", give="nut", get="rope")
    table.hold(P1)


def play_fan_club(table) -> None:
    table.do("play_card", card="fan_club")
    table.do("move_token", tile=next(t for t in table.tiles if t != table.token))


def pass_turns_until(table, player) -> None:
    for _ in range(4):
        table.end_turn(*QUIET)
        if table.s.to_move == player:
            return
    raise AssertionError(f"{player} never got the turn")


def test_the_most_popular_climber_needs_three_fan_clubs_played(table):
    quiet_dice(table)
    table.give_card(P1, "fan_club", 3)
    for played in (1, 2):
        play_fan_club(table)
        assert table.played(P1) == {"fan_club": played}
        assert table.s.awards["most_popular_climber"] is None
        assert table.score(P1) == 0
        pass_turns_until(table, P1)
    play_fan_club(table)
    assert table.played(P1) == {"fan_club": 3}
    assert table.s.awards["most_popular_climber"] == P1
    assert table.score(P1) == 2


def test_the_most_popular_climber_changes_hands_only_on_strictly_more_fan_clubs(table):
    quiet_dice(table)
    table.give_card(P1, "fan_club", 3)
    table.give_card(P2, "fan_club", 4)
    holders = []
    for round_ in range(4):
        if round_ < 3:
            play_fan_club(table)
        holders.append(table.s.awards["most_popular_climber"])
        pass_turns_until(table, P2)
        play_fan_club(table)
        holders.append(table.s.awards["most_popular_climber"])
        pass_turns_until(table, P1)
    # p1: 1, 2, 3, 3 fan clubs; p2 after it: 1, 2, 3 (a tie keeps p1), 4 (strictly more)
    assert holders == [None, None, None, None, P1, P1, P1, P2]
    assert (table.score(P1), table.score(P2)) == (0, 2)


def test_the_explorer_needs_a_chain_of_five_ropes(table):
    corners = table.chain(5, start=X)
    sides = table.sides_along(corners)
    for side in sides[:3]:
        table.put("fixed_rope", side, P1)
    table.hold(P1, rope=2, bolt=2)
    table.do("build_rope", path=sides[3])
    assert table.s.awards["explorer"] is None
    table.do("build_rope", path=sides[4])
    assert table.s.awards["explorer"] == P1
    assert table.score(P1) == 2


@pytest.mark.parametrize("owner, holder", [(P2, None), (P1, P1)], ids=["opponent cuts", "own does not"])
def test_another_players_building_cuts_a_rope_chain(table, owner, holder):
    corners = table.chain(5, start=X)
    sides = table.sides_along(corners)
    for side in sides[:4]:
        table.put("fixed_rope", side, P1)
    table.put("project", corners[2], owner, home=table.board.tiles_of[corners[2]][0])
    table.hold(P1, rope=1, bolt=1)
    table.do("build_rope", path=sides[4])
    assert table.s.awards["explorer"] == holder


def test_the_explorer_changes_hands_only_on_a_strictly_longer_chain(table):
    mine = table.chain(5, start=X)
    for side in table.sides_along(mine):
        table.put("fixed_rope", side, P1)
    settle(table)
    assert table.s.awards["explorer"] == P1
    theirs = table.chain(6, start="c0", avoid=mine)
    theirs_sides = table.sides_along(theirs)
    for side in theirs_sides[:5]:
        table.put("fixed_rope", side, P2)
    settle(table)
    assert table.s.awards["explorer"] == P1
    table.put("fixed_rope", theirs_sides[5], P2)
    settle(table)
    assert table.s.awards["explorer"] == P2
    assert (table.score(P1), table.score(P2)) == (0, 2)


# ====================================================================== scoring and winning


def test_the_score_counts_projects_routes_repeats_vp_cards_and_emblems(table):
    b = table.board
    table.put("project", X, P1, home=b.tiles_of[X][0])
    table.put("project", FAR, P1, home=b.tiles_of[FAR][0])
    table.put("route", "c13", P1, home=b.tiles_of["c13"][0])
    for side in table.sides_along(table.chain(5, start="c0")):
        table.put("fixed_rope", side, P1)  # ropes score nothing themselves, but earn the explorer emblem
    table.set_repeat_vp(P1, 3)
    table.give_card(P1, "write_a_book")
    table.give_card(P1, "fan_club")  # a card in hand that is worth nothing
    settle(table)
    assert table.s.awards["explorer"] == P1
    assert table.score(P1) == 2 * 1 + 1 * 2 + 3 + 1 + 2
    assert table.score(P2) == 0


def test_reaching_13_points_on_ones_own_turn_wins_at_once(table):
    home, *_ = make_x_tiles(table, "cliff", "cave", "mountain")
    project = table.put("project", X, P1, home=home)
    table.set_repeat_vp(P1, 11)
    table.hold(P1, **CLIMB_COST["cliff"])
    settle(table)
    assert table.score(P1) == 12
    assert not table.s.is_over
    table.hold(P1, **CLIMB_COST["cliff"])
    table.do("climb", project=project)
    assert table.score(P1) == 13
    assert table.s.is_over
    assert table.s.winners == [P1]
    assert table.s.legal_actions() == []


def test_a_victory_point_card_bought_to_reach_13_wins_at_once(table):
    table.set_repeat_vp(P1, 12)
    table.set_deck({"open_a_gym": 1})
    table.hold(P1, **CARD_COST)
    table.do("buy_card")
    assert table.s.is_over
    assert table.s.winners == [P1]


def test_a_player_pushed_to_13_on_another_players_turn_wins_when_their_own_turn_comes(table):
    home, *_ = make_x_tiles(table, "cliff", "cave", "mountain")
    quiet_dice(table)
    route = table.put("route", X, P2, home=home)
    table.set_repeat_vp(P2, 10)
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.hold(P1, **REPEAT_COST["cliff"])
    table.do("repeat_route", route=route)
    assert table.score(P2) == 13
    assert not table.s.is_over
    assert table.s.to_move == P1
    assert "end_turn" in table.legal()
    table.end_turn(*QUIET)
    assert table.s.is_over
    assert table.s.winners == [P2]


def test_the_turn_player_reaching_13_wins_even_if_another_player_also_has_13(table):
    home, *_ = make_x_tiles(table, "cliff", "cave", "mountain")
    route = table.put("route", X, P2, home=home)
    table.set_repeat_vp(P2, 10)
    table.put("project", "c13", P1, home=table.board.tiles_of["c13"][0])
    table.set_repeat_vp(P1, 11)
    table.put("fixed_rope", table.side(X, "c18"), P1)
    table.hold(P1, **REPEAT_COST["cliff"])
    table.do("repeat_route", route=route)
    assert (table.score(P1), table.score(P2)) == (13, 13)
    assert table.s.is_over
    assert table.s.winners == [P1]


def test_the_turns_pass_clockwise_each_starting_with_an_income_roll(table):
    quiet_dice(table)
    seen = []
    for _ in range(5):
        table.end_turn(*QUIET)
        seen.append(table.s.to_move)
    assert seen == [P2, P3, P4, P1, P2]
    assert sum("rolls 2d6" in line for line in table.s.log) >= 5
