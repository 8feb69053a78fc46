"""`meeple replay --html`: the data a page embeds, read without a browser (test_viewer_browser clicks it)."""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from viewer_pages import SEED_GAMES, parse_page, replayed, save_game, write_page

import meeple
from meeple.tools.cli import main
from meeple.tools.viewer import page, replay_steps


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("saved")
    return {game: save_game(folder, game) for game in SEED_GAMES}


@pytest.fixture(scope="module")
def pages(saved: dict[str, Path]) -> dict[str, Path]:
    return {game: write_page(path) for game, path in saved.items()}


@pytest.mark.parametrize("game", SEED_GAMES)
def test_the_page_holds_every_step_of_the_saved_game_and_its_end(
    saved: dict[str, Path], pages: dict[str, Path], game: str
) -> None:
    _, data = parse_page(pages[game])
    _, state, record = replayed(saved[game])
    steps = data["steps"]
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0]["action"] == "set-up" and steps[0]["mover"] is None
    for step, action in zip(steps[1:], record["actions"]):
        assert step["action"] == f"{step['mover']}: {action}"
        if step["secret"]:  # a secret choice is logged when revealed, in the step of the last choice
            before = itertools.takewhile(lambda line: not line.endswith(" are revealed"), step["log"])
            assert not any(line.startswith(step["action"]) for line in before)
        elif "…" not in action:  # a stepwise action's first parameters write no line yet
            assert step["log"] and step["log"][0].startswith(step["action"])  # the line the action wrote
    end = steps[-1]
    assert end["over"] and end["winners"] == [str(p) for p in state.winners or []]
    for p, index in enumerate(end["players"]):
        final = data["records"][index]
        assert final["score"] == state.scores[meeple.Player(p)]
        assert final["resources"] == {r: state.pv[p][r] for r in data["resources"]}
    assert not any(step["over"] for step in steps[:-1])
    assert data["players"] == [f"p{i + 1}" for i in range(record["players"])] and data["seat"] is None


@pytest.mark.parametrize("game", SEED_GAMES)
def test_the_page_is_self_contained(pages: dict[str, Path], game: str) -> None:
    parts, data = parse_page(pages[game])
    assert parts.loads == []  # no stylesheet, script, image or frame fetched from anywhere
    code = [body for attrs, body in parts.scripts if attrs.get("type") is None]
    assert len(code) == 1 and "addEventListener" in code[0] and "ArrowRight" in code[0]
    assert parts.styles and "#board" in parts.styles[0]
    for svg in data["boards"] + data["layers"]:
        assert ET.fromstring(svg).tag.endswith("svg") and "http" not in svg.replace(
            "http://www.w3.org/", ""
        )  # only the SVG namespaces, no link out
    if game == "tabletop_climber":  # a card game: no picture, its table is the page's own text
        assert data["boards"] == [] and all(step["board"] is None for step in data["steps"])
    else:
        for step in data["steps"]:
            assert 0 <= step["board"] < len(data["boards"]) and 0 <= step["layer"] < len(data["layers"])


def test_a_step_that_moves_a_piece_changes_the_pieces_layer_and_not_the_board(pages: dict[str, Path]) -> None:
    _, data = parse_page(pages["k2"])
    walks = [i for i, s in enumerate(data["steps"]) if "walk(go=S" in s["action"]]
    assert walks
    for i in walks[:5]:
        before, after = data["steps"][i - 1], data["steps"][i]
        assert after["layer"] != before["layer"] and after["board"] == before["board"]


def test_scores_resources_and_zones_follow_the_game_step_by_step(saved: dict[str, Path]) -> None:
    game, _, record = replayed(saved["climbers_of_verdon"])
    data = replay_steps(game, record["seed"], record["actions"][:120])
    state = game.new_game(seed=record["seed"])
    for i, action in enumerate(record["actions"][:120], 1):
        state.apply(action)
        for p in state.players:
            shown = data["records"][data["steps"][i]["players"][p]]
            assert shown["score"] == state.scores[p]
            assert shown["resources"] == {r: state.pv[p][r] for r in game.definition.sym.resources}
            hand = next(z for z in shown["zones"] if z["name"] == "hand")
            assert hand["count"] == sum(state.zones[f"hand#{int(p)}"].values())


def test_seen_by_a_seat_the_others_secret_picks_stay_secret(saved: dict[str, Path]) -> None:
    _, data = parse_page(write_page(saved["k2"], "--seat", "p1"))
    secret = [step for step in data["steps"] if step["secret"]]
    mine = [step for step in secret if step["mover"] == "p1"]
    theirs = [step for step in secret if step["mover"] != "p1"]
    assert mine and theirs
    assert all(step["action"].startswith("p1: pick(card=") for step in mine)
    assert all(step["action"] == f"{step['mover']}: a secret choice" for step in theirs)
    # At the reveal the others' picks name no card that came from a hand p1 cannot see.
    revealed = [
        line for step in data["steps"] for line in step["log"] if line.startswith(("p2: pick", "p3: pick"))
    ]
    assert revealed and all(line.endswith("pick(card=?)") for line in revealed)


def test_seen_by_a_seat_the_page_hides_the_others_cards_and_keeps_its_own(saved: dict[str, Path]) -> None:
    html_page = write_page(saved["tabletop_climber"], "--seat", "p1")
    _, data = parse_page(html_page)
    _, _, record = replayed(saved["tabletop_climber"])
    assert data["seat"] == "p1"
    picks = [(s, a) for s, a in zip(data["steps"][1:], record["actions"]) if a.startswith("pick(")]
    mine = [s for s, _ in picks if s["mover"] == "p1"]
    theirs = [s for s, _ in picks if s["mover"] != "p1"]
    assert mine and theirs
    assert all(s["action"] == f"p1: {a}" for s, a in picks if s["mover"] == "p1")
    assert all(s["action"].endswith("pick(card=?)") and "pick(card=?)" in s["log"][0] for s in theirs)
    hands = [
        [next(z for z in data["records"][i]["zones"] if z["name"] == "hand") for i in step["players"][:2]]
        for step in data["steps"]
    ]
    both = [(h1, h2) for h1, h2 in hands if h1["count"] and h2["count"]]
    assert both
    for h1, h2 in both:
        assert h1["cards"] != "face down" and h2["cards"] == "face down"


def test_the_whole_game_shows_every_card(pages: dict[str, Path]) -> None:
    _, data = parse_page(pages["tabletop_climber"])
    actions = [s["action"] for s in data["steps"][1:]]
    assert not any("=?" in a for a in actions)


def test_no_text_in_the_data_can_close_the_script_early() -> None:
    state_data = {
        "game": "G</script><script>alert(1)</script>",
        "seed": 1,
        "seat": None,
        "steps": [{"log": ["</script>"]}],
    }
    text = page(state_data)
    assert text.count("</script>") == 2  # the data's and the viewer's own
    start = text.index('id="replay-data">') + len('id="replay-data">')
    assert json.loads(text[start : text.index("</script>", start)])["steps"][0]["log"] == ["</script>"]
    assert "<title>G&lt;/script&gt;" in text


# ---------------------------------------------------------------- the command line


def test_seat_needs_html(saved: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(saved["k2"]), "--seat", "p1"]) == 2
    assert "give --html PAGE too" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("seat", "message"), [("p4", "no seat p4: the game has 3 players"), ("x", "not a seat")]
)
def test_a_seat_that_is_not_there_is_a_usage_error(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: str, message: str
) -> None:
    out = tmp_path / "page.html"
    assert main(["replay", str(saved["k2"]), "--html", str(out), "--seat", seat]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_a_page_that_cannot_be_written_is_a_usage_error(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(saved["k2"]), "--html", str(tmp_path / "no" / "page.html")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_replay_with_html_still_verifies_the_game(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "page.html"
    assert main(["replay", str(saved["pluvionauts"]), "--html", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"Wrote {out}" in said and "It replays identically" in said


def test_a_saved_game_whose_actions_do_not_replay_writes_no_page(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(saved["k2"].read_text(encoding="utf-8"))
    record["actions"][3] = "fly(to=moon)"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["replay", str(bad), "--html", str(out)]) == 1
    assert "do not replay" in capsys.readouterr().err and not out.exists()
