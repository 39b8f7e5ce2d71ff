"""Typed answers to the game's prompts, turned into action dicts.

The same words work at the keyboard, from a pipe, from an ``--answers`` file and as
``--answer`` options, so a game can be scripted and tested end to end::

    activate sgt engage        (or just: sgt engage)
    move 10,4    dash 12,5    advance 10,4    fallback 8,3
    move 4 toward obj-2    move 4" toward obj-2    move 10 cm toward obj-2    move to obj-2
    move into base contact with u1-a    move behind crate-2
    charge u1-a 12,6    charge u1-a
    shoot u1-a with boltgun damage 3      shoot u1-a with boltgun roll
    fight u1-a dealt 4 taken 3      fight u1-a roll
    carry jax    evacuate    ready    guard (Gallowdark: On Guard)
    pickup obj-2    placedown    placedown 10,4
    (when none of yours is ready and solo-ops still has units:)  counteract kell   or   pass
    hatch h2 open    door d1 close
    damage sgt 3    down jax
    done
    (when the enemy attacks and you roll it:)  3   or   damage 3 taken 1
    (when solo-ops rolled your dice and you may spend a CP:)  reroll 2   or   keep
    (in a fight solo-ops rolled, your next die:)  strike 1   block 2   block 1 2   auto   auto all
    (On Guard, after an enemy model's first action:)  shoot [with WEAPON]   fight   no
    (your cover save could block nothing here:)  keep   or   roll
    cp 1   (CP you spent at the table: a re-roll of your own dice, a ploy)

Meta words (handled by the command line, not the game): ``help``, ``status``, ``map FILE``,
``undo``, ``save``, ``quit``.

:func:`parse` hands a question's own words to its parser (a re-roll, CP, a Reaction, a Counteract
offer, an attack's damage), then looks the first word up in :data:`VERBS`, one small parser a verb.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from solo_ops.core.errors import RuleError
from solo_ops.view.measure import to_inches

PLAYER_HELP = """\
What you can answer (ids in any case, and only as much of one as tells it apart: 'kel' for kell;
points are x,y in inches — or cm with the units setting — x along the long edge, y the short
one; +y is north, up on every map; a distance or point may carry its unit whatever the
setting: 4", 4in, 10cm, 10 cm, 25cm,10cm):
  which operative acts:   kell            kell engage      activate kell conceal
                          (then, before its first action, 'engage' or 'conceal' changes its order)
  moving to a point:      move 10,4       dash 12,5        fallback 8,3
                          advance 10,4    (Kill Team 2018)  charge u3-a 12,6
  moving relative to the table (solo-ops works out the point, shows it and asks yes / no):
                          move 4 toward obj-2     move to obj-2 (as far as the move allows)
                          move into base contact with vale       charge u3-a (base contact)
                          move behind crate-2 (next to it, out of sight of every enemy or in
                          cover from each that sees it)          dash 2 toward hatch-3
                          move toward edge (north-edge, east-edge, ...; a downed friend, a
                          door or hatch, a counter can be named too)  fallback behind crate-1
  shooting:               shoot u3-a with boltgun damage 3   (you rolled it: 3 damage)
                          shoot u3-a roll        (solo-ops rolls it; the weapon is the only one
                                                  that can shoot, or the Silent one under Conceal)
  fighting:               fight u3-a dealt 4 taken 3      fight u3-a roll
  the wounded:            carry vale      evacuate (carry him off within 1" of an edge; from
                          further away solo-ops proposes the cheapest way to an edge first)
  Guard (Gallowdark):     guard (1 AP, a Shoot action: On Guard until it acts, an enemy ends
                          an action in its control range, or the next turning point); when an
                          enemy model has made its first action:  shoot [with WEAPON] | fight
                          | no
  objective markers:      pickup obj-2 (1 AP: a portable marker you control)
                          placedown  or  placedown 10,4 (1 AP: where it stands, or a point
                          within its control range; not in the activation it picked it up)
  counteract (Kill Team 2024: none of yours is ready, solo-ops still has units to activate):
                          counteract kell (an expended Engage operative: one free 1 AP action,
                          a move of at most 2")      pass
  doors and hatches:      hatch h2 open   door d1 close
  what happened to whom:  damage kell 3   down vale
  end the activation:     done
  when solo-ops asks what its attack did (you rolled it):  3   or   damage 3 taken 1
  in a fight solo-ops rolled, one die at a time (the prompt shows the dice left, the wounds,
  where each choice leads and the engine's advice ★):
                          strike 1   (strike with your die #1)     block 3   (your #3 blocks
                          the enemy die it can)      block 1 2  (your #1 blocks their #2)
                          auto (the advice)          auto all (the advice to the fight's end)
  when solo-ops rolled your dice and shows a failed one (you have a CP):
                          reroll 2   (1 CP: re-roll die #2 as shown; each die only once)
                          keep       (spend nothing)
  when your cover save could block nothing (Brutal, or crits only against a lone die):
                          keep (retain it anyway)    roll (roll that die too)
  CP you spent at the table (a re-roll of dice you rolled, your team's ploys):
                          cp 1    or   cp 1 Command Re-roll (when asked who acts or what it did)
At any prompt: help, status (the table as you may see it), map FILE.png (a picture),
undo (take back your last answer), quit (the game is already saved; go on later with
solo-ops play --resume SAVE). At the keyboard: arrow keys edit and recall answers, Tab
completes ids and answer words."""

PLAYER_HELP_2018 = """\
What you can answer in a Kill Team 2018 game (ids in any case, and only as much of one as
tells it apart: 'cor' for corvin; points are x,y in inches — or cm with the units setting — x
along the long edge, y the short one; +y is north, up on every map):
  which model acts in this phase:   corvin
  movement phase:         move 10,4       (a normal move, up to its Move)
                          advance         (declare an Advance: solo-ops rolls the D6, then
                                           'move 10,4' within Move + the roll)
                          advance 10,4    (declare, roll, and move there if the roll allows)
                          charge u3-a     (declare a charge: the enemy may fire Overwatch,
                                           solo-ops rolls 2D6, then 'move X,Y' or 'move into
                                           base contact with u3-a' within the roll; short of 1"
                                           the charge fails: move closer, not within 1")
                          charge u3-a 12,6   (declare, roll, and move there if the roll allows)
                          fallback 8,3    (within 1" of an enemy, which has not charged it)
                          ready           (Readied instead of moving: it shoots first, in
                                           Ready, Fire!)
                          move 4 toward obj-2   move to obj-2   move behind crate-2 (solo-ops
                          works out the point, shows it and asks yes / no)
                          door d1 open    (within 1", making a normal move or Falling Back)
  when solo-ops declares a charge at your model (a Reaction):
                          overwatch roll   overwatch with bolter roll   overwatch damage 1
                          retreat 10,4 (up to 3", away from the charger)   no
  shooting phase:         shoot u3-a roll        (solo-ops rolls it, with every effect in force)
                          shoot u3-a with boltgun damage 3   (you rolled it: 3 damage)
                          pass   (asked which model shoots: the rest hold their fire)
  fight phase:            fight u3-a roll        fight u3-a dealt 2   (you rolled it)
  a Pariah Nexus effect asks (a spatial lacerator, the circuit, a roll-off won ...):
                          translocate 10,4   place 10,4   move 10,4   choose lacerator-1
                          lacerator-4   roll   remove crate-2   no    (as the question says)
  the wounded:            carry vale
  what happened to whom:  damage corvin 1   down tam
  end the model's turn in this phase:  done
  when solo-ops asks what its attack did (you rolled it):  1   or   damage 1
  when you hold the Command Node from round 2, at the end of the movement phase (no model
  active): door d1 open   (Access Override, 1 CP)
  CP you spent on a tactic at the table:  cp 1   or   cp 1 Sure Footing
At any prompt: help, status (the table as you may see it), map FILE.png (a picture),
undo (take back your last answer), quit (the game is already saved; go on later with
solo-ops play --resume SAVE). At the keyboard: arrow keys edit and recall answers, Tab
completes ids and answer words."""


def help_text(edition: str) -> str:
    """The answers a player may give, in the edition's words (Kill Team 2018 lists its own:
    Advance, charge, Ready, Reactions, Fall Back; none of 2024's orders, AP or Dash)."""
    return PLAYER_HELP_2018 if edition == "kt2018" else PLAYER_HELP


META = ("help", "status", "map", "undo", "save", "quit", "exit")
ACT_WORDS = ("move", "reposition", "dash", "fallback", "fall_back", "advance", "normal",
             "charge", "shoot", "fight", "carry", "evacuate", "ready", "done", "end", "pass",
             "pickup", "placedown", "counteract", "guard")


UNIT_WORDS = {'"': "in", "”": "in", "″": "in", "''": "in", "in": "in", "inch": "in",
              "inches": "in", "cm": "cm", "centimetre": "cm", "centimetres": "cm",
              "centimeter": "cm", "centimeters": "cm"}
"""Units a typed distance may carry (``4"``, ``4in``, ``10cm``, ``10 cm``), whatever the
game's ``units`` setting."""
_LENGTH = re.compile(r"^([-+]?(?:\d+(?:\.\d*)?|\.\d+))\s*(" + "|".join(
    re.escape(w) for w in sorted(UNIT_WORDS, key=len, reverse=True)) + r")?$", re.IGNORECASE)


def _length(text: str, units: str = "in") -> float | None:
    """A typed distance in inches (the engine's unit): a number in the game's ``units``, or
    with its own unit (:data:`UNIT_WORDS`); None when it is not one."""
    found = _LENGTH.match(text.strip())
    if found is None:
        return None
    value = float(found.group(1))
    unit = UNIT_WORDS[found.group(2).lower()] if found.group(2) else units
    if not math.isfinite(value):
        return None
    return value if unit == "in" else round(to_inches(value, unit), 4)


def _join_units(words: list[str]) -> list[str]:
    """A number and the unit after it as one word: ``["10", "cm"]`` -> ``["10cm"]``."""
    out: list[str] = []
    for word in words:
        if out and word.lower() in UNIT_WORDS and _number(out[-1]) is not None:
            out[-1] += word
        else:
            out.append(word)
    return out


def _point(text: str, units: str = "in") -> list[float]:
    """``x,y`` in the game's units, each number may carry its own unit (``25cm,10cm``)."""
    parts = text.replace("(", "").replace(")", "").replace(" ", "").split(",")
    if len(parts) != 2:
        raise RuleError(f"expected a point x,y, got {text!r}")
    x, y = _length(parts[0], units), _length(parts[1], units)
    if x is None or y is None:
        raise RuleError(f"expected a point x,y, got {text!r}")
    return [x, y]


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


RELATIONS = ("toward", "towards", "to", "into", "contact", "behind")
RELATION_WORDS = ("toward", "to", "into", "base", "contact", "with", "behind", "roll", "damage",
                  "dealt", "taken", "engage", "conceal", "open", "close", "activate", "door",
                  "hatch", "down", "yes", "no", "overwatch", "retreat", "reroll", "keep",
                  "cp", "strike", "block", "auto", "all")
"""Answer words besides :data:`ACT_WORDS` (for completion at the prompt)."""


def _move(how: str, rest: list[str], units: str) -> dict[str, Any]:
    """``[OP] X,Y``, ``[OP] [N] toward REF``, ``[OP] to REF``, ``[OP] into base contact with
    REF`` (or ``contact REF``), ``[OP] behind FEATURE``."""
    words = _join_units(list(rest))
    operative = None
    first = words[0].lower()
    if "," not in words[0] and _length(words[0], units) is None and first not in RELATIONS:
        operative, words = words[0], words[1:]
    if not words:
        raise RuleError(f"expected a point x,y or a place after {operative!r}, e.g. "
                        f"'move {operative} 10,4' or 'move {operative} to obj-1'")
    action: dict[str, Any] = {"type": "move", "how": how}
    if operative is not None:
        action["operative"] = operative
    amount = _length(words[0], units) if len(words) > 1 else None
    if amount is not None and words[1].lower() in ("toward", "towards"):
        if amount <= 0:
            raise RuleError("how far? a distance above 0, e.g. 'move 3 toward obj-1'")
        words = words[1:]
        action["amount"] = round(amount, 4)
    head = words[0].lower()
    if head in ("toward", "towards"):  # without a distance: as far as the move allows
        relation, ref = "toward", words[1:]
    elif head == "to":
        relation, ref = "to", words[1:]
    elif head == "behind":
        relation, ref = "behind", words[1:]
    elif head in ("into", "contact"):
        ref = words[1:]
        while ref and ref[0].lower() in ("base", "contact", "with"):
            ref = ref[1:]
        relation = "contact"
    else:
        action["to"] = _point(" ".join(words), units)
        return action
    if len(ref) != 1:
        raise RuleError(f"{relation} what? name one thing on the table, e.g. "
                        f"'move {relation if relation != 'contact' else 'into base contact with'}"
                        " obj-1'")
    action.update({"relation": relation, "ref": ref[0]})
    return action


def _int(text: str, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise RuleError(f"{what} must be a whole number, got {text!r}") from None
    if value < 0:
        raise RuleError(f"{what} cannot be negative")
    return value


def _keyed(words: list[str], keys: tuple[str, ...]) -> dict[str, str]:
    """``["with", "bolt", "gun", "damage", "3"]`` -> ``{"with": "bolt gun", "damage": "3"}``."""
    out: dict[str, list[str]] = {}
    current: str | None = None
    for word in words:
        if word.lower() in keys:
            current = word.lower()
            out[current] = []
        elif current is None:
            raise RuleError(f"unexpected {word!r}")
        else:
            out[current].append(word)
    return {k: " ".join(v) for k, v in out.items()}


def _reaction(head: str, rest: list[str], units: str) -> dict[str, Any]:
    """A Kill Team 2018 charge Reaction: ``overwatch [with WEAPON] roll``, ``overwatch damage
    N`` (or ``overwatch N``), ``retreat X,Y`` or ``no`` (``none``, ``pass``)."""
    if head in ("no", "none", "pass", "done"):
        return {"type": "reaction", "react": "none"}
    if head == "retreat":
        if len(rest) != 1:
            raise RuleError("retreat where? e.g. 'retreat 10,4'")
        return {"type": "reaction", "react": "retreat", "to": _point(rest[0], units)}
    if head != "overwatch":
        raise RuleError("react with 'overwatch roll', 'overwatch damage N', 'retreat X,Y' or "
                        "'no'")
    action: dict[str, Any] = {"type": "reaction", "react": "overwatch"}
    words = list(rest)
    if len(words) >= 2 and words[0].lower() == "with":
        lowered = [w.lower() for w in words]
        cut = next((i for i, w in enumerate(lowered) if w in ("roll", "damage")), len(words))
        action["weapon"] = " ".join(words[1:cut])
        words = words[cut:]
    if words and words[0].lower() == "roll":
        action["roll"] = True
        words = words[1:]
    elif words and words[0].lower() == "damage" and len(words) >= 2:
        action["damage"] = _int(words[1], "damage")
        words = words[2:]
    elif words and _number(words[0]) is not None:
        action["damage"] = _int(words[0], "damage")
        words = words[1:]
    if len(words) >= 2 and words[0].lower() == "with":
        action["weapon"] = " ".join(words[1:])
        words = []
    if words or ("roll" not in action and "damage" not in action):
        raise RuleError("e.g. 'overwatch roll', 'overwatch with bolter roll' or 'overwatch "
                        "damage 1'")
    return action


def _reroll(head: str, rest: list[str]) -> dict[str, Any]:
    """The answer to a CP re-roll question: ``reroll N`` (``re-roll``, ``reroll die N``,
    ``reroll #N``: N is the die's place as shown) or ``keep`` (``no``, ``none``)."""
    if head in ("keep", "no", "none", "pass"):
        return {"type": "reroll", "keep": True}
    words = [w for w in rest if w.lower() != "die"]
    if head not in ("reroll", "re-roll") or len(words) != 1:
        raise RuleError("'reroll N' (1 CP: re-roll die #N as shown) or 'keep'")
    return {"type": "reroll", "die": _int(words[0].lstrip("#"), "the die's place")}


def _fight_choice(head: str, rest: list[str]) -> dict[str, Any]:
    """A player's next die in a fight: ``strike N``, ``block N``, ``block N M`` (``block N
    against M``: yours #N blocks theirs #M), ``auto`` (the engine's advice) or ``auto all``
    (the advice for every die left in this fight). ``#N`` works too."""
    words = [w.lstrip("#") for w in rest if w.lower() not in ("die", "against", "on", "with")]
    if head == "auto" and not rest:
        return {"type": "fight_choice", "move": "auto"}
    if head == "auto" and [w.lower() for w in rest] in (["all"], ["rest"]):
        return {"type": "fight_choice", "move": "auto", "all": True}
    if head == "strike" and len(words) == 1:
        return {"type": "fight_choice", "move": "strike", "die": _int(words[0], "the die")}
    if head == "block" and len(words) in (1, 2):
        action = {"type": "fight_choice", "move": "block", "die": _int(words[0], "the die")}
        if len(words) == 2:
            action["against"] = _int(words[1], "their die")
        return action
    raise RuleError("resolve your next die: 'strike N', 'block N' (or 'block N M': your #N "
                    "blocks their #M), 'auto' (the advice) or 'auto all'")


def _guard_choice(head: str, rest: list[str]) -> dict[str, Any]:
    """The answer to a Guard interrupt offer: ``shoot [TARGET] [with WEAPON]``, ``fight
    [TARGET]`` or ``no`` (``none``, ``pass``)."""
    if head in ("no", "none", "pass", "keep"):
        return {"type": "guard_choice", "how": "no"}
    if head not in ("shoot", "fight"):
        raise RuleError("interrupt with 'shoot [with WEAPON]' or 'fight', or answer 'no'")
    action: dict[str, Any] = {"type": "guard_choice", "how": head}
    words = list(rest)
    if words and words[0].lower() != "with":
        action["target"] = words.pop(0)
    if words and words[0].lower() == "with" and head == "shoot" and len(words) > 1:
        action["weapon"] = " ".join(words[1:])
    elif words:
        raise RuleError(f"e.g. '{head} u1-a'" + (" or 'shoot u1-a with boltgun'"
                                                  if head == "shoot" else ""))
    return action


def _cp(head: str, rest: list[str]) -> dict[str, Any]:
    """CP spent at the table: ``cp N [why]`` or ``spend N cp [why]``."""
    words = list(rest)
    if head == "spend" and len(words) >= 2 and words[1].lower() == "cp":
        words.pop(1)
    elif head == "spend" and words and words[0].lower().endswith("cp"):
        words[0] = words[0][:-2]
    if not words:
        raise RuleError("how many CP? e.g. 'cp 1' or 'cp 1 Command Re-roll'")
    amount = _int(words[0], "CP")
    if amount < 1:
        raise RuleError("spend at least 1 CP, e.g. 'cp 1'")
    action: dict[str, Any] = {"type": "cp", "amount": amount}
    if len(words) > 1:
        action["why"] = " ".join(words[1:])
    return action


def _counteract(head: str, rest: list[str]) -> dict[str, Any]:
    """The answer to a Counteract offer: ``counteract OP`` (or just ``OP``) or ``pass``
    (``no``, ``done``, ``none``)."""
    if head in ("pass", "no", "none", "done", "end"):
        if rest:
            raise RuleError("'pass' takes nothing after it")
        return {"type": "counteract", "pass": True}
    words = rest if head == "counteract" else [head, *rest]
    if len(words) != 1:
        raise RuleError("'counteract OPERATIVE' (e.g. 'counteract kell') or 'pass'")
    return {"type": "counteract", "operative": words[0]}


def _attack_damage(head: str, words: list[str], rest: list[str]) -> dict[str, Any]:
    """What the enemy's attack did, rolled by the player: ``N`` or ``damage N [taken M]``."""
    if head == "damage":
        rest_words = rest
    else:
        rest_words = words
    if not rest_words:
        raise RuleError("how much damage? e.g. '3'")
    action: dict[str, Any] = {"type": "attack_damage",
                              "damage": _int(rest_words[0], "damage")}
    if len(rest_words) >= 3 and rest_words[1].lower() == "taken":
        action["taken"] = _int(rest_words[2], "damage taken")
    return action


def _prompt_answer(head: str, words: list[str], rest: list[str], prompt_kind: str,
                   units: str) -> dict[str, Any] | None:
    """The answer to a question that takes its own words (a re-roll, CP spent, a Reaction, a
    Counteract offer, an enemy attack's damage), or None for an ordinary answer."""
    if prompt_kind == "reroll":
        return _reroll(head, rest)
    if prompt_kind == "fight":
        return _fight_choice(head, rest)
    if prompt_kind == "guard":
        return _guard_choice(head, rest)
    if prompt_kind == "cover":
        if rest or head not in ("keep", "roll", "retain"):
            raise RuleError("'keep' (retain the cover save anyway) or 'roll' (roll that die)")
        return {"type": "cover_choice", "keep": head != "roll"}
    if head in ("cp", "spend"):
        return _cp(head, rest)
    if prompt_kind == "reaction":
        return _reaction(head, rest, units)
    if prompt_kind == "counteract" and head not in ("damage", "down"):
        return _counteract(head, rest)
    if prompt_kind == "attack":
        return _attack_damage(head, words, rest)
    if prompt_kind == "effect" and head not in ("damage", "down"):
        return _effect(head, rest, units)
    return None


def _effect(head: str, rest: list[str], units: str) -> dict[str, Any]:
    """The answer to a Pariah Nexus effect's question: ``choose A B`` (two spatial
    lacerators) or ``roll``; ``place X,Y``, ``translocate X,Y`` or ``move X,Y`` (where the
    model is set up or goes); ``remove FEATURE``; ``no``."""
    if head in ("no", "none", "pass", "skip", "done") and not rest:
        return {"type": "effect", "choice": "no"}
    if head == "roll" and not rest:
        return {"type": "effect", "choice": "roll"}
    if head == "choose" and len(rest) == 2:
        return {"type": "effect", "choice": "choose", "ids": rest}
    if head == "remove" and len(rest) == 1:
        return {"type": "effect", "choice": "remove", "feature": rest[0]}
    if head in ("place", "translocate", "move", "setup") and len(rest) == 1:
        return {"type": "effect", "choice": head, "to": _point(rest[0], units)}
    raise RuleError("answer the effect: 'place X,Y', 'translocate X,Y', 'move X,Y', "
                    "'choose A B', 'roll', 'remove ID' or 'no', as the question says")


def _activate(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``activate OP [engage|conceal]`` (the stance word as typed, lower-cased: the game
    refuses any other, :func:`solo_ops.game.actions._activate`)."""
    if not rest:
        raise RuleError("which operative? e.g. 'activate sgt engage'")
    action = {"type": "activate", "operative": rest[0]}
    if len(rest) > 2:
        raise RuleError(f"e.g. 'activate {rest[0]} engage': too many words in {text!r}")
    if len(rest) > 1:
        # checked by the game once the operative is found (``asdf qwer`` names no operative:
        # that is said first, not that ``qwer`` is no stance)
        action["stance"] = rest[1].lower()
    return action


MOVES = {"move": "reposition", "reposition": "reposition", "dash": "dash",
         "fallback": "fall_back", "fall_back": "fall_back", "advance": "advance",
         "normal": "normal"}
"""Move words -> the move's ``how``."""


def _move_verb(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``move``, ``dash``, ``fallback``, ``advance`` ...: a point or a place (:func:`_move`).
    ``advance`` alone (Kill Team 2018) declares the Advance: solo-ops rolls it."""
    if not rest and head == "advance":
        return {"type": "move", "how": "advance"}
    if not rest:
        raise RuleError(f"where to? e.g. '{head} 10,4' or '{head} to obj-1'")
    return _move(MOVES[head], rest, units)


def _charge(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``charge TARGET`` (into base contact) or ``charge TARGET X,Y``."""
    if not rest:
        raise RuleError("charge whom? e.g. 'charge u1-a' (into base contact) or "
                        "'charge u1-a 12,6'")
    if len(rest) == 1:
        return {"type": "move", "how": "charge", "relation": "contact", "ref": rest[0]}
    return {"type": "move", "how": "charge", "target": rest[0],
            "to": _point(" ".join(rest[1:]), units)}


def _shoot(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``shoot TARGET [with WEAPON] [damage N | roll]``."""
    if not rest:
        raise RuleError("shoot whom? e.g. 'shoot u1-a with boltgun damage 3'")
    action: dict[str, Any] = {"type": "shoot", "target": rest[0]}
    opts = _keyed(rest[1:], ("with", "damage", "roll"))
    if "roll" in opts and "damage" in opts:
        raise RuleError("either 'damage N' (you rolled it) or 'roll' (solo-ops rolls it)")
    if "with" in opts:
        action["weapon"] = opts["with"]
    if "damage" in opts:
        action["damage"] = _int(opts["damage"], "damage")
    if "roll" in opts:
        action["roll"] = True
    return action


def _fight(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``fight TARGET dealt N taken M`` or ``fight TARGET roll [with WEAPON]``."""
    if not rest:
        raise RuleError("fight whom? e.g. 'fight u1-a dealt 4 taken 3' or 'fight u1-a roll'")
    opts = _keyed(rest[1:], ("dealt", "taken", "roll", "with"))
    if "roll" in opts:
        if "dealt" in opts or "taken" in opts:
            raise RuleError("either 'dealt N taken M' (you rolled it) or 'roll' (solo-ops "
                            "rolls it)")
        action: dict[str, Any] = {"type": "fight", "target": rest[0], "roll": True}
        if opts.get("with"):
            action["weapon"] = opts["with"]
        return action
    return {"type": "fight", "target": rest[0],
            "dealt": _int(opts.get("dealt", "0") or "0", "damage dealt"),
            "taken": _int(opts.get("taken", "0") or "0", "damage taken")}


def _portal(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``hatch ID open|close`` or ``door ID open|close``."""
    if len(rest) != 2 or rest[1].lower() not in ("open", "close", "closed"):
        raise RuleError(f"e.g. '{head} h1 open' or '{head} h1 close'")
    return {"type": "portal", "feature": rest[0], "open": rest[1].lower() == "open"}


def _carry(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``carry OP``."""
    if len(rest) != 1:
        raise RuleError("carry whom? e.g. 'carry jax'")
    return {"type": "carry", "target": rest[0]}


def _damage(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``damage OP N``: damage done to one of the player's operatives at the table."""
    if len(rest) != 2:
        raise RuleError("e.g. 'damage sgt 3'")
    return {"type": "damage", "operative": rest[0], "amount": _int(rest[1], "damage")}


def _down(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``down OP``: one of the player's operatives is incapacitated."""
    if len(rest) != 1:
        raise RuleError("e.g. 'down jax'")
    return {"type": "down", "operative": rest[0]}


def _pickup(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``pickup MARKER`` (or ``pick up MARKER``)."""
    words = rest[1:] if head == "pick" and rest and rest[0].lower() == "up" else rest
    if len(words) != 1:
        raise RuleError("pick up which marker? e.g. 'pickup obj-2'")
    return {"type": "pickup", "marker": words[0]}


def _placedown(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``placedown [X,Y]`` (or ``place down [X,Y]``)."""
    words = rest[1:] if head == "place" and rest and rest[0].lower() == "down" else rest
    if head == "place" and words is rest:
        raise RuleError("e.g. 'placedown' (where it stands) or 'placedown 10,4'")
    action: dict[str, Any] = {"type": "placedown"}
    if words:
        action["to"] = _point(" ".join(words), units)
    return action


def _plain(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``ready`` or ``guard``: the word is the action."""
    return {"type": head}


def _evacuate(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``evacuate [OP]``: carry a friend off the table (OP: the carrier or the one carried);
    away from the edge, solo-ops proposes the cheapest way to it first."""
    if len(rest) > 1:
        raise RuleError("e.g. 'evacuate' or 'evacuate rask'")
    return {"type": "evacuate", **({"operative": rest[0]} if rest else {})}


def _order(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``engage`` or ``conceal`` (``order engage``): the active operative's order, before its
    first action."""
    words = rest if head == "order" else [head, *rest]
    if len(words) != 1 or words[0].lower() not in ("engage", "conceal"):
        raise RuleError("e.g. 'engage' or 'conceal' (before the operative's first action)")
    return {"type": "order", "stance": words[0].lower()}


def _done(head: str, rest: list[str], text: str, units: str) -> dict[str, Any]:
    """``done`` (``end``, ``pass``): the activation ends."""
    return {"type": "done"}


_Verb = Callable[[str, list[str], str, str], dict[str, Any]]
VERBS: dict[str, _Verb] = {
    "activate": _activate,
    **dict.fromkeys(MOVES, _move_verb),
    "charge": _charge, "shoot": _shoot, "fight": _fight,
    "hatch": _portal, "door": _portal, "carry": _carry, "damage": _damage, "down": _down,
    "pickup": _pickup, "pick": _pickup, "placedown": _placedown, "place": _placedown,
    "evacuate": _evacuate, "ready": _plain, "guard": _plain, "done": _done, "end": _done,
    "pass": _done, "engage": _order, "conceal": _order, "order": _order,
}
"""An answer's first word -> its parser, called as ``parser(head, rest, text, units)``."""


def parse(text: str, prompt_kind: str, units: str = "in", edition: str = "kt2024"
          ) -> dict[str, Any]:
    """Turn one typed answer into an action dict (raises RuleError with a hint). Points and
    distances are typed in ``units`` (``in`` or ``cm``) and come out in inches; hints are in
    the ``edition``'s words."""
    words = text.strip().split()
    if not words:
        raise RuleError("type an answer, or 'help'")
    head = words[0].lower()
    rest = words[1:]
    answer = _prompt_answer(head, words, rest, prompt_kind, units)
    if answer is not None:
        return answer
    if prompt_kind == "activate" and edition == "kt2018" and head == "pass" and not rest:
        return {"type": "hold_fire"}  # the models not picked yet hold their fire this phase
    if prompt_kind == "activate" and head in ACT_WORDS:
        if edition == "kt2018":
            raise RuleError(f"first say which model acts (its id, one of the choices offered); "
                            f"then '{text.strip()}'")
        raise RuleError(f"first say which operative acts, e.g. 'activate kell engage' (or "
                        f"'kell engage'); then '{text.strip()}'")
    if prompt_kind == "activate" and head not in ("activate", "door", "hatch", "damage", "down"):
        words = ["activate", *words]
        head, rest = "activate", words[1:]
    verb = VERBS.get(head)
    if verb is None:
        raise RuleError(f"I don't understand {text.strip()!r}; type 'help' for the words I know")
    return verb(head, rest, text, units)
