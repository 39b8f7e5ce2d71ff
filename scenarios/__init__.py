"""The shipped scenarios, boards, rosters and squads (YAML files beside this one).

This folder is installed as the package data ``solo_ops.scenarios`` (see ``pyproject.toml``'s
``package-dir``); ``solo_ops.io.library`` finds it by that name, in a checkout and in a wheel.
It holds no code.
"""
