"""Where the grammar, schema and seed games are found: inside the installed wheel, or beside a checkout."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CHECKOUT = _HERE.parents[1]


def data_dir(name: str) -> Path:
    """The folder `grammar`, `schema` or `games`, wherever this copy of meeple keeps it.

    A wheel installs them as meeple/data/<name> (pyproject maps them there); an editable install or a
    checkout keeps them at the top of the source tree.
    """
    installed = _HERE / name
    if installed.is_dir():
        return installed
    return _CHECKOUT / name
