"""Python bytecodes per decision, by function: where a game's time goes, counted rather than timed.

    python benchmarks/bytecodes.py connect_four.yaml           # the top 25 functions of 50 random games
    python benchmarks/bytecodes.py climbers_of_verdon --games 3 --top 40
    python benchmarks/bytecodes.py k2 --lines engine.py:advance   # the same count, line by line

Plays seeded random games (as `playout_speed.random_game` does) with Python's tracing on, counting every
bytecode the interpreter runs, and prints the count per decision of each function (its own bytecodes, not
those of what it calls), the rule file's generated functions among them (`<action build_rope>`, `<kept
defs>`). A count does not move with the machine's speed, so it tells two versions apart in seconds where
timings cannot; but a bytecode is not a unit of time (a dict lookup costs more than a jump), so check a
change with `instructions.py` or `ab.py` as well. The games run about 50 times slower while traced.
"""

from __future__ import annotations

import argparse
import linecache
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ab import GAMES, ROOT
from playout_speed import random_game

import meeple


def _label(code: Any) -> str:
    return f"{Path(code.co_filename).name}:{code.co_name}"


def count(game: Any, games: int, lines_of: str | None = None) -> tuple[Counter[Any], int]:
    """The bytecodes run by function (or, with `lines_of` as 'file:function', by line of that function)
    over `games` seeded random games, and the decisions made. Two games are played first, untraced, so that
    what a load or a first game keeps is kept."""
    for seed in range(2):
        random_game(game, 10_000 + seed)
    counts: Counter[Any] = Counter()

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        label = _label(frame.f_code)
        if lines_of is not None and label != lines_of:
            return None
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False

        def opcode(frame: Any, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[label if lines_of is None else (frame.f_code.co_filename, frame.f_lineno)] += 1
            return opcode

        return opcode

    decisions = 0
    sys.settrace(tracer)
    try:
        for seed in range(games):
            decisions += random_game(game, seed + 1)
    finally:
        sys.settrace(None)
    return counts, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a seed game, or a rule file ending in .yaml (under examples/)")
    parser.add_argument("--players", type=int, help="players (default: as ab.py plays the game, else 2)")
    parser.add_argument("--games", type=int, default=50, help="random games traced (default 50)")
    parser.add_argument("--top", type=int, default=25, help="functions shown (default 25)")
    parser.add_argument("--lines", metavar="FILE:FUNCTION", help="one function's bytecodes, line by line")
    args = parser.parse_args()
    if args.games < 1 or args.top < 1:
        parser.error("--games and --top must be at least 1")
    name = args.game
    known = {key: value for key, value in GAMES.items() if key == name or key.endswith("/" + name)}
    players = args.players or (next(iter(known.values()))[0] if known else 2)
    if name.endswith(".yaml"):
        path = ROOT / next(iter(known), name)
        if not path.is_file():
            path = ROOT / "examples" / "classic" / name
        source: Any = path
    else:
        source = name
    try:
        game = meeple.load(source, players=players)
    except meeple.MeepleError as err:
        parser.exit(1, f"bytecodes.py: {err}\n")
    counts, decisions = count(game, args.games, args.lines)
    total = sum(counts.values())
    if args.lines is not None:
        if not counts:
            parser.exit(1, f"bytecodes.py: no function {args.lines} ran (the form is file.py:function)\n")
        print(f"{args.lines}: {total / decisions:,.1f} bytecodes per decision, by line")
        for filename, line in sorted(counts, key=lambda key: key[1] or 0):
            text = linecache.getline(filename, line or 0).rstrip()
            print(f"{counts[(filename, line)] / decisions:9.1f}  {line or 0:5}  {text}")
        return
    each = total / decisions
    print(
        f"{name}, {players} players, {args.games} games: {decisions:,} decisions, {each:,.0f} bytecodes each"
    )
    for label, n in counts.most_common(args.top):
        print(f"{n / decisions:9.1f}  {n / total:6.1%}  {label}")


if __name__ == "__main__":
    main()
