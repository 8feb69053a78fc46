"""Draw the table of a game without a board: the shared zones, then each player's score, resources and zones.

A zone shows its cards (`red 5 ×2, wild 0`), or only how many when they lie face down; in a player's view
the zones that player may not see show how many cards they hold and nothing more.
"""

from __future__ import annotations

from typing import Any

import drawsvg as draw

from meeple.tools.drawing import FONT, Picture, player_colour, r1, text_width, words

WIDTH = 880.0
BOX_W, LINE, PAD, GAP = 206.0, 13.0, 8.0, 10.0
MOST_LINES = 7  # lines of cards in one box; the rest is summed up as "… N more"
HIDDEN = "?"  # how a player's view writes cards it may not see (meeple.runtime.view)


def zone_groups(state: Any) -> tuple[list[tuple[str, str, Any]], list[list[tuple[str, str, Any]]]]:
    """(label, state key, zone) of the shared zones, and of each player's zones."""
    shared: list[tuple[str, str, Any]] = []
    mine: list[list[tuple[str, str, Any]]] = [[] for _ in state.players]
    for zone in state.game.zones:
        for key in zone.key_names(len(state.players)):
            _, _, member = key.partition("#")
            if zone.per_player:
                mine[int(member)].append((words(zone.name), key, zone))
            else:
                shared.append((words(f"{zone.name} {member}".strip()), key, zone))
    return shared, mine


def describe(state: Any, key: str, zone: Any) -> tuple[int, list[str]]:
    """How many cards a zone holds and the words that list them (or say they are face down)."""
    cards = state.zones.get(key, {})
    total = sum(cards.values())
    if not total:
        return 0, ["empty"]
    if HIDDEN in cards or zone.visibility == "hidden":
        return total, ["face down"]
    return total, [f"{words(c)} ×{n}" if n > 1 else words(c) for c, n in cards.items()]


def wrap(items: list[str], width: float, size: float) -> list[str]:
    """Items joined by commas into lines no wider than `width`."""
    lines: list[str] = []
    for item in items:
        if lines and text_width(lines[-1] + ", " + item, size) <= width:
            lines[-1] += ", " + item
        else:
            if lines:
                lines[-1] += ","
            lines.append(item)
    return lines


def _box(out: list[Any], x: float, y: float, label: str, total: int, lines: list[str]) -> float:
    """One zone's box at (x, y); returns its height."""
    shown = lines[:MOST_LINES]
    if len(lines) > MOST_LINES:
        shown[-1] = f"… {len(lines) - MOST_LINES + 1} more lines"
    height = PAD * 2 + LINE * (1 + len(shown))
    out.append(draw.Rectangle(r1(x), r1(y), BOX_W, r1(height), rx=5, fill="#fafafa", stroke="#aaaaaa"))
    out.append(
        draw.Text(
            f"{label} ({total})", 11, r1(x + PAD), r1(y + PAD + 9), font_family=FONT, font_weight="bold"
        )
    )
    for i, line in enumerate(shown):
        out.append(
            draw.Text(
                line, 10, r1(x + PAD), r1(y + PAD + 9 + LINE * (i + 1)), font_family=FONT, fill="#444444"
            )
        )
    return height


def _section(out: list[Any], y: float, heading: str, colour: str, state: Any, zones: list[Any]) -> float:
    """A heading, then the zones' boxes left to right in rows; returns the y below it."""
    out.append(draw.Rectangle(0, r1(y), 6, 16, fill=colour))
    out.append(draw.Text(heading, 13, 12, r1(y + 12), font_family=FONT, font_weight="bold"))
    y += 24
    x, row_height = 0.0, 0.0
    for label, key, zone in zones:
        if x + BOX_W > WIDTH:
            x, y = 0.0, y + row_height + GAP
            row_height = 0.0
        total, items = describe(state, key, zone)
        lines = wrap(items, BOX_W - 2 * PAD, 10)
        row_height = max(row_height, _box(out, x, y, label, total, lines))
        x += BOX_W + GAP
    return y + row_height + 2 * GAP


def player_heading(state: Any, p: Any) -> str:
    """`p1: 12 points · 3 gold, 1 silk`: a seat's score and resources."""
    try:
        score = f"{state.scores[p]} points"
    except Exception:  # a player's view may lack what the score counts
        score = "score unknown"
    resources = [f"{state.pv[p].get(r, 0)} {words(r)}" for r in state.game.sym.resources]
    return f"{p}: {score}" + (f" · {', '.join(resources)}" if resources else "")


def table_picture(state: Any) -> Picture:
    """The whole table: the shared zones, then each player's score, resources and zones."""
    from meeple.tools.render import NothingToDraw

    shared, mine = zone_groups(state)
    if not shared and not any(mine) and not state.game.sym.resources:
        raise NothingToDraw(f"{state.game.id} has no board, zones or resources to draw")
    pic = Picture(-10, -10, WIDTH + 20, 0)
    y = 0.0
    if shared:
        y = _section(pic.pieces, y, "On the table", "#999999", state, shared)
    for p, zones in zip(state.players, mine):
        y = _section(pic.pieces, y, player_heading(state, p), player_colour(p), state, zones)
    pic.height = y + 10
    return pic
