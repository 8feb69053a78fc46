"""Random-playout speed of Caravan Conquest at 2, 3 and 4 players, both ways of moving, and its load time.

    python benchmarks/caravan_speed.py [-n 50]

Ratios against Climbers of Verdon timed in the same process; see playout_speed.py. A destination move
lists every cell within the caravan's speed (a Dijkstra on the live grid, rivers cut) and logs the
shortest way there; a step-by-step move asks one neighbour at a time, so a game has more decisions.
"""

from __future__ import annotations

from playout_speed import compare, parser

GAME = "caravan_conquest"


def main() -> None:
    args = parser(__doc__).parse_args()
    tables = [
        (f"{GAME}, {n} random players, {way} moves", n, {"movement": way})
        for way in ("destination", "steps")
        for n in (2, 3, 4)
    ]
    compare(GAME, args.n, tables)


if __name__ == "__main__":
    main()
