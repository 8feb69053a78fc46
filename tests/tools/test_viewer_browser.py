"""The replay page in a real browser: Playwright drives Debian's Chromium through a saved game of each seed.

Needs the Python package playwright (`pip install 'meeple[viewer]'`) and a Chromium program (Debian's
`apt-get install chromium`; another one can be named by MEEPLE_CHROMIUM). Playwright's own browser download
is not used. Without either, the tests skip and say what is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from viewer_pages import SEED_GAMES, parse_page, save_game, write_page

CHROMIUM = os.environ.get("MEEPLE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(
        sync_playwright is None, reason="needs Playwright for Python: pip install 'meeple[viewer]'"
    ),
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="needs a Chromium program: apt-get install chromium (or name one in MEEPLE_CHROMIUM)",
    ),
]
# Chromium as root in a container, and no connections of its own to anywhere (this machine has no network).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert sync_playwright is not None
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("browser")
    return {game: write_page(save_game(folder, game)) for game in SEED_GAMES}


def open_page(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    """The page opened from its file, with every URL it asked for and every error its script raised."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    asked: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    return page, asked, errors


def text(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.inner_text()).strip()


@pytest.mark.parametrize("game", SEED_GAMES)
def test_clicking_through_a_saved_game_shows_each_step(
    browser: Any, pages: dict[str, Path], game: str
) -> None:
    _, data = parse_page(pages[game])
    steps = data["steps"]
    last = len(steps) - 1
    page, asked, errors = open_page(browser, pages[game])
    try:
        assert text(page, "#counter") == f"Step 0 of {last}"
        assert "Set-up" in text(page, "#action")
        assert page.locator("#prev").is_disabled() and not page.locator("#next").is_disabled()

        page.click("#next")
        assert text(page, "#counter") == f"Step 1 of {last}"
        assert steps[1]["action"] in text(page, "#action")
        if steps[1]["log"]:  # the step's own log lines are marked, and the later ones hidden
            assert text(page, "#log li.current") == steps[1]["log"][0].strip()
        shown = page.locator("#log li:visible").count()
        assert shown == sum(len(s["log"]) for s in steps[:2])

        page.keyboard.press("ArrowRight")
        assert text(page, "#counter") == f"Step 2 of {last}"
        page.keyboard.press("ArrowLeft")
        assert text(page, "#counter") == f"Step 1 of {last}"
        page.click("#prev")
        assert text(page, "#counter") == f"Step 0 of {last}"

        page.keyboard.press("End")
        assert text(page, "#counter") == f"Step {last} of {last}"
        assert "game over" in text(page, "#action")
        for p, index in enumerate(steps[-1]["players"]):
            assert text(page, f"#score-p{p + 1}") == str(data["records"][index]["score"])
        assert page.locator("#next").is_disabled()

        if data["boards"]:  # the board and its pieces are drawn; a card game shows its table as text
            assert page.locator("#board-layer svg").count() == 1
            assert page.locator("#pieces-layer svg").count() == 1
        else:
            assert "no-board" in str(page.locator("body").get_attribute("class"))
            assert page.locator(".player .zones li").count() > 0
        assert errors == []
        assert all(url.startswith(("file:", "data:", "about:")) for url in asked), asked
    finally:
        page.close()


@pytest.mark.parametrize("game", SEED_GAMES)
def test_the_slider_reaches_a_step_where_a_score_changes(
    browser: Any, pages: dict[str, Path], game: str
) -> None:
    _, data = parse_page(pages[game])
    steps, records = data["steps"], data["records"]

    def score(step: int, p: int) -> Any:
        return records[steps[step]["players"][p]]["score"]

    changes = [
        (i, p)
        for i in range(1, len(steps))
        for p in range(len(data["players"]))
        if score(i, p) != score(i - 1, p)
    ]
    assert changes, "some score changes in the saved game"
    step, p = changes[0]
    page, _, errors = open_page(browser, pages[game])
    try:
        page.locator("#slider").fill(str(step - 1))
        assert text(page, "#counter") == f"Step {step - 1} of {len(steps) - 1}"
        assert text(page, f"#score-p{p + 1}") == str(score(step - 1, p))
        page.keyboard.press("ArrowRight")
        assert text(page, "#counter") == f"Step {step} of {len(steps) - 1}"
        cell = page.locator(f"#score-p{p + 1}")
        assert cell.inner_text().strip() == str(score(step, p))
        assert "changed" in str(cell.get_attribute("class"))  # the page marks what the step changed
        assert errors == []
    finally:
        page.close()


def test_a_seats_page_hides_the_other_hands_in_the_browser(browser: Any, tmp_path: Path) -> None:
    path = write_page(save_game(tmp_path, "tabletop_climber"), "--seat", "p2")
    _, data = parse_page(path)
    page, _, errors = open_page(browser, path)
    try:
        assert "as p2 sees it" in text(page, "#title")
        first_pick = next(
            i for i, s in enumerate(data["steps"]) if s["mover"] == "p1" and "pick(" in s["action"]
        )
        page.locator("#slider").fill(str(first_pick))
        assert text(page, "#action").endswith("pick(card=?)")
        assert "this seat" in text(page, "#player-p2 h3")
        hand = page.locator("#player-p1 .zones li", has_text="hand").first
        assert "face down" in hand.inner_text() or "(0)" in hand.inner_text()
        assert errors == []
    finally:
        page.close()
