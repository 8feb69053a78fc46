"""Random-playout speed of Pluvionauts at 2, 3 and 4 players, and its load time, against a baseline.

    python benchmarks/pluvionauts_speed.py [-n 50]

Ratios against Climbers of Verdon timed in the same process; see playout_speed.py. Most of Pluvionauts'
cost is its state-dependent distance: a Dijkstra on the live board for every drive, tow and weather query.
"""

from __future__ import annotations

from playout_speed import compare, parser

GAME = "pluvionauts"


def main() -> None:
    args = parser(__doc__).parse_args()
    compare(GAME, args.n, [(f"{GAME}, {n} random players", n, None) for n in (2, 3, 4)])


if __name__ == "__main__":
    main()
