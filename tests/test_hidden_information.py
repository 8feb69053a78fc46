"""Hidden information, over every channel a seat sees, for every seed game (and the sealed-bids tutorial,
which keeps secrets in variables, and Open Hands, which keeps them in `simultaneous` steps) at its smallest
and largest player counts: the view, its JSON, a saved view, and the log as narrated to the seat.

The properties: two states that differ only in what a seat cannot see (the hidden cards dealt otherwise,
other players' private variables changed, other players' secret choices made otherwise, another random
generator) look the same to it; and two games
that look the same to a seat at every step (the other players choosing independently, the hidden cards
dealt otherwise) are narrated the same to it.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.compile.secrecy import ParamSeen
from meeple.runtime import simultaneous
from meeple.runtime.invariants import broken
from meeple.runtime.narration import narrated
from meeple.runtime.view import HIDDEN, masked_zone_keys, private_variables

ROOT = Path(__file__).resolve().parents[1]
SEALED_BIDS = ROOT / "examples" / "tutorial" / "sealed_bids.yaml"
OPEN_HANDS = ROOT / "tests" / "runtime" / "open_hands.yaml"  # secrets kept by a `simultaneous` step only
# Random actions played before a state is looked at, at most.
MAX_STEPS = 300
# Steps two narrated games are followed for, at most (fewer once they look different to the seat).
FOLLOW_STEPS = 60
SETTINGS = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def cases() -> list[tuple[Path, int]]:
    """Every seed game at its smallest and largest player count, the sealed-bids tutorial and the test game of
    the `simultaneous` step."""
    out = []
    for path in sorted((ROOT / "games").glob("*.yaml")):
        spec = (meeple.api.read_rules(path).data.get("game") or {}).get("players") or {}
        out += [(path, n) for n in sorted({int(spec["min"]), int(spec["max"])})]
    return [*out, (SEALED_BIDS, 3), (OPEN_HANDS, 3)]


@functools.cache
def compiled(path: Path, players: int) -> meeple.Game:
    return meeple.load(path, players=players)


CASES = cases()
IDS = [f"{path.stem}-{players}p" for path, players in CASES]


def played(game: meeple.Game, seed: int, steps: int, **kwargs: Any) -> meeple.State:
    state = game.new_game(seed=seed, **kwargs)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def hidden_variant(s: meeple.State, seat: int, rng: random.Random) -> meeple.State:
    """The state with everything `seat` cannot see changed: the cards of the masked zones dealt again at
    random (each zone keeps its size), other players' private variables set to other values, the other
    players' secret choices in a `simultaneous` step made again at random (a player still choosing has
    made fewer of them), and another random generator."""
    t = s.clone()
    keys = list(masked_zone_keys(s.game, len(s.players), seat))
    pool = [card for key in keys for card in Counter(t.zones[key]).elements()]
    rng.shuffle(pool)
    for key in keys:
        size = sum(t.zones[key].values())
        t.zones[key], pool = dict(Counter(pool[:size])), pool[size:]
    for _, put, _ in private_variables(t, seat):
        put(("changed", rng.random()))
    for f in t.stack:
        if f["k"] == "simul":
            picks = list(f["picks"])
            for i, other in enumerate(f["order"][: len(picks)]):
                if other != seat:
                    made = simultaneous.sample(t, f, other, rng)
                    picks[i] = made if i < f["pos"] else made[: rng.randrange(len(made))] if made else ()
            f["picks"] = tuple(picks)
    t.rng = random.Random(rng.random())
    t.forget()
    return t


@pytest.mark.parametrize(("path", "players"), CASES, ids=IDS)
@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, MAX_STEPS),
    seat=st.integers(0, 4),
    shuffle=st.integers(0, 2**32),
)
def test_states_that_differ_only_in_what_a_seat_cannot_see_give_it_the_same_view_json_and_saved_view(
    path: Path, players: int, seed: int, steps: int, seat: int, shuffle: int
) -> None:
    game = compiled(path, players)
    s = played(game, seed, steps)
    seat %= players
    t = hidden_variant(s, seat, random.Random(shuffle))
    mine, theirs = s.view(seat), t.view(seat)
    assert mine.to_json() == theirs.to_json()
    assert (mine.zones, mine.pv, mine.gv, mine.tv, mine.sv, mine.stack) == (
        theirs.zones,
        theirs.pv,
        theirs.gv,
        theirs.tv,
        theirs.sv,
        theirs.stack,
    )
    saved = game.state_from_json(mine.to_json())
    assert saved.is_view and saved.viewer == seat
    assert saved.to_json() == mine.to_json()  # a saved view reloads as the same view, nothing added
    assert '"rng":null' in mine.to_json()


@pytest.mark.parametrize(("path", "players"), CASES, ids=IDS)
@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, MAX_STEPS // 3),
    seat=st.integers(0, 4),
    choices=st.integers(0, 2**32),
)
def test_games_a_seat_cannot_tell_apart_are_narrated_the_same_to_it(
    path: Path, players: int, seed: int, steps: int, seat: int, choices: int
) -> None:
    game = compiled(path, players)
    seat %= players
    first = played(game, seed, steps, narrate=[seat])
    rng = random.Random(choices)
    second = first.view(seat).determinize(random.Random(rng.random()))
    second.rng.setstate(first.rng.getstate())  # the same dice: only what the seat cannot see differs
    second.log, second.narrated = [], (seat,)
    del first.log[:]
    for _ in range(FOLLOW_STEPS):
        if first.is_over or second.is_over or first.view(seat) != second.view(seat):
            break
        mover = first.to_move
        assert second.to_move == mover
        one, two = first.legal_actions(), second.legal_actions()
        if mover == seat:
            assert [str(a) for a in one] == [str(a) for a in two]  # its choices depend on its view only
            pick = rng.randrange(len(one))
            a, b = one[pick], two[pick]
        else:
            a = rng.choice(one)
            same = [x for x in two if str(x) == str(a)]
            b = same[0] if same and rng.random() < 0.5 else rng.choice(two)
        before = len(first.log), len(second.log)
        first.apply(a)
        second.apply(b)
        lines = [
            log[i] if i < len(log) else None for log, i in ((first.log, before[0]), (second.log, before[1]))
        ]
        shown = shown_to(seat, (a, lines[0]), (b, lines[1]))
        if not shown and first.view(seat) == second.view(seat):
            told = narrated(first.log[before[0] :], seat), narrated(second.log[before[1] :], seat)
            assert told[0] == told[1], f"p{seat + 1} is told differently after {a} and {b}"


def shown_to(seat: int, *played: tuple[Any, Any]) -> bool:
    """Whether the seat was shown how two actions differ (each with the line that narrated it): their
    names, or a parameter it sees chosen or whose cards it saw pass. A card played to a field the seat sees
    is shown even when the field is then swept into a pile it does not see: the views after the two
    actions are then the same while their narrations rightly differ. Such pairs are left out; what the
    action's own line may show is tested by test_a_seat_is_told_its_own_draws_and_picks_and_not_the_others."""
    (a, _), (b, _) = played
    if a.name != b.name or [k for k, _ in a.params] != [k for k, _ in b.params]:
        return True
    differ = {k for (k, va), (_, vb) in zip(a.params, b.params) if va != vb}
    for _, line in played:
        seen = [
            p.audience
            for p in getattr(line, "parts", ())
            if isinstance(getattr(p, "audience", None), ParamSeen)
        ]
        if any(audience.name in differ and audience.allows(seat) for audience in seen):
            return True
    return False


def test_a_seat_is_told_its_own_draws_and_picks_and_not_the_others(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = compiled(Path(str(ROOT / "games" / "k2.yaml")), 3)
    s = played(game, 1, 30, narrate=True)
    mine, theirs = narrated(s.log, 0), narrated(s.log, 1)
    # The picks are secret choices: told to the picker as it makes them, to the others not at all...
    assert any(line.startswith("p1 (in secret): pick(card=") and "?" not in line for line in mine)
    assert not any(line.startswith("p1 (in secret)") for line in theirs)
    reveal = next(i for i, line in enumerate(theirs) if "secret choices of p1" in line)
    assert "p1 has chosen" in theirs[:reveal] and not any("p1: pick" in line for line in theirs[:reveal])
    # ...until everyone has picked: then the cards are laid face up, told to everyone.
    assert any(line.startswith("p1: pick(card=") and "?" not in line for line in theirs[reveal:])
    assert any(line.startswith("  6 cards drawn from p1.deck to p1.hand: ") for line in mine)
    assert "  6 cards drawn from p1.deck to p1.hand" in theirs
    # Cards turned face up are told to everyone.
    reveal = [line for line in theirs if " reveals " in line]
    assert reveal and all("?" not in line and "card" not in line for line in reveal)


def test_a_sealed_bid_is_narrated_to_its_bidder_only_until_the_bids_are_opened() -> None:
    game = compiled(SEALED_BIDS, 3)
    s = played(game, 4, 3, narrate=True)
    bids = [line for line in s.log if line.startswith("p1: bid(")]
    assert bids
    assert narrated(bids, 0) == bids and narrated(bids, 1) == ["p1: bid(n=?)"] * len(bids)
    opened = [line for line in narrated(s.log, 1) if " bids " in line]
    assert [line.split()[0] for line in opened] == ["p1", "p2", "p3"] and "?" not in "".join(opened)


def test_a_private_variable_shows_as_hidden_to_others_and_a_hidden_one_to_everyone() -> None:
    game = compiled(SEALED_BIDS, 3)
    s = played(game, 4, 1)  # p1 has bid
    s.pv[0]["bid"] = 3
    mine, theirs = s.view(0), s.view(1)
    assert mine.pv[0]["bid"] == 3 and theirs.pv[0]["bid"] == HIDDEN
    assert theirs.pv[1]["bid"] == s.pv[1]["bid"]  # its own
    assert mine.gv["reserve"] == theirs.gv["reserve"] == HIDDEN
    assert mine.gv["round"] == s.gv["round"]


def test_determinizing_fills_in_what_the_seat_cannot_see_at_the_starting_values() -> None:
    game = compiled(SEALED_BIDS, 3)
    s = played(game, 4, 1)
    s.pv[0]["bid"] = 3
    d = s.view(1).determinize(random.Random(1))
    assert not d.is_view
    assert d.pv[0]["bid"] == 0 and d.gv["reserve"] == 0  # their declared starting values
    assert d.view(1).to_json() == s.view(1).to_json()


def test_determinizing_needs_a_view() -> None:
    game = compiled(SEALED_BIDS, 3)
    with pytest.raises(ValueError, match="view"):
        game.new_game(seed=1).determinize(random.Random(1))


@pytest.mark.parametrize(("path", "players"), CASES, ids=IDS)
@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 10**6), steps=st.integers(0, MAX_STEPS), seat=st.integers(0, 4), deal=st.integers()
)
def test_a_determinized_view_agrees_with_the_view_keeps_the_invariants_and_plays_to_the_end(
    path: Path, players: int, seed: int, steps: int, seat: int, deal: int
) -> None:
    game = compiled(path, players)
    seat %= players
    view = played(game, seed, steps).view(seat)
    full = view.determinize(random.Random(deal))
    assert full.view(seat).to_json() == view.to_json()
    assert broken(full) == []
    rng = random.Random(deal)
    for _ in range(100_000):
        if full.is_over:
            break
        full.apply(rng.choice(full.legal_actions()))
    assert full.is_over


def test_determinizing_with_the_same_generator_deals_the_same_and_another_deals_otherwise() -> None:
    game = compiled(ROOT / "games" / "k2.yaml", 3)
    view = played(game, 2, 10).view(0)
    deals = [view.determinize(random.Random(k)).to_json() for k in (1, 1, 2, 3, 4)]
    assert deals[0] == deals[1]
    assert len(set(deals)) > 2


def test_a_determinized_k2_view_keeps_each_players_eighteen_cards_in_that_players_zones() -> None:
    game = compiled(ROOT / "games" / "k2.yaml", 4)
    deck = Counter(
        {
            c: n
            for c, n in game.definition.sym.copies.items()
            if c in game.definition.sym.constants["climbing"]
        }
    )
    for steps in (0, 25, 160):
        full = played(game, 7, steps).view(2).determinize(random.Random(steps))
        for p in range(4):
            cards: Counter[str] = Counter()
            for zone in ("deck", "hand", "played", "discard"):
                cards.update(full.zones[f"{zone}#{p}"])
            assert +cards == deck, f"p{p + 1} after {steps} steps"


def test_a_view_drops_another_players_half_made_stepwise_decision() -> None:
    game = compiled(ROOT / "games" / "climbers_of_verdon.yaml", 3)
    s = game.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(5000):
        offers = [a for a in s.legal_actions() if a.name == "offer_trade" and a.partial]
        if offers:
            break
        s.apply(rng.choice(s.legal_actions()))
    s.apply(offers[0])
    mover = int(s.to_move)
    assert s.stack[-1]["k"] == "partial"
    assert s.view(mover).stack == s.stack
    other = s.view((mover + 1) % 3)
    assert other.stack == s.stack[:-1] and other.to_move == mover
