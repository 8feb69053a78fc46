"""The adapters' shared core: the bounded action index, the generic observation encoding, the returns."""

from __future__ import annotations

import random

import pytest
from interop_files import K2, PIG, TIC_TAC_TOE

import meeple
from meeple.interop import core


def test_action_index_numbers_actions_in_order_met_and_stops_at_its_bound():
    game = meeple.load(TIC_TAC_TOE)
    legal = game.new_game().legal_actions()
    index = core.ActionIndex(4)
    assert [index.id_of(a) for a in legal[:4]] == [0, 1, 2, 3]
    assert index.id_of(legal[2]) == 2  # the same action keeps its id
    assert index.name_of(3) == str(legal[3])
    with pytest.raises(core.ActionSpaceFull, match="more than 4 distinct actions.*num_distinct_actions"):
        index.id_of(legal[4])


def test_setup_is_shared_and_calibration_gives_tic_tac_toe_cells_the_first_ids():
    first = core.setup(TIC_TAC_TOE, 2)
    assert core.setup(TIC_TAC_TOE, 2) is first
    assert [first.index.name_of(i) for i in range(3)] == ["play(cell=a1)", "play(cell=b1)", "play(cell=c1)"]
    assert len(first.index) == 9 and first.index.size == 32  # 2 x 9 rounded up to a power of two
    assert not first.random and not first.random_start


def test_calibration_notices_chance_in_actions_and_in_the_set_up():
    pig = core.setup(PIG, 2)
    assert pig.random and not pig.random_start  # pig rolls a die, its set-up is fixed
    k2 = core.setup(K2, 2)
    assert k2.random and k2.random_start  # K2 shuffles decks at set-up


def test_draws_tells_a_die_roll_from_a_fixed_move():
    s = meeple.load(PIG).new_game(seed=3)
    after, drew = core.draws(s, s.find_action("roll_die"))
    assert drew and after.turn_no >= s.turn_no
    t = meeple.load(TIC_TAC_TOE).new_game()
    after, drew = core.draws(t, t.find_action("play(cell=b2)"))
    assert not drew and len(after.pieces) == 1 and not t.pieces  # played on a copy


def test_encoding_puts_pieces_on_sites_by_owner_counted_from_the_observer():
    setup = core.setup(TIC_TAC_TOE, 2)
    enc = setup.encoder
    s = setup.game.new_game()
    s.apply("play(cell=b2)")
    s.apply("play(cell=a1)")
    start = sum(width for name, width in enc.parts[: [n for n, _ in enc.parts].index("pieces")])
    owners = enc.n + 1
    kind = enc.kinds.index("mark")

    def at(x, site, owner):
        return x[start + (enc.sites.index(site) * len(enc.kinds) + kind) * owners + owner]

    mine, theirs = enc.tensor(s, 0), enc.tensor(s, 1)
    assert mine.shape == (enc.size,) and at(mine, "b2", 0) == 1 and at(mine, "a1", 1) == 1
    assert at(theirs, "b2", 1) == 1 and at(theirs, "a1", 0) == 1  # seats as seen from p2
    assert mine[0] == 1 and theirs[1] == 1  # p1 moves: seat 0 for p1, seat 1 for p2
    assert mine[start:].sum() == 2


def test_encoding_shows_other_players_hidden_cards_only_as_counts():
    setup = core.setup(K2, 2)
    s = setup.game.new_game(seed=5)
    text0 = setup.encoder.text(s, 0)
    own = ", ".join(f"{n} {c}" for c, n in s.zones["hand#0"].items())
    assert f"hand#0: {own}" in text0
    assert f"hand#1: {sum(s.zones['hand#1'].values())} hidden" in text0
    enc = setup.encoder
    x = enc.tensor(s, 0)
    zones_at = sum(width for name, width in enc.parts[:3])
    width = 1 + len(enc.cards)
    keys = [k for zone, ks in enc.zones for k in enc.zone_order(ks, zone.per_player, 0)]
    hand1 = zones_at + keys.index("hand#1") * width
    assert x[hand1] == sum(s.zones["hand#1"].values()) and x[hand1 + 1 : hand1 + width].sum() == 0
    hand0 = zones_at + keys.index("hand#0") * width
    assert x[hand0 + 1 : hand0 + width].sum() == sum(s.zones["hand#0"].values())


def test_resources_are_encoded_per_seat():
    setup = core.setup(PIG, 2)
    s = setup.game.new_game()
    s.pv[1]["point"] = 7
    seats_at = sum(width for name, width in setup.encoder.parts[:2])
    assert setup.encoder.tensor(s, 0)[seats_at + 1] == 7  # p2 is seat 1 for p1
    assert setup.encoder.tensor(s, 1)[seats_at] == 7  # and seat 0 for itself


@pytest.mark.parametrize(
    ("players", "winners", "expected"),
    [
        (2, [0], [1.0, -1.0]),
        (2, [0, 1], [0.0, 0.0]),
        (3, [2], [-0.5, -0.5, 1.0]),
        (4, [0, 1], [1 / 3, 1 / 3, -1 / 3, -1 / 3]),
        (2, [], [0.0, 0.0]),
    ],
)
def test_returns_are_zero_sum_with_the_winners_sharing(players, winners, expected):
    s = meeple.load(PIG, players=players).new_game()
    s.declare_winners([meeple.Player(w) for w in winners])
    got = core.returns(s)
    assert got == pytest.approx(expected)
    assert sum(got) == pytest.approx(0.0)
    low, high = core.utility_range(players)
    assert all(low - 1e-9 <= r <= high + 1e-9 for r in got)


def test_another_players_hidden_cards_do_not_change_my_observation():
    setup = core.setup(K2, 2)
    s = setup.game.new_game(seed=2)
    other = s.clone()
    size = sum(other.zones["hand#1"].values())
    other.zones["hand#1"] = {next(iter(setup.encoder.cards)): size}  # same count, other cards
    assert (setup.encoder.tensor(s, 0) == setup.encoder.tensor(other, 0)).all()
    assert setup.encoder.text(s, 0) == setup.encoder.text(other, 0)
    assert not (setup.encoder.tensor(s, 1) == setup.encoder.tensor(other, 1)).all()


@pytest.mark.parametrize(
    "name", ["caravan_conquest", "climbers_of_verdon", "k2", "pluvionauts", "tabletop_climber"]
)
def test_every_seed_game_encodes_to_its_fixed_size_along_a_random_game(name):
    players = 3 if name == "tabletop_climber" else 2
    setup = core.setup(name, players)
    s = setup.game.new_game(seed=1)
    rng = random.Random(1)
    for _ in range(60):
        if s.is_over:
            break
        for p in range(players):
            x = setup.encoder.tensor(s, p)
            assert x.shape == (setup.encoder.size,) and x.dtype == "float32"
            assert x[: players + 1].sum() == 1  # exactly one seat (or nobody) to move
        legal = s.legal_actions()
        assert all(setup.index.id_of(a) < setup.index.size for a in legal)
        s.apply(legal[rng.randrange(len(legal))])
