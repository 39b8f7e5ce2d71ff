"""Simulated missions: the player autopilot (:mod:`solo_ops.sim.autopilot`) and the
difficulty rating built on it (:mod:`solo_ops.sim.rating`). Pure: no printing, no files, dice
only from the game."""
