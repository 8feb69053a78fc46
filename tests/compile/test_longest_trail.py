"""`longest_path`'s trail search, which splits the sides into groups no trail leaves, takes a tree's
diameter, and otherwise walks only from the corners a longest trail can start at, agrees with walking from
every corner of the whole graph."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.compile.builtins import _longest_trail, longest_path

Edge = tuple[str, str, str]
GAMES = Path(__file__).resolve().parents[2] / "games"


def from_every_corner(edges: tuple[Edge, ...], blocked: frozenset[str], along: str | None = None) -> int:
    """The plain search: a trail from every corner, never through a blocked one (it may end there); with
    `along`, the longest of those that take that side."""
    by_corner: dict[str, list[tuple[str, str]]] = {}
    for side, a, b in edges:
        by_corner.setdefault(a, []).append((side, b))
        by_corner.setdefault(b, []).append((side, a))
    best = 0

    def walk(corner: str, used: set[str], length: int) -> None:
        nonlocal best
        if along is None or along in used:
            best = max(best, length)
        if length and corner in blocked:
            return
        for side, nxt in by_corner[corner]:
            if side not in used:
                used.add(side)
                walk(nxt, used, length + 1)
                used.discard(side)

    for corner in by_corner:
        walk(corner, set(), 0)
    return best


CORNERS = [f"c{i}" for i in range(7)]
# Board-like graphs: a side joins two different corners, and no two sides join the same two (the plain
# search is exponential on piles of parallel sides, which no board has).
GRAPHS = st.lists(
    st.tuples(st.sampled_from(CORNERS), st.sampled_from(CORNERS)).filter(lambda ab: ab[0] != ab[1]),
    max_size=11,
    unique_by=lambda ab: frozenset(ab),
).map(lambda pairs: tuple(sorted((f"s{i}", a, b) for i, (a, b) in enumerate(pairs))))


@settings(max_examples=400)
@given(GRAPHS, st.frozensets(st.sampled_from(CORNERS)))
def test_the_longest_trail_is_the_one_found_from_every_corner(
    edges: tuple[Edge, ...], blocked: frozenset[str]
) -> None:
    assert _longest_trail.__wrapped__(edges, blocked) == from_every_corner(edges, blocked)


def test_a_tree_with_a_blocked_corner_inside_is_cut_there() -> None:
    # a - b - c - d, and b - e: five corners, four sides, a tree; blocked at c, no trail passes c.
    tree = (("s1", "a", "b"), ("s2", "b", "c"), ("s3", "c", "d"), ("s4", "b", "e"))

    assert _longest_trail.__wrapped__(tree, frozenset()) == 3  # a-b-c-d
    assert _longest_trail.__wrapped__(tree, frozenset({"c"})) == 2  # a-b-c or e-b-c, ending at c
    assert _longest_trail.__wrapped__(tree, frozenset({"b"})) == 2  # b-c-d, starting at b


def test_a_closed_loop_with_no_blocked_corner_is_one_trail() -> None:
    square = (("s1", "a", "b"), ("s2", "b", "c"), ("s3", "c", "d"), ("s4", "d", "a"))

    assert _longest_trail.__wrapped__(square, frozenset()) == 4
    assert _longest_trail.__wrapped__(square, frozenset({"c"})) == 4  # starts and ends at c
    assert _longest_trail.__wrapped__(square, frozenset({"a", "c"})) == 2


def test_a_blocked_corner_splits_a_path_into_two_trails() -> None:
    path = (("s1", "a", "b"), ("s2", "b", "c"), ("s3", "c", "d"), ("s4", "d", "e"), ("s5", "e", "f"))

    assert _longest_trail.__wrapped__(path, frozenset()) == 5
    assert _longest_trail.__wrapped__(path, frozenset({"c"})) == 3  # c..f; a..c is 2


def test_a_blocked_corner_no_side_touches_changes_nothing_and_shares_the_answer() -> None:
    import meeple
    from meeple.compile.builtins import longest_path

    state = meeple.load("climbers_of_verdon", players=3).new_game(seed=1)
    ends = state.game.board.ends
    first = sorted(ends)[0]
    trail = [side for side in sorted(ends) if set(ends[side]) & set(ends[first])][:3]  # sides meeting it
    touched = {corner for side in trail for corner in ends[side]}
    far = sorted({c for side in ends for c in ends[side]} - touched)[:5]
    near = sorted(touched)[:1]
    _longest_trail.cache_clear()
    alone = longest_path(state, trail, near)
    assert longest_path(state, trail, [*near, *far]) == alone
    # the far corners are not part of what is remembered: the answer found, no search asked
    assert _longest_trail.cache_info().hits == 0 and _longest_trail.cache_info().misses == 1


def test_the_same_sides_and_corners_asked_again_in_the_same_order_are_answered_without_a_search() -> None:
    import meeple
    from meeple.compile.builtins import longest_path

    state = meeple.load("climbers_of_verdon", players=3).new_game(seed=1)
    ends = state.game.board.ends
    sides = sorted(ends)[:6]
    corners = sorted({c for side in sides for c in ends[side]})[:2]
    _longest_trail.cache_clear()
    answer = longest_path(state, sides, corners)
    assert _longest_trail.cache_info().misses == 1
    assert longest_path(state, list(sides), list(corners)) == answer
    assert _longest_trail.cache_info().hits == 0 and _longest_trail.cache_info().misses == 1
    # Another order is another question for the game's cache, with the same answer from the trail search's.
    assert longest_path(state, sides[::-1], corners) == answer
    assert _longest_trail.cache_info().hits == 1
    # Another game keeps its own answers: a board of its own may join sides of the same names differently.
    other = meeple.load("climbers_of_verdon", players=4).new_game(seed=1)
    assert longest_path(other, sides, corners) == answer
    assert _longest_trail.cache_info().hits == 2


def test_a_loop_hanging_from_a_corner_is_walked_round_once() -> None:
    # A tail a-b, then the loop b-c-d-e-b: the trail goes up the tail and once round the loop (5 sides).
    lasso = (("s1", "a", "b"), ("s2", "b", "c"), ("s3", "c", "d"), ("s4", "d", "e"), ("s5", "e", "b"))

    assert _longest_trail.__wrapped__(lasso, frozenset()) == 5
    assert _longest_trail.__wrapped__(lasso, frozenset({"b"})) == 4  # round the loop from b, back to b
    assert _longest_trail.__wrapped__(lasso, frozenset({"d"})) == 4  # round from d back to d; a-b-c-d is 3


def test_two_rings_sharing_a_chain_take_the_longer_ways_round() -> None:
    # A theta: corners a and b joined by three chains of 1, 2 and 3 sides. A trail uses two of them from
    # a to b and may not come back by the third (it would pass a or b a second time by a side used).
    theta = (
        ("s1", "a", "b"),
        ("s2", "a", "c"),
        ("s3", "c", "b"),
        ("s4", "a", "d"),
        ("s5", "d", "e"),
        ("s6", "e", "b"),
    )

    assert _longest_trail.__wrapped__(theta, frozenset()) == from_every_corner(theta, frozenset()) == 6


HEX_SIDES = st.integers(0, 2**31)


@settings(max_examples=60, deadline=None)
@given(HEX_SIDES, st.integers(6, 16))
def test_networks_on_a_hex_board_agree_with_the_plain_search(seed: int, size: int) -> None:
    """Joined networks of fixed ropes as the game grows them, with some corners blocked: long chains, rings
    and branches."""
    import random

    import meeple

    ends = meeple.load("climbers_of_verdon", players=2).new_game(seed=1).game.board.ends
    rng = random.Random(seed)
    sides = [rng.choice(sorted(ends))]
    corners = set(ends[sides[0]])
    while len(sides) < size:
        nxt = rng.choice(sorted(s for s in ends if s not in sides and set(ends[s]) & corners))
        sides.append(nxt)
        corners |= set(ends[nxt])
    blocked = frozenset(rng.sample(sorted(corners), rng.randint(0, 3)))
    edges = tuple(sorted((s, *ends[s]) for s in sides))
    assert _longest_trail.__wrapped__(edges, blocked) == from_every_corner(edges, blocked)


@settings(max_examples=40, deadline=None)
@given(HEX_SIDES, st.integers(6, 18))
def test_a_network_asked_after_each_rope_agrees_with_the_plain_search(seed: int, size: int) -> None:
    """As an award asks: the same list with one side more at its end each time (some twice, as a rule file
    may allow), the blocked corners changing now and then. From the second side on, the answer comes from
    the list before it and the trails along the new side: no search of the whole network."""
    import random

    state = meeple.load(GAMES / "climbers_of_verdon.yaml", players=2).new_game(seed=1)
    state.game.card_combos.clear()
    ends = state.game.board.ends
    rng = random.Random(seed)
    sides = [rng.choice(sorted(ends))]
    corners = set(ends[sides[0]])
    blocked: list[str] = []
    moved = 0  # the times the blocked corners changed
    _longest_trail.cache_clear()
    for _ in range(size):
        edges = tuple(sorted({(s, *ends[s]) for s in sides}))
        want = from_every_corner(edges, frozenset(blocked))
        assert longest_path(state, sides, blocked) == want
        if rng.random() < 0.3:  # another player's building on a corner, or one more elsewhere
            blocked.append(rng.choice(sorted(corners | {"nowhere"})))
            moved += 1
        again = [s for s in sides if rng.random() < 0.1][:1]
        sides = sides + (again or [rng.choice(sorted(s for s in ends if set(ends[s]) & corners))])
        corners |= {c for s in sides for c in ends[s]}
    # A full search for the first side, and at most once after each change of the blocked corners (the list
    # before was answered with others); every other answer came from the list before and the new side.
    assert _longest_trail.cache_info().misses <= 1 + moved


@settings(max_examples=300)
@given(GRAPHS, st.frozensets(st.sampled_from(CORNERS)))
def test_the_groups_split_the_sides_at_corners_not_blocked(
    edges: tuple[Edge, ...], blocked: frozenset[str]
) -> None:
    from meeple.compile.builtins import _corner_joins, _trail_groups

    joins = _corner_joins(edges, blocked)
    # each corner a trail may pass once, a blocked one once for each side that ends there
    passable = {c for _, a, b in edges for c in (a, b) if c not in blocked}
    ends_blocked = sum((a in blocked) + (b in blocked) for _, a, b in edges)
    assert len(joins) == len(passable) + ends_blocked
    assert sorted(bit for at in joins for bit, _ in at) == sorted(
        1 << i for i in range(len(edges)) for _ in "ab"
    )
    groups = _trail_groups(joins)
    assert sorted(c for _, corners in groups for c in corners) == list(range(len(joins)))  # each corner once
    assert [corners[0] for _, corners in groups] == sorted(corners[0] for _, corners in groups)
    for sides, corners in groups:
        inside = set(corners)
        assert all(other in inside for c in corners for _, other in joins[c])  # no side leaves the group
        assert sides == len({bit for c in corners for bit, _ in joins[c]})
        joined, todo = {corners[0]}, [corners[0]]  # and each is joined
        while todo:
            for _, other in joins[todo.pop()]:
                if other not in joined:
                    joined.add(other)
                    todo.append(other)
        assert joined == inside


def test_a_side_named_twice_is_walked_once() -> None:
    # A rule file that lets a rope be built on a side holding one already lists that side twice; a trail
    # never takes a side twice (searched as two sides, eight ropes on each of three sides ran for hours).
    game = meeple.load(GAMES / "climbers_of_verdon.yaml", players=2)
    state = game.new_game(seed=1)
    sides = sorted(state.game.board.ends)
    first = sides[0]
    a, b = state.game.board.ends[first]
    touching = [e for e in sides if e != first and set(state.game.board.ends[e]) & {a, b}][:2]
    once = longest_path(state, [first, *touching])
    assert longest_path(state, [first] * 2 + touching * 2) == once


@settings(max_examples=400)
@given(GRAPHS.filter(bool), st.frozensets(st.sampled_from(CORNERS)), st.integers(0, 10))
def test_a_side_added_to_a_graph_answered_before_gives_the_plain_answer(
    edges: tuple[Edge, ...], blocked: frozenset[str], pick: int
) -> None:
    """`_longest_through`: the answer without one side, and the trails along that side (a side joining two
    trees, or a tree and a new corner, by the longest way out on either side; one closing a ring, or in a
    group with one, by the search of its group)."""
    from meeple.compile.builtins import _corners_around, _longest_through

    side = edges[pick % len(edges)]
    rest = tuple(e for e in edges if e is not side)
    floor = from_every_corner(rest, blocked) if rest else 0
    around = _corners_around(rest)
    assert _longest_through(side, around, edges, blocked, floor) == from_every_corner(edges, blocked)


def test_a_side_joining_two_trees_takes_the_longest_way_out_of_each() -> None:
    from meeple.compile.builtins import _corners_around, _longest_through

    left = (("s1", "a", "b"), ("s2", "b", "c"), ("s3", "b", "d"))  # a star: 2 sides across
    right = (("s5", "f", "g"), ("s6", "g", "h"), ("s7", "h", "i"))  # a path of 3 sides
    side = ("s4", "c", "f")  # c is 2 from a (or d), f 3 from i: 2 + 1 + 3
    edges = tuple(sorted((*left, side, *right)))
    around = _corners_around((*left, *right))
    assert _longest_through(side, around, edges, frozenset(), 3) == 6 == from_every_corner(edges, frozenset())
    # b blocked: a trail may end at b but not pass it; from c the way out is c-b only
    b_blocked = frozenset({"b"})
    assert _longest_through(side, around, edges, b_blocked, 3) == 5 == from_every_corner(edges, b_blocked)


def test_the_corners_around_a_list_with_one_side_more_are_those_of_its_sides() -> None:
    """The shape of a list one side longer than a list seen keeps the corners around of that list with the
    new side's two ends added (the way out of each end is walked over those), and leaves the other alone."""
    from meeple.compile.builtins import _corners_around, _trail_shape

    ends = {"s1": ("a", "b"), "s2": ("b", "c"), "s3": ("c", "d"), "s4": ("b", "e")}
    cache: dict = {}
    names: tuple[str, ...] = ()
    for name in ("s1", "s2", "s3", "s4"):
        names = (*names, name)
        shape = _trail_shape(ends, names, cache)
        before = cache.get(("trail sides", names[:-1]))
        cache[("trail sides", names)] = shape
        rebuilt = _corners_around(shape[0])
        assert {c: sorted(n) for c, n in shape[4].items()} == {c: sorted(n) for c, n in rebuilt.items()}
        if before is not None:  # the list before it is as it was, and handed on with the new side
            assert shape[3][2] == (name, *ends[name])
            assert shape[3][3] is before[4]
            assert sum(map(len, before[4].values())) == 2 * (len(names) - 1)


def test_a_side_in_an_arm_is_searched_from_the_ring_corner_it_hangs_from_alone() -> None:
    from meeple.compile.builtins import _corner_joins, _longest_in_group, _trail_group

    # The ring b-c-d-e-b with a tail of 3 sides at b and another at c; the new side d-y hangs from d.
    new = ("s0", "d", "y")
    others = (
        ("r1", "b", "c"), ("r2", "c", "d"), ("r3", "d", "e"), ("r4", "e", "b"),
        ("t1", "b", "f"), ("t2", "f", "g"), ("t3", "g", "h"),
        ("u1", "c", "i"), ("u2", "i", "j"), ("u3", "j", "k"),
    )  # fmt: skip
    edges = (new, *others)
    along = from_every_corner(edges, frozenset(), along="s0")
    everywhere = from_every_corner(edges, frozenset())
    assert along < everywhere  # the longest trail keeps off the new side: h..b, b-e-d-c, c..k
    joins = _corner_joins(edges, frozenset())  # the new side's bit is 1, its corners 0 and 1
    sides, corners = _trail_group(joins, 0, [-1] * len(joins), 0)
    # Told the side, only the trails along it are walked: the others are the caller's floor (here 0)
    assert _longest_in_group(joins, corners, sides, 0, 1) == along
    assert _longest_in_group(joins, corners, sides, 0) == everywhere
    assert _longest_in_group(joins, corners, sides, everywhere, 1) == everywhere
