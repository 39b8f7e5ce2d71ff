"""The enemy's mind: the shared unit state machine and the order planner."""
