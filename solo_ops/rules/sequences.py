"""Kill Team 2024's action sequence rules: which actions an operative may not perform in an
activation after which others, as one table the players' checks and the enemy planner share.

Each :class:`SequenceRule` is one row: the later action, the earlier actions that forbid it,
the row's name (a refusal names it) and the source line it implements. The card (001) words
most of them through "See Reposition": a Dash, a Fall Back and a Charge are Repositions with
changes, so they carry Reposition's own limit ("Cannot perform this action in the same
activation that the Operative performed a Fall Back or Charge") unless the card says
otherwise (a Dash "can be used after Fall Back"). The card's Charge line is cut short ("See
"Reposition" but add 2" to the "movement characteristic" AND the"); the Kill Team 2024 core
rule it stands for forbids a Charge in an activation with a Reposition or Fall Back (issue #28
item 3), and the symmetrical Fall Back row follows the same rule book.

:func:`refusal` answers one question (may ``action`` follow ``done``?); :func:`sequences`
lists every order of actions an activation's AP allow, so the planner considers exactly the
sequences a player could play. Heavy (a weapon's rule about moves and shots) is not a row: it
depends on the weapon, and :mod:`solo_ops.rules.kt2024_targeting` answers it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

REPEATABLE = frozenset({"portal"})
"""Actions an operative may perform more than once an activation (001 "Pass - Can be repeated
within an activation"; a door or hatch is operated once for each portal, 002: the same one
twice is refused by :func:`solo_ops.rules.referee.portal_again_refusal`)."""


@dataclass(frozen=True)
class SequenceRule:
    """One row of the table: ``action`` is refused after any of ``after`` in the activation.

    ``name`` is the row's short name (``charge-after-reposition``), ``title`` its words and
    ``source`` the line it implements. ``after`` empty means "after itself" (once an
    activation)."""

    name: str
    title: str
    action: str
    after: frozenset[str]
    source: str

    def forbids(self, action: str, done: Iterable[str]) -> bool:
        """Whether this row refuses ``action`` after the actions ``done`` this activation."""
        done = set(done)
        if not self.after:
            return action not in REPEATABLE and action in done
        return action == self.action and bool(self.after & done)


_REPOSITION = ('001 Reposition: "Cannot perform this action in the same activation that the '
               'Operative performed a Fall Back or Charge"')

KT2024_SEQUENCE: tuple[SequenceRule, ...] = (
    SequenceRule(
        "once-per-activation", "each action once an activation", "*", frozenset(),
        '001 "Pass - Can be repeated within an activation" (the one action that may be; '
        "Kill Team 2024: an operative cannot perform the same action more than once in its "
        "activation)"),
    SequenceRule(
        "reposition-after-fall-back-or-charge", "no Reposition after a Fall Back or Charge",
        "reposition", frozenset({"fall_back", "charge"}), _REPOSITION),
    SequenceRule(
        "dash-after-charge", "no Dash after a Charge", "dash", frozenset({"charge"}),
        '001 Dash: "See "Reposition" but replace "movement characteristic" with 3" AND '
        'cannot be used to climb but can be used after Fall Back" (Reposition\'s limit, less '
        "the Fall Back)"),
    SequenceRule(
        "fall-back-after-reposition-or-charge", "no Fall Back after a Reposition or Charge",
        "fall_back", frozenset({"reposition", "charge"}),
        '001 Fall Back: "See "Reposition" except the Operative can move within Control Range '
        'of an enemy" (Kill Team 2024: not in an activation with a Reposition or Charge)'),
    SequenceRule(
        "charge-after-reposition-or-fall-back", "no Charge after a Reposition or Fall Back",
        "charge", frozenset({"reposition", "fall_back"}),
        '001 Charge: "See "Reposition" but add 2" to the "movement characteristic"" (Kill '
        "Team 2024: not in an activation with a Reposition or Fall Back; a Dash before a "
        "Charge is allowed)"),
    SequenceRule(
        "place-down-after-pick-up", "no Place Down after a Pick Up", "placedown",
        frozenset({"pickup"}),
        '001 Place Down: "Cannot be performed in the same activation as a Pick Up action."'),
)


def refusal(action: str, done: Iterable[str]) -> SequenceRule | None:
    """The first row of :data:`KT2024_SEQUENCE` that refuses ``action`` after the actions
    ``done`` this activation, or None when it may follow them."""
    done = list(done)
    return next((rule for rule in KT2024_SEQUENCE if rule.forbids(action, done)), None)


def allowed(action: str, done: Iterable[str]) -> bool:
    """Whether ``action`` may follow the actions ``done`` this activation."""
    return refusal(action, done) is None


ACTION_WORDS = {"reposition": "Reposition", "dash": "Dash", "charge": "Charge",
                "fall_back": "Fall Back", "shoot": "Shoot", "fight": "Fight",
                "pickup": "Pick Up", "placedown": "Place Down", "portal": "Operate Hatch"}
"""The card's names of the actions (001), for the refusals."""


def action_words(action: str) -> str:
    """The card's name of ``action`` (``fall_back`` is "Fall Back")."""
    return ACTION_WORDS.get(action, action.replace("_", " "))


def refusal_words(who: str, action: str, done: Sequence[str]) -> str | None:
    """The sentence a refused player hears, naming the row and its source; None if allowed."""
    rule = refusal(action, done)
    if rule is None:
        return None
    what = action_words(action)
    if not rule.after:
        return (f"{who} has already done {action.replace('_', ' ')} this activation (sequence "
                f"rule '{rule.name}': {rule.title}; {rule.source})")
    before = action_words(next(a for a in done if a in rule.after))
    return (f"{who} cannot {what} after a {before} in the same activation (sequence rule "
            f"'{rule.name}': {rule.title}; {rule.source})")


def sequences(actions: Sequence[str], ap: int, cost: Callable[[str], int],
              done: Sequence[str] = ()) -> list[tuple[str, ...]]:
    """Every order of distinct ``actions`` (none empty) an activation with ``ap`` action
    points left may still perform after ``done``, by the table: the orders a player could
    play, shortest first, then in the order ``actions`` lists them."""
    found: list[tuple[str, ...]] = []

    def grow(seq: tuple[str, ...], left: int) -> None:
        for action in actions:
            price = cost(action)
            if price > left or not allowed(action, (*done, *seq)):
                continue
            longer = (*seq, action)
            found.append(longer)
            grow(longer, left - price)

    grow((), ap)
    return sorted(found, key=len)
