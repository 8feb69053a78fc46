"""Shared fixtures: every rule file in games/, its player counts, compiled games and recorded random playouts.

Tests ask for `game_file` (one rule file) or `game_case` (a rule file at one player count) and are
parametrised over everything in games/ automatically, so a new game needs no new test code.
"""

from __future__ import annotations

import functools
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

import meeple

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"

# A random game that has not ended after this many decisions is taken not to end.
ACTION_BOUND = 100_000


# --------------------------------------------------------------------------- the rule files


def _raw(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _is_rule_file(path: Path) -> bool:
    """A rule file is a mapping with a `game` section or an `extends` base (board data files are not)."""
    data = _raw(path)
    return isinstance(data, dict) and ("game" in data or "extends" in data)


def player_range(path: Path) -> tuple[int, int]:
    """`game.players.min/max` of a rule file, read from the first file of its `extends` chain that says."""
    seen: set[Path] = set()
    while path not in seen:
        seen.add(path)
        data = _raw(path)
        spec = ((data.get("game") or {}).get("players")) or {}
        if "min" in spec or "max" in spec:
            lo = int(spec.get("min", spec.get("max")))
            return lo, int(spec.get("max", lo))
        base = data.get("extends")
        if not isinstance(base, str):
            break
        named = path.parent / f"{base}.yaml"
        path = named if named.is_file() else path.parent / base
    raise AssertionError(f"{path}: no game.players range in the file or its bases")


def rule_files() -> list[Path]:
    return [p for p in sorted(GAMES_DIR.glob("*.yaml")) if _is_rule_file(p)]


@dataclass(frozen=True)
class GameCase:
    """One rule file played by one number of players."""

    path: Path
    players: int

    @property
    def id(self) -> str:
        return f"{self.path.stem}-{self.players}p"


def game_cases() -> list[GameCase]:
    cases = []
    for path in rule_files():
        lo, hi = player_range(path)
        cases.extend(GameCase(path, n) for n in sorted({lo, hi}))
    return cases


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked `python_engine` replaces a function of the engine or the built-ins (to count its
    calls): compiled, their callers call each other directly and never see the replacement. Skipped
    there; `.ci/run` runs these against a Python installation as well (`MEEPLE_PURE=1`)."""
    if not meeple.compiled():
        return
    skip = pytest.mark.skip(reason="the engine and built-ins are compiled here (see setup.py: MEEPLE_PURE=1)")
    for item in items:
        if "python_engine" in item.keywords:
            item.add_marker(skip)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game_file" in metafunc.fixturenames:
        files = rule_files()
        metafunc.parametrize("game_file", files, ids=[p.stem for p in files])
    if "game_case" in metafunc.fixturenames:
        cases = game_cases()
        metafunc.parametrize("game_case", cases, ids=[c.id for c in cases])


@functools.cache
def compiled(path: Path, players: int) -> meeple.Game:
    return meeple.load(path, players=players)


@pytest.fixture
def game(game_case: GameCase) -> meeple.Game:
    return compiled(game_case.path, game_case.players)


# --------------------------------------------------------------------------- random play


def random_walk(game: meeple.Game, seed: int, agent_seed: int) -> Iterator[tuple[meeple.State, list[Any]]]:
    """Play a game with a seeded random agent, yielding (state, legal actions) before each decision.

    The state is live: the walk applies `random.Random(agent_seed).choice(legal)` to it once the consumer
    asks for the next step (so a consumer must not change it). Stops when the game is over.
    """
    state = game.new_game(seed=seed)
    agent = random.Random(agent_seed)
    for _ in range(ACTION_BOUND):
        if state.is_over:
            return
        legal = state.legal_actions()
        yield state, legal
        state.apply(agent.choice(legal))
    raise AssertionError(f"{game.id} seed {seed}: not over after {ACTION_BOUND} actions")


@dataclass(frozen=True)
class Playout:
    """A finished random game: what it takes to replay it and what it ended as."""

    seed: int
    actions: tuple[Any, ...]
    final_json: str
    over: bool
    winners: tuple[int, ...] | None


@functools.cache
def recorded_playout(path: Path, players: int, seed: int) -> Playout:
    """The random game of `seed` (agent seeded alike), played to the end or to the action bound."""
    game = compiled(path, players)
    state = game.new_game(seed=seed)
    agent = random.Random(seed)
    actions = []
    while not state.is_over and len(actions) < ACTION_BOUND:
        action = agent.choice(state.legal_actions())
        actions.append(action)
        state.apply(action)
    winners = None if state.winners is None else tuple(int(p) for p in state.winners)
    return Playout(seed, tuple(actions), state.to_json(), state.is_over, winners)


# --------------------------------------------------------------------------- invariants


class Ledger:
    """What a game starts with, and the invariants every later state of it keeps."""

    def __init__(self, game: meeple.Game) -> None:
        d = game.definition
        self.players = game.players
        self.resources = tuple(d.sym.resources)
        self.starting_supply = dict(d.supply)
        cards: Counter[str] = Counter()
        for zone in d.zones:
            for key in zone.key_names(self.players):
                cards.update(zone.starting_cards(key))
        self.starting_cards = +cards

    def negative_resources(self, state: meeple.State) -> list[str]:
        """Every resource some player holds a negative (or non-integer) amount of, as `p1 rope=-1`."""
        bad = []
        for p, record in enumerate(state.pv):
            for r in self.resources:
                value = record.get(r, 0)
                if type(value) is not int or value < 0:
                    bad.append(f"p{p + 1} {r}={value!r}")
        return bad

    @staticmethod
    def card_totals(state: meeple.State) -> Counter[str]:
        """How many copies of each card are in all zones together."""
        totals: Counter[str] = Counter()
        for contents in state.zones.values():
            totals.update(contents)
        return +totals

    def piece_totals(self, state: meeple.State) -> dict[tuple[int, str], int]:
        """Per (owner, kind): a player's pieces on the board plus those left in their supply.

        Neutral pieces (no owner) have no supply to balance against and are not counted.
        """
        totals: Counter[tuple[int, str]] = Counter()
        for p, supply in enumerate(state.supply):
            for kind, left in supply.items():
                totals[(p, kind)] += left
        for record in state.pieces.values():
            if record.get("owner") is not None:
                totals[(int(record["owner"]), record["kind"])] += 1
        return dict(totals)

    @property
    def starting_piece_totals(self) -> dict[tuple[int, str], int]:
        return {(p, kind): n for p in range(self.players) for kind, n in self.starting_supply.items()}


@pytest.fixture(scope="session")
def ledger_of() -> Any:
    """`ledger_of(game)`: the cached Ledger of a compiled game."""
    ledgers: dict[int, Ledger] = {}

    def get(game: meeple.Game) -> Ledger:
        return ledgers.setdefault(id(game), Ledger(game))

    return get


@pytest.fixture(scope="session")
def walk() -> Any:
    """`walk(game, seed, agent_seed)`: iterate (state, legal actions) over a seeded random game."""
    return random_walk


@pytest.fixture(scope="session")
def playout_of() -> Any:
    """`playout_of(game_case, seed)`: the recorded random playout, cached for the session."""

    def get(case: GameCase, seed: int) -> Playout:
        return recorded_playout(case.path, case.players, seed)

    return get


@pytest.fixture(scope="session")
def action_bound() -> int:
    """Decisions after which a random game is taken not to end."""
    return ACTION_BOUND


@pytest.fixture(scope="session")
def player_range_of() -> Any:
    """`player_range_of(path)`: (min, max) players of a rule file."""
    return player_range


@pytest.fixture(scope="session")
def game_of() -> Any:
    """`game_of(path, players)`: the compiled game, cached for the session."""
    return compiled


# --------------------------------------------------------------------------- the mutants' count


# The robustness suite counts the mutated rule files it checks (tests/robustness/rule_mutants.py) and the
# session prints the count at its end. Under pytest-xdist each worker counts its own share and hands it to
# the controller, which adds them up.
_FROM_WORKERS: list[list[dict[str, int]]] = []


def _counted_here() -> list[dict[str, int]] | None:
    mutants = sys.modules.get("rule_mutants")
    if mutants is None or not mutants.TRIED:
        return None
    return [dict(mutants.TRIED), dict(mutants.MUST_FAIL), dict(mutants.PLAYED)]


def pytest_sessionfinish(session: pytest.Session) -> None:
    handed = getattr(session.config, "workeroutput", None)  # set on an xdist worker only
    counted = _counted_here()
    if handed is not None and counted is not None:
        handed["rule_mutants"] = counted


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    counted = getattr(node, "workeroutput", {}).get("rule_mutants")
    if counted:
        _FROM_WORKERS.append(counted)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    tried, must, played = Counter[str](), Counter[str](), Counter[str]()
    for share in [c for c in (_counted_here(), *_FROM_WORKERS) if c]:
        for total, part in zip((tried, must, played), share):
            total.update(part)
    if not tried:
        return
    terminalreporter.section("rule-file mutants")
    terminalreporter.write_line(
        f"{sum(tried.values())} mutants checked, {sum(must.values())} of them broken by an oracle's word "
        f"(all reported as errors), {sum(played.values())} clean ones also played"
    )
    for kind in sorted(tried):
        terminalreporter.write_line(
            f"  {kind:<18} {tried[kind]:>6} checked {must[kind]:>6} broken {played[kind]:>5} played"
        )
