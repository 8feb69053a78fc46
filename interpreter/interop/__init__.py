"""Adapters to the interfaces AI tools speak: OpenSpiel games and PettingZoo environments.

Both read any rule file the same generic way (meeple.interop.core): a bounded index of distinct actions,
and an observation encoding derived from the rule file (resources, numeric variables, zone contents as a
player sees them, pieces on the board). The third-party packages are optional extras (`meeple[openspiel]`,
`meeple[pettingzoo]`); only the adapter modules import them.
"""
