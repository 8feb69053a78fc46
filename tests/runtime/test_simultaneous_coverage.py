"""Rule coverage counts a secret choice once: when it is revealed and applied to the game, not again for the
private copy on which its player chose it (nor for the copies that check later choices)."""

from __future__ import annotations

from pathlib import Path

from tiny_rules import load_tiny

from meeple.tools.simulate import simulate

GUESS = """
game:
  name: Guess
  players: {min: 2, max: 3}
vars:
  game: {round: 0}
  player: {ones: 0, twos: 0}
actions:
  pick:
    params: {n: "1..2"}
    effect:
      - if: n == 1
        then: [me.ones += 1]
        else: [me.twos += 1]
flow:
  - phase: rounds
    turns: none
    repeat: true
    until: round >= 4
    do:
      - step: [round += 1]
      - simultaneous: [pick]
scoring:
  score: p.ones
"""


def test_each_secret_choice_runs_its_branch_once_in_the_coverage(tmp_path: Path) -> None:
    game = load_tiny(tmp_path, GUESS, players=3)

    report = simulate(game, 6, seed=1)

    branches = report.coverage["branches"]
    ran = branches["actions.pick.effect[0] then"]["count"] + branches["actions.pick.effect[0] else"]["count"]
    assert report.action_counts["pick"] == 6 * 4 * 3  # games, rounds, players
    assert ran == report.action_counts["pick"]
