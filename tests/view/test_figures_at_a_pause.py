"""Every figure a player reads is the game's at that moment, also while an enemy activation
waits for the players' answer (a CP re-roll, a fight's die, a Guard interrupt): the step is
undone until the answer runs it again, but the question, the terminal's status and the page's
header show the CP and VP as the step had them when it asked. 001: "Re-Roll Attack/Defence
Dice for 1CP" -- the players decide with their CP in front of them."""

from __future__ import annotations

import re

from solo_ops.game.engine import new_game, pending
from solo_ops.io import library
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot
from solo_ops.view.player import player_view


def test_the_question_the_status_and_the_header_agree_at_every_pause() -> None:
    """Bheta-Decima seed 3, played by the autopilot (its fights by the policy), pauses in
    enemy activations after CP were spent in them: at every pause the CP in the question
    ("you have N CP"), the view every screen draws and the last CP the step told the players
    of (``cp_spent`` before the question, less the re-rolls the question says were just made)
    are one figure, though the state is undone."""
    game, state = new_game(autopilot.simulated(load_scenario(library.resolve(
        "scenario", "bheta-decima-refinery-strike"))), 3)
    pauses = spent_before = 0
    while not state.ended:
        prompt = pending(game, state)
        if prompt.kind == "reroll":
            pauses += 1
            offered = state.log[-1]["events"][-1]
            asked = int(re.search(r"you have (\d+) CP", prompt.text).group(1))  # type: ignore
            view = player_view(game, state)
            assert view["cp"]["player"] == asked == offered["figures"]["cp"]["player"]
            assert view["vp"] == offered["figures"]["vp"]
            told = [e for e in offered.get("so_far", []) if e["type"] == "cp_spent"]
            just = int(re.search(r"after the (\d+) CP", prompt.text).group(1)) \
                if "after the" in prompt.text else 0  # type: ignore[union-attr]
            if told:  # the last CP told, less the re-rolls just made (told after the attack)
                spent_before += 1
                assert told[-1]["cp"] - just == asked
        autopilot.answer(game, state, prompt, "objective")
    assert pauses >= 3 and spent_before >= 1
