"""`meeple render`: every kind of board (hex, grid, graph) and a card game's table, as SVG and PNG."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.tools.cli import main
from meeple.tools.drawing import FillColours, LegendItem, legend_rows
from meeple.tools.picture import PictureError, png_converter, write_picture
from meeple.tools.render import picture, render_svg
from meeple.tools.render_graph import BOX_H, BOX_W, COLUMN_GAP, ROW_GAP, lay_out, layered, links

SVG = "{http://www.w3.org/2000/svg}"
SEED_GAMES = ("caravan_conquest", "climbers_of_verdon", "k2", "pluvionauts", "tabletop_climber")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NO_PNG = "no PNG converter here: pip install 'meeple[png]' (CairoSVG) or apt-get install librsvg2-bin"


def texts(svg: str) -> list[str]:
    return [el.text or "" for el in ET.fromstring(svg).iter(f"{SVG}text")]


def graph_rules(tmp_path: Path, spaces: str, links_: str, render: str, defs: str = "") -> Path:
    """A small graph-board game whose one action passes, so it compiles and runs."""
    path = tmp_path / "graph.yaml"
    path.write_text(
        "game: {name: Graph, players: {min: 2, max: 2}}\n"
        "components: {pieces: {pawn: {supply: 1}}}\n"
        f"board:\n  graph:\n    spaces: {spaces}\n    links: {links_}\n"
        + (f"defs: {defs}\n" if defs else "")
        + "setup:\n  - for: p in players\n    do: [place pawn at A for p]\n"
        "actions: {pass: {}}\n"
        "flow: [{phase: play, turns: clockwise, do: [{choose: [pass]}]}]\n"
        f"scoring: {{score: 0}}\nend: {{win: 'false'}}\nrender: {render}\n",
        encoding="utf-8",
    )
    return path


# ---------------------------------------------------------------- every seed game


@pytest.mark.parametrize("game", SEED_GAMES)
def test_every_seed_game_draws_as_well_formed_svg_with_a_title(game: str) -> None:
    state = meeple.load(game).new_game(seed=2)
    svg = render_svg(state, f"{game} picture")
    root = ET.fromstring(svg)  # well-formed XML
    assert (
        root.tag == f"{SVG}svg" and float(root.get("width", 0)) > 200 and float(root.get("height", 0)) > 100
    )
    assert f"{game} picture" in texts(svg)


def test_k2_draws_its_mountain_every_space_and_link_with_the_summit_above_base_camp() -> None:
    game = meeple.load("k2", players=3)
    state = game.new_game(seed=1)
    svg = render_svg(state)
    words = " ".join(texts(svg))
    spaces = game.definition.board.collections["spaces"]
    for space in spaces:
        assert f"{space} " in words or f"{space}" in texts(svg)
    paths = [p for p in ET.fromstring(svg).iter(f"{SVG}path") if p.get("fill") == "none"]
    assert len(paths) == len(links(game.definition.board)) == 34  # one line per link of the easy side
    at = lay_out(state).at
    assert at["SUMMIT"][1] < at["S13"][1] < at["BASE"][1]  # higher up is nearer the top
    climbers = [el for el in ET.fromstring(svg).iter(f"{SVG}circle") if el.get("stroke") == "white"]
    assert len(climbers) == 6  # two climbers of each of three players, at base camp
    assert {"zone 0", "zone 3", "climber", "tent", "p1", "p3"} <= set(texts(svg))  # the legend


def test_k2_rows_follow_the_rule_files_height_def_and_no_two_spaces_overlap() -> None:
    for side in ("easy", "hard"):
        game = meeple.load("k2", players=2, options={"board": side})
        state = game.new_game(seed=1)
        at = lay_out(state).at
        height = game.definition.defs["height"]
        value = {s: height(state, {"x": s}) for s in at}
        for a, b in itertools.combinations(at, 2):
            if value[a] > value[b]:
                assert at[a][1] < at[b][1], (a, b)
            elif value[a] == value[b]:
                assert at[a][1] == at[b][1] and abs(at[a][0] - at[b][0]) >= COLUMN_GAP - 1e-9, (a, b)


def test_the_climbers_of_verdon_tiles_carry_their_number_tokens_and_the_coast_its_camps() -> None:
    state = meeple.load("climbers_of_verdon").new_game(seed=4)
    shown = texts(render_svg(state))
    for fields in state.sites.values():
        if "number" in fields:
            assert str(fields["number"]) in shown
    camps = [fields["camp"] for fields in state.sites.values() if "camp" in fields]
    assert len(camps) == 9 and all(camp in shown for camp in camps)


def test_pieces_of_a_game_in_progress_are_drawn_in_the_pieces_layer() -> None:
    game = meeple.load("climbers_of_verdon", players=2)
    state = game.new_game(seed=1)
    empty = picture(state)
    assert empty.pieces == []
    for action in ["place_start(corner=c37, tile=t11, path=c32-c37)"]:
        state.apply(action)
    placed = picture(state)
    assert len(placed.pieces) >= 2 and len(placed.board) == len(empty.board)


# ---------------------------------------------------------------- graph layouts


def test_a_graph_with_both_layout_axes_is_drawn_where_its_fields_say(tmp_path: Path) -> None:
    path = graph_rules(
        tmp_path,
        "{A: {col: 0, row: 0}, B: {col: 1, row: 0}, C: {col: 0, row: 1}, D: {col: 1, row: 1}}",
        "[A-B, B-D, D-C, C-A, A-D]",
        "{layout: {x: col, y: row}}",
    )
    at = lay_out(meeple.load(str(path)).new_game()).at
    assert at["A"][0] == at["C"][0] < at["B"][0] == at["D"][0]
    assert at["C"][1] == at["D"][1] < at["A"][1] == at["B"][1]  # y grows upwards in the rule file


def test_a_graph_with_no_layout_is_laid_out_by_its_links_the_same_way_every_time(tmp_path: Path) -> None:
    ring = ", ".join(f"S{i}-S{(i + 1) % 12}" for i in range(12))
    spaces = "{" + ", ".join(f"S{i}: {{}}" for i in range(12)) + ", A: {}}"
    path = graph_rules(tmp_path, spaces, f"[{ring}, A-S0]", "{}")
    state = meeple.load(str(path)).new_game()
    first, again = lay_out(state).at, lay_out(meeple.load(str(path)).new_game()).at
    assert first == again
    for a, b in itertools.combinations(first, 2):  # boxes never overlap
        (ax, ay), (bx, by) = first[a], first[b]
        assert abs(ax - bx) >= BOX_W or abs(ay - by) >= BOX_H, (a, b)


def test_a_layout_by_one_axis_gives_columns_when_it_is_x(tmp_path: Path) -> None:
    path = graph_rules(
        tmp_path,
        "{A: {step: 0}, B: {step: 1}, C: {step: 1}, D: {step: 2}}",
        "[A-B, A-C, B-D, C-D]",
        "{layout: {x: step}}",
    )
    at = lay_out(meeple.load(str(path)).new_game()).at
    assert at["A"][0] < at["B"][0] == at["C"][0] < at["D"][0]
    assert at["B"][1] != at["C"][1]


@settings(max_examples=40, deadline=None)
@given(
    levels=st.lists(st.integers(0, 4), min_size=2, max_size=12),
    pairs=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=20),
)
def test_layers_keep_the_level_order_and_keep_spaces_in_a_row_apart(
    levels: list[int], pairs: list[tuple[int, int]]
) -> None:
    spaces = [f"s{i}" for i in range(len(levels))]
    edges = sorted({(spaces[a], spaces[b]) for a, b in pairs if a < b < len(spaces)})
    level = {s: float(v) for s, v in zip(spaces, levels)}
    layout = layered(spaces, edges, level)
    for a, b in itertools.combinations(spaces, 2):
        (ax, ay), (bx, by) = layout.at[a], layout.at[b]
        assert (ay < by) == (level[a] < level[b]) and (ay == by) == (level[a] == level[b])
        if ay == by:
            assert abs(ax - bx) >= COLUMN_GAP - 1e-9
    for (a, b), bends in layout.bends.items():  # a link that skips rows bends once in each row between
        rows_between = abs(layout.at[a][1] - layout.at[b][1]) / ROW_GAP - 1
        assert len(bends) == round(rows_between)


@pytest.mark.parametrize(
    ("render", "message"),
    [
        ("{layout: {y: hieght}}", "no space field or def 'hieght'"),
        ("{layout: {y: both}}", "def 'both' takes 2 parameters"),
        ("{layout: {y: name}}", "space 'A' has 'top' for 'name'; a layout axis needs a number"),
        ("{layout: {x: only_b}}", "space 'A' has no value for 'only_b'"),
    ],
)
def test_a_layout_axis_must_name_a_number_field_of_every_space_or_a_def_of_one(
    tmp_path: Path, render: str, message: str
) -> None:
    path = graph_rules(
        tmp_path,
        "{A: {height: 1, name: top}, B: {height: 2, name: low, only_b: 3}}",
        "[A-B]",
        render,
        defs="{'both(a, b)': 'a == b'}",
    )
    found = meeple.check(str(path))
    assert len(found) == 1 and found[0].code == "rules/render-layout" and message in found[0].message
    assert found[0].span is not None and found[0].span.line > 1  # located at the render section


def test_a_layout_def_that_gives_no_number_stops_the_picture_with_a_located_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = graph_rules(
        tmp_path,
        "{A: {height: 1}, B: {height: 2}}",
        "[A-B]",
        "{layout: {y: label}}",
        defs="{'label(s)': \"'high'\"}",
    )
    assert meeple.check(str(path)) == []  # what a def gives is known only when it runs
    assert main(["render", str(path), "-O", str(tmp_path / "g.svg")]) == 1
    assert "render layout: label of space 'A' is 'high', not a number" in capsys.readouterr().err


def test_a_misspelt_layout_field_gets_a_suggestion(tmp_path: Path) -> None:
    path = graph_rules(tmp_path, "{A: {height: 1}, B: {height: 2}}", "[A-B]", "{layout: {y: hieght}}")
    (found,) = meeple.check(str(path))
    assert found.hint == "did you mean 'height'?"


def test_a_layout_on_a_hex_board_is_an_error(tmp_path: Path) -> None:
    rules = Path(__file__).resolve().parents[2] / "games" / "pluvionauts.yaml"
    text = rules.read_text(encoding="utf-8").replace("render:\n", "render:\n  layout: {y: terrain}\n", 1)
    path = tmp_path / "pluvionauts.yaml"
    path.write_text(text, encoding="utf-8")
    found = [d for d in meeple.check(str(path)) if d.code == "rules/render-layout"]
    assert len(found) == 1 and "graph board" in found[0].message and "'hex'" in found[0].message


# ---------------------------------------------------------------- colours and the legend


def test_fill_colours_use_the_rule_files_then_a_scale_for_numbers_then_a_palette() -> None:
    given_colours = FillColours({"0": "#111111"}, [0, 1, 2, 3])
    assert given_colours(0) == "#111111"
    scale = [given_colours(v) for v in (1, 2, 3)]
    assert len(set(scale)) == 3 and "#eeeeee" not in scale
    words = FillColours({}, ["sea", "land", "sea", None])
    assert words("sea") != words("land") and words(None) == "#eeeeee"
    assert [item.label for item in words.legend("terrain")] == ["land", "sea"]
    numeric = FillColours({1: "#abcdef"}, [1, 2])  # a YAML key may be a number
    assert numeric(1) == "#abcdef"
    assert [item.label for item in numeric.legend("zone")] == ["zone 1", "zone 2"]


def test_the_legend_wraps_into_rows_that_fit_the_width() -> None:
    items = [LegendItem(f"item number {i}", "#000000") for i in range(12)]
    rows = legend_rows(items, 300)
    assert len(rows) > 1 and sum(len(r) for r in rows) == 12
    assert all(x < 300 for row in rows for x, _ in row)


# ---------------------------------------------------------------- a card game's table


def listed(svg: str) -> set[str]:
    """Every card name a table picture lists (its lines are comma-separated cards, `red 5 ×2`)."""
    return {item.strip().split(" ×")[0] for line in texts(svg) for item in line.split(",") if item.strip()}


def test_a_card_game_without_a_board_draws_its_table_and_a_view_hides_other_hands() -> None:
    state = meeple.load("tabletop_climber", players=3).new_game(seed=1)
    for _ in range(25):
        state.apply(state.legal_actions()[0])
    full_svg = render_svg(state)
    full = " ".join(texts(full_svg))
    for name in ("On the table", "p1: ", "p2: ", "p3: ", "hand (", "reinforcements (", "face down"):
        assert name in full
    view = state.view(0)
    seen = listed(render_svg(view))
    visible = {c.replace("_", " ") for cards in view.zones.values() for c in cards if c != "?"}
    theirs = {c.replace("_", " ") for c in state.zones["hand#1"]} - visible
    mine = {c.replace("_", " ") for c in state.zones["hand#0"]}
    assert theirs and mine
    assert mine <= seen and theirs <= listed(full_svg)  # the whole table shows every hand
    assert not theirs & seen  # p1's view does not


# ---------------------------------------------------------------- files: SVG and PNG


def test_an_unknown_picture_format_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", "k2", "-O", str(tmp_path / "board.gif")]) == 2
    assert "name a .svg or .png file" in capsys.readouterr().err
    with pytest.raises(PictureError):
        write_picture("<svg/>", tmp_path / "board")


def test_a_picture_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", "k2", "-O", str(tmp_path / "missing" / "board.svg")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_render_to_stdout_writes_the_svg(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "k2", "-O", "-"]) == 0
    assert ET.fromstring(capsys.readouterr().out).tag == f"{SVG}svg"


@pytest.mark.skipif(png_converter() is None, reason=NO_PNG)
def test_render_writes_png_by_the_outputs_suffix(tmp_path: Path) -> None:
    out = tmp_path / "k2.png"
    assert main(["render", "k2", "--moves", "20", "-O", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    svg = ET.fromstring(render_svg(meeple.load("k2").new_game(seed=1)))
    wanted = (2 * float(svg.get("width", 0)), 2 * float(svg.get("height", 0)))  # drawn at twice the size
    assert abs(width - wanted[0]) <= 1 and abs(height - wanted[1]) <= 1


def test_without_a_png_converter_the_error_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("meeple.tools.picture.png_converter", lambda: None)
    assert main(["render", "k2", "-O", str(tmp_path / "k2.png")]) == 2
    err = capsys.readouterr().err
    assert "pip install 'meeple[png]'" in err and "rsvg-convert" in err
    assert not (tmp_path / "k2.png").exists()
