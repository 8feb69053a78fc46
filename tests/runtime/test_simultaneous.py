"""The `simultaneous` step: every listed player chooses in secret, the choices are applied together.

Most tests play Open Hands (open_hands.yaml, 3 players), where everything lies face up, so the step alone
keeps a choice secret: each round every player offers 2 of its cards, one at a time, then bids 0 to 2
coins. The rest use small inline rule files.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tiny_rules import load_tiny

import meeple
from meeple.agents.mcts import ISMCTSAgent
from meeple.compile.expressions import RuleRuntimeError
from meeple.runtime.narration import narrated
from meeple.runtime.simultaneous import tentative
from meeple.values import Player

OPEN_HANDS = Path(__file__).resolve().parent / "open_hands.yaml"
P1, P2, P3 = Player(0), Player(1), Player(2)
START = {"low": 2, "mid": 2, "high": 2}


@pytest.fixture(scope="module")
def game() -> meeple.Game:
    return meeple.load(OPEN_HANDS, players=3)


def names(state: meeple.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def offer(state: meeple.State, *cards: str) -> meeple.State:
    for card in cards:
        state.apply(f"offer(card={card})")
    return state


# ---------------------------------------------------------------- nothing shows before the reveal


def test_a_later_chooser_sees_nothing_of_an_earlier_choice(game: meeple.Game) -> None:
    one = offer(game.new_game(seed=1, narrate=True), "high", "high")
    two = offer(game.new_game(seed=1, narrate=True), "low", "mid")
    for s in (one, two):
        assert s.to_move == P2
        assert s.zones["hand#0"] == START and s.zones["offer#0"] == {}  # nothing has moved
    # p2's view, its JSON and its narrated log are the same whatever p1 chose...
    assert one.view(P2).to_json() == two.view(P2).to_json()
    assert "offer(card=" not in one.view(P2).to_json()
    assert narrated(one.log, P2) == narrated(two.log, P2)
    assert narrated(one.log, P2)[-1] == "p1 has chosen"
    assert not any("offer" in line for line in narrated(one.log, P2))
    # ...and so are its options.
    assert names(one) == names(two)
    # p1 itself is told what it chose.
    assert "p1 (in secret): offer(card=high)" in narrated(one.log, P1)
    assert one.view(P1).to_json() != two.view(P1).to_json()


def test_no_log_names_a_choice_before_the_reveal(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1, log=True), "high", "high", "low", "mid")
    assert s.to_move == P3
    assert not any("offer" in line for line in s.log)
    assert s.log[-2:] == ["p1 has chosen", "p2 has chosen"]


def test_a_chooser_decides_on_its_own_choices_applied(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1), "low")
    assert s.to_move == P1
    assert names(s) == ["offer(card=low)", "offer(card=mid)"]  # name order: `high` < `low`
    mine = tentative(s, P1)
    assert mine.zones["offer#0"] == {"low": 1} and mine.zones["hand#0"] == {"low": 1, "mid": 2, "high": 2}
    assert s.zones["offer#0"] == {}
    assert tentative(s, P2) is s  # p2 has chosen nothing yet


def test_why_answers_for_the_chooser_on_its_own_choices(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1), "mid")
    assert s.why("offer(card=mid)").headline == "offer(card=mid) is legal for p1 now"
    assert "is not among the values" in s.why("offer(card=low)").headline  # `low` comes before `mid`


# ---------------------------------------------------------------- the reveal


def test_every_choice_is_applied_at_the_reveal_in_seat_order(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1, log=True), "high", "high", "low", "mid", "high", "low")
    assert [s.zones[f"offer#{p}"] for p in range(3)] == [
        {"high": 2},
        {"low": 1, "mid": 1},
        {"high": 1, "low": 1},
    ]
    reveal = s.log.index("  the secret choices of p1, p2, p3 are revealed")
    assert s.log[reveal + 1 :][:6] == [
        "p1: offer(card=high)",
        "p1: offer(card=high)",
        "p2: offer(card=low)",
        "p2: offer(card=mid)",
        "p3: offer(card=high)",
        "p3: offer(card=low)",
    ]
    # The bids: costs are paid at the reveal, not when chosen.
    s.apply("bid(n=2)")
    s.apply("bid(n=1)")
    assert [s.pv[p]["coin"] for p in range(3)] == [4, 4, 4]
    s.apply("bid(n=0)")
    assert [s.pv[p]["coin"] for p in range(3)] == [2, 3, 4]
    assert [s.pv[p]["points"] for p in range(3)] == [1, 0, 0]  # 6 + 2 beats 3 + 1 and 4 + 0
    assert "  p1 takes the round" in s.log


@pytest.mark.parametrize("path", [OPEN_HANDS, Path(__file__).resolve().parents[2] / "games" / "k2.yaml"])
def test_the_reveal_is_the_same_narrated_or_not(path: Path) -> None:
    """A narrated game reveals through `apply` (every legal action listed, for the narration); a plain one
    checks each choice alone. Both play the same game."""
    game = meeple.load(path, players=3)
    for seed in range(3):
        plain, told = game.new_game(seed=seed, log=True), game.new_game(seed=seed, narrate=True)
        rng = random.Random(seed)
        for _ in range(120):
            if plain.is_over:
                break
            action = rng.choice(plain.legal_actions())
            plain.apply(action)
            told.apply(action)
        assert plain.to_json() == told.to_json()
        assert [str(line) for line in told.log if "(in secret)" not in line] == plain.log


def test_a_game_saved_mid_step_goes_on_the_same(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1), "high", "high", "low")
    loaded = game.state_from_json(s.to_json())
    assert loaded.to_move == P2 and names(loaded) == names(s)
    for state in (s, loaded):
        offer(state, "mid", "high", "low")
    assert loaded.to_json() == s.to_json()


# ---------------------------------------------------------------- independent choices

# Open Hands' offers move cards between a player's own zones only, so its offer step's choices are
# independent (compile/independence.py): each player decides on the one private copy the players before
# decided on, and at the reveal it is taken as the game's state. Nothing of that may show.


def test_independent_choices_are_made_on_one_copy_no_player_sees(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1), "high", "high", "low")
    assert s.to_move == P2 and s._simul is not None and s._simul._holds == 1  # p1's offers are on the copy
    assert s.zones["offer#0"] == s.zones["offer#1"] == {}  # the game itself is as it was
    mine = tentative(s, P2)
    assert mine.zones["offer#1"] == {"low": 1} and mine.zones["offer#0"] == {}  # p2 sees its own offer only
    assert mine.zones["hand#0"] == START
    assert s.why("offer(card=mid)").headline == "offer(card=mid) is legal for p2 now"
    assert names(s) == names(offer(game.new_game(seed=1, log=True), "high", "high", "low"))
    offer(s, "mid", "high", "low")
    assert [s.zones[f"offer#{p}"] for p in range(3)] == [
        {"high": 2},
        {"low": 1, "mid": 1},
        {"high": 1, "low": 1},
    ]
    # The bids that follow have a cost, read from what the player holds: dependent, a copy each.
    assert s.to_move == P1 and names(s)[0] == "bid(n=0)"
    s.apply("bid(n=1)")
    assert s.to_move == P2 and s._simul is not None and s._simul._holds == 0


@pytest.mark.parametrize("path", [OPEN_HANDS, Path(__file__).resolve().parents[2] / "games" / "k2.yaml"])
def test_independent_choices_taken_as_revealed_give_the_game_applying_them_again_gives(path: Path) -> None:
    """A logged game applies each choice again at the reveal (its log says so); a plain one takes the copy
    every player decided on. A clone made while a later player decides has no such copy and applies them
    again too. All play the same game, action for action."""
    game = meeple.load(path, players=3)
    for seed in range(3):
        plain, logged = game.new_game(seed=seed), game.new_game(seed=seed, log=True)
        rng = random.Random(seed)
        clone = None
        for _ in range(150):
            if plain.is_over:
                break
            if clone is None and plain.stack[-1]["k"] == "simul" and plain.stack[-1]["pos"] == 1:
                clone = plain.clone()
            action = rng.choice(plain.legal_actions())
            assert plain.legal_actions() == logged.legal_actions()
            for state in (plain, logged, clone):
                if state is not None:
                    state.apply(action)
            assert plain.to_json() == logged.to_json()
            if clone is not None:
                assert clone.to_json() == plain.to_json()


# ---------------------------------------------------------------- views, determinizing, search


def test_a_view_shows_a_player_its_own_choices_only(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1), "high", "high", "low")
    frame = s.stack[-1]
    assert frame["k"] == "simul" and frame["p"] == P2
    assert s.view(P1).stack[-1]["picks"][0] == frame["picks"][0]
    assert s.view(P2).stack[-1]["picks"] == ("?", frame["picks"][1])
    assert s.view(P3).stack[-1]["picks"] == ("?", "?")  # p2's progress is hidden too


def test_determinizing_gives_the_players_who_chose_fresh_legal_choices(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1), "high", "high", "low", "mid")
    view = s.view(P3)
    made = set()
    for k in range(12):
        full = view.determinize(random.Random(k))
        assert not full.is_view and full.view(P3).to_json() == view.to_json()
        picks = full.stack[-1]["picks"]
        assert [len(p) for p in picks] == [2, 2, 0]
        made.add(picks[:2])
        offer(full, "mid", "mid")  # p3 picks; the sampled choices of p1 and p2 are legal at the reveal
        assert sum(full.zones["offer#0"].values()) == sum(full.zones["offer#1"].values()) == 2
    assert len(made) > 1


def test_determinizing_lets_a_player_still_choosing_start_afresh(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1), "low")  # p1 has made one of its two offers
    full = s.view(P2).determinize(random.Random(1))
    assert full.to_move == P1 and full.stack[-1]["picks"] == ((),)
    assert names(full) == ["offer(card=high)", "offer(card=low)", "offer(card=mid)"]
    assert full.view(P2).to_json() == s.view(P2).to_json()


def test_ismcts_searches_a_simultaneous_step_without_reading_the_choices(game: meeple.Game) -> None:
    s = offer(game.new_game(seed=1), "high", "high", "low", "mid", "high")
    agent = ISMCTSAgent(iterations=30)
    before = s.to_json()
    action = agent.choose(s, s.legal_actions(), random.Random(0))
    assert action in s.legal_actions() and s.to_json() == before
    assert agent.last_method == "view.determinize"
    assert game.definition.hides_information()  # so plain MCTS determinizes too


def test_random_games_play_to_the_end(game: meeple.Game) -> None:
    for seed in range(5):
        s = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        assert s.gv["round"] == 3
        assert all(sum(s.zones[f"spent#{p}"].values()) == 6 for p in range(3))


# ---------------------------------------------------------------- the step's options

TINY = """
game: {{name: Tiny, version: 1, players: {{min: 1, max: 4}}}}
components:
  resources: [coin, gem]
  cards: {{token: {{count: 1}}}}
  zones:
    pot: {{fill: "[token]"}}
    mine: {{per: player}}
vars:
  player: {{said: 0}}
actions:
  say:
    params: {{n: "1..3"}}
    effect: [set me.said = n]
  shout:
    params: {{n: "1..3"}}
    effect: [set me.said = 10 * n]
  roll:
    effect: [roll 1d6 as r, set me.said = r]
  grab:
    when: size(pot) > 0
    effect: [move card token from pot to me.mine]
  pair:
    stepwise: true
    params: {{a: "1..2", b: "1..2"}}
    effect: [set me.said = 10 * a + b]
flow:
  - phase: talk
    turns: none
    do:
      - {step}
"""


def tiny(tmp_path: Path, step: str, players: int = 3) -> meeple.Game:
    return load_tiny(tmp_path, TINY.format(step=step), players)


def said(s: meeple.State) -> list[int]:
    return [s.pv[p]["said"] for p in range(len(s.players))]


def test_players_lists_who_chooses_and_in_what_order(tmp_path: Path) -> None:
    game = tiny(tmp_path, "{simultaneous: [say], players: '[seat_after(me, 2), me]'}")
    s = game.new_game(seed=1, log=True)
    assert s.to_move == P3
    s.apply("say(n=3)")
    assert s.to_move == P1
    s.apply("say(n=1)")
    assert s.is_over and said(s) == [1, 0, 3]
    assert "  the secret choices of p3, p1 are revealed" in s.log


def test_an_empty_players_list_skips_the_step(tmp_path: Path) -> None:
    game = tiny(tmp_path, "{simultaneous: [say], players: '[]'}")
    assert game.new_game(seed=1).is_over


def test_a_player_may_choose_among_several_actions_and_skip(tmp_path: Path) -> None:
    game = tiny(tmp_path, "{simultaneous: [say, shout], optional: true}")
    s = game.new_game(seed=1)
    assert names(s) == ["say(n=1)", "say(n=2)", "say(n=3)", "shout(n=1)", "shout(n=2)", "shout(n=3)", "skip"]
    s.apply("shout(n=2)").apply("skip").apply("say(n=3)")
    assert said(s) == [20, 0, 3]


def test_a_stepwise_choice_is_made_in_secret_one_parameter_at_a_time(tmp_path: Path) -> None:
    game = tiny(tmp_path, "{simultaneous: [pair]}", players=2)
    s = game.new_game(seed=1)
    s.apply("pair(…)").apply("pair(a=2, …)")
    assert s.to_move == P1 and names(s) == ["pair(a=2, b=1)", "pair(a=2, b=2)"]
    assert s.view(P2).stack[-1]["picks"] == ("?",) and "pair" not in s.view(P2).to_json()
    s.apply("pair(a=2, b=1)")
    assert s.to_move == P2 and names(s) == ["pair(…)"]
    s.apply("pair(…)").apply("pair(a=1, …)").apply("pair(a=1, b=2)")
    assert said(s) == [21, 12]


def test_a_secret_choice_may_not_draw_at_random(tmp_path: Path) -> None:
    game = tiny(tmp_path, "{simultaneous: [roll]}")
    s = game.new_game(seed=1)
    with pytest.raises(RuleRuntimeError, match="cannot roll dice or draw at random"):
        s.apply("roll")


def test_choices_that_depend_on_each_other_are_a_rule_error_at_the_reveal(tmp_path: Path) -> None:
    game = tiny(tmp_path, "{simultaneous: [grab]}", players=2)
    s = game.new_game(seed=1)
    s.apply("grab")
    assert s.zones["pot"] == {"token": 1}  # p2 may still grab the token: p1's grab has not happened
    with pytest.raises(RuleRuntimeError, match="no longer legal"):
        s.apply("grab")


def test_a_simultaneous_step_naming_an_unknown_action_is_located(tmp_path: Path) -> None:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY.format(step="{simultaneous: [sya]}"), encoding="utf-8")
    found = meeple.check(path)
    assert [d.code for d in found] == ["name/unknown-action"]
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "sya" in text)
    assert "did you mean 'say'" in (found[0].hint or "") and found[0].span.line == line  # type: ignore[union-attr]


def test_a_mistyped_simultaneous_step_is_located(tmp_path: Path) -> None:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY.format(step="{simultaneous: [say], whilst: me.said < 2}"), encoding="utf-8")
    found = meeple.check(path)
    assert [d.code for d in found] == ["schema/additionalProperties"]
    assert "did you mean 'while'" in found[0].headline()


def test_a_cost_revealed_after_another_choice_is_priced_as_the_state_then_stands(tmp_path: Path) -> None:
    """Both players buy at a price of 1 in secret; the first buy revealed raises it, so the second pays 2:
    the price a def worked out before (for `look`, on the game itself) is not reused once the reveal has
    changed it."""
    game = load_tiny(
        tmp_path,
        """
game:
  name: Rising price
  players: {min: 2, max: 2}
components:
  resources: [coin, gem]
vars:
  player: {bought: 0}
defs:
  sold(): "sum([p.bought for p in players])"
  price(): "sold() + 1"
setup:
  - for: p in players
    do: [gain 5 coin to p]
actions:
  look: {when: price() == 1, effect: [gain 0 gem]}
  buy:
    cost: (price()) coin
    effect: [gain 1 gem, me.bought += 1]
flow:
  - phase: open
    turns: clockwise
    do: [{choose: [look]}]
  - phase: market
    turns: none
    do:
      - {simultaneous: [buy]}
""",
        2,
    )
    s = game.new_game(seed=1)
    s.apply("look").apply("look")
    assert names(s) == ["buy"]
    s.apply("buy")
    assert names(s) == ["buy"]  # p2 chooses at the price of 1 too: nothing is revealed yet
    s.apply("buy")
    assert s.is_over
    assert [(s.pv[p]["coin"], s.pv[p]["gem"]) for p in (0, 1)] == [(4, 1), (3, 1)]


def test_the_reveal_takes_what_is_kept_of_the_players_resources_with_the_resources() -> None:
    # Taken from the scratch the players decided on, the resources and what is kept of them (a player's
    # bundle, the names of the resources held) come together: none is left from the state before.
    from meeple.compile.codegen import _resources, held_kinds
    from meeple.runtime.simultaneous import adopt
    from meeple.values import Bundle

    game = meeple.load(Path(__file__).resolve().parents[2] / "games" / "climbers_of_verdon.yaml", players=3)
    s = game.new_game(seed=1)
    names = tuple(sorted(game.definition.sym.resources))
    before = held_kinds(s, P1, names)
    assert before != list(names)
    scratch = s.clone()
    scratch.gain(P1, Bundle({name: 1 for name in names if name not in before}))
    assert held_kinds(scratch, P1, names) == list(names)
    adopt(s, scratch)
    assert held_kinds(s, P1, names) == list(names)
    assert _resources(s, P1) is _resources(scratch, P1)
