"""`meeple play` driven through a real pseudo-terminal with pexpect: a whole game, and a seed game's
first moves with why, undo, save and quit."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from meeple.tools.cli import main

pexpect = pytest.importorskip(
    "pexpect", reason="pexpect is not installed (it comes with the test extra: pip install '.[test]')"
)

ROOT = Path(__file__).resolve().parents[2]
TIC_TAC_TOE = ROOT / "examples" / "classic" / "tic_tac_toe.yaml"
PROMPT = "\r\n> "


def spawn(*args: str) -> object:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "120"}
    command = [sys.executable, "-m", "meeple.tools.cli", "play", *args]
    return pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=60)


def test_a_whole_game_of_tic_tac_toe_through_a_terminal() -> None:
    child = spawn(str(TIC_TAC_TOE), "--seat", "2", "--seed", "3", "--agents", "greedy")
    child.expect("you play p2")
    decisions = 0
    while child.expect([PROMPT, "The game is over"]) == 0:
        child.sendline("1")
        decisions += 1
    child.expect(r"You win!|You lose\.|No winner\.|You share the win\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert 1 <= decisions <= 4  # the second player makes at most four marks


def test_a_seed_game_with_why_undo_save_and_quit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "verdon.json"
    child = spawn("climbers_of_verdon", "--players", "2", "--seat", "1", "--seed", "2")
    child.expect("Your choices:")
    child.expect(PROMPT)
    child.sendline("1")  # a corner: the list of place_start is narrowed one parameter at a time
    child.expect(r"place_start\(corner=c0, tile=t0, …\)|place_start\(corner=c0, tile=t0, path=")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("undo +back to your previous decision")
    child.expect(PROMPT)
    child.sendline("why build_rope(path=c0-c3)")
    child.expect(
        r"build_rope\(path=c0-c3\) is not offered to p1 now: phase 'placement', step 1 offers place_start"
    )
    child.expect(PROMPT)
    child.sendline("hello")
    child.expect("'hello' is neither a choice nor a command")
    child.expect(PROMPT)
    child.sendline("back")
    child.expect(PROMPT)
    for _ in range(4):  # a start: corner, tile, path; then its starting resource
        child.sendline("1")
        child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Back to your decision after")
    child.expect(PROMPT)
    child.sendline(f"save {saved}")
    child.expect("Saved [0-9]+ actions to")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("You left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert main(["replay", str(saved)]) == 0
    assert "Replayed" in capsys.readouterr().out
