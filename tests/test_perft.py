"""Two classic games written in the rule language, checked against a reference nobody here wrote: OpenSpiel.

examples/classic/tic_tac_toe.yaml and connect_four.yaml must reproduce OpenSpiel's published perft counts
(how many move sequences of exactly d moves there are, a finished game not being extended), follow the
rules on hand-picked positions, and, when OpenSpiel's Python package is installed, offer the same moves
as `pyspiel` along random games played in lockstep.

The full counts (tic-tac-toe to the end, 255,168 complete games; Connect Four to depth 7) take minutes and
run under `-m slow`; the default suite counts to the depths in DEFAULT_DEPTH.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import meeple

CLASSIC = Path(__file__).resolve().parent.parent / "examples" / "classic"
TIC_TAC_TOE = CLASSIC / "tic_tac_toe.yaml"
CONNECT_FOUR = CLASSIC / "connect_four.yaml"

# OpenSpiel's perft: the move sequences of exactly d moves, d = 1, 2, ...
TIC_TAC_TOE_PERFT = (9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872)
TIC_TAC_TOE_GAMES = 255_168  # every complete game: a line made, or the board full
CONNECT_FOUR_PERFT = (7, 49, 343, 2_401, 16_807, 117_649, 823_536)
# Connect Four games the first player wins with their fourth disc (counted by pyspiel's connect_four too).
CONNECT_FOUR_WON_ON_MOVE_7 = 13_032
# The well-known breakdown of the 255,168 games of tic-tac-toe: by the move that ends them, and by result.
TIC_TAC_TOE_ENDED_AT = {5: 1_440, 6: 5_328, 7: 47_952, 8: 72_576, 9: 127_872}
TIC_TAC_TOE_RESULTS = {"p1": 131_184, "p2": 77_904, "draw": 46_080}

# How deep the default suite counts. CPU seconds measured on a 2-core machine: tic-tac-toe 5 to depth 6,
# 12.5 to depth 7, 31 to the end; Connect Four 1.6 to depth 5, 10 to depth 6, 67 to depth 7.
DEFAULT_DEPTH = {"tic_tac_toe": 7, "connect_four": 5}

OPENSPIEL_MISSING = "OpenSpiel is not installed (pip install 'meeple[openspiel]' to compare against pyspiel)"


@functools.cache
def load(path: Path) -> meeple.Game:
    return meeple.load(path, players=2)


def new_game(path: Path) -> meeple.State:
    return load(path).new_game(seed=0)


def play(path: Path, *actions: str) -> meeple.State:
    """A new game with the given actions (in their printed form) applied in order."""
    state = new_game(path)
    for action in actions:
        state.apply(action)
    return state


# --------------------------------------------------------------------------- perft


def perft(state: meeple.State, depth: int) -> int:
    """OpenSpiel's perft: the sequences of exactly `depth` legal moves from `state`.

    A finished game is not extended, so a game that ends before `depth` moves adds nothing."""
    if depth == 0:
        return 1
    if state.is_over:
        return 0
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


@dataclass
class Tree:
    """What one walk of the game tree down to `depth` moves finds."""

    depth: int
    reached: list[int] = field(default_factory=list)  # reached[d - 1]: sequences of d moves, perft(d)
    ended: dict[int, int] = field(default_factory=dict)  # games that end on move d
    results: dict[str, int] = field(default_factory=dict)  # complete games by result: p1, p2 or draw

    @property
    def complete_games(self) -> int:
        return sum(self.ended.values())


def walk_tree(state: meeple.State, depth: int) -> Tree:
    """Every depth's perft in one walk (perft(d) for d <= depth), with the games that end on the way."""
    tree = Tree(depth, [0] * depth)

    def visit(s: meeple.State, d: int) -> None:
        for action in s.legal_actions():
            child = s.clone()
            child.apply(action)
            tree.reached[d] += 1
            if child.is_over:
                tree.ended[d + 1] = tree.ended.get(d + 1, 0) + 1
                result = result_of(child)
                tree.results[result] = tree.results.get(result, 0) + 1
            elif d + 1 < depth:
                visit(child, d + 1)

    if not state.is_over and depth > 0:
        visit(state, 0)
    return tree


def result_of(state: meeple.State) -> str:
    winners = sorted(int(p) for p in state.winners or ())
    return f"p{winners[0] + 1}" if len(winners) == 1 else "draw"


def test_perft_and_the_one_walk_count_the_same():
    for path, depth in ((TIC_TAC_TOE, 4), (CONNECT_FOUR, 3)):
        tree = walk_tree(new_game(path), depth)
        assert tree.reached == [perft(new_game(path), d) for d in range(1, depth + 1)]


def test_tic_tac_toe_perft_to_the_default_depth():
    depth = DEFAULT_DEPTH["tic_tac_toe"]
    tree = walk_tree(new_game(TIC_TAC_TOE), depth)
    assert tree.reached == list(TIC_TAC_TOE_PERFT[:depth])
    assert tree.ended == {d: n for d, n in TIC_TAC_TOE_ENDED_AT.items() if d <= depth}


def test_connect_four_perft_to_the_default_depth():
    depth = DEFAULT_DEPTH["connect_four"]
    tree = walk_tree(new_game(CONNECT_FOUR), depth)
    assert tree.reached == list(CONNECT_FOUR_PERFT[:depth])
    assert tree.ended == {}  # the first four in a row can come on move 7 at the earliest


@pytest.mark.slow
def test_tic_tac_toe_perft_every_depth_and_every_complete_game():
    tree = walk_tree(new_game(TIC_TAC_TOE), 9)
    assert tree.reached == list(TIC_TAC_TOE_PERFT)
    assert tree.complete_games == TIC_TAC_TOE_GAMES
    assert tree.ended == TIC_TAC_TOE_ENDED_AT
    assert tree.results == TIC_TAC_TOE_RESULTS


@pytest.mark.slow
def test_connect_four_perft_to_depth_7():
    tree = walk_tree(new_game(CONNECT_FOUR), 7)
    assert tree.reached == list(CONNECT_FOUR_PERFT)
    assert tree.ended == {7: CONNECT_FOUR_WON_ON_MOVE_7}


# --------------------------------------------------------------------------- the rule files


@pytest.mark.parametrize("path", [TIC_TAC_TOE, CONNECT_FOUR], ids=lambda p: p.stem)
def test_the_rule_file_checks_clean(path):
    assert meeple.check(path) == []


def marks(state: meeple.State) -> dict[str, int]:
    """The cells that hold a mark or disc, each with its owner's seat (0 for the first player)."""
    return {rec["site"]: int(rec["owner"]) for rec in state.pieces.values()}


def cell(x: int, y: int) -> str:
    """The grid's name for column x (from 0, left to right) and row y (from 0 at the top): a1 is 0, 0."""
    return f"{chr(ord('a') + x)}{y + 1}"


def grid_cells(width: int, height: int) -> list[str]:
    return [cell(x, y) for y in range(height) for x in range(width)]


def param(action: meeple.Action) -> Any:
    """The one parameter of a move: the cell of a tic-tac-toe mark, the column of a Connect Four disc."""
    ((_, value),) = action.params
    return value


def random_states(path: Path, games: int) -> list[meeple.State]:
    """Every state of `games` random games (their final states included)."""
    states = []
    for seed in range(games):
        state, rng = new_game(path), random.Random(seed)
        states.append(state.clone())
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            states.append(state.clone())
    return states


# --------------------------------------------------------------------------- tic-tac-toe


def test_tic_tac_toe_offers_exactly_the_empty_cells_and_nothing_once_over():
    cells = grid_cells(3, 3)
    for state in random_states(TIC_TAC_TOE, 100):
        legal = state.legal_actions()
        if state.is_over:
            assert legal == []
            continue
        offered = [param(a) for a in legal]
        assert {a.name for a in legal} == {"play"}
        assert sorted(offered) == sorted(c for c in cells if c not in marks(state))
        assert len(offered) == len(set(offered))


@pytest.mark.parametrize(
    ("moves", "winner", "line"),
    [
        (["a1", "a2", "b1", "b2", "c1"], 0, ["a1", "b1", "c1"]),  # the top row
        (["a1", "b1", "a2", "b2", "c3", "b3"], 1, ["b1", "b2", "b3"]),  # the middle column, by O
        (["a1", "b1", "b2", "c1", "c3"], 0, ["a1", "b2", "c3"]),  # the diagonal
        (["c1", "a1", "b2", "b1", "a3"], 0, ["c1", "b2", "a3"]),  # the other diagonal
        # The ninth mark fills the board and makes a line: a win, not a draw.
        (["b2", "a1", "b1", "c1", "a2", "c2", "c3", "a3", "b3"], 0, ["b1", "b2", "b3"]),
    ],
    ids=["row", "column", "diagonal", "anti-diagonal", "on-the-last-cell"],
)
def test_tic_tac_toe_three_in_a_line_wins_at_once(moves, winner, line):
    before = play(TIC_TAC_TOE, *[f"play(cell={c})" for c in moves[:-1]])
    assert not before.is_over
    state = before.apply(f"play(cell={moves[-1]})")
    assert state.is_over
    assert state.winners == [winner]
    assert all(marks(state)[c] == winner for c in line)
    assert state.scores == {winner: 1, 1 - winner: 0}
    assert state.legal_actions() == []
    assert state.to_move is None


def test_tic_tac_toe_a_full_board_without_a_line_is_a_draw():
    moves = ["b2", "a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]  # O X O / X X O / X O X
    state = play(TIC_TAC_TOE, *[f"play(cell={c})" for c in moves[:-1]])
    assert not state.is_over
    state.apply(f"play(cell={moves[-1]})")
    assert state.is_over
    assert len(marks(state)) == 9
    assert sorted(state.winners) == [0, 1]  # nobody scored: both share the result
    assert state.scores == {0: 0, 1: 0}
    assert state.legal_actions() == []


def test_tic_tac_toe_players_alternate_from_the_first():
    state = new_game(TIC_TAC_TOE)
    for k, c in enumerate(["a1", "b1", "c1", "a2"]):
        assert state.to_move == k % 2
        state.apply(f"play(cell={c})")
    assert marks(state) == {"a1": 0, "b1": 1, "c1": 0, "a2": 1}


# --------------------------------------------------------------------------- Connect Four


def drops(*columns: int) -> list[str]:
    return [f"drop(column={x})" for x in columns]


def test_connect_four_a_disc_falls_to_the_lowest_empty_cell_of_its_column():
    state = new_game(CONNECT_FOUR)
    state.apply("drop(column=3)")
    assert marks(state) == {cell(3, 5): 0}  # the bottom row is row 6: d6
    state.apply("drop(column=3)")
    assert marks(state) == {cell(3, 5): 0, cell(3, 4): 1}
    state.apply("drop(column=0)")
    assert marks(state)[cell(0, 5)] == 0


def test_connect_four_a_full_column_is_not_offered():
    state = play(CONNECT_FOUR, *drops(0, 0, 0, 0, 0))
    assert 0 in [param(a) for a in state.legal_actions()]
    state.apply("drop(column=0)")  # the sixth disc fills column 0 (colours alternate: no line)
    assert not state.is_over
    assert [param(a) for a in state.legal_actions()] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(meeple.IllegalActionError):
        state.apply("drop(column=0)")


def test_connect_four_offers_exactly_the_columns_with_room_and_nothing_once_over():
    for state in random_states(CONNECT_FOUR, 30):
        legal = state.legal_actions()
        if state.is_over:
            assert legal == []
            continue
        taken = marks(state)
        with_room = [x for x in range(7) if cell(x, 0) not in taken]
        assert [param(a) for a in legal] == with_room
        # Discs stack: under every disc the column is full down to the bottom.
        for name in taken:
            x, y = ord(name[0]) - ord("a"), int(name[1:]) - 1
            assert all(cell(x, below) in taken for below in range(y + 1, 6))


SLASH = [0, 1, 1, 2, 3, 2, 2, 3, 5, 3, 3]  # the first player's discs a6 b5 c4 d3


@pytest.mark.parametrize(
    ("columns", "winner", "line"),
    [
        ([0, 0, 1, 1, 2, 2, 3], 0, [(0, 5), (1, 5), (2, 5), (3, 5)]),  # across the bottom row
        ([0, 1, 0, 1, 0, 1, 0], 0, [(0, 5), (0, 4), (0, 3), (0, 2)]),  # up column 0
        ([6, 0, 1, 0, 1, 0, 1, 0], 1, [(0, 5), (0, 4), (0, 3), (0, 2)]),  # up column 0, by the second
        (SLASH, 0, [(0, 5), (1, 4), (2, 3), (3, 2)]),  # a rising diagonal
        ([6 - x for x in SLASH], 0, [(6, 5), (5, 4), (4, 3), (3, 2)]),  # a falling diagonal
    ],
    ids=["horizontal", "vertical", "vertical-second-player", "diagonal", "anti-diagonal"],
)
def test_connect_four_four_in_a_line_wins_at_once(columns, winner, line):
    before = play(CONNECT_FOUR, *drops(*columns[:-1]))
    assert not before.is_over
    state = before.apply(drops(columns[-1])[0])
    assert state.is_over
    assert state.winners == [winner]
    assert all(marks(state)[cell(x, y)] == winner for x, y in line)
    assert state.scores == {winner: 1, 1 - winner: 0}
    assert state.legal_actions() == []


# A whole game of 42 discs in which nobody ever has four in a line (found by a random search).
DRAWN = [3, 3, 0, 2, 5, 4, 5, 6, 4, 2, 2, 3, 3, 5, 5, 2, 2, 4, 3, 3, 1]
DRAWN += [1, 2, 1, 5, 5, 0, 4, 0, 4, 4, 6, 6, 6, 6, 0, 1, 0, 6, 0, 1, 1]


def test_connect_four_a_full_grid_without_a_line_is_a_draw():
    state = new_game(CONNECT_FOUR)
    for x in DRAWN[:-1]:
        state.apply(f"drop(column={x})")
        assert not state.is_over
    state.apply(f"drop(column={DRAWN[-1]})")
    assert state.is_over
    assert len(marks(state)) == 42
    assert sorted(state.winners) == [0, 1]
    assert state.scores == {0: 0, 1: 0}
    assert state.legal_actions() == []


def test_connect_four_in_a_row_is_an_option():
    game = meeple.load(CONNECT_FOUR, players=2, options={"in_a_row": 3})
    state = game.new_game(seed=0)
    for action in drops(0, 0, 1, 1):
        state.apply(action)
    assert not state.is_over
    state.apply("drop(column=2)")
    assert state.winners == [0]


# --------------------------------------------------------------------------- against pyspiel


def board_text(state: meeple.State, width: int, height: int) -> str:
    """The board as OpenSpiel prints it: a row of x (first player), o and . per line, the top row first."""
    taken = marks(state)
    return "\n".join(
        "".join(".xo"[taken[cell(x, y)] + 1] if cell(x, y) in taken else "." for x in range(width))
        for y in range(height)
    )


def tic_tac_toe_to_openspiel(action: meeple.Action) -> int:
    """play(cell=b3) -> 7: OpenSpiel numbers the cells row by row from the top left."""
    name = str(param(action))
    return (int(name[1:]) - 1) * 3 + ord(name[0]) - ord("a")


def connect_four_to_openspiel(action: meeple.Action) -> int:
    """drop(column=3) -> 3: OpenSpiel numbers the columns from the left, from 0."""
    return int(param(action))


@pytest.mark.parametrize(
    ("name", "path", "size", "to_openspiel", "games"),
    [
        ("tic_tac_toe", TIC_TAC_TOE, (3, 3), tic_tac_toe_to_openspiel, 300),
        ("connect_four", CONNECT_FOUR, (7, 6), connect_four_to_openspiel, 100),
    ],
    ids=["tic_tac_toe", "connect_four"],
)
def test_random_games_in_lockstep_with_openspiel(name, path, size, to_openspiel, games):
    pyspiel = pytest.importorskip("pyspiel", reason=OPENSPIEL_MISSING)
    reference = pyspiel.load_game(name)
    for seed in range(games):
        ours, theirs = new_game(path), reference.new_initial_state()
        rng = random.Random(seed)
        moves = 0
        while True:
            where = f"{name}, game {seed}, after {moves} moves"
            assert ours.is_over == theirs.is_terminal(), where
            assert board_text(ours, *size) == str(theirs).strip(), where
            if ours.is_over:
                break
            by_number = {to_openspiel(a): a for a in ours.legal_actions()}
            assert len(by_number) == len(ours.legal_actions()), where
            assert sorted(by_number) == theirs.legal_actions(), where
            assert ours.to_move == theirs.current_player(), where
            move = rng.choice(theirs.legal_actions())
            ours.apply(by_number[move])
            theirs.apply_action(move)
            moves += 1
        assert ours.legal_actions() == []
        returns = theirs.returns()
        expected = [0, 1] if returns[0] == returns[1] else [0 if returns[0] > returns[1] else 1]
        assert sorted(ours.winners) == expected, f"{name}, game {seed}: returns {returns}"
