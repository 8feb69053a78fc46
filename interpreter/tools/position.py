"""A game position named on the command line: the start of a new game, a saved game replayed to its end
(or to its Nth action), or a state saved as JSON (`State.to_json`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import meeple
from meeple.errors import IllegalActionError
from meeple.tools.cli import UsageError, load_game, read_record


def read_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise UsageError(f"cannot read '{path}': {err.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UsageError(f"'{path}' is not a saved game or state (JSON): {err}") from None


def is_state(data: Any) -> bool:
    """A state's JSON (State.to_json) rather than a saved game (seed and actions)."""
    return isinstance(data, dict) and "stack" in data and "pv" in data


def load_position(
    game_arg: str, path: str | None, step: int | None, players: int | None, options: dict[str, Any], seed: int
) -> tuple[meeple.Game, meeple.State]:
    """The game and the position: see the module's docstring."""
    if path is None:
        if step is not None:
            raise UsageError("--step needs --state FILE, a saved game to replay")
        game = load_game(game_arg, players, options.items())
        return game, game.new_game(seed=seed)
    data = read_json(path)
    if is_state(data):
        if step is not None:
            raise UsageError(f"--step replays a saved game, but '{path}' is one state")
        return state_position(game_arg, path, data, options)
    record = read_record(path)
    game = load_game(game_arg, record.get("players"), (record.get("options") or {}).items())
    actions = record["actions"]
    if step is not None and step > len(actions):
        raise UsageError(f"--step {step}: '{path}' has only {len(actions)} actions")
    state = game.new_game(seed=int(record["seed"]))
    for i, text in enumerate(actions[:step] if step is not None else actions, 1):
        try:
            state.apply(str(text))
        except IllegalActionError as err:
            raise UsageError(f"'{path}': action {i} does not replay for {game.id}: {err}") from None
    return game, state


def state_position(
    game_arg: str, path: str, data: dict[str, Any], options: dict[str, Any]
) -> tuple[meeple.Game, meeple.State]:
    players = data.get("players")
    saved = data.get("options")
    saved_options: dict[str, Any] = saved if isinstance(saved, dict) else {}
    game = load_game(
        game_arg, players if isinstance(players, int) else None, {**saved_options, **options}.items()
    )
    if data.get("game") not in (None, game.id):
        raise UsageError(f"'{path}' is a state of {data.get('game')}, not of {game.id}")
    try:
        return game, game.state_from_json(json.dumps(data))
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise UsageError(f"'{path}' is not a saved state of {game.id}: {type(err).__name__}: {err}") from None
