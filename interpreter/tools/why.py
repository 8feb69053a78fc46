"""`meeple why`: is an action legal at a position, and if not, the first thing that stops it."""

from __future__ import annotations

import argparse
import json

from meeple.runtime.why import ActionTextError
from meeple.tools.cli import OK, PROBLEMS, UsageError
from meeple.tools.position import load_position


def cmd_why(args: argparse.Namespace) -> int:
    game, state = load_position(args.game, args.state, args.step, args.players, dict(args.option), args.seed)
    try:
        answer = state.why(args.action)
    except ActionTextError as err:
        raise UsageError(str(err)) from None
    if args.json:
        print(json.dumps(answer.to_dict(), indent=2))
    else:
        print(answer)
    return OK if answer.legal else PROBLEMS
