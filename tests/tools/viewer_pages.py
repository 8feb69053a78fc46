"""Shared by the viewer's tests: saved games of the seed games, their pages, and the data a page embeds."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import meeple
from meeple.tools.cli import main

# Each seed game, with a seed and player count that make a game of a few hundred actions at most.
SEED_GAMES = {
    "caravan_conquest": (2, 2),  # a caravan arrives (with seed 1 nobody does, and every score stays 0)
    "climbers_of_verdon": (2, 1),
    "k2": (3, 2),  # a climber gets higher (random climbers often end where they began)
    "pluvionauts": (2, 1),
    "tabletop_climber": (3, 1),
}


def save_game(folder: Path, game: str) -> Path:
    players, seed = SEED_GAMES[game]
    path = folder / f"{game}.json"
    args = ["run", game, "-p", str(players), "-s", str(seed), "--quiet", "--save", str(path)]
    assert main(args) == 0
    return path


def write_page(saved: Path, *extra: str) -> Path:
    page = (
        saved.with_suffix(".html") if not extra else saved.with_name(f"{saved.stem}-{'-'.join(extra)}.html")
    )
    assert main(["replay", str(saved), "--html", str(page), *extra]) == 0
    return page


class PageParts(HTMLParser):
    """The text of each element with an id, the tags that load anything, and the embedded scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.by_id: dict[str, str] = {}
        self.loads: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.styles: list[str] = []
        self._open: list[tuple[str, dict[str, str | None], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag in ("link", "img", "iframe", "object", "embed") or named.get("src") or named.get("href"):
            self.loads.append((tag, named))
        if tag not in ("meta", "input", "br", "link", "img"):
            self._open.append((tag, named, []))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            name, attrs, text = self._open.pop()
            body = "".join(text)
            if self._open:
                self._open[-1][2].append(body)
            if attrs.get("id"):
                self.by_id[str(attrs["id"])] = body
            if name == "script":
                self.scripts.append((attrs, body))
            if name == "style":
                self.styles.append(body)
            if name == tag:
                return

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


def parse_page(page: Path) -> tuple[PageParts, dict[str, Any]]:
    parts = PageParts()
    parts.feed(page.read_text(encoding="utf-8"))
    return parts, json.loads(parts.by_id["replay-data"])


def replayed(saved: Path) -> tuple[meeple.Game, meeple.State, dict[str, Any]]:
    record = json.loads(saved.read_text(encoding="utf-8"))
    game = meeple.load(record["game"], players=record["players"])
    state = meeple.replay(game, record["seed"], record["actions"])
    return game, state, record
