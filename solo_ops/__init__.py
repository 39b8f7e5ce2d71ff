"""solo-ops: a solo and co-op opponent for Kill Team.

The package is a small pure core (dice, tables, models, geometry, rules, AI, fog of war,
campaign) with the command line and file handling at its edge. See ``docs/architecture.md``.
"""

__version__ = "0.1.0"
