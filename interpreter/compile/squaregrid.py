"""Pure geometry of a board of square cells: names, coordinates and 4- or 8-neighbours."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SquareGrid", "column_name", "square_grid"]

_STEPS_4 = ((0, -1), (-1, 0), (1, 0), (0, 1))
_STEPS_8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def column_name(x: int) -> str:
    """Spreadsheet-style column letters: 0 -> a, 25 -> z, 26 -> aa."""
    name = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


@dataclass(frozen=True)
class SquareGrid:
    """Cells named like a chess board seen from above: column letters left to right, row numbers from 1
    at the top (`a1` is the top-left cell).  `cells` runs row by row, top to bottom, left to right."""

    width: int
    height: int
    diagonal: bool
    cells: tuple[str, ...]
    coords: dict[str, tuple[int, int]]
    neighbours: dict[str, tuple[str, ...]]


def square_grid(width: int, height: int, diagonal: bool = False) -> SquareGrid:
    """A width x height grid; with `diagonal` the 8 surrounding cells are neighbours, else the 4 beside."""
    if width < 1 or height < 1:
        raise ValueError(f"a grid needs at least one cell, not {width} x {height}")
    name = {(x, y): f"{column_name(x)}{y + 1}" for y in range(height) for x in range(width)}
    steps = _STEPS_8 if diagonal else _STEPS_4
    neighbours = {
        cell: tuple(name[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in name)
        for (x, y), cell in name.items()
    }
    return SquareGrid(
        width=width,
        height=height,
        diagonal=diagonal,
        cells=tuple(name.values()),
        coords={cell: xy for xy, cell in name.items()},
        neighbours=neighbours,
    )
