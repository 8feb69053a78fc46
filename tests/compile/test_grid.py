"""Grid boards of square cells: the pure geometry of meeple.compile.squaregrid (names, coordinates, 4 or 8
neighbours), and grid boards compiled from small inline rule files (cell names, `x` and `y`, rows of
letters with a legend, cell names in expressions, and `distance`, `within`, `path` and `components`
along cells, with and without a metric)."""

from __future__ import annotations

from collections import Counter, deque
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.compile.squaregrid import column_name, square_grid

BASE = """
game:
  name: Tiny
  players: {min: 2, max: 4}
components:
  resources: [coin, gem]
"""

# One action that stores the value of an expression in `out`, so a test can read what the rules see.
LOOK = """
vars:
  game: {out: none}
actions:
  look: {effect: ["set out = %s"]}
flow:
  - phase: play
    turns: none
    do: [{choose: [look]}]
"""

# A 3 x 3 map with a river across the middle row but for its right-hand cell: a1 is two steps from a3 as
# the crow flies, six along the ground (a1 b1 c1 c2 c3 b3 a3).
RIVER = """
board:
  grid:
    rows:
      - "S g g"
      - "r r g"
      - "F g g"
    legend: {S: start, g: grasslands, r: river, F: finish}
metrics:
  ground: {on: cell, enter: 1, blocked: b.terrain == 'river'}
"""


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(BASE + body, encoding="utf-8")
    return path


def tiny(tmp_path: Path, body: str, players: int = 2) -> meeple.Game:
    path = write(tmp_path, body)
    assert meeple.check(path) == []
    return meeple.load(path, players=players)


def plain(value: Any) -> Any:
    """Tuples (how the state keeps a list it was given) as lists, all the way down."""
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def value_of(tmp_path: Path, board: str, expression: str) -> Any:
    """What `expression` evaluates to in a fresh game on `board` (use single quotes inside it)."""
    state = tiny(tmp_path, board + LOOK % expression).new_game(seed=1)
    state.apply("look")
    return plain(state.gv["out"])


def places(tmp_path: Path, body: str) -> list[tuple[str, int]]:
    """(code, line) of every diagnostic `meeple.check` reports for the rule file."""
    return [(d.code, d.span.line if d.span else 0) for d in meeple.check(write(tmp_path, body))]


def line_of(body: str, marker: str) -> int:
    (number,) = [i for i, line in enumerate((BASE + body).splitlines(), 1) if marker in line]
    return number


def bfs(neighbours: dict[str, tuple[str, ...]], source: str) -> dict[str, int]:
    """Steps from `source` to every cell it reaches."""
    steps = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        for there in neighbours[here]:
            if there not in steps:
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


# --------------------------------------------------------------------------- column names


def test_the_first_26_columns_are_the_letters_a_to_z() -> None:
    assert [column_name(x) for x in range(26)] == [chr(ord("a") + i) for i in range(26)]


def test_columns_past_z_go_on_with_two_letters_like_a_spreadsheet() -> None:
    assert [column_name(x) for x in (26, 27, 51, 52, 701)] == ["aa", "ab", "az", "ba", "zz"]


def test_columns_past_zz_go_on_with_three_letters() -> None:
    assert [column_name(x) for x in (702, 703)] == ["aaa", "aab"]


# --------------------------------------------------------------------------- cells and coordinates


def test_cells_are_named_by_column_letter_and_row_number_row_by_row_from_the_top_left() -> None:
    grid = square_grid(3, 2)
    assert grid.cells == ("a1", "b1", "c1", "a2", "b2", "c2")


def test_a_cell_knows_its_column_and_row_counted_from_zero() -> None:
    grid = square_grid(3, 2)
    assert grid.coords["a1"] == (0, 0)
    assert grid.coords["c1"] == (2, 0)
    assert grid.coords["b2"] == (1, 1)


def test_a_grid_wider_than_26_columns_names_its_later_columns_aa_ab() -> None:
    grid = square_grid(28, 1)
    assert grid.cells[24:] == ("y1", "z1", "aa1", "ab1")
    assert grid.coords["ab1"] == (27, 0)


def test_every_cell_has_a_distinct_name() -> None:
    grid = square_grid(30, 30)
    assert len(set(grid.cells)) == 900


def test_a_grid_without_cells_is_refused() -> None:
    with pytest.raises(ValueError):
        square_grid(0, 3)


# --------------------------------------------------------------------------- 4 and 8 neighbours


def test_four_neighbours_are_the_cells_above_below_left_and_right() -> None:
    assert set(square_grid(3, 3).neighbours["b2"]) == {"b1", "a2", "c2", "b3"}


def test_eight_neighbours_add_the_four_diagonal_cells() -> None:
    assert set(square_grid(3, 3, diagonal=True).neighbours["b2"]) == {
        "a1",
        "b1",
        "c1",
        "a2",
        "c2",
        "a3",
        "b3",
        "c3",
    }


def test_with_four_neighbours_a_corner_has_two_an_edge_cell_three_and_an_inner_cell_four() -> None:
    n = square_grid(4, 3).neighbours
    assert (len(n["a1"]), len(n["d3"]), len(n["b1"]), len(n["a2"]), len(n["b2"])) == (2, 2, 3, 3, 4)


def test_with_eight_neighbours_a_corner_has_three_an_edge_cell_five_and_an_inner_cell_eight() -> None:
    n = square_grid(4, 3, diagonal=True).neighbours
    assert (len(n["a1"]), len(n["d3"]), len(n["b1"]), len(n["a2"]), len(n["b2"])) == (3, 3, 5, 5, 8)


def test_a_board_of_w_by_h_has_four_corners_and_its_edge_and_inner_cells_in_number() -> None:
    width, height = 5, 4
    counts = Counter(len(v) for v in square_grid(width, height).neighbours.values())
    assert counts == {2: 4, 3: 2 * (width - 2) + 2 * (height - 2), 4: (width - 2) * (height - 2)}


def test_the_cells_of_a_one_cell_wide_strip_have_one_neighbour_at_the_ends_and_two_between() -> None:
    for diagonal in (False, True):
        n = square_grid(1, 4, diagonal).neighbours
        assert [len(n[c]) for c in ("a1", "a2", "a3", "a4")] == [1, 2, 2, 1]


def test_a_single_cell_has_no_neighbours() -> None:
    assert square_grid(1, 1, diagonal=True).neighbours == {"a1": ()}


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(1, 12),
    height=st.integers(1, 12),
    diagonal=st.booleans(),
    source=st.tuples(st.integers(0, 11), st.integers(0, 11)),
)
def test_neighbours_are_mutual_counted_within_bounds_and_steps_match_manhattan_or_chebyshev(
    width: int, height: int, diagonal: bool, source: tuple[int, int]
) -> None:
    grid = square_grid(width, height, diagonal)
    n = grid.neighbours
    assert len(grid.cells) == width * height
    assert all(a in n[b] for a in grid.cells for b in n[a])
    assert all(a not in n[a] for a in grid.cells)
    if width > 1 and height > 1:
        low, high = (3, 8) if diagonal else (2, 4)
        assert all(low <= len(n[c]) <= high for c in grid.cells)
    elif width * height > 1:
        assert all(1 <= len(n[c]) <= 2 for c in grid.cells)  # a strip one cell wide
    sx, sy = source[0] % width, source[1] % height
    start = f"{column_name(sx)}{sy + 1}"
    steps = bfs(n, start)
    assert len(steps) == width * height  # a grid is all one piece
    for cell, (x, y) in grid.coords.items():
        dx, dy = abs(x - sx), abs(y - sy)
        assert steps[cell] == (max(dx, dy) if diagonal else dx + dy)


# --------------------------------------------------------------------------- grid boards in rule files


def test_a_grid_board_lists_its_cells_row_by_row_in_the_cells_collection(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 3, height: 2}\n"
    assert value_of(tmp_path, board, "cells") == ["a1", "b1", "c1", "a2", "b2", "c2"]


def test_every_cell_has_the_fields_x_and_y_counted_from_the_top_left(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 3, height: 2}\n"
    assert value_of(tmp_path, board, "[[c.x, c.y] for c in cells]") == [
        [0, 0],
        [1, 0],
        [2, 0],
        [0, 1],
        [1, 1],
        [2, 1],
    ]


def test_a_cell_name_is_a_name_in_expressions(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 3, height: 2}\n"
    assert value_of(tmp_path, board, "[c2.x, c2.y, c2 in cells, a1 == first(cells)]") == [2, 1, True, True]


def test_a_cell_past_column_z_is_a_name_in_expressions_too(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 28, height: 1}\n"
    assert value_of(tmp_path, board, "[ab1.x, cells[len(cells) - 1]]") == [27, "ab1"]


def test_a_cell_name_the_grid_does_not_have_is_an_unknown_name(tmp_path: Path) -> None:
    body = "board:\n  grid: {width: 3, height: 2}\n" + LOOK % "d1.x"
    assert places(tmp_path, body) == [("name/unknown-name", line_of(body, "d1.x"))]


def test_neighbours_of_a_cell_are_the_cells_beside_it(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 3, height: 3}\n"
    assert sorted(value_of(tmp_path, board, "neighbours(b2)")) == ["a2", "b1", "b3", "c2"]


def test_neighbours_8_makes_the_diagonal_cells_neighbours(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 3, height: 3, neighbours: 8}\n"
    assert sorted(value_of(tmp_path, board, "neighbours(a1)")) == ["a2", "b1", "b2"]


def test_rows_and_a_legend_set_each_cell_s_terrain_letter_by_letter(tmp_path: Path) -> None:
    board = """
board:
  grid:
    rows: ["Sgd", "dgg"]
    legend: {S: start, g: grasslands, d: desert}
"""
    assert value_of(tmp_path, board, "[c.terrain for c in cells]") == [
        "start",
        "grasslands",
        "desert",
        "desert",
        "grasslands",
        "grasslands",
    ]


def test_the_size_of_a_grid_of_rows_is_the_length_of_a_row_by_the_number_of_rows(tmp_path: Path) -> None:
    board = """
board:
  grid:
    rows: ["Sgdd", "dggg"]
    legend: {S: start, g: grasslands, d: desert}
"""
    assert value_of(tmp_path, board, "[len(cells), cells[len(cells) - 1], d2.terrain]") == [
        8,
        "d2",
        "grasslands",
    ]


def test_spaces_in_rows_are_ignored(tmp_path: Path) -> None:
    board = """
board:
  grid:
    rows: ["S g  d", "d g g "]
    legend: {S: start, g: grasslands, d: desert}
"""
    assert value_of(tmp_path, board, "[len(cells), c1.terrain, a2.terrain]") == [6, "desert", "desert"]


def test_field_names_the_cell_field_the_legend_sets(tmp_path: Path) -> None:
    board = """
board:
  grid:
    rows: ["12", "21"]
    legend: {"1": 1, "2": 2}
    field: height
"""
    assert value_of(tmp_path, board, "[a1.height, b1.height, a2.height]") == [1, 2, 2]
    # and no cell has a terrain: reading one is an unknown field
    [d] = meeple.check(write(tmp_path, board + LOOK % "a1.terrain"))
    assert d.code == "name/unknown-field" and "'terrain'" in d.message


def test_a_width_and_height_that_agree_with_the_rows_are_accepted(tmp_path: Path) -> None:
    board = """
board:
  grid:
    rows: ["Sg", "gg", "gg"]
    legend: {S: start, g: grasslands}
    width: 2
    height: 3
"""
    assert value_of(tmp_path, board, "len(cells)") == 6


def test_a_width_that_disagrees_with_the_rows_is_reported_at_the_width(tmp_path: Path) -> None:
    body = (
        """
board:
  grid:
    rows: ["Sg", "gg", "gg"]
    legend: {S: start, g: grasslands}
    width: 3
"""
        + LOOK % "1"
    )
    assert places(tmp_path, body) == [("rules/grid-size", line_of(body, "width: 3"))]


def test_a_height_that_disagrees_with_the_rows_is_reported_at_the_height(tmp_path: Path) -> None:
    body = (
        """
board:
  grid:
    rows: ["Sg", "gg", "gg"]
    legend: {S: start, g: grasslands}
    height: 2
"""
        + LOOK % "1"
    )
    assert places(tmp_path, body) == [("rules/grid-size", line_of(body, "height: 2"))]


def test_a_letter_missing_from_the_legend_is_reported_at_its_column_in_the_row(tmp_path: Path) -> None:
    body = (
        """
board:
  grid:
    rows: ["S g d", "g x g"]
    legend: {S: start, g: grasslands, d: desert}
"""
        + LOOK % "1"
    )
    path = write(tmp_path, body)
    row = line_of(body, '"g x g"')
    column = (BASE + body).splitlines()[row - 1].index("x") + 1
    assert [(d.code, d.span.line, d.span.col) for d in meeple.check(path) if d.span] == [
        ("rules/grid-legend", row, column)
    ]


def test_rows_of_unequal_length_are_the_only_mistake_reported_though_the_file_names_cells(
    tmp_path: Path,
) -> None:
    # One mistake, one diagnostic: a grid whose rows differ should not also make `cells` and every
    # cell name in the file unknown.
    body = (
        """
board:
  grid:
    rows: ["Sgd", "gg", "ddd"]
    legend: {S: start, g: grasslands, d: desert}
"""
        + LOOK % "[a1, len(cells)]"
    )
    assert [code for code, _ in places(tmp_path, body)] == ["rules/grid-rows"]


def test_a_grid_measured_by_a_metric_on_cells_checks_clean(tmp_path: Path) -> None:
    tiny(tmp_path, RIVER + LOOK % "1")


def test_neighbours_other_than_4_or_8_are_refused_by_the_schema(tmp_path: Path) -> None:
    body = "board:\n  grid: {width: 3, height: 3, neighbours: 6}\n" + LOOK % "1"
    assert places(tmp_path, body) == [("schema/enum", line_of(body, "neighbours: 6"))]


# --------------------------------------------------------------------------- distance, within, path


def test_distance_between_cells_counts_steps_to_the_cells_beside(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 4, height: 3}\n"
    assert value_of(tmp_path, board, "[distance(a1, a1), distance(a1, b1), distance(a1, d3)]") == [0, 1, 5]


def test_with_eight_neighbours_a_diagonal_step_counts_one(tmp_path: Path) -> None:
    board = "board:\n  grid: {width: 4, height: 3, neighbours: 8}\n"
    assert value_of(tmp_path, board, "[distance(a1, b2), distance(a1, d3), distance(a1, d1)]") == [1, 3, 3]


def test_without_a_metric_distance_goes_straight_across_the_river(tmp_path: Path) -> None:
    assert value_of(tmp_path, RIVER, "distance(a1, a3)") == 2


def test_a_metric_that_blocks_the_river_makes_distance_go_round_it(tmp_path: Path) -> None:
    assert value_of(tmp_path, RIVER, "distance(a1, a3, 'ground')") == 6


def test_a_cell_the_metric_never_lets_one_enter_is_at_no_distance(tmp_path: Path) -> None:
    assert value_of(tmp_path, RIVER, "[distance(a1, a2, 'ground'), path(a1, b2, 'ground')]") == [None, None]


def test_within_lists_the_cells_a_number_of_steps_away_in_board_order(tmp_path: Path) -> None:
    assert value_of(tmp_path, RIVER, "within(a1, 2)") == ["a1", "b1", "c1", "a2", "b2", "a3"]


def test_within_under_a_metric_leaves_out_the_cells_behind_the_river(tmp_path: Path) -> None:
    assert value_of(tmp_path, RIVER, "within(a1, 3, 'ground')") == ["a1", "b1", "c1", "c2"]


def test_path_without_a_metric_takes_the_fewest_steps_across_the_river(tmp_path: Path) -> None:
    assert value_of(tmp_path, RIVER, "path(a1, a3)") == ["a1", "a2", "a3"]


def test_path_under_a_metric_goes_round_the_river_from_start_to_finish(tmp_path: Path) -> None:
    assert value_of(tmp_path, RIVER, "path(a1, a3, 'ground')") == ["a1", "b1", "c1", "c2", "c3", "b3", "a3"]


def test_path_under_a_metric_with_costs_takes_the_cheapest_way_not_the_shortest(tmp_path: Path) -> None:
    board = """
board:
  grid:
    rows: ["gmg", "ggg"]
    legend: {g: grasslands, m: mountains}
metrics:
  walk: {on: cell, enter: "5 if t.terrain == 'mountains' else 1"}
"""
    route, cost = value_of(tmp_path, board, "[path(a1, c1, 'walk'), distance(a1, c1, 'walk')]")
    assert route == ["a1", "a2", "b2", "c2", "c1"] and cost == 4


def test_path_goes_from_cell_to_neighbouring_cell_and_is_one_longer_than_the_distance(
    tmp_path: Path,
) -> None:
    board = "board:\n  grid: {width: 5, height: 4, neighbours: 8}\n"
    route, steps, beside = value_of(
        tmp_path,
        board,
        "[path(a4, e1), distance(a4, e1), [neighbours(c) for c in cells]]",
    )
    assert route[0] == "a4" and route[-1] == "e1" and len(route) == steps + 1
    cells = square_grid(5, 4, diagonal=True).cells
    step_ok = dict(zip(cells, beside))
    assert all(b in step_ok[a] for a, b in zip(route, route[1:]))


def test_components_of_cells_split_where_the_chosen_cells_are_not_neighbours(tmp_path: Path) -> None:
    board = """
board:
  grid:
    rows: ["grg", "grg", "grg"]
    legend: {g: grasslands, r: river}
"""
    assert value_of(tmp_path, board, "components([c for c in cells if c.terrain != 'river'])") == [
        ["a1", "a2", "a3"],
        ["c1", "c2", "c3"],
    ]


def test_components_under_a_metric_group_a_mirrored_board_alike(tmp_path: Path) -> None:
    # The same map seen in a mirror: its groups should be mirrored too, whichever way round the board
    # happens to list the step between two cells.
    metric = "metrics:\n  ground: {on: cell, enter: 1, blocked: b.terrain == 'river'}\n"
    sizes = []
    for rows in ('["ggr", "ggr"]', '["rgg", "rgg"]'):
        board = f"board:\n  grid:\n    rows: {rows}\n    legend: {{g: grasslands, r: river}}\n{metric}"
        groups = value_of(tmp_path, board, "components(cells, 'ground')")
        sizes.append(sorted(len(g) for g in groups))
    assert sizes[0] == sizes[1]


def test_a_grid_too_big_to_play_is_a_located_error_found_at_once(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(
        "game: {name: Huge, players: {min: 1, max: 2}}\nboard:\n  grid: {width: 100000, height: 100000}\n",
        encoding="utf-8",
    )
    codes = {d.code for d in meeple.check(path)}
    assert "rules/grid-size" in codes and "schema/maximum" in codes
