"""The public entry points: load a rule file into a Game, start and replay games."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from meeple import cache
from meeple.compile.game import GameCompiler
from meeple.compile.ir import GameDef
from meeple.compile.options import resolve_options
from meeple.data import data_dir
from meeple.errors import Diagnostic, RulesError
from meeple.rules import conformance
from meeple.rules.loader import LoadedRules, load_rules, rules_path
from meeple.runtime import engine
from meeple.runtime.narration import Unit
from meeple.runtime.state import State, state_from_json
from meeple.values import Action, Player


def schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) every rule file follows."""
    return json.loads((data_dir("schema") / "game.schema.json").read_text(encoding="utf-8"))


def search_dirs() -> list[Path]:
    return [Path.cwd(), Path.cwd() / "games", data_dir("games")]


def read_rules(path_or_name: str | Path) -> LoadedRules:
    """Load (with variants merged) and schema-check a rule file; raise RulesError on any problem."""
    rules = load_rules(path_or_name, search_dirs())
    problems = schema_problems(rules)
    if problems:
        raise RulesError(rules.attribute(problems))
    return rules


def schema_problems(rules: LoadedRules) -> list[Diagnostic]:
    """What the schema finds wrong with the rules (variants merged). The same files in the same order,
    or the same sections, found clean by an earlier load are not checked again (`meeple.cache`)."""
    key = cache.digest(*rules.chain, *(part for item in sorted(rules.sources.items()) for part in item))
    return conformance.problems(rules.data, rules.index, schema(), key)


def check(
    path_or_name: str | Path, players: int | None = None, options: dict[str, Any] | None = None
) -> list[Diagnostic]:
    """Every problem of a rule file, in file order; an empty list means clean.

    Schema errors do not stop the check: the compiler still looks at the rest of the file, so one run
    reports a schema mistake, a misspelled name and a grammar error together. `options` are checked
    (a wrong one is a `usage/` diagnostic) and compiled with; a wrong one falls back to the defaults.
    """
    with cache.kept_for(rules_path(path_or_name, search_dirs()) or path_or_name):
        return _check(path_or_name, players, options)


def _check(path_or_name: str | Path, players: int | None, options: dict[str, Any] | None) -> list[Diagnostic]:
    try:
        rules = load_rules(path_or_name, search_dirs())
    except RulesError as err:
        return list(err.diagnostics)
    problems = schema_problems(rules)
    problems += player_range_problems(rules)
    compiler = GameCompiler(rules.data, rules.index)
    try:
        spec = _game_section(rules).get("players") or {}
        n = players or int(spec.get("max", 2)) if isinstance(spec, dict) else 2
        n = max(1, min(n, MAX_PLAYERS))  # past the schema's bound it is reported, not built
        try:
            chosen = resolve_options(rules.data, dict(options or {}), rules.index)
        except RulesError as err:
            if not options or not all(d.code.startswith("usage/") for d in err.diagnostics):
                raise
            problems.extend(err.diagnostics)
            chosen = resolve_options(rules.data, {}, rules.index)
        compiler.compile(game_id(path_or_name), n, chosen)
    except RulesError as err:
        problems.extend(err.diagnostics)
    except (TypeError, ValueError, AttributeError, KeyError):
        if not problems:  # the schema let through a shape the compiler cannot read: our bug
            raise
        problems.extend(compiler.sink.diagnostics)  # what the compiler found before it stumbled
    return _sorted(_unique(rules.attribute(problems)))


MAX_PLAYERS = 100  # the schema's bound on `game.players`


def _game_section(rules: LoadedRules) -> dict[str, Any]:
    """The file's `game:` mapping; empty when it is missing or of another shape (which the schema reports)."""
    section = rules.data.get("game")
    return section if isinstance(section, dict) else {}


def player_range_problems(rules: LoadedRules) -> list[Diagnostic]:
    """`game.players` with a `min` above its `max` (each is a whole number the schema has checked)."""
    spec = _game_section(rules).get("players")
    if not isinstance(spec, dict):
        return []
    lo, hi = spec.get("min"), spec.get("max")
    if type(lo) is not int or type(hi) is not int or lo <= hi:
        return []
    span = rules.index.nearest_span(("game", "players", "min"))
    return [Diagnostic("rules/players", f"game.players: min {lo} is more than max {hi}", span)]


def _unique(problems: list[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per place: where the schema and the compiler see the same mistake, the first wins."""
    seen: dict[tuple[str, int, int] | Diagnostic, Diagnostic] = {}
    for d in problems:
        key = (d.span.file, d.span.line, d.span.col) if d.span else d
        seen.setdefault(key, d)
    return list(seen.values())


def _sorted(problems: list[Diagnostic]) -> list[Diagnostic]:
    def key(d: Diagnostic) -> tuple[str, int, int]:
        return (d.span.file, d.span.line, d.span.col) if d.span else ("", 0, 0)

    return sorted(problems, key=key)


def game_id(path_or_name: str | Path) -> str:
    return Path(str(path_or_name)).stem


class Game:
    """A compiled rule file for a given number of players and options; immutable and shared."""

    def __init__(self, definition: GameDef, source: LoadedRules | None = None) -> None:
        self.definition = definition
        self.source = source
        # The state at the first decision, kept when reaching it drew nothing from the random generator:
        # then it is the same for every seed, and later games start from a copy of it.
        self._start: State | None = None
        self._start_known = False

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def players(self) -> int:
        return self.definition.players

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.definition.options)

    def new_game(self, seed: int = 0, log: bool = False, narrate: bool | Iterable[int] = False) -> State:
        """A fresh game: board laid out, set-up run, first decision reached.

        `log` keeps a readable log in `state.log`. `narrate` (True for every seat, or some seats) keeps it
        as lines each seat reads differently: `narrated(state.log, seat)` (runtime/narration.py) hides
        what that seat may not know. Narrating plays every legal alternative of each action on a copy:
        for watching and testing, not for fast play.
        """
        if self._start is not None and not log and narrate is False:
            s = self._start.copy_without_rng()
            s.seed(seed)
            s._kept_stamps[-1] = None  # the results of defs reading nothing: taken afresh (ir._share)
            return s
        s = State(self.definition)
        s.seed(seed)
        s.log = [] if log or narrate else None
        if narrate is not False:
            seats = range(self.players) if narrate is True else narrate
            s.narrated = tuple(int(p) for p in seats)
            s.unit = Unit(self.definition)
        setup_state(s)
        engine.advance(s)
        if not self._start_known and not log and narrate is False:
            # A set-up that used no randomness gives this very state for any seed.
            self._start_known = True
            if s._rng is None:  # the generator was never made: nothing drawn
                self._start = s.clone()
                self._start.log = None
        return s

    def state_from_json(self, text: str) -> State:
        return state_from_json(self.definition, text)

    def __repr__(self) -> str:
        return f"<Game {self.id} for {self.players} players>"


def setup_state(s: State) -> None:
    g = s.game
    sym = g.sym
    s.gv = {k: _frozen(v) for k, v in sym.game_vars.items()}
    s.pv = [
        {**{r: 0 for r in sym.resources}, **{k: _frozen(v) for k, v in sym.player_vars.items()}}
        for _ in s.players
    ]
    s.tv = dict(sym.turn_vars)
    s.sv = {name: {k: _frozen(v) for k, v in spec.items()} for name, spec in sym.scopes.items()}
    s.supply = [dict(g.supply) for _ in s.players]
    for zone in g.zones:
        for key in zone.key_names(len(s.players)):
            s.zones[key] = zone.starting_cards(key)
    lay_out_board(s)
    g.setup(s, {})
    s.awards = {a.name: None for a in g.awards}
    s.stack = [{"k": "loop", "loop": 0, "i": 0, "n": 1}]


def lay_out_board(s: State) -> None:
    """Run the layout steps; with `require:`, draw the whole layout again until the condition holds."""
    g = s.game
    tries = g.require.tries if g.require is not None else 1
    for _ in range(max(1, tries)):
        s.sites = {site: dict(g.board.site_fields.get(site, {})) for site in g.board.kind_of}
        s.ver["sites"] += 1  # counted as every change is: what was worked out from the sites is stale
        for step in g.layout:
            lay_out(s, step)
            s.ver["sites"] += 1
        if g.require is None or g.require.holds(s, {}):
            return
    raise RulesError(
        [
            Diagnostic(
                "rules/layout-require",
                f"no layout met `require` in {tries} tries",
                g.index.nearest_span(("board", "require")) if g.index is not None else None,
                "loosen the condition, or give `tries:` a higher number",
            )
        ]
    )


def lay_out(s: State, step: Any) -> None:
    sites = list(step.on(s, {}))
    if step.bag:
        bag = list(step.bag)
        s.rng.shuffle(bag)
        if step.draw and len(bag) >= len(sites):
            bag = bag[: len(sites)]
        if len(bag) != len(sites):
            raise RulesError(
                [
                    Diagnostic(
                        "rules/layout-count",
                        f"{len(bag)} values for {len(sites)} sites in layout '{step.field}'",
                    )
                ]
            )
        for site, value in zip(sites, bag):
            s.sites[site] = {**s.sites[site], step.field: value}
    if step.at:
        offset = s.rng.randrange(len(sites)) if step.rotate else 0
        for i, value in zip(step.at, step.values):
            site = sites[(i + offset) % len(sites)]
            s.sites[site] = {**s.sites[site], step.field: value}


def _frozen(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


def load(path_or_name: str | Path, players: int | None = None, options: dict[str, Any] | None = None) -> Game:
    """Load, check and compile a rule file (a path, or the name of a seed game such as `k2`). What the
    load works out from the file's text is kept on disk for the next process (`meeple.cache`)."""
    with cache.kept_for(rules_path(path_or_name, search_dirs()) or path_or_name):
        return _load(path_or_name, players, options)


def _load(path_or_name: str | Path, players: int | None, options: dict[str, Any] | None) -> Game:
    rules = read_rules(path_or_name)
    if player_range_problems(rules):
        raise RulesError(player_range_problems(rules))
    spec = (rules.data.get("game") or {}).get("players") or {}
    lo, hi = int(spec.get("min", 1)), int(spec.get("max", 8))
    n = players if players is not None else lo
    if not lo <= n <= hi:
        raise RulesError(
            [
                Diagnostic(
                    "usage/players",
                    f"{game_id(path_or_name)} is for {lo} to {hi} players, not {n}",
                    rules.index.nearest_span(("game", "players")),
                )
            ]
        )
    opts = resolve_options(rules.data, dict(options or {}), rules.index)
    try:
        definition = GameCompiler(rules.data, rules.index).compile(game_id(path_or_name), n, opts)
    except RulesError as err:
        raise RulesError(rules.attribute(err.diagnostics), err.sources) from None
    return Game(definition, rules)


def replay(game: Game, seed: int, actions: Iterable[Action | str]) -> State:
    """Re-run a game from its seed and its actions (objects or their printed forms)."""
    s = game.new_game(seed=seed)
    for action in actions:
        s.apply(action)
    return s


__all__ = ["Game", "State", "Action", "Player", "load", "replay", "check", "schema"]
