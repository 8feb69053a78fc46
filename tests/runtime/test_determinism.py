"""Determinism: the same seed gives the same game in separate processes whatever PYTHONHASHSEED is (a saved
game holds the state after every action, so the processes agree on every state, not only the last), and a
state saved at any step reloads from JSON and continues exactly as the uninterrupted game does."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from tiny_rules import load_tiny

import meeple
from meeple.tools.replay import replay_trace

HASH_SEEDS = ("0", "1", "12345")
SEED = 5
CUTS = 8  # steps of a game from which a reloaded state is played on to the end by the same bot

# Runs `meeple run CASE --seed S --save FILE` for each case given as PATH:PLAYERS:FILE, in one process.
DRIVER = f"""
import sys
from meeple.tools.cli import main
for case in sys.argv[1:]:
    path, players, out = case.rsplit(":", 2)
    code = main(["run", path, "--players", players, "--seed", "{SEED}", "--quiet", "--save", out])
    if code:
        sys.exit(f"{{case}}: exit {{code}}")
"""


GAMES = Path(__file__).resolve().parents[2] / "games"


def every_case() -> list[tuple[Path, int]]:
    """Each seed game at its fewest players (as `game_file` loads it)."""
    return [(path, meeple.load(path).players) for path in sorted(GAMES.glob("*.yaml"))]


def trace_name(path: Path, players: int) -> str:
    return f"{path.stem}-{players}p.json"


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A folder of saved games per PYTHONHASHSEED, each written by its own process (run side by side)."""
    root = tmp_path_factory.mktemp("determinism")
    python_path = os.pathsep.join(p for p in sys.path if p)
    running = {}
    for hash_seed in HASH_SEEDS:
        folder = root / f"hash{hash_seed}"
        folder.mkdir()
        cases = [f"{path}:{n}:{folder / trace_name(path, n)}" for path, n in every_case()]
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": python_path}
        running[hash_seed] = (
            folder,
            subprocess.Popen(
                [sys.executable, "-c", DRIVER, *cases],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            ),
        )
    for hash_seed, (_, process) in running.items():
        _, err = process.communicate(timeout=900)
        assert process.returncode == 0, f"PYTHONHASHSEED={hash_seed}: {err}"
    return {hash_seed: folder for hash_seed, (folder, _) in running.items()}


def test_the_same_seed_gives_the_same_game_in_processes_with_different_hash_seeds(
    traces: dict[str, Path], game_file: Path
) -> None:
    game = meeple.load(game_file)
    name = trace_name(game_file, game.players)
    saved = {h: (folder / name).read_bytes() for h, folder in traces.items()}
    record = json.loads(saved[HASH_SEEDS[0]])

    assert len(record["actions"]) == len(record["steps"]) > 10  # the state after every action
    for hash_seed in HASH_SEEDS[1:]:
        assert saved[hash_seed] == saved[HASH_SEEDS[0]], f"PYTHONHASHSEED={hash_seed} played another game"
    # and this process (with its own hash seed) replays it, state by state, to the same end
    assert replay_trace(game, record).divergence is None


def test_a_state_saved_at_any_step_reloads_and_continues_identically(game_file: Path) -> None:
    game = meeple.load(game_file)  # at its fewest players (the processes above play every count)
    state, bot = game.new_game(seed=SEED), random.Random(SEED)
    actions: list[str] = []
    saved: list[tuple[str, object]] = []  # (state JSON, the bot's generator) before each action
    while not state.is_over:
        text = state.to_json()
        saved.append((text, bot.getstate()))
        reloaded = game.state_from_json(text)
        assert reloaded.to_json() == text, f"step {len(actions)}"
        legal = state.legal_actions()
        assert reloaded.legal_actions() == legal, f"step {len(actions)}: other actions, or in another order"
        action = bot.choice(legal)
        state.apply(action)
        reloaded.apply(str(action))
        assert reloaded.to_json() == state.to_json(), f"step {len(actions)}: {action} did something else"
        actions.append(str(action))
    final = state.to_json()

    for k in range(0, len(actions), max(1, len(actions) // CUTS)):
        text, bot_state = saved[k]
        resumed, bot = game.state_from_json(text), random.Random()
        bot.setstate(bot_state)  # type: ignore[arg-type]
        went_on = []
        while not resumed.is_over:
            action = bot.choice(resumed.legal_actions())
            resumed.apply(action)
            went_on.append(str(action))
        assert went_on == actions[k:], f"reloaded at step {k}"
        assert resumed.to_json() == final, f"reloaded at step {k}"


ARRIVALS = """
game:
  name: Arrivals
  players: {min: 2, max: 2}
components:
  pieces:
    token: {supply: 2}
board:
  grid:
    rows: ["ab"]
    legend: {a: field, b: field}
vars:
  game: {first_at_b: none}
setup:
  - place token at a1 for players[0]
  - place token at b1 for players[1]
actions:
  hop: {effect: ["move piece first(pieces_at(a1)) to b1"]}
  look: {effect: ["set first_at_b = first(pieces_at(b1)).owner"]}
flow:
  - phase: play
    turns: none
    do: [{choose: [hop]}, {choose: [look]}]
"""


def test_a_reloaded_state_keeps_the_order_pieces_arrived_at_a_site(tmp_path: Path) -> None:
    """p1's token (the older piece) moves onto p2's: `pieces_at(b1)` lists p2's first, reloaded or not."""
    game = load_tiny(tmp_path, ARRIVALS, players=2)
    state = game.new_game(seed=1).apply("hop")
    reloaded = game.state_from_json(state.to_json())

    for s in (state, reloaded):
        s.apply("look")
    assert str(state.gv["first_at_b"]) == str(reloaded.gv["first_at_b"]) == "p2"
    assert reloaded.to_json() == state.to_json()


def test_a_generator_made_on_first_use_draws_as_one_seeded_at_the_start() -> None:
    classic = Path(__file__).resolve().parents[2] / "examples" / "classic" / "tic_tac_toe.yaml"
    for name, players in (("k2", 2), ("climbers_of_verdon", 3), (str(classic), 2)):
        game = meeple.load(name, players=players)
        for seed in (3, 4):
            first = game.new_game(seed=seed)
            twin = first.clone()
            if first._rng is None:  # nothing drawn yet: the generator, when made, is the seeded one
                assert twin._rng is None
                assert first.rng.getstate() == random.Random(seed).getstate()
            bot = random.Random(seed)
            while not first.is_over:
                choice = bot.choice(first.legal_actions())
                first.apply(choice)
                twin.apply(choice)
                assert first.to_json() == twin.to_json()  # the same draws: the JSON holds the generator
    # tic-tac-toe draws nothing in a whole game: no generator is ever made, not even by a clone.
    state = meeple.load(classic).new_game(seed=1)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
        assert state._rng is None and state.clone()._rng is None


def test_a_roll_draws_the_dice_randint_would_for_the_same_seed():
    # A saved game's dice come from its seed: a roll takes exactly the draws of randint(1, sides) per die.
    state = meeple.load("climbers_of_verdon", players=3).new_game(seed=SEED)
    twin = random.Random()
    twin.setstate(state.rng.getstate())
    for dice, sides in ((2, 6), (1, 20), (3, 4), (1, 1), (4, 100)):
        assert state.roll(dice, sides, None) == sum(twin.randint(1, sides) for _ in range(dice))
    assert state.rng.getstate() == twin.getstate()
