"""A rule file as an OpenSpiel game: `load_game('k2', players=2)` registers and loads a pyspiel game.

Chance. meeple draws its dice and shuffles from the state's random generator inside `apply`; OpenSpiel
wants chance as explicit nodes with known outcomes. So each random step becomes a chance node whose
outcomes are `chance_outcomes` generator seeds (64 by default): a set-up that draws is played from each
seed, and a player's action that draws (found by playing it on a copy) waits at a chance node, then is
played with `random.Random(seed)`. Seeds that lead to the same state are one outcome, its probability the
share of seeds that lead there. The game is therefore deterministic given its history of action ids, so
cloning, serializing and replaying are exact; its chance distribution is meeple's as seen through that
many seeds. The chance mode registered is explicit-stochastic when a few seeded games met chance, else
deterministic.

Actions. A bounded index of distinct actions (meeple.interop.core.ActionIndex): ids in the order actions
are first offered, first along seeded calibration games, then lazily; `num_distinct_actions` sets the bound.

Observations. The generic encoding of meeple.interop.core.Encoder, from the player's view. The information
state string is the player's observation and action at each of its decisions, then its observation now
(perfect recall); the information state tensor is the observation tensor followed by how often the player
took each action id (of fixed size, so not perfect recall).

Simultaneous moves. A rule file's `simultaneous` step is played as it is in meeple: the players decide
one after another (a sequential game), each with nothing of the earlier choices in its observation or
information state, and the choices are applied together after the last one. The game is registered as
sequential with imperfect information, not with OpenSpiel's simultaneous nodes: a player's secret
decision may take several actions (K2's three cards, one at a time), which a simultaneous node, one action
per player, cannot hold.

Returns: zero-sum, see meeple.interop.core.returns; a game cut short at `max_game_length` decisions ends
with 0 for every seat.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("meeple.interop.openspiel needs OpenSpiel: pip install 'meeple[openspiel]'") from err

from meeple.api import load
from meeple.interop import core
from meeple.runtime.state import State, encode

CHANCE_OUTCOMES = 64
MAX_GAME_LENGTH = 10_000
_OWN = ("players", "num_distinct_actions", "max_game_length", "chance_outcomes")

_REGISTERED: dict[str, str] = {}  # short name -> the rule file it was registered for


def short_name(game_id: str) -> str:
    return "meeple_" + re.sub(r"\W", "_", game_id)


def load_game(name: str, players: int | None = None, **params: Any) -> Any:
    """Register the rule file `name` (a path or a seed game's name) with OpenSpiel and load it.

    `params`: num_distinct_actions (0: chosen from calibration games), max_game_length (decisions before
    the game is cut short), chance_outcomes (seeds per chance node), and the rule file's own options.
    """
    short = register(name)
    given: dict[str, Any] = dict(params)
    if players is not None:
        given["players"] = players
    return pyspiel.load_game(short, given)


def register(name: str) -> str:
    """Register the rule file with OpenSpiel once; its short name (`meeple_<id>`)."""
    game = load(name)  # checks the file; its own default player count
    short = short_name(game.id)
    source = str(Path(name).resolve()) if Path(name).is_file() else str(name)
    known = _REGISTERED.get(short)
    if known is not None:
        if known != source:
            raise ValueError(f"{short} is already registered for {known}, not {name}")
        return short
    spec = ((game.source.data if game.source else {}).get("game") or {}).get("players") or {}
    low, high = int(spec.get("min", 1)), int(spec.get("max", 8))
    options = {
        k: v for k, v in game.options.items() if isinstance(v, (bool, int, float, str)) and k not in _OWN
    }
    first = core.setup(source, game.players, options, max_game_length=MAX_GAME_LENGTH)
    hidden = game.definition.hides_information()
    kind = pyspiel.GameType(
        short_name=short,
        long_name=f"meeple: {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if first.random
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM if low > 1 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": game.players,
            "num_distinct_actions": 0,
            "max_game_length": MAX_GAME_LENGTH,
            "chance_outcomes": CHANCE_OUTCOMES,
            **options,
        },
    )

    class MeepleGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            values = {**kind.parameter_specification, **(params or {})}
            n = int(values["players"])
            self.setup = core.setup(
                source,
                n,
                {k: values[k] for k in options},
                int(values["num_distinct_actions"]),
                int(values["max_game_length"]),
            )
            self.seeds = int(values["chance_outcomes"])
            low_u, high_u = core.utility_range(n)
            info = pyspiel.GameInfo(
                num_distinct_actions=self.setup.index.size,
                max_chance_outcomes=self.seeds,
                num_players=n,
                min_utility=low_u,
                max_utility=high_u,
                utility_sum=0.0 if low > 1 else None,  # as the registered utility kind says
                max_game_length=self.setup.max_game_length,
            )
            super().__init__(kind, info, params or {})

        def new_initial_state(self) -> MeepleState:
            return MeepleState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return Observer(self.setup, recall)

    pyspiel.register_game(kind, MeepleGame)
    _REGISTERED[short] = source
    return short


class _Held:
    """A meeple state inside a pyspiel state: OpenSpiel clones by deep copy, and this copies by `clone`;
    it serializes by pickling, and this pickles as the state's JSON and the settings of its game."""

    __slots__ = ("s", "key")

    def __init__(self, s: State | None, key: tuple[Any, ...]) -> None:
        self.s = s
        self.key = key

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(None if self.s is None else self.s.clone(), self.key)

    def __reduce__(self) -> tuple[Any, ...]:
        # Not `to_json`, which sorts keys: the order of cards in a zone is kept, as a clone keeps it.
        text = None if self.s is None else json.dumps(encode(self.s.snapshot()))
        return (_held_from_json, (text, self.key))


def _held_from_json(text: str | None, key: tuple[Any, ...]) -> _Held:
    return _Held(None if text is None else core.setup(*key).game.state_from_json(text), key)


class _Shared:
    """Something every copy of a state may share unchanged: the setup, computed chance outcomes. Pickled,
    the setup is found again from its settings, and the outcomes are computed again when asked."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        if isinstance(self.value, core.Setup):
            return (_shared_setup, self.value.key)
        return (_Shared, (None,))


def _shared_setup(*key: Any) -> _Shared:
    return _Shared(core.setup(*key))


class MeepleState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; chance nodes stand for the set-up's and the actions' random draws."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        setup: core.Setup = game.setup
        self._setup = _Shared(setup)
        self._seeds = game.seeds
        n = setup.game.players
        start = None if setup.random_start else setup.game.new_game(seed=0)
        self._held = _Held(start, setup.key)
        self._pending: str | None = None  # the printed player action waiting for its chance draw
        self._outcomes = _Shared(None)  # {seed: state} of this chance node, once asked
        self._decisions = 0
        self._cut = False  # cut short at max_game_length, or stalled with nothing legal
        self._trail: list[list[str]] = [[] for _ in range(n)]
        self._taken: list[dict[int, int]] = [{} for _ in range(n)]

    # ------------------------------------------------------------ what OpenSpiel asks

    @property
    def meeple(self) -> State | None:
        """The meeple state (None before a random set-up is drawn)."""
        return self._held.s

    def current_player(self) -> int:
        s = self._held.s
        if s is None or self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(s.to_move)  # type: ignore[arg-type]

    def is_terminal(self) -> bool:
        s = self._held.s
        if s is None or self._pending is not None:
            return False
        return s.is_over or self._cut

    def _legal_actions(self, player: int) -> list[int]:
        s = self._held.s
        if s is None or self.is_terminal() or self._pending is not None or player != s.to_move:
            return []
        return sorted(self._setup.value.index.ids(s.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._chance()
        return [(seed, share) for seed, (share, _) in sorted(outcomes.items())]

    def _chance(self) -> dict[int, tuple[float, State]]:
        if self._outcomes.value is None:
            setup: core.Setup = self._setup.value
            found: dict[str, tuple[int, int, State]] = {}
            for seed in range(self._seeds):
                s = self._draw(setup, seed)
                key = core.outcome_key(s)
                first, count, kept = found.get(key, (seed, 0, s))
                found[key] = (first, count + 1, kept)
            self._outcomes = _Shared(
                {first: (count / self._seeds, kept) for first, count, kept in found.values()}
            )
        return self._outcomes.value  # type: ignore[no-any-return]

    def _draw(self, setup: core.Setup, seed: int) -> State:
        before = self._held.s
        if before is None:
            return setup.game.new_game(seed=seed)
        s = before.clone()
        s.rng = random.Random(seed)
        assert self._pending is not None
        s.apply(self._pending)
        return s

    def _apply_action(self, action: int) -> None:
        setup: core.Setup = self._setup.value
        s = self._held.s
        if s is None or self._pending is not None:
            outcome = self._chance().get(action)
            if outcome is None:
                raise ValueError(f"{action} is not a chance outcome here")
            self._held = _Held(outcome[1].clone(), setup.key)
            self._pending = None
            self._outcomes = _Shared(None)
            self._stop_if_stalled(self._held.s)
            return
        legal = setup.index.ids(s.legal_actions())
        chosen = legal.get(action)
        if chosen is None:
            raise ValueError(f"action {action} is not legal here")
        me = int(s.to_move)  # type: ignore[arg-type]
        self._trail[me].append(f"{setup.encoder.text(s, me)}\n> {chosen}")
        self._taken[me][action] = self._taken[me].get(action, 0) + 1
        after, drew = core.draws(s, chosen)
        if drew:
            self._pending = str(chosen)
        else:
            self._held = _Held(after, setup.key)
        self._decisions += 1
        if self._decisions >= setup.max_game_length:
            self._cut = True
        if self._pending is None:
            self._stop_if_stalled(after)

    def _stop_if_stalled(self, s: State | None) -> None:
        if s is not None and not s.is_over and not s.legal_actions():
            self._cut = True  # stalled: nobody can move, so the game ends without a winner

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance seed {action}"
        index: core.ActionIndex = self._setup.value.index
        return index.name_of(action) if action < len(index) else f"action {action}"

    def returns(self) -> list[float]:
        s = self._held.s
        if s is None or not self.is_terminal() or not s.is_over:
            return [0.0] * self.num_players()
        return core.returns(s)

    def __str__(self) -> str:
        s = self._held.s
        if s is None:
            return "set-up to be drawn"
        text = self._setup.value.encoder.text(s, None)
        return text + (f"\nchance decides: {self._pending}" if self._pending is not None else "")


class Observer:
    """The observation (or, with perfect recall, the information state) of a player, as OpenSpiel's
    Python observers give it: `tensor`, its named parts in `dict`, `set_from` and `string_from`."""

    def __init__(self, setup: core.Setup, recall: bool) -> None:
        self.setup = setup
        self.recall = recall
        width = setup.encoder.size
        extra = setup.index.size if recall else 0
        self.tensor = np.zeros(width + extra, np.float32)
        self.dict = {"observation": self.tensor[:width]}
        if recall:
            self.dict["actions_taken"] = self.tensor[width:]

    def set_from(self, state: MeepleState, player: int) -> None:
        self.tensor.fill(0.0)
        s = state.meeple
        if s is not None:
            self.setup.encoder.tensor(s, player, out=self.dict["observation"])
        if self.recall:
            taken = self.dict["actions_taken"]
            for action, count in state._taken[player].items():
                taken[action] = count

    def string_from(self, state: MeepleState, player: int) -> str:
        s = state.meeple
        now = "set-up to be drawn" if s is None else self.setup.encoder.text(s, player)
        if not self.recall:
            return now
        return "\n".join([*state._trail[player], now])
