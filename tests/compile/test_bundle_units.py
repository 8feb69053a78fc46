"""A bundle's units in sorted order, as `sample` and `first` see them, without listing them: the same
draws and the same first unit as the list gives, found at once for a player holding 10^18 ropes (a
mutated rule file hung `check --playouts` building that list)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from meeple.compile.builtins import Units, distinct, first, max_, min_, sample, sorted_, sum_, units
from meeple.values import Bundle

BUNDLES = st.dictionaries(st.sampled_from(["chalk", "nut", "rope", "bolt"]), st.integers(0, 12)).map(Bundle)


class Holder:
    """What a built-in reads of a state here: its random generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)


@given(BUNDLES)
def test_the_units_of_a_bundle_are_the_sorted_list_of_them(b: Bundle) -> None:
    assert list(Units(b)) == list(units(b)) == sorted(units(b))
    assert len(Units(b)) == b.total
    assert first(None, b) == (units(b)[0] if b.total else None)


@given(BUNDLES, st.integers(0, 20), st.integers(0, 2**32))
def test_sample_draws_what_it_drew_from_the_list(b: Bundle, n: int, seed: int) -> None:
    listed = random.Random(seed).sample(sorted(units(b)), min(n, b.total))

    assert sample(Holder(seed), b, n) == Bundle((k, 1) for k in listed)


def test_sample_and_first_of_a_huge_holding_never_list_its_units() -> None:
    huge = Bundle({"rope": 10**18, "nut": 3})
    drawn = sample(Holder(1), huge, 2)

    assert drawn.total == 2 and set(drawn) <= {"rope", "nut"}
    assert first(None, huge) == "nut"


ZONES = st.dictionaries(st.sampled_from(["chalk", "nut", "rope", "bolt"]), st.integers(0, 3))


@given(ZONES)
def test_a_zones_units_min_and_max_are_those_of_its_cards_one_per_copy(zone: dict[str, int]) -> None:
    # a card of 0 copies is not held
    listed = sorted(name for name, copies in zone.items() for _ in range(copies))
    assert list(units(zone)) == listed
    assert min_(None, zone) == (listed[0] if listed else None)
    assert max_(None, zone) == (listed[-1] if listed else None)


@given(ZONES, BUNDLES)
def test_sorted_lists_every_copy_in_order_in_a_new_list(zone: dict[str, int], b: Bundle) -> None:
    listed = sorted(name for name, copies in zone.items() for _ in range(copies))
    found = sorted_(None, zone)
    assert found == listed and type(found) is list
    found.append("extra")  # the caller's own list: the zone and a second answer are as they were
    assert sorted_(None, zone) == listed
    assert sorted_(None, b) == sorted(b.units()) and type(sorted_(None, b)) is list
    assert sorted_(None, ["rope", "bolt", "nut", "bolt"]) == ["bolt", "bolt", "nut", "rope"]


@given(st.lists(BUNDLES, max_size=5), st.lists(st.integers(-50, 50), max_size=8))
def test_sum_adds_numbers_and_bundles_as_its_loop_does(bundles: list[Bundle], numbers: list[int]) -> None:
    """`sum` hands numbers to Python's own loop; bundles (no number adds to one) go on to its own, the
    first bundle starting the total. A list, a tuple and a generator of them give the same."""
    assert sum_(None, numbers) == sum_(None, tuple(numbers)) == sum_(None, iter(numbers)) == sum(numbers)
    total = sum_(None, bundles)
    expected: Any = 0
    for b in bundles:
        expected = b if expected == 0 else expected + b
    assert total == expected
    assert sum_(None, (b for b in bundles)) == expected


def test_an_empty_zone_has_no_units_each_time_in_a_new_list() -> None:
    first_answer, second = units({}), units({})
    assert first_answer == [] and type(first_answer) is list and first_answer is not second
    assert units({"nut": 0}) == []  # a card of no copies: none held


@given(ZONES)
def test_the_distinct_cards_of_a_zone_are_the_names_it_holds_a_copy_of_in_a_new_list(
    zone: dict[str, int],
) -> None:
    found = distinct(None, zone)
    assert found == sorted(name for name, copies in zone.items() if copies) and type(found) is list
    assert found is not distinct(None, zone)
