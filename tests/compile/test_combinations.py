"""The card-combination built-ins `groups` (sets agreeing on a field) and `runs` (consecutive values sharing
a colour), checked by example and against brute-force oracles with hypothesis; and `seat_after`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import Bundle
from meeple.compile import builtins
from meeple.compile.builtins import groups, runs

RULES = """
game:
  name: Combinations
  players: {min: 2, max: 4}
components:
  card_fields: {number: none, colours: [], suit: none}
  cards:
    start: {number: -1}
    plain:
      for: {colour: colours, n: 1..5}
      name: "{colour}_{n}"
      count: 2
      number: n
      colours: "[colour]"
      suit: colour
    wild:
      for: {n: 1..4}
      number: n
      colours: colours
    clear:
      for: {n: 2..4}
      count: 2
      number: n
    blank: {}
  zones:
    deck: {fill: cards}
    hand: {per: player}
    table: {}
tables:
  colours: [red, green, blue]
vars:
  game: {nexts: none, seconds: none, befores: none}
setup:
  - set nexts = [seat_after(p) for p in players]
  - set seconds = [seat_after(p, 2) for p in players]
  - set befores = [seat_after(p, -1) for p in players]
  - "move cards ['red_1', 'red_2', 'red_3', 'green_3'] from deck to players[0].hand"
  - "move cards ['wild_4', 'clear_2', 'clear_2'] from deck to players[0].hand"
actions:
  play:
    params: {cards: "groups(me.hand, 'number') + runs(me.hand, 'number', 'colours', min=3)"}
    effect: [move cards cards from me.hand to table]
flow:
  - phase: play
    turns: none
    do: [{choose: [play]}]
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> meeple.Game:
    path = tmp_path_factory.mktemp("combinations") / "combinations.yaml"
    path.write_text(RULES, encoding="utf-8")
    assert meeple.check(path) == []
    return meeple.load(path, players=3)


@pytest.fixture(scope="module")
def state(game: meeple.Game) -> meeple.State:
    return game.new_game(seed=1)


def definition(state: meeple.State, card: str) -> dict[str, Any]:
    return state.game.sym.definitions[card]


def hand(*cards: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in cards:
        out[card] = out.get(card, 0) + 1
    return out


def bundles(*plays: tuple[str, ...]) -> list[Bundle]:
    return [Bundle(hand(*cards)) for cards in plays]


# --------------------------------------------------------------------------- groups by example


def test_groups_lists_every_handful_agreeing_on_the_field_smallest_first(state: meeple.State) -> None:
    found = groups(state, hand("red_2", "red_2", "green_2", "red_3"), "number")
    assert found == bundles(
        ("green_2",),
        ("red_2",),
        ("red_3",),
        ("green_2", "red_2"),
        ("red_2", "red_2"),
        ("green_2", "red_2", "red_2"),
    )


def test_groups_with_max_leaves_out_bigger_handfuls(state: meeple.State) -> None:
    found = groups(state, hand("red_2", "red_2", "green_2"), "number", 2)
    assert found == bundles(("green_2",), ("red_2",), ("green_2", "red_2"), ("red_2", "red_2"))


def test_groups_leaves_out_cards_without_the_field(state: meeple.State) -> None:
    assert groups(state, hand("blank", "blank", "start"), "number") == bundles(("start",))


def test_groups_of_nothing_is_empty(state: meeple.State) -> None:
    assert groups(state, {}, "number") == []


# --------------------------------------------------------------------------- runs by example


def test_runs_lists_consecutive_cards_sharing_a_colour(state: meeple.State) -> None:
    found = runs(state, hand("red_1", "red_2", "red_3", "green_3"), "number", "colours")
    assert found == bundles(("red_1", "red_2"), ("red_2", "red_3"), ("red_1", "red_2", "red_3"))


def test_a_wild_card_joins_a_run_of_any_colour_and_each_run_is_listed_once(state: meeple.State) -> None:
    found = runs(state, hand("red_1", "wild_2", "green_3", "wild_3"), "number", "colours")
    assert found == bundles(
        ("green_3", "wild_2"),
        ("red_1", "wild_2"),
        ("wild_2", "wild_3"),
        ("red_1", "wild_2", "wild_3"),
    )


def test_a_card_with_no_colour_never_joins_a_run(state: meeple.State) -> None:
    assert runs(state, hand("clear_2", "clear_3", "clear_4", "wild_1"), "number", "colours") == []


def test_runs_keeps_to_min_and_max(state: meeple.State) -> None:
    held = hand("red_1", "red_2", "red_3", "red_4")
    assert runs(state, held, "number", "colours", 3, 3) == bundles(
        ("red_1", "red_2", "red_3"), ("red_2", "red_3", "red_4")
    )
    assert runs(state, held, "number", "colours", 4) == bundles(("red_1", "red_2", "red_3", "red_4"))


def test_two_copies_of_a_card_give_one_run_not_two(state: meeple.State) -> None:
    assert runs(state, hand("red_1", "red_1", "red_2"), "number", "colours") == bundles(("red_1", "red_2"))


def test_a_scalar_within_field_is_one_colour_not_a_list_of_characters(state: meeple.State) -> None:
    assert runs(state, hand("red_1", "green_2"), "number", "suit") == []


def test_groups_and_runs_accept_a_list_of_card_names(state: meeple.State) -> None:
    assert groups(state, ["red_2", "green_2"], "number") == groups(state, hand("red_2", "green_2"), "number")
    assert runs(state, ["red_1", "red_2"], "number", "colours") == bundles(("red_1", "red_2"))


def test_groups_and_runs_are_kept_by_the_cards_held_and_share_each_handful(state: meeple.State) -> None:
    held = hand("red_2", "green_2", "red_3")
    first = groups(state, held, "number")
    again = groups(state, dict(reversed(held.items())), "number")  # the same cards, another order
    assert again == first and all(a is b for a, b in zip(first, again))  # one object per handful
    first.clear()  # each answer is a list of its own: changing one leaves the kept answer as it was
    assert groups(state, held, "number") == again
    a_run = runs(state, hand("red_1", "wild_2"), "number", "colours")
    assert str(a_run[0]) == "1 red_1 + 1 wild_2"  # its cards in the order of the run
    assert runs(state, hand("wild_2", "red_1"), "number", "colours")[0] is a_run[0]


def test_a_game_keeps_a_bounded_number_of_answers(
    state: meeple.State, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtins, "_COMBOS_KEPT", 5)
    state.game.card_combos.clear()
    sizes = []
    for n in range(1, 6):
        found = groups(state, hand(f"red_{n}", f"green_{n}"), "number")
        assert found == bundles((f"green_{n}",), (f"red_{n}",), (f"green_{n}", f"red_{n}"))
        sizes.append(len(state.game.card_combos))
    # Each answer with its 3 handfuls and the handfuls of the one value, and the recent hands: all dropped
    # once the bound is reached (five hands kept whole would be 26 entries).
    assert max(sizes) <= 6


def test_a_handful_stays_one_object_when_the_answers_are_dropped(
    state: meeple.State, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A memo keyed by a handful (a def of the cards played) then finds the very object, not an equal one.
    monkeypatch.setattr(builtins, "_COMBOS_KEPT", 5)
    first = groups(state, hand("red_1", "green_1"), "number") + runs(
        state, hand("red_1", "red_2", "red_3"), "number", "colours", min=3
    )
    assert len(first) == 4  # three handfuls of 1s and one run
    for n in range(2, 8):  # other hands, until the answers are dropped for room
        groups(state, hand(f"red_{n}", f"green_{n}"), "number")
    assert len(state.game.card_combos) <= 6
    again = groups(state, hand("red_1", "green_1"), "number") + runs(
        state, hand("red_1", "red_2", "red_3"), "number", "colours", min=3
    )
    assert again == first
    assert all(a is b for a, b in zip(again, first, strict=True))


def test_an_answer_is_the_callers_own_list_which_distinct_hands_back_unhashed(state: meeple.State) -> None:
    from meeple.compile.builtins import distinct

    cards = hand("red_1", "red_2", "red_3", "green_2", "clear_2", "clear_2")
    for found in (groups(state, cards, "number"), runs(state, cards, "number", "colours")):
        assert found and len(set(found)) == len(found)  # no handful twice
        assert distinct(state, found) is found
        found.clear()  # the caller's own: emptying it changes no answer kept
    assert groups(state, cards, "number") and runs(state, cards, "number", "colours")


def test_the_handfuls_kept_are_bounded(state: meeple.State, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builtins, "_BUNDLES_KEPT", 4)
    state.game.card_bundles.clear()
    sizes = []
    for n in range(1, 6):
        found = groups(state, hand(f"red_{n}", f"green_{n}"), "number")
        assert found == bundles((f"green_{n}",), (f"red_{n}",), (f"green_{n}", f"red_{n}"))
        sizes.append(len(state.game.card_bundles))
    assert max(sizes) <= 4


# --------------------------------------------------------------------------- in a rule file


def test_plays_built_from_groups_and_runs_are_offered_and_moved_as_a_whole(state: meeple.State) -> None:
    played = state.clone()
    legal = [str(a) for a in played.legal_actions()]
    assert "play(cards=1 red_1 + 1 red_2 + 1 red_3)" in legal
    assert "play(cards=2 clear_2)" in legal
    assert "play(cards=1 red_1 + 1 red_2)" not in legal  # runs of 3 or more only
    played.apply("play(cards=1 red_1 + 1 red_2 + 1 red_3)")
    assert played.zones["table"] == {"red_1": 1, "red_2": 1, "red_3": 1}
    assert played.zones["hand#0"] == {"green_3": 1, "wild_4": 1, "clear_2": 2}


def test_seat_after_counts_seats_clockwise_and_wraps(state: meeple.State) -> None:
    assert [int(p) for p in state.gv["nexts"]] == [1, 2, 0]
    assert [int(p) for p in state.gv["seconds"]] == [2, 0, 1]
    assert [int(p) for p in state.gv["befores"]] == [2, 0, 1]


# --------------------------------------------------------------------------- properties

KINDS = (
    [f"{c}_{n}" for c in ("red", "green", "blue") for n in range(1, 6)]
    + [f"wild_{n}" for n in range(1, 5)]
    + [f"clear_{n}" for n in range(2, 5)]
    + ["start"]
)
HANDS = st.dictionaries(st.sampled_from(KINDS), st.integers(min_value=1, max_value=3), max_size=8)
PROPERTY = settings(max_examples=150, deadline=None)


def sub_bundles(held: dict[str, int]) -> Iterator[Bundle]:
    kinds = sorted(held)
    for counts in product(*(range(held[k] + 1) for k in kinds)):
        if any(counts):
            yield Bundle(zip(kinds, counts))


def is_within(play: Bundle, held: dict[str, int]) -> bool:
    return all(0 < n <= held.get(card, 0) for card, n in play.items())


def run_oracle(s: meeple.State, held: dict[str, int], least: int, most: int | None) -> set[Bundle]:
    found = set()
    for size in range(max(least, 1), len(held) + 1):
        if most is not None and size > most:
            break
        for kinds in combinations(sorted(held), size):
            numbers = sorted(definition(s, k)["number"] for k in kinds)
            shared = set.intersection(*(set(definition(s, k)["colours"]) for k in kinds))
            if numbers == list(range(numbers[0], numbers[0] + size)) and shared:
                found.add(Bundle((k, 1) for k in kinds))
    return found


@PROPERTY
@given(held=HANDS)
def test_every_run_is_consecutive_one_card_a_value_of_one_colour_and_held(
    state: meeple.State, held: dict[str, int]
) -> None:
    for play in runs(state, held, "number", "colours"):
        numbers = sorted(definition(state, k)["number"] for k in play)
        assert all(n == 1 for n in play.values()), play
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))) and len(numbers) >= 2, play
        assert set.intersection(*(set(definition(state, k)["colours"]) for k in play)), play
        assert is_within(play, held), play


@PROPERTY
@given(held=HANDS, least=st.integers(min_value=1, max_value=4), extra=st.none() | st.integers(0, 3))
def test_runs_finds_exactly_the_runs_a_brute_force_search_finds_once_each(
    state: meeple.State, held: dict[str, int], least: int, extra: int | None
) -> None:
    most = None if extra is None else least + extra
    found = runs(state, held, "number", "colours", least, most)
    assert len(found) == len(set(found))
    assert set(found) == run_oracle(state, held, least, most)


@PROPERTY
@given(held=HANDS, limit=st.none() | st.integers(min_value=1, max_value=4))
def test_every_group_agrees_on_the_field_is_held_and_is_listed_once(
    state: meeple.State, held: dict[str, int], limit: int | None
) -> None:
    found = groups(state, held, "number", limit)
    for play in found:
        assert len({definition(state, k)["number"] for k in play}) == 1, play
        assert is_within(play, held), play
        assert limit is None or play.total <= limit, play
    assert len(found) == len(set(found))


@PROPERTY
@given(held=HANDS, limit=st.none() | st.integers(min_value=1, max_value=4))
def test_groups_finds_every_handful_of_equal_cards(
    state: meeple.State, held: dict[str, int], limit: int | None
) -> None:
    expected = {
        b
        for b in sub_bundles(held)
        if len({definition(state, k)["number"] for k in b}) == 1 and (limit is None or b.total <= limit)
    }
    assert set(groups(state, held, "number", limit)) == expected


@PROPERTY
@given(held=HANDS, seed=st.randoms(use_true_random=False))
def test_the_order_of_groups_and_runs_does_not_depend_on_the_order_of_the_hand(
    state: meeple.State, held: dict[str, int], seed: Any
) -> None:
    items = list(held.items())
    seed.shuffle(items)
    shuffled = dict(items)
    assert groups(state, shuffled, "number") == groups(state, held, "number")
    assert runs(state, shuffled, "number", "colours") == runs(state, held, "number", "colours")


def test_groups_and_runs_come_smallest_first(state: meeple.State) -> None:
    held = hand("red_1", "red_2", "red_3", "red_3", "wild_3", "green_2", "wild_4")
    for found in (groups(state, held, "number"), runs(state, held, "number", "colours")):
        totals = [b.total for b in found]
        assert totals == sorted(totals)


def test_hop_distances_live_with_their_board_so_a_later_board_never_gets_them() -> None:
    """A cache keyed by a board's memory address once handed a freed easy K2 board's distances to a
    new hard board; the table now lives on the board object itself."""
    from meeple.compile.builtins import _distances

    easy = meeple.load("k2", players=2, options={"board": "easy"}).definition.board
    hard = meeple.load("k2", players=2, options={"board": "hard"}).definition.board
    assert _distances(hard, "space")["BASE"]["W1"] > 0
    assert "W1" not in _distances(easy, "space")["BASE"]
    assert easy._cache["distances:space"] is _distances(easy, "space")
    assert hard._cache["distances:space"] is not easy._cache["distances:space"]


# ---------------------------------------------------------------- bundles and distinct

_KINDS = ["rope", "nut", "bolt", "chalk"]


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(
        st.dictionaries(st.sampled_from(_KINDS), st.integers(0, 3)).map(Bundle),
        st.lists(st.sampled_from(_KINDS), max_size=5),
    ),
    st.integers(1, 3),
)
def test_distinct_of_bundles_is_bundles_without_repeats_in_first_seen_order(source: Any, most: int) -> None:
    """`bundles` hands out its cached list, marked distinct when it is (different multisets of distinct
    kinds), which `distinct` then returns as it is: the result must be what deduplicating gives."""
    from meeple.compile.builtins import bundles as bundles_of
    from meeple.compile.builtins import distinct

    found = bundles_of(None, source, most)
    expected = list(dict.fromkeys(found))
    assert distinct(None, found) == expected
    assert distinct(None, bundles_of(None, source, most)) == expected  # the cached list is unchanged
    assert all(1 <= b.total <= most for b in expected)


@PROPERTY
@given(held=HANDS, data=st.data(), limit=st.none() | st.integers(min_value=1, max_value=4))
def test_a_hand_after_a_play_gets_the_answer_worked_out_afresh_from_the_hand_before_it(
    state: meeple.State, held: dict[str, int], data: st.DataObject, limit: int | None
) -> None:
    # After a play, a hand is held within the hand before it: its groups and runs are those of the hand
    # before that it still holds, which must be exactly (and in the order of) the ones worked out afresh.
    after = {k: data.draw(st.integers(min_value=0, max_value=n)) for k, n in held.items()}
    after = {k: n for k, n in after.items() if n}
    combos = state.game.card_combos
    combos.clear()
    fresh = groups(state, after, "number", limit), runs(state, after, "number", "colours")
    combos.clear()
    groups(state, held, "number", limit)
    runs(state, held, "number", "colours")
    assert groups(state, after, "number", limit) == fresh[0]
    assert runs(state, after, "number", "colours") == fresh[1]
    assert [str(b) for b in runs(state, after, "number", "colours")] == [str(b) for b in fresh[1]]


@pytest.mark.python_engine  # replaces a function of the engine or the built-ins
def test_a_hand_after_a_play_is_answered_from_the_hand_before_it(
    state: meeple.State, monkeypatch: pytest.MonkeyPatch
) -> None:
    state.game.card_combos.clear()
    before = hand("red_1", "red_2", "red_3", "green_3", "wild_4", "clear_2", "clear_2")
    groups(state, before, "number")
    runs(state, before, "number", "colours")
    worked_out = []
    monkeypatch.setattr(builtins, "_groups", lambda *a: worked_out.append("groups") or [])
    monkeypatch.setattr(builtins, "_runs", lambda *a: worked_out.append("runs") or [])
    after = hand("red_1", "red_2", "red_3", "clear_2")  # green_3, wild_4 and a clear_2 played
    assert [str(b) for b in groups(state, after, "number")] == [
        "1 clear_2",
        "1 red_1",
        "1 red_2",
        "1 red_3",
        "1 clear_2 + 1 red_2",
    ]
    assert [str(b) for b in runs(state, after, "number", "colours")] == [
        "1 red_1 + 1 red_2",
        "1 red_2 + 1 red_3",
        "1 red_1 + 1 red_2 + 1 red_3",
    ]
    assert worked_out == []  # both from the answers for the hand before
    groups(state, hand("red_4"), "number")  # a card the hand before did not hold: worked out
    assert worked_out == ["groups"]


def test_a_play_listed_again_is_the_action_made_the_first_time(state: meeple.State) -> None:
    # A bundle is never changed and equals only bundles: the Action of a handful is made once and found
    # again by it, as for a name or a number.
    listings = []
    for _ in range(2):
        copy = state.clone()
        copy._legal = None  # a clone keeps the listing of its original: listed anew
        listings.append(copy.legal_actions())
    first, again = listings
    assert first is not again
    plays = [(a, b) for a, b in zip(first, again, strict=True) if a.name == "play"]
    assert plays and all(a is b for a, b in plays)
