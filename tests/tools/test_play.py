"""`meeple play`: a person against bots. Driven through a fake input stream here, and through a real
pseudo-terminal (pexpect) in test_play_pty.py."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

import meeple
from meeple.agents import GreedyAgent, RandomAgent
from meeple.tools.cli import main
from meeple.tools.play import Session, bot_names, masked, menu
from meeple.values import Action, Player

ROOT = Path(__file__).resolve().parents[2]
TIC_TAC_TOE = ROOT / "examples" / "classic" / "tic_tac_toe.yaml"


class Script:
    """Answers the prompts from a list (then keeps answering `then`), recording everything written."""

    def __init__(self, answers: Iterable[str], then: str | None = "1") -> None:
        self.answers = list(answers)
        self.then = then
        self.out: list[str] = []
        self.prompts = 0

    def read(self, prompt: str) -> str:
        self.prompts += 1
        if self.answers:
            return self.answers.pop(0)
        if self.then is None:
            raise EOFError
        return self.then

    def write(self, text: str) -> None:
        self.out.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def session(game: meeple.Game, seat: int, script: Script, seed: int = 1) -> Session:
    agents = [None if i == seat else RandomAgent() for i in range(game.players)]
    return Session(game, seat, agents, seed, read=script.read, write=script.write, record={"game": "x"})


@pytest.fixture(scope="module")
def ttt() -> meeple.Game:
    return meeple.load(TIC_TAC_TOE, players=2)


def test_a_whole_game_of_tic_tac_toe_ends_with_the_scores(ttt: meeple.Game) -> None:
    script = Script([])
    s = session(ttt, 1, script)
    assert s.run() is True
    assert s.state.is_over
    assert "The game is over. Scores:" in script.text
    assert script.text.rstrip().splitlines()[-1] in (
        "You win!",
        "You lose.",
        "No winner.",
        "You share the win.",
    )
    replayed = meeple.replay(ttt, 1, s.actions)
    assert replayed.to_json() == s.state.to_json()


def test_the_person_decides_only_at_their_seat_and_the_bots_play_as_in_run(ttt: meeple.Game) -> None:
    script = Script([])
    s = session(ttt, 0, script)
    s.run()
    mine = s.actions[0::2]
    first_choices = [str(a) for a in mine]
    assert first_choices[0] == "play(cell=a1)"  # "1" takes the first legal action
    assert script.prompts == len(mine)


def test_bad_input_re_prompts_with_a_short_message(ttt: meeple.Game) -> None:
    script = Script(["", "99", "dance", "play(cell=a1)"], then=None)
    s = session(ttt, 0, script)
    assert s.run() is False  # the input ran out: the person left
    assert "No choice 99: pick 1 to 9." in script.out
    assert any(line.startswith("'dance' is neither a choice nor a command") for line in script.out)
    assert str(s.actions[0]) == "play(cell=a1)"  # an action typed out in full is taken too


def test_why_explains_from_the_persons_position(ttt: meeple.Game) -> None:
    script = Script(["1", "why play(cell=a1)", "why", "why dance(x=1)", "quit"])
    s = session(ttt, 0, script)
    s.run()
    assert any("play(cell=a1) is not legal for p1: cell=a1 is not among" in line for line in script.out)
    assert any(line.startswith("why what? e.g. why play(cell=") for line in script.out)
    assert any("has no action 'dance'" in line for line in script.out)
    assert script.out[-1] == "You left the game."


def test_undo_goes_back_to_the_previous_decision_and_the_bots_answer_as_before(ttt: meeple.Game) -> None:
    plain = Script(["1", "1", "quit"])
    first = session(ttt, 0, plain)
    first.run()
    undone = Script(["1", "1", "undo", "1", "quit"])
    second = session(ttt, 0, undone)
    second.run()
    assert "Back to your decision after 2 actions." in undone.out
    assert [str(a) for a in second.actions] == [str(a) for a in first.actions]


def test_undo_at_the_first_decision_says_there_is_nothing_to_undo(ttt: meeple.Game) -> None:
    script = Script(["undo", "quit"])
    session(ttt, 0, script).run()
    assert "Nothing to undo: this is your first decision." in script.out


def test_save_writes_a_game_that_meeple_replay_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "saved.json"
    script = Script(["1", "1", f"save {path}", "quit"])
    game = meeple.load(TIC_TAC_TOE, players=2)
    agents = [None, GreedyAgent()]
    s = Session(game, 0, agents, 5, read=script.read, write=script.write, record={"game": str(TIC_TAC_TOE)})
    s.run()
    record = json.loads(path.read_text())
    assert record["actions"] == [str(a) for a in s.actions] and len(record["actions"]) == 4
    assert record["agents"] == ["person", "greedy"] and record["seed"] == 5
    assert main(["replay", str(path)]) == 0
    assert "Replayed 4 of 4 actions of tic_tac_toe" in capsys.readouterr().out


def test_a_long_list_is_narrowed_one_parameter_at_a_time() -> None:
    game = meeple.load("climbers_of_verdon", players=2)
    legal = game.new_game(seed=1).legal_actions()
    assert len(legal) > 24
    options = menu(legal, 0)
    assert all(label.startswith("place_start(corner=") for label, _, _ in options)
    label, group, depth = next(o for o in options if len(o[1]) > 1)
    assert label.endswith(f"…)  [{len(group)} choices]")
    inner = menu(group, depth)
    assert [a for _, g, _ in inner for a in g] == group


def test_narrowing_then_picking_takes_an_action_and_back_widens_again() -> None:
    game = meeple.load("climbers_of_verdon", players=2)
    script = Script(["1", "back", "1", "1", "quit"], then=None)
    s = session(game, 0, script)
    s.run()
    assert str(s.actions[0]).startswith("place_start(corner=c0")


def test_the_position_shows_the_seats_own_hand_and_only_the_size_of_others() -> None:
    game = meeple.load("tabletop_climber", players=3)
    script = Script(["quit"])
    s = session(game, 1, script)
    s.run()
    shown = script.text
    mine = next(line for line in script.out if line.startswith("-- turn")).split("\n")
    p2 = next(line for line in mine if line.startswith("p2 (you)"))
    assert "team: " in p2 and "hidden" not in p2.split("team: ")[1].split(";")[0]
    p3 = next(line for line in mine if line.startswith("p3"))
    assert "team: 9 hidden" in p3
    assert "pick(card=?)" in shown  # p1's picks from its own cards are not revealed


def test_masked_shows_only_cards_that_lie_in_a_public_zone() -> None:
    game = meeple.load("tabletop_climber", players=3)
    state = game.new_game(seed=1)
    view = state.view(Player(1))
    public = [z.name for z in game.definition.zones if z.visibility == "all"]
    on_table = next(k for key, zone in view.zones.items() if key in public for k, n in zone.items() if n)
    assert masked(Action("play", (("cards", (on_table, "nowhere_card")),)), view).startswith("play(cards=[")
    assert masked(Action("pick", (("card", on_table),)), view) == f"pick(card={on_table})"


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["greedy"], [None, "greedy", "greedy"]),
        (["greedy", "random"], [None, "greedy", "random"]),
        (["x", "greedy", "random"], [None, "greedy", "random"]),
    ],
)
def test_bot_names_fill_the_other_seats(names: list[str], expected: list[str | None]) -> None:
    assert bot_names(names, 3, 0) == expected


def test_play_command_rejects_a_seat_that_does_not_exist(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", str(TIC_TAC_TOE), "--seat", "3"]) == 2
    assert "has seats 1 to 2" in capsys.readouterr().err


def test_play_command_rejects_the_wrong_number_of_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "climbers_of_verdon", "--players", "4", "--agents", "greedy,random"]) == 2
    assert "2 agents given for 3 bots" in capsys.readouterr().err


def test_play_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: meeple play") and "--seat N" in out and "--agents" in out


def test_a_person_sees_its_own_secret_picks_and_nothing_of_the_bots_until_the_reveal() -> None:
    game = meeple.load("k2", players=3)
    script = Script(["1", "1", "1", "quit"])
    session(game, 2, script).run()
    text = script.text
    reveal = text.index("the secret choices of p1, p2, p3 are revealed")
    before, after = text[:reveal], text[reveal:]
    assert "p1 has chosen" in before and "p2 has chosen" in before
    assert "p1: pick" not in before and "p2: pick" not in before
    assert "your secret choices so far (shown to nobody until all have chosen): pick(card=" in before
    assert "p1: pick(card=" in after and "p3: pick(card=" in after  # laid face up for everyone
