"""`meeple simulate --ray`: the same batches of seeds as `--workers`, played as Ray tasks on a cluster.

The driver sends each task the checked rule file (its merged data and source index, not a compiled game,
which holds generated code) with the player count and options; a worker compiles it once and keeps it for
the next batches. Results come back per batch and are tallied in seed order, so the report is the one a
single process gives for the same seeds.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections.abc import Callable, Iterator
from typing import Any

from meeple.api import Game
from meeple.compile.game import GameCompiler

# Games compiled by this worker process (with coverage counters, as simulate plays them), by the digest of
# what they were compiled from.
_COMPILED: dict[str, Any] = {}


class RayUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be reached; the message says which and what to do."""


def recipe(game: Game) -> tuple[Any, ...]:
    """What a worker needs to compile the same game: the checked rules, id, players and options."""
    if game.source is None:
        raise ValueError(f"{game.id} has no rule file to send to Ray workers")
    return (game.source, game.id, game.players, game.options)


def compiled(digest: str, made_from: tuple[Any, ...]) -> Any:
    """The game of `made_from` as simulate plays it, compiled once per worker process."""
    from meeple.tools.simulate import instrumented

    found = _COMPILED.get(digest)
    if found is None:
        rules, game_id, players, options = made_from
        game = Game(GameCompiler(rules.data, rules.index).compile(game_id, players, options), rules)
        found = _COMPILED[digest] = instrumented(game)
    return found


def play_batch(digest: str, made_from: tuple[Any, ...], seeds: range, play: Callable[[Any, int], Any]) -> Any:
    """One Ray task: `play(game, seed)` for each seed of a batch, played in this worker."""
    subject = compiled(digest, made_from)
    return [play(subject, s) for s in seeds]


def connect(address: str | None) -> tuple[Any, bool]:
    """The `ray` module, connected (to `address`, or as `ray.init()` finds a cluster); and whether this
    call started the connection (so it should end it)."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'meeple[ray]'") from None
    if ray.is_initialized():
        return ray, False
    try:
        ray.init(address=address or None, logging_level=logging.WARNING, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as err:
        where = address or "the default cluster (RAY_ADDRESS, or a new local instance)"
        raise RayUnavailable(f"cannot reach the Ray cluster at {where}: {err}") from None
    return ray, True


def play_on_ray(
    game: Game,
    seeds: range,
    play: Callable[[Any, int], Any],
    address: str | None,
    batches: Callable[[range, int], list[range]],
    done: Callable[[int], Any],
) -> Iterator[Any]:
    """`play(game, seed)` for each seed, in seed order, the batches played as Ray tasks (`play` is sent to
    the workers, so it must pickle: a module-level function or a partial of one)."""
    ray, started = connect(address)
    try:
        made_from = recipe(game)
        digest = hashlib.sha256(pickle.dumps(made_from)).hexdigest()
        shared = ray.put(made_from)
        task = ray.remote(play_batch)
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending = [task.remote(digest, shared, batch, play) for batch in batches(seeds, workers)]
        for ref in pending:  # in seed order; the cluster works ahead
            results = ray.get(ref)
            done(len(results))
            yield from results
    finally:
        if started:
            ray.shutdown()
