"""Random-playout speed of Tabletop Climber at 3 and 4 players, and its load time, against a baseline.

    python benchmarks/climber_speed.py [-n 50]

Ratios against Climbers of Verdon timed in the same process; see playout_speed.py.
"""

from __future__ import annotations

from playout_speed import compare, parser

GAME = "tabletop_climber"


def main() -> None:
    args = parser(__doc__).parse_args()
    compare(GAME, args.n, [(f"{GAME}, {n} random players", n, None) for n in (3, 4)])


if __name__ == "__main__":
    main()
