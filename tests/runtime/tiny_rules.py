"""Small inline rule files for the engine tests: written to a temporary folder, checked clean, loaded."""

from __future__ import annotations

from pathlib import Path

import meeple


def load_tiny(tmp_path: Path, text: str, players: int) -> meeple.Game:
    path = tmp_path / "tiny.yaml"
    path.write_text(text, encoding="utf-8")
    assert meeple.check(path) == []
    return meeple.load(path, players=players)
