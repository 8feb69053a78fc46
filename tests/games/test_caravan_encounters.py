"""Caravan Conquest, the forty encounter cards (DATA.md section 003 and shared/rules/caravan_conquest.md).

Each test starts from the `encounter_trip` fixture (caravan_setup.Trip): p1 to move at a1 with 2 donkeys
(speed 3), 10 gold, 10 spice and 5 silk, every other cell grasslands but a2, a city where the other two
caravans shuttle to and from the Start without drawing a card. p1 ends its turn on b1 painted with the
terrain of the deck under test, the deck stacked so that the card under test is drawn.

Every resource change is checked net of the tile's own Legend effect, which comes first: grasslands +1
spice, desert +1 silk, mountains +2 gold, oasis +2 of a good chosen (gold unless a test says otherwise).

Readings of the rule file (its `guess` comments and DATA.md's defaults) that the tests hold it to:
"a good" is spice or silk, the holder's choice; a loss never goes below 0; "may trade" is optional and
"trade" / "give" are done whenever they can be; "+1 movement" and "+2 speed" help the next turn only;
"lose a turn" skips the whole next turn; Desert Nomad draws two cards at the next end of turn, one is
applied and both are discarded; an empty deck is reshuffled from its own discards.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import caravan_setup as cs
import pytest

P1 = 0

# DATA.md, 003: the four decks (the second "Ancient Ruins", in the mountains, is `mountain_ruins`).
DECK = {
    "grasslands": {
        "lost_sheep",
        "harvest_festival",
        "wild_animals",
        "helpful_farmer",
        "trade_opportunity",
        "traveling_trader",
        "hidden_berry_patch",
        "lost_child",
        "local_herbalist",
        "animal_tracks",
    },
    "desert": {
        "sandstorm",
        "desert_oasis",
        "thirsty_traveler",
        "hidden_treasure",
        "scorpion_encounter",
        "merchant_caravan",
        "mirage",
        "ancient_ruins",
        "sand_dunes",
        "nomadic_tribe",
    },
    "mountains": {
        "rockslide",
        "mountain_guide",
        "pure_spring",
        "climbing_challenge",
        "wild_mountain_goat",
        "mountain_ruins",
        "lost_explorer",
        "rocky_path",
        "mountain_springs",
        "high_altitude",
    },
    "oasis": {
        "refreshing_waters",
        "local_tribe",
        "wildlife_encounter",
        "rest_stop",
        "trade_fair",
        "desert_nomad",
        "healing_waters",
        "fortune_teller",
        "resource_bounty",
        "festival_of_colors",
    },
}
DECK_OF = {card: deck for deck, cards in DECK.items() for card in cards}
ALL_CARDS = sorted(DECK_OF)
# The Legend sheet: what ending a turn on the tile gives before its card (the oasis gift is chosen).
LEGEND = {"grasslands": {"spice": 1}, "desert": {"silk": 1}, "mountains": {"gold": 2}, "oasis": {}}
# The cards that ask nothing, with what they change (resources only; later effects are tested apart).
PLAIN = {
    "lost_sheep": {"spice": 1},
    "harvest_festival": {"gold": 2},
    "helpful_farmer": {"silk": 1},
    "traveling_trader": {"silk": 1},
    "hidden_berry_patch": {"spice": 2},
    "lost_child": {"gold": 1},
    "animal_tracks": {"spice": 1, "gold": 1},
    "sandstorm": {},
    "desert_oasis": {"spice": 2, "gold": 1},
    "hidden_treasure": {"silk": 2},
    "mirage": {},
    "ancient_ruins": {"silk": 1, "gold": 2},
    "sand_dunes": {},
    "mountain_guide": {},
    "pure_spring": {"spice": 1},
    "wild_mountain_goat": {},
    "mountain_ruins": {"gold": 2, "silk": 1},
    "lost_explorer": {"gold": 2, "silk": 1},
    "rocky_path": {"spice": -1},
    "mountain_springs": {"spice": 2},
    "refreshing_waters": {"spice": 3},
    "wildlife_encounter": {"spice": 2},
    "rest_stop": {"silk": 3},
    "trade_fair": {"gold": 2, "spice": 1},
    "desert_nomad": {},
    "healing_waters": {},
    "resource_bounty": {"silk": 1, "spice": 1},
    "festival_of_colors": {"gold": 4, "silk": 1},
}
LOSE_A_TURN = ["sandstorm", "mirage", "rockslide", "rest_stop"]
# Next-turn speed bonus; the cards with 0 are the control (the same start cell, no bonus).
SPEED_BONUS = {
    "sand_dunes": 1,
    "mountain_guide": 1,
    "wild_mountain_goat": 1,
    "healing_waters": 2,
    "hidden_treasure": 0,
    "pure_spring": 0,
    "refreshing_waters": 0,
}
GIVE_UP_GOOD = ["wild_animals", "scorpion_encounter", "rockslide"]
# The optional trades: card -> (good given, good got, how many got).
MAY_TRADE = {
    "trade_opportunity": ("spice", "gold", 2),
    "merchant_caravan": ("silk", "gold", 3),
    "local_tribe": ("silk", "spice", 4),
}


# ====================================================================== helpers


def arrive(t: cs.Trip, *cards: str, cell: str = "b1", gift: str = "gold") -> None:
    """p1 ends its move on `cell`, painted as the deck of the cards, which are stacked to be drawn."""
    deck = DECK_OF[cards[0]]
    t.paint(**{cell: deck})
    t.stack(deck, *cards)
    t.travel(cell)
    if deck == "oasis":
        t.do(f"oasis_gift(good={gift})")


def tile(deck: str, gift: str = "gold") -> dict[str, int]:
    """What the Legend effect of a tile gives (the oasis: 2 of the gift chosen)."""
    return {gift: 2} if deck == "oasis" else dict(LEGEND[deck])


def plus(*changes: dict[str, int]) -> dict[str, int]:
    total: Counter[str] = Counter()
    for change in changes:
        total.update(change)
    return {r: n for r, n in total.items() if n}


def change(before: dict[str, int], t: cs.Trip) -> dict[str, int]:
    """p1's resources now minus `before`, the unchanged ones left out."""
    now = t.held(P1)
    return {r: now[r] - before[r] for r in now if now[r] != before[r]}


def names(t: cs.Trip) -> set[str]:
    return {a.name for a in t.s.legal_actions()}


def settle(t: cs.Trip) -> None:
    """Answer p1's decisions with the first legal action and end its turn."""
    while t.legal() != ["end_turn"]:
        t.s.apply(t.s.legal_actions()[0])
    t.do("end_turn")


def others(t: cs.Trip) -> int:
    """Play the other caravans (to and from the city at a2) until p1 is to move; returns their turns."""
    turns = 0
    while t.to_move != P1:
        assert turns < 8, "p1 never gets a turn"
        t.travel("a1" if t.here(int(t.to_move)) == "a2" else "a2")
        t.do("end_turn")
        turns += 1
    return turns


def choose(t: cs.Trip, name: str, **params: str) -> None:
    """Take the legal action `name` whose parameters include `params` (the others are bound by the card)."""
    (action,) = [
        a for a in t.s.legal_actions() if a.name == name and all(a[k] == v for k, v in params.items())
    ]
    t.s.apply(action)


def turn_of_p1(log: list[str]) -> list[str]:
    """The log lines of p1's first turn in `log` (after its heading, up to the next heading)."""
    start = next(i for i, line in enumerate(log) if line.startswith("-- ") and line.endswith(": p1 --"))
    lines = []
    for line in log[start + 1 :]:
        if line.startswith("-- "):
            break
        lines.append(line.strip())
    return lines


def set_off_speed(t: cs.Trip) -> int:
    """The speed of the turn under way."""
    return int(t.s.tv["speed"])


def keep_teller(t: cs.Trip) -> None:
    """p1 keeps the Fortune Teller at the oasis b1 (now desert) and it is p1's next turn."""
    arrive(t, "fortune_teller")
    t.do("meet(card=fortune_teller)")
    t.do("keep_fortune_teller")
    t.do("end_turn")
    others(t)


def card_problems(s: Any) -> list[str]:
    """The 40 cards are each in exactly one place; piles and discards hold their own deck's cards only;
    a card waiting to be met belongs to the deck of the tile its caravan stands on."""
    found = []
    where: Counter[str] = Counter()
    for name, zone in s.zones.items():
        family = name.split("#")[0]
        if family not in ("encounters", "spent", "drawn", "kept"):
            continue
        where.update(zone)
        if family in ("encounters", "spent"):
            deck = name.split("#")[1]
            found += [f"{card} in {name}" for card in zone if DECK_OF[card] != deck]
        if family == "kept":
            found += [f"{card} kept" for card in zone if card != "fortune_teller"]
    if dict(+where) != dict.fromkeys(ALL_CARDS, 1):
        found.append(f"cards {dict(+where)}")
    for p in s.players:
        cell = next(r["site"] for r in s.pieces.values() if r["kind"] == "caravan" and r["owner"] == p)
        terrain = s.sites[cell]["terrain"]
        found += [f"{p} meets {c} on {terrain}" for c in s.zones[f"drawn#{int(p)}"] if DECK_OF[c] != terrain]
    return found


# ====================================================================== the decks


def test_each_deck_holds_the_ten_cards_of_data_md(encounter_trip):
    s = encounter_trip.game.new_game(seed=3)
    for deck, cards in DECK.items():
        assert cs.cards_of(s.zones[f"encounters#{deck}"]) == sorted(cards), deck
        assert not s.zones[f"spent#{deck}"]


@pytest.mark.parametrize("card", ALL_CARDS)
def test_a_card_drawn_is_met_and_goes_to_its_own_decks_discards(encounter_trip, card):
    t, deck = encounter_trip, DECK_OF[card]
    arrive(t, card)
    assert cs.cards_of(t.zone("drawn", P1)) == [card]
    assert t.legal() == [f"meet(card={card})"]
    t.do(f"meet(card={card})")
    assert not t.zone("drawn", P1)
    assert cs.cards_of(t.zone("spent", deck)) == sorted(DECK[deck])  # the stacking put the other 9 there
    assert not t.zone("encounters", deck)
    for other in set(DECK) - {deck}:
        assert card not in t.zone("spent", other) and not t.zone("spent", other)


def test_an_empty_deck_is_reshuffled_from_its_own_discards(encounter_trip):
    t = encounter_trip
    t.stack("grasslands")
    t.stack("desert", "mirage")
    t.travel("b1")
    assert t.said("the grasslands encounters are shuffled again")
    drawn = cs.cards_of(t.zone("drawn", P1))
    assert len(drawn) == 1 and drawn[0] in DECK["grasslands"]
    assert cs.cards_of(t.zone("encounters", "grasslands")) == sorted(DECK["grasslands"] - set(drawn))
    assert not t.zone("spent", "grasslands")
    assert cs.cards_of(t.zone("spent", "desert")) == sorted(DECK["desert"] - {"mirage"})


def test_a_deck_with_a_card_left_is_not_reshuffled(encounter_trip):
    t = encounter_trip
    t.stack("grasslands", "lost_child")
    t.travel("b1")
    assert not t.said("shuffled again")
    assert cs.cards_of(t.zone("drawn", P1)) == ["lost_child"]
    assert len(cs.cards_of(t.zone("spent", "grasslands"))) == 9


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_card_in_its_own_deck(players):
    game = cs.load(players, max_rounds=30)
    for seed in range(7):
        s, rng = game.new_game(seed=seed), random.Random(seed)
        while not s.is_over:
            action = rng.choice(s.legal_actions())
            s.apply(action)
            assert not card_problems(s), (seed, str(action), card_problems(s))


# ====================================================================== cards that ask nothing


@pytest.mark.parametrize("card", sorted(PLAIN))
def test_a_plain_card_changes_exactly_what_it_says(encounter_trip, card):
    t, deck = encounter_trip, DECK_OF[card]
    before = t.held(P1)
    arrive(t, card)
    t.do(f"meet(card={card})")
    assert change(before, t) == plus(tile(deck), PLAIN[card])
    assert t.legal() == ["end_turn"]


def test_rocky_path_takes_no_spice_from_a_caravan_without_any(encounter_trip):
    t = encounter_trip
    t.hold(P1, spice=0)
    before = t.held(P1)
    arrive(t, "rocky_path")
    t.do("meet(card=rocky_path)")
    assert change(before, t) == {"gold": 2}
    assert t.has(P1, "spice") == 0


@pytest.mark.parametrize("gift", ["gold", "spice", "silk"])
def test_the_oasis_gives_two_of_the_good_chosen_before_its_card(encounter_trip, gift):
    t = encounter_trip
    t.paint(b1="oasis")
    t.stack("oasis", "healing_waters")
    before = t.held(P1)
    t.travel("b1")
    assert t.offered("oasis_gift", "good") == {"gold", "spice", "silk"}
    t.do(f"oasis_gift(good={gift})")
    assert change(before, t) == {gift: 2}


def test_an_oasis_turns_into_desert_once_its_card_is_met(encounter_trip):
    t = encounter_trip
    arrive(t, "trade_fair")
    assert t.terrain("b1") == "oasis"
    t.do("meet(card=trade_fair)")
    assert t.terrain("b1") == "desert"
    assert t.terrain("c1") == "grasslands"


# ====================================================================== -1 good


@pytest.mark.parametrize("good", ["spice", "silk"])
@pytest.mark.parametrize("card", GIVE_UP_GOOD)
def test_a_lost_good_is_spice_or_silk_as_the_holder_chooses(encounter_trip, card, good):
    t = encounter_trip
    before = t.held(P1)
    arrive(t, card)
    t.do(f"meet(card={card})")
    assert names(t) == {"give_up_good"}
    assert t.offered("give_up_good", "good") == {"spice", "silk"}
    t.do(f"give_up_good(good={good})")
    assert change(before, t) == plus(tile(DECK_OF[card]), {good: -1})


@pytest.mark.parametrize("missing", ["spice", "silk"])
@pytest.mark.parametrize("card", GIVE_UP_GOOD)
def test_only_a_good_held_can_be_given_up(encounter_trip, card, missing):
    t = encounter_trip
    arrive(t, card)
    t.hold(P1, **{missing: 0})
    t.do(f"meet(card={card})")
    assert t.offered("give_up_good", "good") == {"spice", "silk"} - {missing}


@pytest.mark.parametrize("card", GIVE_UP_GOOD)
def test_a_caravan_without_goods_gives_up_nothing_and_is_not_asked(encounter_trip, card):
    t = encounter_trip
    arrive(t, card)
    t.hold(P1, spice=0, silk=0)
    before = t.held(P1)
    t.do(f"meet(card={card})")
    assert t.legal() == ["end_turn"]
    assert change(before, t) == {}


def test_rockslide_on_a_caravan_that_came_without_goods_only_skips_its_next_turn(encounter_trip):
    t = encounter_trip
    t.hold(P1, spice=0, silk=0)
    arrive(t, "rockslide")
    t.do("meet(card=rockslide)")
    assert t.legal() == ["end_turn"]
    assert t.held(P1) == {"gold": 12, "spice": 0, "silk": 0, "treasure": 0}
    assert t.s.pv[P1]["skip"] == 1


# ====================================================================== trades


@pytest.mark.parametrize("card", sorted(MAY_TRADE))
def test_a_may_trade_card_offers_the_trade_or_a_skip(encounter_trip, card):
    t = encounter_trip
    arrive(t, card)
    t.do(f"meet(card={card})")
    assert names(t) == {"barter", "skip"}


@pytest.mark.parametrize("card", sorted(MAY_TRADE))
def test_a_may_trade_card_trades_at_its_rate(encounter_trip, card):
    t, (give, get, n) = encounter_trip, MAY_TRADE[card]
    before = t.held(P1)
    arrive(t, card)
    t.do(f"meet(card={card})")
    choose(t, "barter")
    assert change(before, t) == plus(tile(DECK_OF[card]), {give: -1}, {get: n})
    assert t.legal() == ["end_turn"]


@pytest.mark.parametrize("card", sorted(MAY_TRADE))
def test_a_may_trade_card_skipped_changes_nothing(encounter_trip, card):
    t = encounter_trip
    before = t.held(P1)
    arrive(t, card)
    t.do(f"meet(card={card})")
    t.do("skip")
    assert change(before, t) == tile(DECK_OF[card])
    assert t.legal() == ["end_turn"]


@pytest.mark.parametrize("card", sorted(MAY_TRADE))
def test_a_may_trade_card_is_not_offered_to_a_caravan_that_cannot_pay(encounter_trip, card):
    t, (give, _, _) = encounter_trip, MAY_TRADE[card]
    arrive(t, card)  # the Legend effect first (grasslands gives spice, desert silk), then nothing to pay
    t.hold(P1, **{give: 0})
    before = t.held(P1)
    t.do(f"meet(card={card})")
    assert t.legal() == ["end_turn"]
    assert change(before, t) == {}


def test_local_tribe_is_not_offered_when_the_oasis_gift_left_no_silk(encounter_trip):
    t = encounter_trip
    t.hold(P1, silk=0)
    arrive(t, "local_tribe", gift="spice")
    t.do("meet(card=local_tribe)")
    assert t.legal() == ["end_turn"]
    assert t.held(P1) == {"gold": 10, "spice": 12, "silk": 0, "treasure": 0}


def test_thirsty_traveler_takes_1_spice_for_3_gold_with_no_skip(encounter_trip):
    t = encounter_trip
    before = t.held(P1)
    arrive(t, "thirsty_traveler")
    t.do("meet(card=thirsty_traveler)")
    assert names(t) == {"barter"}
    choose(t, "barter")
    assert change(before, t) == {"silk": 1, "spice": -1, "gold": 3}


def test_thirsty_traveler_does_nothing_to_a_caravan_without_spice(encounter_trip):
    t = encounter_trip
    t.hold(P1, spice=0)
    before = t.held(P1)
    arrive(t, "thirsty_traveler")
    t.do("meet(card=thirsty_traveler)")
    assert t.legal() == ["end_turn"]
    assert change(before, t) == {"silk": 1}


@pytest.mark.parametrize(
    ("good", "expected"), [("silk", {"silk": 0, "spice": 2}), ("spice", {"silk": 1, "spice": 1})]
)
def test_nomadic_tribe_trades_the_good_chosen_for_2_spice(encounter_trip, good, expected):
    t = encounter_trip
    before = t.held(P1)
    arrive(t, "nomadic_tribe")
    t.do("meet(card=nomadic_tribe)")
    assert names(t) == {"swap_good"}
    assert t.offered("swap_good", "good") == {"spice", "silk"}
    choose(t, "swap_good", good=good)
    assert change(before, t) == {r: n for r, n in expected.items() if n}


@pytest.mark.parametrize("missing", ["spice", "silk"])
def test_nomadic_tribe_offers_only_a_good_held(encounter_trip, missing):
    t = encounter_trip
    arrive(t, "nomadic_tribe")
    t.hold(P1, **{missing: 0})
    t.do("meet(card=nomadic_tribe)")
    assert t.offered("swap_good", "good") == {"spice", "silk"} - {missing}


def test_nomadic_tribe_does_nothing_to_a_caravan_without_goods(encounter_trip):
    t = encounter_trip
    arrive(t, "nomadic_tribe")
    t.hold(P1, spice=0, silk=0)
    before = t.held(P1)
    t.do("meet(card=nomadic_tribe)")
    assert t.legal() == ["end_turn"]
    assert change(before, t) == {}


# ====================================================================== choices of goods


@pytest.mark.parametrize("good", ["spice", "silk"])
def test_local_herbalist_gives_1_spice_or_1_silk_as_chosen(encounter_trip, good):
    t = encounter_trip
    before = t.held(P1)
    arrive(t, "local_herbalist")
    t.do("meet(card=local_herbalist)")
    assert names(t) == {"take_good"}
    assert t.offered("take_good", "good") == {"spice", "silk"}
    choose(t, "take_good", good=good)
    assert change(before, t) == plus({"spice": 1}, {good: 1})


@pytest.mark.parametrize(("toll", "paid"), [("silk", {"silk": -1}), ("spice", {"spice": -2})])
def test_high_altitude_costs_1_silk_or_2_spice_as_chosen(encounter_trip, toll, paid):
    t = encounter_trip
    before = t.held(P1)
    arrive(t, "high_altitude")
    t.do("meet(card=high_altitude)")
    assert names(t) == {"pay_toll"}
    assert t.offered("pay_toll", "toll") == {"silk", "spice"}
    t.do(f"pay_toll(toll={toll})")
    assert change(before, t) == plus({"gold": 2}, paid)


@pytest.mark.parametrize(
    ("spice", "silk", "offered"), [(3, 0, {"spice"}), (1, 0, {"spice"}), (0, 2, {"silk"})]
)
def test_high_altitude_offers_only_what_the_caravan_holds(encounter_trip, spice, silk, offered):
    t = encounter_trip
    t.hold(P1, spice=spice, silk=silk)
    arrive(t, "high_altitude")
    t.do("meet(card=high_altitude)")
    assert t.offered("pay_toll", "toll") == offered


def test_high_altitude_paid_in_spice_by_a_caravan_with_1_spice_leaves_0(encounter_trip):
    t = encounter_trip
    t.hold(P1, spice=1, silk=0)
    arrive(t, "high_altitude")
    t.do("meet(card=high_altitude)")
    t.do("pay_toll(toll=spice)")
    assert t.held(P1) == {"gold": 12, "spice": 0, "silk": 0, "treasure": 0}


def test_high_altitude_asks_nothing_of_a_caravan_without_goods(encounter_trip):
    t = encounter_trip
    t.hold(P1, spice=0, silk=0)
    arrive(t, "high_altitude")
    t.do("meet(card=high_altitude)")
    assert t.legal() == ["end_turn"]
    assert t.held(P1) == {"gold": 12, "spice": 0, "silk": 0, "treasure": 0}


# ====================================================================== Climbing Challenge


@pytest.mark.parametrize("neighbour", ["c1", "b2"])
def test_climbing_challenge_next_to_another_mountain_costs_1_gold(encounter_trip, neighbour):
    t = encounter_trip
    t.paint(**{neighbour: "mountains"})
    before = t.held(P1)
    arrive(t, "climbing_challenge")
    t.do("meet(card=climbing_challenge)")
    assert change(before, t) == {"gold": 1}


@pytest.mark.parametrize("elsewhere", [None, "c2", "j1"])
def test_climbing_challenge_on_a_lone_mountain_gives_1_silk(encounter_trip, elsewhere):
    t = encounter_trip
    if elsewhere:
        t.paint(**{elsewhere: "mountains"})  # a diagonal or far-away mountain does not touch b1
    before = t.held(P1)
    arrive(t, "climbing_challenge")
    t.do("meet(card=climbing_challenge)")
    assert change(before, t) == {"gold": 2, "silk": 1}


def test_climbing_challenge_next_to_a_mountain_takes_no_gold_from_a_caravan_without_any(encounter_trip):
    t = encounter_trip
    t.paint(c1="mountains")
    arrive(t, "climbing_challenge")
    t.hold(P1, gold=0)
    before = t.held(P1)
    t.do("meet(card=climbing_challenge)")
    assert change(before, t) == {}
    assert t.has(P1, "gold") == 0


def test_climbing_challenge_on_a_lone_mountain_gives_silk_to_a_caravan_without_gold(encounter_trip):
    t = encounter_trip
    arrive(t, "climbing_challenge")
    t.hold(P1, gold=0)
    t.do("meet(card=climbing_challenge)")
    assert t.held(P1) == {"gold": 0, "spice": 10, "silk": 6, "treasure": 0}


# ====================================================================== lost turns


@pytest.mark.parametrize("card", LOSE_A_TURN)
def test_a_lost_turn_card_skips_the_whole_next_turn(encounter_trip, card):
    t = encounter_trip
    arrive(t, card)
    t.do(f"meet(card={card})")
    settle(t)
    after_encounter = (t.here(P1), t.held(P1), {d: dict(t.zone("encounters", d)) for d in DECK})
    seen = len(t.s.log)
    assert others(t) == 4  # p2, p3, (p1 loses its turn), p2, p3
    assert turn_of_p1(t.s.log[seen:]) == ["p1 loses this turn"]
    assert (t.here(P1), t.held(P1), {d: dict(t.zone("encounters", d)) for d in DECK}) == after_encounter


@pytest.mark.parametrize("card", LOSE_A_TURN)
def test_after_a_lost_turn_the_caravan_plays_the_turn_after(encounter_trip, card):
    t = encounter_trip
    arrive(t, card)
    t.do(f"meet(card={card})")
    settle(t)
    others(t)
    assert t.to_move == P1 and set_off_speed(t) == 2  # it sets off from b1, now mountains or desert
    t.paint(c1="city")
    t.travel("c1")
    t.do("end_turn")
    assert others(t) == 2
    assert t.s.pv[P1]["skip"] == 0


def test_a_plain_card_does_not_cost_a_turn(encounter_trip):
    t = encounter_trip
    arrive(t, "hidden_treasure")
    t.do("meet(card=hidden_treasure)")
    t.do("end_turn")
    assert others(t) == 2
    assert not t.said("loses this turn")


# ====================================================================== speed next turn


@pytest.mark.parametrize("card", sorted(SPEED_BONUS))
def test_a_movement_card_raises_the_next_turns_speed_only(encounter_trip, card):
    t = encounter_trip
    arrive(t, card)
    t.do(f"meet(card={card})")
    t.do("end_turn")
    others(t)
    # b1 is desert or mountains now (the oasis dried up): the donkeys' 3 less 1
    assert set_off_speed(t) == 2 + SPEED_BONUS[card]
    assert f"b{1 + 2 + SPEED_BONUS[card]}" in t.offered("travel", "dest")
    assert f"b{2 + 2 + SPEED_BONUS[card]}" not in t.offered("travel", "dest")
    t.paint(c1="city")
    t.travel("c1")
    t.do("end_turn")
    others(t)
    assert set_off_speed(t) == 3  # from a city, no bonus left


# ====================================================================== Desert Nomad


def nomad_next_turn(t: cs.Trip, *cards: str) -> None:
    """p1 meets Desert Nomad at the oasis b1; next turn it ends on the grasslands c1, `cards` stacked."""
    arrive(t, "desert_nomad")
    t.do("meet(card=desert_nomad)")
    t.do("end_turn")
    others(t)
    arrive(t, *cards, cell="c1")


def test_after_desert_nomad_two_cards_are_drawn_at_the_next_end_of_turn(encounter_trip):
    t = encounter_trip
    nomad_next_turn(t, "lost_sheep", "harvest_festival")
    assert cs.cards_of(t.zone("drawn", P1)) == ["harvest_festival", "lost_sheep"]
    assert t.offered("meet", "card") == {"lost_sheep", "harvest_festival"}


def test_after_desert_nomad_only_the_card_chosen_is_applied_and_both_are_discarded(encounter_trip):
    t = encounter_trip
    nomad_next_turn(t, "lost_sheep", "harvest_festival")
    before = t.held(P1)
    t.do("meet(card=harvest_festival)")
    assert change(before, t) == {"gold": 2}
    assert not t.zone("drawn", P1)
    assert {"lost_sheep", "harvest_festival"} <= set(t.zone("spent", "grasslands"))
    assert t.legal() == ["end_turn"]


def test_after_desert_nomad_the_turn_after_draws_one_card_again(encounter_trip):
    t = encounter_trip
    nomad_next_turn(t, "lost_sheep", "harvest_festival")
    t.do("meet(card=lost_sheep)")
    t.do("end_turn")
    others(t)
    arrive(t, "lost_child", "animal_tracks", cell="d1")
    assert len(cs.cards_of(t.zone("drawn", P1))) == 1


def test_desert_nomad_itself_draws_no_second_card_this_turn(encounter_trip):
    t = encounter_trip
    arrive(t, "desert_nomad", "trade_fair")
    assert len(cs.cards_of(t.zone("drawn", P1))) == 1


# ====================================================================== Fortune Teller


def test_the_fortune_teller_is_kept_for_1_gold(encounter_trip):
    t = encounter_trip
    before = t.held(P1)
    arrive(t, "fortune_teller")
    t.do("meet(card=fortune_teller)")
    assert names(t) == {"keep_fortune_teller", "skip"}
    t.do("keep_fortune_teller")
    assert change(before, t) == {"gold": 1}  # 2 from the oasis, 1 paid
    assert cs.cards_of(t.zone("kept", P1)) == ["fortune_teller"]
    assert "fortune_teller" not in t.zone("spent", "oasis")


def test_the_fortune_teller_let_go_costs_nothing_and_is_discarded(encounter_trip):
    t = encounter_trip
    before = t.held(P1)
    arrive(t, "fortune_teller")
    t.do("meet(card=fortune_teller)")
    t.do("skip")
    assert change(before, t) == {"gold": 2}
    assert not t.zone("kept", P1)
    assert "fortune_teller" in t.zone("spent", "oasis")


def test_the_fortune_teller_cannot_be_kept_without_gold(encounter_trip):
    t = encounter_trip
    t.hold(P1, gold=0)
    arrive(t, "fortune_teller", gift="spice")
    t.do("meet(card=fortune_teller)")
    assert t.legal() == ["end_turn"]
    assert t.has(P1, "gold") == 0
    assert not t.zone("kept", P1)
    assert "fortune_teller" in t.zone("spent", "oasis")


def test_without_a_kept_fortune_teller_no_encounter_can_be_cancelled(encounter_trip):
    t = encounter_trip
    arrive(t, "mirage")
    assert names(t) == {"meet"}


@pytest.mark.parametrize(
    ("card", "legend"),
    [("harvest_festival", {"spice": 1}), ("mirage", {"silk": 1}), ("rockslide", {"gold": 2})],
)
def test_a_kept_fortune_teller_cancels_a_later_encounter(encounter_trip, card, legend):
    t = encounter_trip
    keep_teller(t)
    before = t.held(P1)
    arrive(t, card, cell="c1")
    assert names(t) == {"consult_fortune_teller", "skip"}
    assert t.offered("consult_fortune_teller", "card") == {card}
    t.do(f"consult_fortune_teller(card={card})")
    assert t.legal() == ["end_turn"]
    assert change(before, t) == legend
    assert t.s.pv[P1]["skip"] == 0
    assert not t.zone("drawn", P1) and not t.zone("kept", P1)
    assert card in t.zone("spent", DECK_OF[card])
    assert "fortune_teller" in t.zone("spent", "oasis")


def test_a_kept_fortune_teller_need_not_be_consulted_and_stays_kept(encounter_trip):
    t = encounter_trip
    keep_teller(t)
    before = t.held(P1)
    arrive(t, "harvest_festival", cell="c1")
    t.do("skip")
    assert t.legal() == ["meet(card=harvest_festival)"]
    t.do("meet(card=harvest_festival)")
    assert change(before, t) == {"spice": 1, "gold": 2}
    assert cs.cards_of(t.zone("kept", P1)) == ["fortune_teller"]


def test_a_fortune_teller_kept_past_one_encounter_cancels_a_later_one(encounter_trip):
    t = encounter_trip
    keep_teller(t)
    arrive(t, "lost_child", cell="c1")
    t.do("skip")
    t.do("meet(card=lost_child)")
    t.do("end_turn")
    others(t)
    arrive(t, "sandstorm", cell="d1")
    t.do("consult_fortune_teller(card=sandstorm)")
    assert t.s.pv[P1]["skip"] == 0 and not t.zone("kept", P1)


def test_a_consulted_fortune_teller_is_gone_for_the_next_encounter(encounter_trip):
    t = encounter_trip
    keep_teller(t)
    arrive(t, "lost_child", cell="c1")
    t.do("consult_fortune_teller(card=lost_child)")
    t.do("end_turn")
    others(t)
    arrive(t, "sandstorm", cell="d1")
    assert names(t) == {"meet"}
