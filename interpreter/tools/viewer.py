"""A saved game as one self-contained web page: step through it with its board, log, scores and resources.

`replay_page` re-runs the game from its seed and actions and records each step: the board picture (the
board layer and the pieces layer), the log lines the step wrote, every player's score, resources, variables
and zones, and the table's. Each distinct picture and record is stored once; steps refer to it by number.
The page embeds that as JSON beside its own script and style sheet, so it opens anywhere without a
network. With a seat, each step is what that seat sees (`state.view(seat)`): other players' hidden zones
show only their sizes, their actions name no card that may come from a zone the seat cannot see, and their
secret choices in a `simultaneous` step show as `a secret choice` (when revealed, as their other actions).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from meeple.runtime.simultaneous import pending
from meeple.tools.drawing import PLAYER_COLOURS, to_svg, words
from meeple.tools.render import picture
from meeple.tools.render_table import describe, zone_groups
from meeple.values import Action, Bundle, Player

HIDDEN = "?"


@dataclass
class Distinct:
    """Each distinct value once (an SVG, a player's record); steps refer to them by number."""

    values: list[Any] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)

    def add(self, value: Any) -> int:
        key = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
        if key not in self.index:
            self.index[key] = len(self.values)
            self.values.append(value)
        return self.index[key]


def plain(value: Any) -> Any:
    """A value as JSON can hold it and a reader would write it."""
    if value is None or type(value) in (bool, int, float):  # a player or a piece is shown by its name
        return value
    if isinstance(value, (tuple, list)):
        return ", ".join(str(plain(v)) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {plain(v)}" for k, v in value.items())
    return str(value)


def secret_cards(state: Any, view: Any) -> set[str]:
    """The cards in the zones a seat's view hides (another's hand, a face-down pile)."""
    return {card for key, cards in view.zones.items() if HIDDEN in cards for card in state.zones.get(key, {})}


def masked(action: Action, secret: set[str]) -> str:
    """The action as a seat sees another player's: each card that may come from a hidden zone as `?`."""

    def hide(value: Any) -> Any:
        if isinstance(value, Bundle):
            return HIDDEN if any(c in secret for c in value) else value
        if isinstance(value, str) and value in secret:
            return HIDDEN
        return value

    return str(Action(action.name, tuple((k, hide(v)) for k, v in action.params), action.partial))


def player_record(state: Any, p: Player, zones: list[tuple[str, str, Any]]) -> dict[str, Any]:
    """A seat's score, resources, other variables and zones, as the page shows them."""
    try:
        score: Any = state.scores[p]
    except Exception:  # a seat's view may lack what another seat's score counts
        score = None
    game = state.game
    pv = state.pv[p]
    record: dict[str, Any] = {
        "score": score,
        "resources": {r: plain(pv.get(r, 0)) for r in game.sym.resources},
        "vars": {k: plain(pv.get(k)) for k in game.sym.player_vars},
    }
    record["zones"] = [zone_record(state, label, key, zone) for label, key, zone in zones]
    return record


def zone_record(state: Any, label: str, key: str, zone: Any) -> dict[str, Any]:
    total, items = describe(state, key, zone)
    return {"name": label, "count": total, "cards": ", ".join(items)}


def table_record(state: Any, shared: list[tuple[str, str, Any]]) -> dict[str, Any]:
    """What lies on the table for everyone: the game's variables, its named scopes and its shared zones."""
    values = {words(k): plain(v) for k, v in state.gv.items()}
    for scope, fields in state.sv.items():
        values.update({f"{words(scope)}.{words(k)}": plain(v) for k, v in fields.items()})
    return {"vars": values, "zones": [zone_record(state, label, key, zone) for label, key, zone in shared]}


def replay_steps(game: Any, seed: int, actions: Sequence[str], seat: int | None = None) -> dict[str, Any]:
    """Every step of a saved game (step 0 is the set-up) as the page's data; raises IllegalActionError."""
    state = game.new_game(seed=seed, log=True)
    definition = game.definition
    boards, layers, records = Distinct(), Distinct(), Distinct()
    has_board = definition.board.shape != "none"  # a card game's table is the page's own text, no picture
    board_of: dict[str, int] = {}
    steps = []

    def record(action: str, mover: Player | None, lines: list[str], in_secret: bool = False) -> None:
        shown = state.view(seat) if seat is not None else state
        shared, mine = zone_groups(shown)
        step: dict[str, Any] = {
            "action": action,
            "mover": None if mover is None else str(mover),
            "turn": state.turn_no,
            "log": lines,
            "secret": in_secret,  # a secret choice (`simultaneous` step): applied and logged at the reveal
            "players": [records.add(player_record(shown, p, mine[p])) for p in state.players],
            "table": records.add(table_record(shown, shared)),
            "over": state.is_over,
            "winners": [str(p) for p in state.winners or []] if state.is_over else [],
        }
        step["board"] = step["layer"] = None
        if has_board:
            sites = json.dumps(shown.sites, sort_keys=True, default=str)  # the board layer changes with these
            if sites not in board_of:
                board_of[sites] = boards.add(to_svg(picture(shown), parts=("board",)))
            step["board"] = board_of[sites]
            step["layer"] = layers.add(to_svg(picture(shown, sites=False), parts=("pieces",)))
        steps.append(step)

    record("set-up", None, list(state.log or []))
    for text in actions:
        mover = state.to_move
        action = state.find_action(str(text))
        in_secret = state.choosing_in_secret
        secret = secret_cards(state, state.view(seat)) if seat is not None and mover != seat else set()
        if in_secret and seat is not None:  # the others' choices, should this one end the step
            unseen = secret_cards(state, state.view(seat))
            revealed = {
                f"{p}: {a}": f"{p}: {masked(a, unseen)}" for p, a in [*pending(state), (mover, action)]
            }
        state.log = []
        state.apply(action)
        lines = list(state.log)
        said = f"{mover}: {action}"
        if in_secret and seat is not None:
            lines = [
                line if line.startswith(f"{Player(seat)}: ") else revealed.get(line, line) for line in lines
            ]
            said = said if mover == seat else f"{mover}: a secret choice"
        elif secret:
            hidden = f"{mover}: {masked(action, secret)}"
            lines = [hidden if line == said else line for line in lines]
            said = hidden
        record(said, mover, lines, in_secret)
    return {
        "game": game.name,
        "id": game.id,
        "seed": seed,
        "players": [str(p) for p in state.players],
        "seat": None if seat is None else str(Player(seat)),
        "colours": list(PLAYER_COLOURS),
        "resources": list(definition.sym.resources),
        "boards": boards.values,
        "layers": layers.values,
        "records": records.values,
        "steps": steps,
    }


def page(data: dict[str, Any], agents: Sequence[str] = ()) -> str:
    """The page: the data as JSON in a script element, with the viewer's own script and style inlined."""
    data = {**data, "agents": list(agents)}
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    payload = payload.replace("</", "<\\/")  # no `</script>` can end the data early
    title = f"{data['game']}, seed {data['seed']}" + (f", as {data['seat']} sees it" if data["seat"] else "")
    folder = resources.files("meeple.tools") / "viewer_assets"
    style = (folder / "viewer.css").read_text(encoding="utf-8")
    script = (folder / "viewer.js").read_text(encoding="utf-8")
    return TEMPLATE.format(
        title=html.escape(title), style=style, payload=payload, script=script.replace("</", "<\\/")
    )


def replay_page(
    game: Any, seed: int, actions: Sequence[str], seat: int | None = None, agents: Sequence[str] = ()
) -> str:
    """A saved game as a self-contained HTML page (see the module's doc)."""
    return page(replay_steps(game, seed, actions, seat), agents)


TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{style}
</style>
</head>
<body>
<header>
  <h1 id="title">{title}</h1>
  <nav id="controls" aria-label="steps">
    <button id="first" title="first step (Home)">&#x23EE;</button>
    <button id="prev" title="previous step (&#x2190;)">&#x25C0; previous</button>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
    <button id="next" title="next step (&#x2192;)">next &#x25B6;</button>
    <button id="last" title="last step (End)">&#x23ED;</button>
    <span id="counter"></span>
  </nav>
  <p id="action"></p>
</header>
<main>
  <section id="board" aria-label="board">
    <div id="board-layer"></div>
    <div id="pieces-layer"></div>
  </section>
  <aside>
    <h2>Players</h2>
    <div id="players"></div>
    <h2>Table</h2>
    <div id="table"></div>
    <h2>Log</h2>
    <ol id="log"></ol>
  </aside>
</main>
<script type="application/json" id="replay-data">{payload}</script>
<script>
{script}
</script>
</body>
</html>
"""
