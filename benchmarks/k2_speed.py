"""Random-playout speed of K2 for 1 to 5 players on both sides, and its load time, against a baseline.

    python benchmarks/k2_speed.py [-n 50] [--weather summer|winter]

Ratios against Climbers of Verdon timed in the same process; see playout_speed.py. In a profile of
4-player games about two thirds of K2's time goes to listing the legal actions (the rule expressions
behind `set_out`'s pairs of cards and directions and `walk`'s neighbours a climber may enter), the rest
to applying them.
"""

from __future__ import annotations

from playout_speed import compare, parser

GAME = "k2"


def main() -> None:
    p = parser(__doc__)
    p.add_argument("--weather", choices=("summer", "winter"), default="summer", help="weather tiles")
    args = p.parse_args()
    tables = [
        (f"{GAME} {side} board, {args.weather}, {n} random player{'s' if n > 1 else ''}", n, options)
        for side in ("easy", "hard")
        for n in (1, 2, 3, 4, 5)
        for options in [{"board": side, "weather": args.weather}]
    ]
    compare(GAME, args.n, tables)


if __name__ == "__main__":
    main()
