"""The README's tour of the Python API, runnable: python examples/api_tour.py"""

import random

import meeple

game = meeple.load("climbers_of_verdon", players=4, options={"target_vp": 13})
state = game.new_game(seed=7)
rng = random.Random(7)
actions = []
while not state.is_over:
    action = rng.choice(state.legal_actions())  # actions print as build_rope(path=c3-c7)
    state.apply(action)
    actions.append(action)
print(state.scores, state.winners)

saved = state.to_json()  # plain JSON; game.state_from_json(saved) reloads it
copy = state.clone()  # cheap, independent
mine = state.view(0)  # what player p1 may know: other hands hidden
same = meeple.replay(game, 7, actions)  # seed + action list reproduce a game
