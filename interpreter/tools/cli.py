"""The `meeple` command line: check, run, simulate, replay, why, play, explain, render and schema."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import meeple
from meeple import cache
from meeple.agents import AGENTS, MAX_ACTIONS, PlayError, make_agent, make_agents, play_game, split_specs
from meeple.api import search_dirs
from meeple.compile.expressions import RuleRuntimeError
from meeple.errors import IllegalActionError, RulesError, did_you_mean
from meeple.rules.loader import load_rules
from meeple.runtime.narration import narrated
from meeple.tools.check import FileReport, PathProblem, Sources, check_file, errors, is_usage, rule_files
from meeple.tools.explain import diff_record, explain, explain_diff, explain_options, options_record
from meeple.tools.guesses import Guess, find_guesses
from meeple.tools.junit import junit_xml
from meeple.tools.ray_backend import RayUnavailable
from meeple.tools.replay import BadTrace, record_steps, replay_trace, report_lines, trace_text
from meeple.tools.simulate import format_report, invariant_watch, runtime_diagnostic, simulate

OK, PROBLEMS, USAGE = 0, 1, 2
RULE_SUFFIXES = (".yaml", ".yml")


class UsageError(Exception):
    """The command line asks for something impossible; exit 2 with this message."""


class Problem(Exception):
    """The command ran and found a problem (a failed replay, a game that would not end); exit 1."""


# ---------------------------------------------------------------- wording


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


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


def option_pair(text: str) -> tuple[str, str]:
    """`NAME=VALUE`; the value stays text until the game converts it to the option's type."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        hint = " (render's SVG file is given with -O/--output)" if text.endswith(".svg") else ""
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got '{text}'{hint}")
    return name.strip(), value.strip()


def agent_list(text: str) -> list[str]:
    """Comma-separated agent specs, each a known agent with options it has (`mcts:iterations=50,random`)."""
    try:
        specs = split_specs(text)
        if not specs:
            raise ValueError(f"no agent in '{text}' (known: {', '.join(AGENTS)})")
        for spec in specs:
            make_agent(spec)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return specs


# ---------------------------------------------------------------- shared steps


def load_game(game: str, players: int | None, options: Iterable[tuple[str, Any]] = ()) -> meeple.Game:
    return meeple.load(game, players=players, options=dict(options))


def seat_agents(names: Sequence[str], players: int) -> list[Any]:
    try:
        return make_agents(names, players)
    except ValueError as err:
        raise UsageError(str(err)) from None


# ---------------------------------------------------------------- check


def options_by_file(files: list[str], given: dict[str, str]) -> dict[str, dict[str, str]]:
    """The -o values each file gets: with several files, only the options it declares; an option that
    no file declares is a usage error."""
    if len(files) <= 1 or not given:
        return {path: given for path in files}
    declared = {path: declared_options(path) for path in files}
    unknown = [name for name in given if not any(name in names for names in declared.values())]
    if unknown:
        hint = did_you_mean(unknown[0], {name for names in declared.values() for name in names})
        raise UsageError(f"no rule file declares option '{unknown[0]}'" + (f" ({hint})" if hint else ""))
    return {path: {k: v for k, v in given.items() if k in declared[path]} for path in files}


def declared_options(path: str) -> set[str]:
    try:
        data = load_rules(path, search_dirs()).data
    except RulesError:
        return set()  # the check itself reports the file's problem
    options = (data.get("game") or {}).get("options") if isinstance(data.get("game"), dict) else None
    return set(options) if isinstance(options, dict) else set()


def cmd_check(args: argparse.Namespace) -> int:
    try:
        files = rule_files(args.paths)
        if args.guesses:
            return list_guesses(files, args.format)
        options = options_by_file(files, dict(args.option))
        reports = [
            check_file(
                path,
                args.players,
                args.playouts,
                args.seed,
                args.max_actions,
                warn=not args.no_warn,
                progress=args.format == "text",
                options=options[path],
            )
            for path in files
        ]
    except PathProblem as err:
        raise UsageError(str(err)) from None
    everything = [d for report in reports for d in report.everything]
    if args.format == "json":
        print(json.dumps([d.to_dict() for d in everything], indent=2))
    elif args.format == "github":
        for d in everything:
            print(d.format_github())
    elif args.format == "junit":
        print(junit_xml(reports))
    else:
        print_check_text(reports, args.playouts)
    warned = args.strict and any(d.severity == "warning" for d in everything)
    return PROBLEMS if errors(everything) or warned else OK


def print_check_text(reports: list[FileReport], playouts: int = 0) -> None:
    sources = Sources()
    for report in reports:
        for d in report.everything:
            block = sources.format(d)
            print(block + ("\n" if "\n" in block else ""))
    found = [d for report in reports for d in report.everything]
    bad = sum(bool(errors(report.everything)) for report in reports)
    warnings = len(found) - len(errors(found))
    notes = [plural(warnings, "warning")] if warnings else []
    notes += [f"{plural(playouts, 'random playout')} each"] if playouts else []
    extra = f" ({'; '.join(notes)})" if notes else ""
    if errors(found):
        print(f"Found {plural(len(errors(found)), 'error')} in {plural(bad, 'file')}{extra}.")
    elif len(reports) == 1:
        print(f"1 file is clean{extra}.")
    else:
        print(f"All {len(reports)} files are clean{extra}.")


def list_guesses(files: list[str], fmt: str) -> int:
    """`meeple check --guesses`: each file's `guess:` entries, as text or JSON; exit 1 if one won't load."""
    if fmt not in ("text", "json"):
        raise UsageError(f"--guesses lists in text or json, not {fmt}")
    listed: list[tuple[str, list[Guess]]] = []
    broken = []
    for path in files:
        try:
            listed.append((path, find_guesses(load_rules(path, search_dirs()))))
        except RulesError as err:
            if err.diagnostics and all(is_usage(d) for d in err.diagnostics):
                raise UsageError("; ".join(d.message for d in err.diagnostics)) from None
            broken.append(err)
    if fmt == "json":
        records = [{"file": path, "guesses": [g.to_dict() for g in found]} for path, found in listed]
        print(json.dumps(records, indent=2))
    else:
        for path, found in listed:
            print(f"{path}: {plural(len(found), 'guess', 'guesses')}")
            print("".join(f"{g.headline()}\n" for g in found))
        total = sum(len(found) for _, found in listed)
        print(f"{plural(total, 'guess', 'guesses')} in {plural(len(listed), 'file')}.")
    for problem in broken:
        sources = Sources(problem.sources)
        print("\n".join(sources.format(d) for d in problem.diagnostics), file=sys.stderr)
    return PROBLEMS if broken else OK


# ---------------------------------------------------------------- run and replay


def cmd_run(args: argparse.Namespace) -> int:
    game = load_game(args.game, args.players, args.option)
    agents = seat_agents(args.agents, game.players)
    stream = not (args.quiet or args.json)
    seat = None if args.seat is None else seat_in_game(args.seat, game.players)
    watch = invariant_watch(game, args.seed) if args.check_invariants else None
    told: list[str] = []

    def show_log(state: meeple.State, action: Any = None) -> None:
        if state.log:
            lines = state.log if seat is None else narrated(state.log, seat)
            told.extend(lines)
            if stream:
                print("\n".join(lines))
            state.log.clear()
        if watch is not None and action is not None:
            watch(state, action)

    if stream and seat is not None:
        print(
            f"The game as p{seat + 1} sees it: other players' hidden cards, picks and secrets are not shown."
        )
    state, actions = play_game(
        game,
        args.seed,
        agents,
        max_actions=args.max_actions,
        log=stream,
        on_action=show_log if stream or watch is not None or seat is not None else None,
        narrate=[seat] if seat is not None else False,
    )
    show_log(state)
    names = [a.name for a in agents]
    if args.save and seat is not None:
        view = json.loads(state.view(seat).to_json())
        save_view(args.save, args.game, game, args, seat=f"p{seat + 1}", view=view, log=told)
    elif args.save:
        final = json.loads(state.to_json())
        trace = record_steps(game, args.seed, actions)  # the state after each action, for `replay --rules`
        played = {"agents": names, "actions": list(map(str, actions)), "final": final, **trace}
        save_record(args.save, args.game, game, args, **played)
    if args.json:
        print(json.dumps(result_record(game, args.seed, names, state, len(actions)), indent=2))
    else:
        print_result(state, names, len(actions), "" if args.quiet else "\n")
    return OK


def seat_in_game(text: str, players: int) -> int:
    """`--seat 2` or `--seat p2`: the 0-based seat, or a usage error."""
    digits = text[1:] if text.lower().startswith("p") else text
    if not digits.isdigit() or not 1 <= int(digits) <= players:
        raise UsageError(f"--seat must be a player from p1 to p{players} (or 1 to {players}), not '{text}'")
    return int(digits) - 1


def save_view(path: str, game_arg: str, game: meeple.Game, args: argparse.Namespace, **seen: Any) -> None:
    """Save what one seat saw: the final view and the narrated log; no seed or actions (they would tell
    everything), so it cannot be replayed."""
    record = {"game": game_arg, "players": game.players, "options": dict(args.option)}
    try:
        Path(path).write_text(json.dumps({**record, **seen}, indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write '{path}': {err.strerror}") from None


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
    width = max([8, *map(len, agents)])  # agent specs with options are longer than a bare name
    for p, score in state.scores.items():
        agent = agents[p] if p < len(agents) else ""
        print(f"  {p!s:<4} {agent:<{width}} {score:>4}{'  winner' if p in winners else ''}")
    if not winners:
        print("No winner.")
    else:
        shared = " (shared)" if len(winners) > 1 else ""
        print(f"Winner{'s' if len(winners) > 1 else ''}: {', '.join(map(str, winners))}{shared}")


def save_record(path: str, game_arg: str, game: meeple.Game, args: argparse.Namespace, **played: Any) -> None:
    """Write a saved game; a rule file is named relative to the saved file, so the two can move together."""
    if Path(game_arg).is_file():
        game_arg = os.path.relpath(Path(game_arg).resolve(), Path(path).resolve().parent)
    given = {name: game.options[name] for name, _ in args.option}  # converted: true, 10, 'hard'
    record = {"game": game_arg, "players": game.players, "seed": args.seed, "options": given}
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
    if args.seat is not None and not args.html:
        raise UsageError("--seat chooses whose view the page shows: give --html PAGE too")
    record = read_record(args.file)
    rules = args.rules or record_game(record, args.file)
    game = load_game(rules, record.get("players"), (record.get("options") or {}).items())
    if args.seat is not None and args.seat >= game.players:
        raise UsageError(f"no seat p{args.seat + 1}: the game has {game.players} players")
    try:
        result = replay_trace(game, record)
    except BadTrace as err:
        raise UsageError(f"'{args.file}' is not a saved game: {err}") from None
    if args.format == "json":
        print(json.dumps(replay_summary(args, record, game, result), indent=2))
    else:
        print_replay(args, record, game, result)
    if args.html:  # against edited rules, the page shows the game as far as its actions are still legal
        d = result.divergence
        cut = d is not None and d.kind in ("illegal", "ended", "set-up") and args.rules is not None
        write_page(args, record, game, result.replayed if cut else None)
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


def seat_number(text: str) -> int:
    """A seat as the log names it, `p2`, or by its number, `2`; 0-based inside."""
    digits = text[1:] if text[:1].lower() == "p" else text
    if not digits.isdigit() or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"not a seat: '{text}' (write p1, p2… or 1, 2…)")
    return int(digits) - 1


def write_page(args: argparse.Namespace, record: dict[str, Any], game: meeple.Game, upto: int | None) -> None:
    """The saved game as a self-contained web page (`--html`), as one seat sees it with `--seat`: its first
    `upto` actions when the rest no longer replay (all of them for None)."""
    from meeple.tools.viewer import replay_page

    actions = [str(a) for a in record["actions"]][:upto]
    try:
        text = replay_page(game, int(record["seed"]), actions, args.seat, list(record.get("agents") or []))
    except IllegalActionError as err:
        raise Problem(f"the saved actions do not replay: {err}") from None
    try:
        Path(args.html).write_text(text, encoding="utf-8")
    except OSError as err:
        raise UsageError(f"cannot write '{args.html}': {err.strerror}") from None
    shown = f" (its first {plural(upto, 'action')}, up to where it diverges)" if upto is not None else ""
    print(f"Wrote {args.html}{shown}", file=sys.stderr if args.format == "json" else sys.stdout)


# ---------------------------------------------------------------- simulate, explain, schema


def cmd_simulate(args: argparse.Namespace) -> int:
    from meeple.tools.compare import compare, format_comparison
    from meeple.tools.report_html import report_html

    game = load_game(args.game, args.players, args.option)
    seat_agents(args.agents, game.players)
    if args.ray is not None and args.workers > 1:
        raise UsageError("give --workers or --ray, not both (on Ray, the cluster's CPUs are the workers)")

    def run(g: meeple.Game) -> Any:
        return simulate(
            g,
            args.n,
            args.seed,
            args.agents,
            progress=not args.quiet,
            max_actions=args.max_actions,
            workers=args.workers,
            rotate=args.rotate,
            check_invariants=args.check_invariants,
            ray=args.ray,
        )

    report, comparison, variant = None, None, None
    try:
        report = run(game)
        if args.compare:
            variant = run(load_game(args.compare, game.players, args.option))
            comparison = compare(report, variant)
    except RayUnavailable as err:
        raise UsageError(str(err)) from None
    if args.html:
        page = report_html(report, comparison, (args.game, args.compare or ""))
        try:
            Path(args.html).write_text(page, encoding="utf-8")
        except OSError as err:
            raise UsageError(f"cannot write '{args.html}': {err.strerror}") from None
    if args.json:
        print(json.dumps(comparison.to_dict() if comparison else report.to_dict(), indent=2))
    else:
        print(format_report(report))
        if comparison is not None and variant is not None:
            print(f"\nVariant {args.compare}\n")
            print(format_report(variant))
            print()
            print(format_comparison(comparison, args.game, args.compare))
    if args.html:
        print(f"Wrote {args.html}", file=sys.stderr)
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
    chosen = "".join(f", {name}={value}" for name, value in args.option)
    title = f"{game.name}{chosen}, seed {args.seed}" + (f", after {args.moves} moves" if args.moves else "")
    try:
        svg = render_svg(state, title)
    except NothingToDraw as err:
        raise UsageError(str(err)) from None
    return write_output(svg, args.output)


def write_output(svg: str, output: str) -> int:
    """The picture to a .svg or .png file (by its suffix), or as SVG to stdout for `-`."""
    from meeple.tools.picture import PictureError, write_picture

    if output == "-":
        sys.stdout.write(svg + "\n")
        return OK
    try:
        write_picture(svg, output)
    except PictureError as err:
        raise UsageError(str(err)) from None
    print(f"Wrote {output}")
    return OK


def cmd_why(args: argparse.Namespace) -> int:
    from meeple.tools.why import cmd_why as run

    return run(args)


def cmd_play(args: argparse.Namespace) -> int:
    from meeple.tools.play import cmd_play as run

    return run(args)


def cmd_explain(args: argparse.Namespace) -> int:
    game = load_game(args.game, args.players, args.option)
    if args.diff and not (game.source is not None and len(game.source.chain) > 1):
        raise UsageError(f"'{args.game}' extends no other rules file: there is no base to compare with")
    if args.json and not (args.options or args.diff):
        raise UsageError("--json needs --options or --diff")
    if args.json:
        record: dict[str, Any] = {}
        if args.options:
            record["options"] = options_record(game)
        if args.diff:
            record["diff"] = diff_record(game)
        print(json.dumps(record, indent=2))
    elif args.options or args.diff:
        parts = ([explain_options(game)] if args.options else []) + (
            [explain_diff(game)] if args.diff else []
        )
        print("\n\n".join(parts))
    else:
        print(explain(game))
    return OK


def cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(meeple.schema(), indent=2))
    return OK


def cmd_cache(args: argparse.Namespace) -> int:
    folder = cache.directory()
    if folder is None:
        print("no cache: MEEPLE_CACHE_DIR is empty, --no-cache is given, or the directory cannot be made")
        return OK
    if args.clear:
        removed = cache.clear(folder)
        print(f"removed {removed} file{'' if removed == 1 else 's'} from {folder}")
        return OK
    stores, size = cache.contents(folder)
    if args.json:
        print(json.dumps({"directory": str(folder), "rule_files": stores, "bytes": size}))
    else:
        print(f"{folder}\n{stores} rule file{'' if stores == 1 else 's'} kept, {size / 1e6:.1f} MB")
    return OK


def add_cache(p: argparse.ArgumentParser) -> None:
    p.add_argument("--clear", action="store_true", help="delete what the cache holds")
    p.add_argument("--json", action="store_true", help="print the directory, rule files and bytes as JSON")


# ---------------------------------------------------------------- the parser


def version() -> str:
    try:
        from importlib.metadata import version as dist_version

        return dist_version("meeple")
    except Exception:  # not installed as a distribution (run from a checkout)
        return "unknown"


class ShowVersion(argparse.Action):
    """`--version`: the installed version is looked up when asked for (importlib.metadata takes about
    0.05 s to import and search), not while every command's parser is built."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"meeple {version()}")
        parser.exit()


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
    parser.add_argument("--version", action=ShowVersion, nargs=0, help="show meeple's version and exit")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for internal errors")
    parser.add_argument("--no-cache", action="store_true", help=HELP["no-cache"])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument("--no-cache", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (handler, helptext, add) in COMMANDS.items():
        p = sub.add_parser(name, help=helptext, description=helptext, parents=[common])
        add(p)
        p.set_defaults(handler=handler)
    return parser


HELP = {
    "no-cache": "neither read nor keep the cache of what loads work out (see MEEPLE_CACHE_DIR)",
    "game": "a rule file, or the name of a seed game such as climbers_of_verdon",
    "option": "set a game option, e.g. -o target_vp=10 (repeatable; `explain GAME --options` lists them)",
    "agents": f"one agent for all seats, or one per seat: {', '.join(AGENTS)}, options after colons, "
    "e.g. mcts:iterations=100:depth=20,random (default: %(default)s)",
    "max-actions": "give up on a game after N actions (default: %(default)s)",
    "format": "text with source lines (default), a JSON list, GitHub Actions annotations or JUnit XML",
    "games": "number of games, seeds SEED..SEED+N-1 (default: %(default)s)",
    "playouts": "also play N random games of each clean file (at its largest player count)",
    "check-option": "check (and play) with this option set, e.g. -o target_vp=10 (repeatable; with several "
    "files, each gets the options it declares)",
    "check-invariants": "check the rule file's invariants after every action; a broken one is an error "
    "(exit 1) naming its line, the seed and the step",
}


def add_game(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=HELP["game"])
    p.add_argument(
        "-p", "--players", type=positive_int, metavar="N", help="players (default: the game's minimum)"
    )
    add_option(p, HELP["option"])


def add_option(p: argparse.ArgumentParser, helptext: str) -> None:
    p.add_argument(
        "-o", "--option", type=option_pair, action="append", default=[], metavar="NAME=VALUE", help=helptext
    )


def add_play(p: argparse.ArgumentParser) -> None:
    p.add_argument("-s", "--seed", type=int, default=1, help="random seed (default: %(default)s)")
    p.add_argument("-a", "--agents", type=agent_list, default="random", metavar="A[,A…]", help=HELP["agents"])
    p.add_argument(
        "--max-actions", type=positive_int, default=MAX_ACTIONS, metavar="N", help=HELP["max-actions"]
    )
    p.add_argument("--check-invariants", action="store_true", help=HELP["check-invariants"])


def add_check(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="FILE_OR_DIR", help="rule files, or folders holding them")
    p.add_argument(
        "--format", choices=("text", "json", "github", "junit"), default="text", help=HELP["format"]
    )
    p.add_argument("--playouts", type=at_least(0), default=0, metavar="N", help=HELP["playouts"])
    p.add_argument("--no-warn", action="store_true", help="report errors only, no semantic warnings")
    p.add_argument("--strict", action="store_true", help="warnings fail the check too (exit 1)")
    p.add_argument(
        "--guesses", action="store_true", help="list each file's `guess:` entries instead (text or json)"
    )
    p.add_argument(
        "-p", "--players", type=positive_int, metavar="N", help="players (default: the file's maximum)"
    )
    p.add_argument(
        "-s", "--seed", type=int, default=1, help="first seed of the playouts (default: %(default)s)"
    )
    p.add_argument(
        "--max-actions", type=positive_int, default=MAX_ACTIONS, metavar="N", help=HELP["max-actions"]
    )
    add_option(p, HELP["check-option"])


def add_run(p: argparse.ArgumentParser) -> None:
    add_game(p)
    add_play(p)
    p.add_argument("-q", "--quiet", action="store_true", help="print only the final scores and winners")
    p.add_argument("--json", action="store_true", help="print the result as JSON (no log)")
    p.add_argument(
        "--save", metavar="FILE", help="save the game (seed, actions, every state) for `meeple replay`"
    )
    p.add_argument(
        "--seat",
        metavar="P",
        help="narrate the game as player P (2 or p2) sees it: others' hidden cards and secret picks are not "
        "shown; with --save, only P's view and log are saved",
    )


def add_simulate(p: argparse.ArgumentParser) -> None:
    add_game(p)
    add_play(p)
    p.add_argument("-n", "--games", dest="n", type=positive_int, default=100, metavar="N", help=HELP["games"])
    p.add_argument("--json", action="store_true", help="print the report as JSON (keys: see README)")
    p.add_argument(
        "--html", metavar="FILE", help="also write the report with plots as one self-contained page"
    )
    p.add_argument(
        "--compare",
        metavar="VARIANT",
        help="also play a variant rule file on the same seeds and say what changed significantly",
    )
    p.add_argument(
        "-q", "--quiet", "--no-progress", dest="quiet", action="store_true", help="no progress bar on stderr"
    )
    p.add_argument(
        "-w",
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="play the games in N processes (the report is the same; default: %(default)s)",
    )
    p.add_argument(
        "--rotate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="turn the seats by one place from game to game, so every agent plays every seat equally often "
        "over a multiple of the player count (default: on when the agents differ)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play the games as tasks on a Ray cluster (at ADDRESS; without it, Ray's default: RAY_ADDRESS "
        "or a new local instance); the report is the same (needs meeple[ray])",
    )


def add_render(p: argparse.ArgumentParser) -> None:
    add_game(p)
    p.add_argument(
        "-s", "--seed", type=int, default=1, help="random seed of the set-up (default: %(default)s)"
    )
    p.add_argument(
        "--moves", type=at_least(0), default=0, metavar="N", help="first play N random moves (default: 0)"
    )
    p.add_argument(
        "-O",
        "--output",
        default="board.svg",
        metavar="FILE",
        help="the picture to write: FILE.svg or FILE.png; - for SVG on stdout (default: %(default)s)",
    )


def add_explain(p: argparse.ArgumentParser) -> None:
    add_game(p)
    p.add_argument(
        "--options", action="store_true", help="list the options: type, default, range or choices, doc"
    )
    p.add_argument(
        "--diff", action="store_true", help="list what a variant changes against its base, with its lines"
    )
    p.add_argument("--json", action="store_true", help="print --options and --diff as JSON")


def add_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="TRACE", help="a game saved by `meeple run --save`")
    p.add_argument(
        "--html",
        metavar="PAGE",
        help="also write a web page that steps through the game (board, log, scores)",
    )
    p.add_argument(
        "--seat", type=seat_number, metavar="P", help="with --html: show the game as seat P (p1, p2…) sees it"
    )

    p.add_argument(
        "--rules",
        metavar="FILE",
        help="replay against these rules (an edited copy, say) instead of the ones the game was saved with; "
        "exit 1 and the first step where the game diverges if it does not replay identically",
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="a readable report (default) or JSON"
    )


def add_why(p: argparse.ArgumentParser) -> None:
    add_game(p)
    p.add_argument("action", metavar="ACTION", help="the action, as printed: 'build_rope(path=c0-c4)'")
    p.add_argument(
        "--state",
        metavar="FILE",
        help="a game saved by `meeple run --save` (replayed to its end) or a state saved as JSON; "
        "default: the start of a new game",
    )
    p.add_argument(
        "--step", type=at_least(0), metavar="N", help="replay only the first N actions of the saved game"
    )
    p.add_argument("-s", "--seed", type=int, default=1, help="seed of a new game (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")


def add_person(p: argparse.ArgumentParser) -> None:
    add_game(p)
    p.add_argument(
        "--seat", type=positive_int, default=1, metavar="N", help="your seat (default: %(default)s)"
    )
    p.add_argument("-s", "--seed", type=int, default=1, help="random seed (default: %(default)s)")
    p.add_argument(
        "-a",
        "--agents",
        type=agent_list,
        default="random",
        metavar="A[,A…]",
        help=f"the bots: one for every other seat, or one per other seat: {', '.join(AGENTS)} "
        "(default: %(default)s)",
    )


Handler = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, tuple[Handler, str, Callable[[argparse.ArgumentParser], None]]] = {
    "check": (cmd_check, "report every problem in rule files", add_check),
    "run": (cmd_run, "play one game with bots and narrate it", add_run),
    "simulate": (cmd_simulate, "play many games and print a balance report", add_simulate),
    "replay": (
        cmd_replay,
        "re-run a saved game (on edited rules too: where does it diverge), or write it as a web page",
        add_replay,
    ),
    "play": (cmd_play, "play a game in the terminal against bots", add_person),
    "why": (cmd_why, "say why an action is or is not legal at a position", add_why),
    "explain": (
        cmd_explain,
        "show a game's compiled flow and action table, options or variant diff",
        add_explain,
    ),
    "render": (cmd_render, "draw a game's board (or a card game's table) as SVG or PNG", add_render),
    "schema": (cmd_schema, "print the JSON Schema of rule files", lambda p: None),
    "cache": (cmd_cache, "show where loads are kept and how much, or clear the cache", add_cache),
}


# ---------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (OK if exc.code is None else USAGE)
    try:
        with cache.off() if args.no_cache else contextlib.nullcontext():
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
