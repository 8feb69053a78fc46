"""Rule files the adapter tests load, by path from the repository root."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIC_TAC_TOE = str(ROOT / "examples" / "classic" / "tic_tac_toe.yaml")
PIG = str(ROOT / "examples" / "tutorial" / "pig.yaml")
K2 = str(ROOT / "games" / "k2.yaml")
PLUVIONAUTS = str(ROOT / "games" / "pluvionauts.yaml")
OPEN_HANDS = str(ROOT / "tests" / "runtime" / "open_hands.yaml")  # secrets in `simultaneous` steps only
