"""Where the grammar, schema and seed games are found: inside the installed wheel, or beside a checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]


def data_dir(name: str) -> Path:
    """The folder `grammar`, `schema` or `games`, wherever this copy of meeple keeps it."""
    try:
        found = resources.files(f"meeple.data.{name}")
        path = Path(str(found))
        if path.is_dir():
            return path
    except ModuleNotFoundError:
        pass
    return _CHECKOUT / name
