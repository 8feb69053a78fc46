"""Which `simultaneous` steps have independent choices (compile/independence.py): nothing one player's
choices do can change what another player is offered. Such a step is played on one private copy for all
its players and nothing is applied again at the reveal (tests/runtime/test_simultaneous.py plays them)."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple

ROOT = Path(__file__).resolve().parents[2]
OPEN_HANDS = ROOT / "tests" / "runtime" / "open_hands.yaml"

RULES = """
game: {{name: Swaps, version: 1, players: {{min: 2, max: 3}}}}
components:
  cards: {{a: {{family: stones, count: 3}}, b: {{family: stones, count: 3}}}}
  zones:
    pile: {{fill: stones}}
    hand: {{per: player, fill: "[a]"}}
    kept: {{per: player}}
vars:
  game: {{turns: 0}}
  player: {{said: 0}}
defs:
  holds(p, c): "count([x for x in p.hand if x == c]) > 0"
  room(p): "size(p.kept) < 2"
actions:
  chosen:
    params: {{card: "{domain}"}}
    when: "{when}"
    effect: {effect}
flow:
  - phase: talk
    turns: none
    do:
      - simultaneous: [chosen]
        while: "{while_}"
"""


def independent(tmp_path: Path, **parts: str) -> bool:
    spec = {
        "domain": "distinct(me.hand)",
        "when": "room(me)",
        "effect": "[move card card from me.hand to me.kept]",
        "while_": "size(me.kept) < 1",
        **parts,
    }
    path = tmp_path / "swaps.yaml"
    path.write_text(RULES.format(**spec), encoding="utf-8")
    assert meeple.check(path) == []
    steps = [st for ph in meeple.load(path, players=2).definition.phases for st in ph.steps]
    return next(st.independent for st in steps if st.kind == "simultaneous")


def test_moving_cards_between_ones_own_zones_is_independent(tmp_path: Path) -> None:
    assert independent(tmp_path)
    # through a def given `me`, a comprehension, `let`, `log`, `if` and `for` groups
    assert independent(
        tmp_path,
        domain="[c for c in distinct(me.hand) if holds(me, c)]",
        effect="[let who = me, \"log '{who} keeps {card}'\", "
        "{if: 'size(me.kept) == 0', then: [move card card from who.hand to who.kept], "
        "else: [move card card from me.hand to me.kept]}, "
        "{for: 'k in [1, 2]', do: [\"log 'round {k}'\"]}]",
    )


DEPENDENT = [
    ({"effect": "[move card card from me.hand to seat_after(me).hand]"}, "writes another player's hand"),
    ({"effect": "[move card card from me.hand to me.kept, set me.said = 1]"}, "sets a variable"),
    ({"effect": "[move card card from me.hand to me.kept, turns += 1]"}, "changes a game variable"),
    (
        {"when": "room(me) and all(not holds(p, card) for p in players if p != me)"},
        "reads the other players' hands, which their effects write",
    ),
    ({"while_": "turns < 1 and size(me.kept) < 1"}, "reads a game variable"),
    (
        {"domain": "distinct(pile)", "effect": "[move card card from pile to me.kept]"},
        "takes from a shared pile the listing reads",
    ),
]


@pytest.mark.parametrize(("parts", "why"), DEPENDENT, ids=[why for _, why in DEPENDENT])
def test_a_step_is_dependent_when_a_write_may_change_another_players_options(
    tmp_path: Path, parts: dict[str, str], why: str
) -> None:
    assert not independent(tmp_path, **parts)


def test_a_shared_zone_written_but_never_read_by_the_listing_is_no_clash(tmp_path: Path) -> None:
    assert independent(tmp_path, effect="[move card card from me.hand to pile]")
    assert independent(tmp_path, domain="[c for c in distinct(me.hand) if size(pile) > 0]") is True


def test_the_seed_games_steps() -> None:
    """K2's secret pick moves a card from the player's hand to its played cards: independent. The
    Tabletop climber's transfer gives a card to the next player's team, which that player chooses from:
    dependent. Open Hands' offers are independent; its bids have a cost, read from what a player holds."""

    def flags(path: Path, players: int) -> list[bool]:
        d = meeple.load(path, players=players).definition
        return [st.independent for ph in d.phases for st in ph.steps if st.kind == "simultaneous"]

    assert flags(ROOT / "games" / "k2.yaml", 3) == [True]
    assert flags(ROOT / "games" / "tabletop_climber.yaml", 3) == [False]
    assert flags(OPEN_HANDS, 3) == [True, False]
