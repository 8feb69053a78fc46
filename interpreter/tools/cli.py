"""The `meeple` command line: check, run, simulate, replay, explain, render and schema."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import meeple
from meeple.agents import AGENTS, MAX_ACTIONS, PlayError, make_agents, play_game
from meeple.compile.expressions import RuleRuntimeError
from meeple.errors import Diagnostic, RulesError
from meeple.tools.explain import explain
from meeple.tools.replay import BadTrace, record_steps, replay_trace, report_lines, trace_text
from meeple.tools.simulate import format_report, playout_problems, runtime_diagnostic, simulate

OK, PROBLEMS, USAGE = 0, 1, 2
RULE_SUFFIXES = (".yaml", ".yml")


class UsageError(Exception):
    """The command line asks for something impossible; exit 2 with this message."""


class Problem(Exception):
    """The command ran and found a problem (a failed replay, a game that would not end); exit 1."""


# ---------------------------------------------------------------- sources and diagnostics


class Sources:
    """Rule file texts by the file name a diagnostic shows, read from disk on first use."""

    def __init__(self, known: dict[str, str] | None = None) -> None:
        self.texts: dict[str, str | None] = dict(known or {})

    def get(self, name: str) -> str | None:
        if name not in self.texts:
            try:
                self.texts[name] = Path(name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                self.texts[name] = None
        return self.texts[name]

    def format(self, d: Diagnostic) -> str:
        """The headline, then the source line and caret where the problem has a real place."""
        if d.span is None or d.code.startswith("playout/"):
            return d.headline()
        return d.format(self.get(d.span.file))


def is_usage(d: Diagnostic) -> bool:
    """A problem with the command line (players, options, an unknown game) rather than in a rule file."""
    return d.code.startswith("usage/") or (d.code.startswith("io/") and d.span is None)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------- argument types


def at_least(minimum: int) -> Callable[[str], int]:
    """An argument type: a whole number no smaller than `minimum`."""

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: '{text}'") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    return whole_number


positive_int = at_least(1)


def option_value(text: str) -> Any:
    """`true`/`false`, a whole number, a decimal number, or else the text itself."""
    words = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
    if text.lower() in words:
        return words[text.lower()]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def option_pair(text: str) -> tuple[str, Any]:
    """`NAME=VALUE`, the value read by `option_value`."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got '{text}'")
    return name.strip(), option_value(value.strip())


def agent_list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in AGENTS]
    if not names or unknown:
        raise argparse.ArgumentTypeError(
            f"unknown agent '{unknown[0] if unknown else text}' (known: {', '.join(AGENTS)})"
        )
    return names


# ---------------------------------------------------------------- shared steps


def load_game(game: str, players: int | None, options: Iterable[tuple[str, Any]] = ()) -> meeple.Game:
    return meeple.load(game, players=players, options=dict(options))


def seat_agents(names: Sequence[str], players: int) -> list[Any]:
    try:
        return make_agents(names, players)
    except ValueError as err:
        raise UsageError(str(err)) from None


def player_range(game: meeple.Game) -> tuple[int, int]:
    data = game.source.data if game.source is not None else {}
    spec = (data.get("game") or {}).get("players") or {}
    return int(spec.get("min", game.players)), int(spec.get("max", game.players))


# ---------------------------------------------------------------- check


def rule_files(paths: Sequence[str]) -> list[str]:
    """Files as given; folders expanded to their *.yaml files, sorted, hidden folders skipped.

    Only `.yaml` is collected from folders: `.yml` there is usually a CI workflow, not a game.
    """
    files: list[str] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = sorted(
                p
                for p in path.rglob("*.yaml")
                if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
            if not found:
                raise UsageError(f"no rule files (*.yaml) in '{given}'")
            files += [str(p) for p in found]
        elif path.is_file() or (not path.suffix and "/" not in given and "\\" not in given):
            files.append(given)  # a file, or the name of a seed game
        else:
            raise UsageError(f"no such file or folder: '{given}'")
    return files


def check_file(path: str, args: argparse.Namespace) -> list[Diagnostic]:
    found = meeple.check(path, players=args.players)
    if len(found) == 1 and is_usage(found[0]):
        raise UsageError(found[0].message + (f" ({found[0].hint})" if found[0].hint else ""))
    if args.playouts and not any(d.severity == "error" for d in found):
        players = args.players or player_range(load_game(path, None))[1]
        game = load_game(path, players)
        progress = args.format == "text"
        found += playout_problems(game, path, args.playouts, args.seed, args.max_actions, progress)
    return found


def cmd_check(args: argparse.Namespace) -> int:
    results = {path: check_file(path, args) for path in rule_files(args.paths)}
    everything = [d for found in results.values() for d in found]
    if args.format == "json":
        print(json.dumps([d.to_dict() for d in everything], indent=2))
    elif args.format == "github":
        for d in everything:
            print(d.format_github())
    else:
        print_check_text(results, args.playouts)
    return PROBLEMS if any(d.severity == "error" for d in everything) else OK


def print_check_text(results: dict[str, list[Diagnostic]], playouts: int = 0) -> None:
    sources = Sources()
    for found in results.values():
        for d in found:
            block = sources.format(d)
            print(block + ("\n" if "\n" in block else ""))
    errors = sum(d.severity == "error" for found in results.values() for d in found)
    warnings = sum(d.severity != "error" for found in results.values() for d in found)
    bad = sum(any(d.severity == "error" for d in found) for found in results.values())
    notes = [plural(warnings, "warning")] if warnings else []
    notes += [f"{plural(playouts, 'random playout')} each"] if playouts else []
    extra = f" ({'; '.join(notes)})" if notes else ""
    if errors:
        print(f"Found {plural(errors, 'error')} in {plural(bad, 'file')}{extra}.")
    elif len(results) == 1:
        print(f"1 file is clean{extra}.")
    else:
        print(f"All {len(results)} files are clean{extra}.")


# ---------------------------------------------------------------- run and replay


def cmd_run(args: argparse.Namespace) -> int:
    game = load_game(args.game, args.players, args.option)
    agents = seat_agents(args.agents, game.players)
    stream = not (args.quiet or args.json)

    def show_log(state: meeple.State, _action: object = None) -> None:
        if state.log:
            print("\n".join(state.log))
            state.log.clear()

    state, actions = play_game(
        game,
        args.seed,
        agents,
        max_actions=args.max_actions,
        log=stream,
        on_action=show_log if stream else None,
    )
    if stream:
        show_log(state)
    names = [a.name for a in agents]
    if args.save:
        final = json.loads(state.to_json())
        trace = record_steps(game, args.seed, actions)  # the state after each action, for `replay --rules`
        played = {"agents": names, "actions": list(map(str, actions)), "final": final, **trace}
        save_record(args.save, args.game, game, args, **played)
    if args.json:
        print(json.dumps(result_record(game, args.seed, names, state, len(actions)), indent=2))
    else:
        print_result(state, names, len(actions), "" if args.quiet else "\n")
    return OK


def result_record(
    game: meeple.Game, seed: int, agents: list[str], state: meeple.State, n: int
) -> dict[str, Any]:
    return {
        "game": game.id,
        "players": game.players,
        "seed": seed,
        "options": game.options,
        "agents": agents,
        "actions": n,
        "turns": state.turn_no,
        "scores": {str(p): v for p, v in state.scores.items()},
        "winners": [str(p) for p in state.winners or []],
    }


def print_result(state: meeple.State, agents: list[str], n: int, lead: str = "") -> None:
    winners = list(state.winners or [])
    print(f"{lead}Final scores after {plural(n, 'action')} and {plural(state.turn_no, 'turn')}:")
    for p, score in state.scores.items():
        agent = agents[p] if p < len(agents) else ""
        print(f"  {p!s:<4} {agent:<8} {score:>4}{'  winner' if p in winners else ''}")
    if not winners:
        print("No winner.")
    else:
        shared = " (shared)" if len(winners) > 1 else ""
        print(f"Winner{'s' if len(winners) > 1 else ''}: {', '.join(map(str, winners))}{shared}")


def save_record(path: str, game_arg: str, game: meeple.Game, args: argparse.Namespace, **played: Any) -> None:
    """Write a saved game; a rule file is named relative to the saved file, so the two can move together."""
    if Path(game_arg).is_file():
        game_arg = os.path.relpath(Path(game_arg).resolve(), Path(path).resolve().parent)
    record = {"game": game_arg, "players": game.players, "seed": args.seed, "options": dict(args.option)}
    Path(path).write_text(trace_text({**record, **played}), encoding="utf-8")


def read_record(path: str) -> dict[str, Any]:
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        if isinstance(record, dict) and isinstance(record.get("final"), str):
            record["final"] = json.loads(record["final"])
    except OSError as err:
        raise UsageError(f"cannot read '{path}': {err.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UsageError(f"'{path}' is not a saved game (JSON): {err}") from None
    optional = type(None)
    shapes: dict[str, Any] = {
        "game": str,
        "seed": int,
        "actions": list,
        "players": (int, optional),
        "options": (dict, optional),
        "final": (dict, optional),
        "start": (dict, optional),
        "steps": (list, optional),
    }
    wrong = [
        k for k, kind in shapes.items() if not isinstance(record, dict) or not isinstance(record.get(k), kind)
    ]
    if wrong:
        raise UsageError(
            f"'{path}' is not a saved game: wrong or missing {', '.join(wrong)} (game: a name or path, "
            "seed: a whole number, actions and steps: lists, players: a whole number, "
            "options, final and start: mappings)"
        )
    return record


def record_game(record: dict[str, Any], path: str) -> str:
    """The saved game: a name, or a rule file found next to the saved file (else from here)."""
    game = str(record["game"])
    beside = Path(path).parent / game
    return str(beside) if Path(game).suffix in RULE_SUFFIXES and beside.is_file() else game


def cmd_replay(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    rules = args.rules or record_game(record, args.file)
    game = load_game(rules, record.get("players"), (record.get("options") or {}).items())
    try:
        result = replay_trace(game, record)
    except BadTrace as err:
        raise UsageError(f"'{args.file}' is not a saved game: {err}") from None
    if args.format == "json":
        print(json.dumps(replay_summary(args, record, game, result), indent=2))
    else:
        print_replay(args, record, game, result)
    return PROBLEMS if result.divergence is not None else OK


def replay_summary(args: argparse.Namespace, record: dict[str, Any], game: meeple.Game, result: Any) -> Any:
    d = result.divergence
    return {
        "trace": args.file,
        "rules": args.rules or str(record["game"]),
        "game": game.id,
        "players": game.players,
        "seed": record["seed"],
        "actions": result.actions,
        "replayed": result.replayed,
        "checked": result.checked,
        "identical": d is None,
        "divergence": None if d is None else d.to_dict(),
    }


def print_replay(args: argparse.Namespace, record: dict[str, Any], game: meeple.Game, result: Any) -> None:
    against = f" against {args.rules}" if args.rules else ""
    print(
        f"Replayed {result.replayed} of {plural(result.actions, 'action')} of {game.id} "
        f"({game.players} players, seed {record['seed']}){against}."
    )
    if result.divergence is not None:
        print("\n".join(report_lines(result)))
        return
    print_result(result.final, list(record.get("agents") or []), result.actions)
    if not result.final.is_over:
        print("Note: the game is not over after these actions.")
    print(
        {
            "states": "It replays identically: the state after every action matches the saved one.",
            "final state": "The final state matches the saved one (no states of the steps saved).",
            "actions only": "Every action is legal (no states saved, nothing more to verify).",
        }[result.checked]
    )


# ---------------------------------------------------------------- simulate, explain, schema


def cmd_simulate(args: argparse.Namespace) -> int:
    game = load_game(args.game, args.players, args.option)
    seat_agents(args.agents, game.players)
    report = simulate(
        game,
        args.n,
        args.seed,
        args.agents,
        progress=not args.no_progress,
        max_actions=args.max_actions,
        workers=args.workers,
    )
    print(json.dumps(report.to_dict(), indent=2) if args.json else format_report(report))
    return OK


def cmd_render(args: argparse.Namespace) -> int:
    from meeple.tools.render import NothingToDraw, render_svg

    game = load_game(args.game, args.players, args.option)
    state = game.new_game(seed=args.seed)
    rng = random.Random(args.seed)
    for _ in range(args.moves):  # random moves, to draw a game in progress
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    title = f"{game.name}, seed {args.seed}" + (f", after {args.moves} moves" if args.moves else "")
    try:
        svg = render_svg(state, title)
    except NothingToDraw as err:
        raise UsageError(str(err)) from None
    if args.output == "-":
        sys.stdout.write(svg + "\n")
        return OK
    try:
        Path(args.output).write_text(svg + "\n", encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write '{args.output}': {err.strerror}") from None
    print(f"Wrote {args.output}")
    return OK


def cmd_explain(args: argparse.Namespace) -> int:
    print(explain(load_game(args.game, args.players, args.option)))
    return OK


def cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(meeple.schema(), indent=2))
    return OK


# ---------------------------------------------------------------- the parser


def version() -> str:
    try:
        from importlib.metadata import version as dist_version

        return dist_version("meeple")
    except Exception:  # not installed as a distribution (run from a checkout)
        return "unknown"


EPILOG = """exit status: 0 all good, 1 problems found (rule errors, failed playouts or replays),
2 usage errors (bad arguments, unknown game, players out of range, unknown option) or internal errors.
Run `meeple COMMAND --help` for a command's options."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="meeple",
        description="Board games as rules-as-data: check, play, simulate and explain rule files.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"meeple {version()}")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for internal errors")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (handler, helptext, add) in COMMANDS.items():
        p = sub.add_parser(name, help=helptext, description=helptext, parents=[common])
        add(p)
        p.set_defaults(handler=handler)
    return parser


HELP = {
    "game": "a rule file, or the name of a seed game such as climbers_of_verdon",
    "option": "set a game option, e.g. -o target_vp=10 (repeatable)",
    "agents": f"one agent for all seats, or one per seat: {', '.join(AGENTS)} (default: %(default)s)",
    "max-actions": "give up on a game after N actions (default: %(default)s)",
    "format": "text with source lines (default), a JSON list, or GitHub Actions annotations",
    "games": "number of games, seeds SEED..SEED+N-1 (default: %(default)s)",
    "playouts": "also play N random games of each clean file (at its largest player count)",
}


def add_game(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=HELP["game"])
    p.add_argument(
        "-p", "--players", type=positive_int, metavar="N", help="players (default: the game's minimum)"
    )
    p.add_argument(
        "-o",
        "--option",
        type=option_pair,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=HELP["option"],
    )


def add_play(p: argparse.ArgumentParser) -> None:
    p.add_argument("-s", "--seed", type=int, default=1, help="random seed (default: %(default)s)")
    p.add_argument("-a", "--agents", type=agent_list, default="random", metavar="A[,A…]", help=HELP["agents"])
    p.add_argument(
        "--max-actions", type=positive_int, default=MAX_ACTIONS, metavar="N", help=HELP["max-actions"]
    )


def add_check(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="FILE_OR_DIR", help="rule files, or folders holding them")
    p.add_argument("--format", choices=("text", "json", "github"), default="text", help=HELP["format"])
    p.add_argument("--playouts", type=at_least(0), default=0, metavar="N", help=HELP["playouts"])
    p.add_argument(
        "-p", "--players", type=positive_int, metavar="N", help="players (default: the file's maximum)"
    )
    p.add_argument(
        "-s", "--seed", type=int, default=1, help="first seed of the playouts (default: %(default)s)"
    )
    p.add_argument(
        "--max-actions", type=positive_int, default=MAX_ACTIONS, metavar="N", help=HELP["max-actions"]
    )


def add_run(p: argparse.ArgumentParser) -> None:
    add_game(p)
    add_play(p)
    p.add_argument("-q", "--quiet", action="store_true", help="print only the final scores and winners")
    p.add_argument("--json", action="store_true", help="print the result as JSON (no log)")
    p.add_argument(
        "--save", metavar="FILE", help="save the game (seed, actions, every state) for `meeple replay`"
    )


def add_simulate(p: argparse.ArgumentParser) -> None:
    add_game(p)
    add_play(p)
    p.add_argument("-n", "--games", dest="n", type=positive_int, default=100, metavar="N", help=HELP["games"])
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument(
        "-w",
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="play the games in N processes (the report is the same; default: %(default)s)",
    )


def add_render(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=HELP["game"])
    p.add_argument(
        "-p", "--players", type=positive_int, metavar="N", help="players (default: the game's minimum)"
    )
    p.add_argument(
        "--option", type=option_pair, action="append", default=[], metavar="NAME=VALUE", help=HELP["option"]
    )
    p.add_argument(
        "-s", "--seed", type=int, default=1, help="random seed of the set-up (default: %(default)s)"
    )
    p.add_argument(
        "--moves", type=at_least(0), default=0, metavar="N", help="first play N random moves (default: 0)"
    )
    p.add_argument(
        "-o", "--output", default="board.svg", metavar="FILE", help="SVG file to write, - for stdout"
    )


def add_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="TRACE", help="a game saved by `meeple run --save`")
    p.add_argument(
        "--rules",
        metavar="FILE",
        help="replay against these rules (an edited copy, say) instead of the ones the game was saved with; "
        "exit 1 and the first step where the game diverges if it does not replay identically",
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="a readable report (default) or JSON"
    )


Handler = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, tuple[Handler, str, Callable[[argparse.ArgumentParser], None]]] = {
    "check": (cmd_check, "report every problem in rule files", add_check),
    "run": (cmd_run, "play one game with bots and narrate it", add_run),
    "simulate": (cmd_simulate, "play many games and print a balance report", add_simulate),
    "replay": (cmd_replay, "re-run a saved game (on edited rules too): where does it diverge", add_replay),
    "explain": (cmd_explain, "show a game's compiled flow and action table", add_game),
    "render": (cmd_render, "draw a game's board as SVG", add_render),
    "schema": (cmd_schema, "print the JSON Schema of rule files", lambda p: None),
}


# ---------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (OK if exc.code is None else USAGE)
    try:
        return args.handler(args)
    except UsageError as err:
        print(f"meeple {args.command}: error: {err}", file=sys.stderr)
        return USAGE
    except RulesError as err:
        sources = Sources(err.sources)
        print("\n".join(sources.format(d) for d in err.diagnostics), file=sys.stderr)
        return USAGE if err.diagnostics and all(is_usage(d) for d in err.diagnostics) else PROBLEMS
    except RuleRuntimeError as err:
        print(Sources().format(runtime_diagnostic(err)), file=sys.stderr)
        return PROBLEMS
    except (Problem, PlayError) as err:
        print(f"meeple {args.command}: {err}", file=sys.stderr)
        return PROBLEMS
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader left (`meeple run … | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    except Exception as err:  # our own bug: hide the traceback unless asked
        if args.debug:
            traceback.print_exc()
        else:
            print(
                f"meeple {args.command}: internal error: {type(err).__name__}: {err}\n"
                "This is a bug in meeple, not in your rules; run again with --debug for the traceback.",
                file=sys.stderr,
            )
        return USAGE


if __name__ == "__main__":
    sys.exit(main())
