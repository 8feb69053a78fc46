"""Monte Carlo tree search: UCT for open games, information-set MCTS when players hold hidden cards.

Each iteration starts from a fresh sample of the root: a clone of the state with its own random generator
(drawn from the agent's `rng`), so dice and draws inside `apply` come out differently from one iteration to
the next and the search never sees the real game's future. In a game with hidden information the sample is
also a determinization: the hidden cards dealt anew from what the player to move knows (see
`meeple.agents.determinize`). The tree is open-loop: a node is the sequence of actions from the root, not a
state, so one node stands for every chance outcome and every deal that led there. The actions legal at a
node can therefore differ between samples; selection picks among those legal in this sample, and a child's
exploration term counts the samples in which it was available (the ISMCTS rule), which is plain UCT when
nothing is random or hidden.

The hidden cards sampled by the fallback determinizer can now and then make a deal the rules cannot play on
from (a card somewhere no rule expects it); such an iteration is dropped and counted in `last_failed`.

An iteration walks down the tree by UCB, adds one node, plays uniformly random actions to the end (or for
`depth` actions, then ranks the players by the game's estimate or score, see `outcome`), and adds each
player's reward to every node on the path. A node's value is judged for the player who chose the action
that leads to it. The reward of a finished game is each player's win share: 1/k to each of k winners,
nothing to the others; a game with no winner counts as a draw among all players (a loss in a one-player
game).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from meeple.agents.determinize import Determinizer
from meeple.compile.expressions import RuleRuntimeError
from meeple.runtime.state import State
from meeple.values import Action


class Node:
    """One action sequence from the root: visits, samples it was legal in, and rewards summed per player."""

    __slots__ = ("children", "visits", "available", "reward")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = [0.0] * players


class MCTSAgent:
    """UCT / information-set MCTS with a budget of `iterations` per move, or `seconds` per move if given.

    `depth` caps each random playout at that many actions (None: to the end of the game); `c` is the
    exploration constant; `determinize` is True, False, or "auto" (when the game hides something from some
    player: zones, private variables or the secret choices of a `simultaneous` step). With an iteration
    budget the same `rng` gives the same choice; a time budget does not.
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int = 200,
        seconds: float | None = None,
        depth: int | None = None,
        c: float = 1.0,
        determinize: bool | str = "auto",
    ) -> None:
        if not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations must be a whole number of at least 1, not {iterations!r}")
        if seconds is not None and (not isinstance(seconds, int | float) or seconds <= 0):
            raise ValueError(f"seconds must be a positive number, not {seconds!r}")
        if depth is not None and (not isinstance(depth, int) or depth < 0):
            raise ValueError(f"depth must be a whole number of at least 0, not {depth!r}")
        if not isinstance(c, int | float) or c < 0:
            raise ValueError(f"c must be a number of at least 0, not {c!r}")
        if determinize not in (True, False, "auto"):
            raise ValueError(f"determinize must be yes, no or auto, not {determinize!r}")
        self.iterations, self.seconds, self.depth = iterations, seconds, depth
        self.c, self.determinize = float(c), determinize
        self.last_iterations = 0  # how many iterations the last search ran
        self.last_failed = 0  # how many of them were dropped: a determinization the rules could not run
        self.last_method = ""  # how the last search sampled its root: clone, sampled or view.determinize

    def choose(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        me = state.to_move
        assert me is not None, "choose is asked only of a game in progress"
        players = len(state.players)
        sampler = Determinizer(state, int(me)) if self.hides_cards(state) else None
        self.last_method = "clone" if sampler is None else sampler.method
        root = Node(players)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = failed = 0
        while done < self.iterations if deadline is None else (done == 0 or time.perf_counter() < deadline):
            if sampler is None:
                sample = state.clone()
                sample.rng = random.Random(rng.getrandbits(64))
                self.iterate(root, sample, players, rng)
            else:
                try:
                    self.iterate(root, sampler.sample(rng), players, rng)
                except (RuleRuntimeError, RuntimeError):
                    failed += 1  # a deal the rules cannot go on from: the iteration is dropped
            done += 1
        self.last_iterations, self.last_failed = done, failed
        return self.best(root, legal, int(me), rng)

    def hides_cards(self, state: State) -> bool:
        if self.determinize == "auto":
            return bool(state.game.hides_information())
        return bool(self.determinize)

    def iterate(self, root: Node, s: State, players: int, rng: random.Random) -> None:
        """One iteration on the sample `s`: select, expand one node, play out, back up."""
        path = [root]
        node = root
        while not s.is_over:
            legal = s.legal_actions()
            if not legal:
                break
            mover = int(s.to_move)  # type: ignore[arg-type]
            untried = [a for a in legal if a not in node.children or not node.children[a].visits]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = node.children.setdefault(action, Node(players))
                child.available = max(child.available, 1)
                s.apply(action)
                path.append(child)
                break
            action, child = self.select(node, legal, mover)
            s.apply(action)
            path.append(child)
            node = child
        reward = self.playout(s, players, rng)
        for n in path:
            n.visits += 1
            for p in range(players):
                n.reward[p] += reward[p]

    def select(self, node: Node, legal: Sequence[Action], mover: int) -> tuple[Action, Node]:
        """The legal child with the highest upper confidence bound for `mover` (the first of equals)."""
        best: tuple[Action, Node] | None = None
        best_value = -math.inf
        for a in legal:
            child = node.children[a]
            value = child.reward[mover] / child.visits + self.c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if value > best_value:
                best, best_value = (a, child), value
        assert best is not None
        return best

    def playout(self, s: State, players: int, rng: random.Random) -> list[float]:
        steps = 0
        while not s.is_over and (self.depth is None or steps < self.depth):
            legal = s.legal_actions()
            if not legal:
                break
            s.apply(legal[rng.randrange(len(legal))])
            steps += 1
        return outcome(s, players)

    @staticmethod
    def best(root: Node, legal: Sequence[Action], me: int, rng: random.Random) -> Action:
        """The most visited legal action at the root; among equals, the best mean for `me`, then `rng`.

        Drawing among equals keeps a search that sees no difference from always taking the first action
        offered (which can be a trade that is undone and made again for ever)."""
        best: list[Action] = []
        top = (-1, -math.inf)
        for a in legal:
            child = root.children.get(a)
            key = (
                (0, -math.inf)
                if child is None or not child.visits
                else (
                    child.visits,
                    child.reward[me] / child.visits,
                )
            )
            if key > top:
                best, top = [a], key
            elif key == top:
                best.append(a)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def outcome(s: State, players: int) -> list[float]:
    """Each player's reward: win shares of a finished game, else a share by rank of the current scores.

    Ranked by the game's `scoring.estimate` (its score when it has none), a player earns one point for each
    player behind it and half a point for each tied with it, scaled so the shares add up to 1 (two players:
    1 ahead, 1/2 level, 0 behind). An unfinished one-player game is worth 1/2.
    """
    if s.is_over:
        winners = s.winners or []
        if not winners:
            return [0.0] if players == 1 else [1.0 / players] * players
        reward = [0.0] * players
        for w in winners:
            reward[int(w)] = 1.0 / len(winners)
        return reward
    if players == 1:
        return [0.5]
    estimate = s.game.estimate
    scores = list(s.scores.values()) if estimate is None else [estimate(s, {"p": p}) for p in s.players]
    pairs = players * (players - 1) / 2
    return [
        sum(1.0 if mine > other else 0.5 if mine == other else 0.0 for other in scores) / pairs - 0.5 / pairs
        for mine in scores
    ]


class ISMCTSAgent(MCTSAgent):
    """Information-set MCTS: MCTS that always searches determinizations of what the mover knows."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 200,
        seconds: float | None = None,
        depth: int | None = None,
        c: float = 1.0,
        determinize: bool | str = True,
    ) -> None:
        super().__init__(iterations, seconds, depth, c, determinize)
