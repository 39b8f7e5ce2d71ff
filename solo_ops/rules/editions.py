"""What each edition calls its turns, for every sentence that names one.

Kill Team 2024 plays in *turning points* (001), Kill Team 2018 in *battle rounds* (004). Pure
words, no game: the terminal's and the server's lines, the pictures' titles, the narration's
scores and the saves' messages read it here, so a 2018 game says "battle round 3", never
"turn 3" or "turning point 3". (The dice's purposes in the log keep their "turn N": a log's
words are part of its replay.)
"""

from __future__ import annotations

TURN_NAMES = {"kt2024": "turning point", "kt2018": "battle round"}
"""The edition's name for one of its turns."""


def turn_name(edition: str | None) -> str:
    """"turning point" (Kill Team 2024, also when the edition is not known) or "battle round"
    (Kill Team 2018)."""
    return TURN_NAMES.get(edition or "kt2024", TURN_NAMES["kt2024"])


def turns_phrase(n: int, edition: str | None) -> str:
    """``n`` turns with their name: "1 battle round", "4 turning points"."""
    return f"{n} {turn_name(edition)}{'s' if n != 1 else ''}"
