"""`meeple play`: a person plays one seat against bots in the terminal, seeing only what that seat may see.

The person picks numbered legal actions; a long list is narrowed one parameter at a time, and actions the
rule file marks `stepwise` come one parameter at a time from the engine itself. Commands: help, undo (back
to the person's previous decision; the bots' generators go back too, so they answer as before), why ACTION,
show, save FILE, quit.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import meeple
from meeple.agents import Agent
from meeple.runtime.breakdown import shown
from meeple.runtime.simultaneous import pending
from meeple.runtime.view import HIDDEN
from meeple.runtime.why import ActionTextError
from meeple.values import Action, Player

MAX_LIST = 24  # more legal actions than this are grouped: first the action, then each parameter
HELP = """Type the number of a choice (or an action as printed) to take it. Commands:
  help          this text
  show          the position again
  why ACTION    why an action is or is not legal now, e.g. why build_rope(path=c0-c4)
  undo          back to your previous decision (the bots then play as they did)
  back          widen a narrowed list of choices again
  save FILE     save the game so far (`meeple replay FILE` re-runs it)
  quit          leave the game"""


@dataclass
class Mark:
    """One decision of the person: the position, the bots' generators there, and the actions before it."""

    state: meeple.State
    rngs: list[Any]
    taken: int


class Quit(Exception):
    """The person left the game (`quit`, or the end of the input)."""


class Session:
    """One game: the person at `seat`, a bot at every other seat."""

    def __init__(
        self,
        game: meeple.Game,
        seat: int,
        agents: Sequence[Agent | None],
        seed: int,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        record: dict[str, Any] | None = None,
    ) -> None:
        self.game, self.seat, self.agents, self.seed = game, Player(seat), list(agents), seed
        self.read, self.write = read, write
        self.record = dict(record or {})  # what a saved game says besides its seed and actions
        self.rngs = [random.Random(seed * 1000 + i) for i in range(game.players)]  # as `meeple run`
        self.state = game.new_game(seed=seed, log=True)
        self.actions: list[Action] = []
        self.marks: list[Mark] = []

    # ------------------------------------------------------------ the game

    def run(self) -> bool:
        """Play to the end; False if the person quit first."""
        self.write(f"{self.game.name}: you play {self.seat}; type help for the commands.")
        self.flush_log()
        try:
            while not self.state.is_over:
                if self.state.to_move == self.seat:
                    self.decide()
                else:
                    self.bot_moves()
        except Quit:
            self.write("You left the game.")
            return False
        self.write(self.final())
        return True

    def bot_moves(self) -> None:
        mover = self.state.to_move
        agent = self.agents[mover] if mover is not None else None
        legal = self.state.legal_actions()
        if agent is None or not legal:
            raise RuntimeError(f"{mover} has no bot, or nothing legal to do")
        self.take(agent.choose(self.state, legal, self.rngs[mover]))

    def take(self, action: Action) -> None:
        chosen = [*pending(self.state), (self.state.to_move, action)] if self.state.choosing_in_secret else []
        self.state.apply(action)
        self.actions.append(action)
        self.flush_log(action, chosen)

    def flush_log(self, action: Action | None = None, chosen: list[tuple[Any, Action]] | None = None) -> None:
        """Print what happened since the last look, another player's hidden choices masked (`chosen`: the
        secret choices of a `simultaneous` step, which this action may have revealed)."""
        lines = self.state.log or []
        view = self.state.view(self.seat) if lines else None
        theirs = {f"{p}: {a}": a for p, a in chosen or [] if p != self.seat}
        for line in lines:
            who, sep, rest = line.partition(": ")
            if line in theirs:
                line = f"{who}: {masked(theirs[line], view)}"
            elif sep and action is not None and rest == str(action) and who != str(self.seat):
                line = f"{who}: {masked(action, view)}"
            self.write(line)
        if self.state.log is not None:
            self.state.log.clear()

    # ------------------------------------------------------------ the person's decisions

    def decide(self) -> None:
        if not self.marks or self.marks[-1].taken != len(self.actions):
            rngs = [r.getstate() for r in self.rngs]
            self.marks.append(Mark(self.state.clone(), rngs, len(self.actions)))
        self.write(self.position())
        legal = self.state.legal_actions()
        choices, depth, listed = legal, 0, False
        while True:
            options = menu(choices, depth)
            if not listed:  # the list again only when it changed; a message alone re-prompts
                self.write(self.listing(options))
                listed = True
            line = self.ask()
            if not line:
                continue
            if line.isdigit():
                k = int(line)
                if not 1 <= k <= len(options):
                    self.write(f"No choice {k}: pick 1 to {len(options)}.")
                    continue
                label, group, level = options[k - 1]
                if len(group) == 1:
                    return self.take(group[0])
                choices, depth, listed = group, level, False
                continue
            word, _, rest = line.partition(" ")
            command = COMMANDS.get(word.lower())
            if command is not None:
                if command(self, rest.strip()):
                    return  # the position changed (undo)
                if word.lower() in ("back", "show"):
                    choices, depth, listed = legal, 0, False
                continue
            picked = [a for a in legal if _same(str(a), line)]
            if picked:
                return self.take(picked[0])
            tip = f"; `why {line}` says why it is not legal" if "(" in line else ""
            self.write(f"'{line}' is neither a choice nor a command (type help){tip}.")

    def ask(self) -> str:
        try:
            return self.read("> ").strip()
        except EOFError:
            raise Quit from None

    def listing(self, options: list[tuple[str, list[Action], int]]) -> str:
        width = len(str(len(options)))
        rows = [f"  {i:>{width}}. {label}" for i, (label, _, _) in enumerate(options, 1)]
        return "Your choices:\n" + "\n".join(rows)

    # ------------------------------------------------------------ commands

    def c_help(self, rest: str) -> bool:
        self.write(HELP)
        return False

    def c_show(self, rest: str) -> bool:
        self.write(self.position())
        return False

    def c_back(self, rest: str) -> bool:
        return False

    def c_quit(self, rest: str) -> bool:
        raise Quit

    def c_why(self, rest: str) -> bool:
        if not rest:
            self.write("why what? e.g. why " + str(self.state.legal_actions()[0]))
            return False
        try:
            self.write(str(self.state.why(rest)))
        except ActionTextError as err:
            self.write(str(err))
        return False

    def c_undo(self, rest: str) -> bool:
        if len(self.marks) < 2:
            self.write("Nothing to undo: this is your first decision.")
            return False
        self.marks.pop()
        mark = self.marks[-1]
        self.state = mark.state.clone()
        self.state.log = []
        for rng, saved in zip(self.rngs, mark.rngs):
            rng.setstate(saved)
        del self.actions[mark.taken :]
        self.write(f"Back to your decision after {len(self.actions)} actions.")
        return True

    def c_save(self, rest: str) -> bool:
        if not rest:
            self.write("save where? e.g. save game.json")
            return False
        game = str(self.record.get("game", self.game.id))
        if Path(game).is_file():  # a rule file is named relative to the saved game, as `meeple run --save`
            game = os.path.relpath(Path(game).resolve(), Path(rest).resolve().parent)
        record = {
            **self.record,
            "game": game,
            "seed": self.seed,
            "agents": [a.name if a is not None else "person" for a in self.agents],
            "actions": [str(a) for a in self.actions],
        }
        try:
            with open(rest, "w", encoding="utf-8") as out:
                out.write(json.dumps(record, indent=1) + "\n")
        except OSError as err:
            self.write(f"Cannot write '{rest}': {err.strerror}")
            return False
        self.write(f"Saved {len(self.actions)} actions to {rest}.")
        return False

    # ------------------------------------------------------------ showing

    def position(self) -> str:
        return describe(self.state.view(self.seat), self.seat)

    def final(self) -> str:
        s = self.state
        winners = list(s.winners or [])
        rows = [
            f"  {p}{' (you)' if p == self.seat else ''}: {v}{'  winner' if p in winners else ''}"
            for p, v in s.scores.items()
        ]
        verdict = "You win!" if self.seat in winners else "You lose." if winners else "No winner."
        if self.seat in winners and len(winners) > 1:
            verdict = "You share the win."
        return "The game is over. Scores:\n" + "\n".join(rows) + "\n" + verdict


COMMANDS: dict[str, Callable[[Session, str], bool]] = {
    "help": Session.c_help,
    "?": Session.c_help,
    "show": Session.c_show,
    "why": Session.c_why,
    "undo": Session.c_undo,
    "back": Session.c_back,
    "save": Session.c_save,
    "quit": Session.c_quit,
    "exit": Session.c_quit,
}


def _same(a: str, b: str) -> bool:
    return "".join(a.split()) == "".join(b.split())


def menu(actions: list[Action], depth: int) -> list[tuple[str, list[Action], int]]:
    """The choices to show: every action when few, else groups by the action's name, then by each parameter
    in turn (label, the actions in the group, the depth to narrow it at)."""
    if len(actions) <= MAX_LIST:
        return [(str(a), [a], depth) for a in actions]
    while True:
        groups: dict[Any, list[Action]] = {}
        for a in actions:
            key = a.name if depth == 0 else (a.params[depth - 1] if len(a.params) >= depth else None)
            groups.setdefault(key, []).append(a)
        if len(groups) > 1 or depth > max(len(a.params) for a in actions):
            break
        depth += 1
    if len(groups) == 1:  # nothing tells them apart any more
        return [(str(a), [a], depth) for a in actions]
    return [(_group_label(g, depth), g, depth + 1) for g in groups.values()]


def _group_label(group: list[Action], depth: int) -> str:
    if len(group) == 1:
        return str(group[0])
    first = group[0]
    fixed = ", ".join(f"{k}={v}" for k, v in first.params[:depth])
    inner = f"{fixed}, …" if fixed else "…"
    return f"{first.name}({inner})  [{len(group)} choices]"


def masked(action: Action, view: Any) -> str:
    """Another player's action as a seat may see it: a card is shown only when it lies, after the action, in
    a zone every player sees (played to the table, say); otherwise it is `?`."""
    public_zones = {z.name for z in view.game.zones if z.visibility == "all"}
    cards = {
        k
        for key, zone in view.zones.items()
        if key.partition("#")[0] in public_zones
        for k, n in zone.items()
        if n and k != HIDDEN
    }
    definitions = view.game.sym.definitions

    def public(v: Any) -> Any:
        if isinstance(v, list | tuple):
            return "[" + ", ".join(str(public(x)) for x in v) + "]"
        if isinstance(v, str) and "family" in definitions.get(v, {}) and v not in cards:
            return HIDDEN
        return v

    inner = ", ".join(f"{k}={public(v)}" for k, v in action.params)
    return f"{action.name}({inner})" if action.params else action.name


def describe(view: Any, seat: Player) -> str:
    """A seat's view of the position: the turn, each player's holdings and zones, the pieces, the rest."""
    lines = [f"-- turn {view.turn_no}, {view.to_move} to decide; you are {seat} --"]
    mine = [str(a) for p, a in pending(view) if p == seat]
    if mine:
        lines.append("your secret choices so far (shown to nobody until all have chosen): " + ", ".join(mine))
    for p in view.players:
        scores = _score(view, p)
        holdings = ", ".join(
            f"{k} {shown(v)}" for k, v in view.pv[p].items() if v not in (0, None, (), False)
        )
        zones = []
        for key, zone in view.zones.items():
            name, _, owner = key.partition("#")
            if owner == str(int(p)) and zone:
                zones.append(f"{name}: {_zone(zone)}")
        who = f"{p}{' (you)' if p == seat else ''}"
        lines.append(
            f"{who}: score {scores}"
            + (f"; {holdings}" if holdings else "")
            + ("; " + "; ".join(zones) if zones else "")
        )
    shared = [
        f"{key}: {_zone(zone)}"
        for key, zone in view.zones.items()
        if not key.partition("#")[2].isdigit() and zone
    ]
    if shared:
        lines.append("zones: " + "; ".join(shared))
    by_owner: dict[str, list[str]] = {}
    for rec in view.pieces.values():
        by_owner.setdefault(str(rec.get("owner") or "none"), []).append(f"{rec['kind']}@{rec['site']}")
    for owner, pieces in sorted(by_owner.items()):
        lines.append(f"pieces of {owner}: " + ", ".join(pieces))
    facts = [f"{k} {shown(v)}" for k, v in {**view.gv, **view.tv}.items() if len(shown(v)) <= 40]
    for scope, values in view.sv.items():
        facts += [f"{scope}.{k} {shown(v)}" for k, v in values.items() if len(shown(v)) <= 40]
    if facts:
        lines.append("game: " + ", ".join(facts))
    return "\n".join(lines)


def _zone(zone: dict[str, int]) -> str:
    if not zone:
        return "empty"
    if set(zone) == {HIDDEN}:
        return f"{zone[HIDDEN]} hidden"
    return ", ".join(k if n == 1 else f"{n} {k}" for k, n in sorted(zone.items()))


def _score(view: Any, p: Player) -> str:
    try:
        return str(view.game.score(view, {"p": p}))
    except Exception:  # a score that reads what this seat cannot see
        return "?"


# ---------------------------------------------------------------- the command


def bot_names(names: Sequence[str], players: int, seat: int) -> list[str | None]:
    """One name for every bot, one per other seat in order, or one per seat (the person's ignored)."""
    from meeple.tools.cli import UsageError

    others = players - 1
    if len(names) == 1:
        chosen = list(names) * others
    elif len(names) == others:
        chosen = list(names)
    elif len(names) == players:
        chosen = [n for i, n in enumerate(names) if i != seat]
    else:
        raise UsageError(f"{len(names)} agents given for {others} bots; give one, or one per other seat")
    out: list[str | None] = list(chosen)
    out.insert(seat, None)
    return out


def cmd_play(args: Any) -> int:
    from meeple.agents import AGENTS
    from meeple.tools.cli import OK, UsageError, load_game

    game = load_game(args.game, args.players, args.option)
    if not 1 <= args.seat <= game.players:
        raise UsageError(f"--seat {args.seat}: {game.id} has seats 1 to {game.players} here")
    seat = args.seat - 1
    names = bot_names(args.agents, game.players, seat)
    agents = [AGENTS[n]() if n is not None else None for n in names]
    record = {"game": args.game, "players": game.players, "options": dict(args.option)}
    Session(game, seat, agents, args.seed, record=record).run()
    return OK
