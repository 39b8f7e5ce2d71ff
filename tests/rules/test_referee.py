"""The one referee (``rules/referee.py``): whether an action is legal now, for either side,
judged on plain data. Each test quotes the line it holds the referee to."""

from __future__ import annotations

from solo_ops.core.model import Weapon, WeaponType, parse_weapon_rule
from solo_ops.rules import referee
from solo_ops.rules.referee import Activation


def weapon(name: str, *rules: str, kind: WeaponType = WeaponType.HEAVY) -> Weapon:
    return Weapon(name=name, type=kind, attacks=4, hit=4, damage=(3, 4),
                  rules=tuple(parse_weapon_rule(r) for r in rules))


BOLTER = weapon("heavy bolter", "heavy")
DASH_ONLY = weapon("stubber", "heavy=dash")
GUN = weapon("gun", kind=WeaponType.RAPID)
AT_START = Activation(who="e1", edition="kt2024", apl=2)


def test_heavy_forbids_every_move_after_the_shot_a_charge_included() -> None:
    """001 Heavy: "cannot ... move after using this weapon. If the rule is Heavy (x), only (x)
    is allowed (e.g. Heavy (Dash only))"."""
    shot = AT_START.after("shoot", BOLTER)
    assert shot.heavy is BOLTER and shot.ap_used == 1
    for move in ("reposition", "dash", "charge", "fall_back"):
        assert referee.heavy_move_refusal(shot, move) == (
            "heavy bolter is Heavy: e1 shot it this activation and cannot move after it")
    dash_only = AT_START.after("shoot", DASH_ONLY)
    assert referee.refusal(dash_only, "dash", holder=None) is None
    assert referee.refusal(dash_only, "charge", holder=None) == (
        "stubber is Heavy: e1 shot it this activation and cannot move after it (only a dash)")
    assert referee.refusal(AT_START.after("shoot", GUN), "charge", holder=None) is None


def test_heavy_shot_after_a_move() -> None:
    """001 Heavy: "cannot use this weapon in an activation in which it moved"; a carrier
    always counts as having moved (003 Carrying)."""
    moved = AT_START.after("reposition")
    assert referee.heavy_shot_refusal(moved, BOLTER) == (
        "heavy bolter is Heavy: e1 cannot shoot it in an activation in which it moved "
        "(reposition)")
    assert referee.heavy_shot_refusal(AT_START.after("dash"), DASH_ONLY) is None
    carrier = Activation(who="Kell", edition="kt2024", carrying="vale")
    assert referee.heavy_shot_refusal(carrier, BOLTER) == (
        "heavy bolter is Heavy: Kell is carrying vale and cannot shoot it")


def test_ap_and_the_sequence_table() -> None:
    """001: "Pick Order and do valid actions up to APL"; Fall Back costs 2; the sequence table
    (``rules/sequences.py``) refuses a Charge after a Reposition."""
    assert referee.refusal(AT_START.after("reposition"), "charge", holder=None) == (
        "e1 cannot Charge after a Reposition in the same activation (sequence rule "
        "'charge-after-reposition-or-fall-back': no Charge after a Reposition or Fall Back; "
        "001 Charge: \"See \"Reposition\" but add 2\" to the \"movement characteristic\"\" "
        "(Kill Team 2024: not in an activation with a Reposition or Fall Back; a Dash before "
        "a Charge is allowed))")
    spent = AT_START.after("shoot", GUN).after("dash")
    assert spent.ap_left == 0
    assert referee.spend_refusal(spent, "fight") == "e1 has 0 AP left; fight costs 1"
    assert referee.spend_refusal(AT_START.after("shoot", GUN), "fall_back") == (
        "e1 has 1 AP left; fall back costs 2")


def test_control_range() -> None:
    """001 Reposition: "cannot perform this action while in Control Range of an enemy"; Fall
    Back: "the Operative can move within Control Range"; Shoot "Cannot be performed ... while
    within Control Range of an [enemy]"; a 2024 Charge is a Reposition."""
    assert referee.refusal(AT_START, "reposition", holder="kell") == (
        "e1 is in control range of kell: it can only fall back or fight")
    assert referee.refusal(AT_START, "charge", holder="kell") == (
        "e1 is in control range of kell: it cannot charge (Charge is a Reposition, which "
        "cannot start there)")
    assert referee.refusal(AT_START, "shoot", weapon=GUN, holder="kell") == (
        "e1 is in control range of an enemy: it cannot shoot")
    assert referee.refusal(AT_START, "fall_back", holder=None) == (
        "e1 is not in control range of an enemy: no need to fall back")
    assert referee.refusal(AT_START, "fall_back", holder="kell") is None
    # Kill Team 2018, in its words: 004 Falling Back "if that model started the Movement phase
    # within 1" of an enemy model, it cannot make a normal move. Instead, it can either remain
    # stationary or Fall Back" (no charge either)
    kt2018 = Activation(who="e1", edition="kt2018", phase="movement")
    within = ('e1 is within 1" of kell: it can only stay where it is, or Fall Back unless it '
              'was charged this phase (a normal move, an Advance or a charge never starts '
              'within 1" of an enemy model)')
    assert referee.refusal(kt2018, "charge", holder="kell") == within
    assert referee.refusal(kt2018, "normal", holder="kell") == within
    assert referee.refusal(kt2018, "fall_back", holder="kell") is None
    assert referee.refusal(kt2018, "fall_back", holder=None) == (
        'e1 is not within 1" of an enemy: no need to fall back')
    # ... and one that began the phase there, wherever that enemy is now: asked whether or
    # not control range was measured (a 2018 charge is not)
    started = Activation(who="e1", edition="kt2018", phase="movement", started_within="kell")
    rule = ('e1 started the movement phase within 1" of kell: it can only stay where it is or '
            'Fall Back (004 "if that model started the Movement phase within 1" of an enemy '
            'model, it cannot make a normal move. Instead, it can either remain stationary or '
            'Fall Back")')
    for kind in ("normal", "advance", "charge"):
        assert referee.refusal(started, kind, holder=None, check_control=False) == rule
    assert referee.refusal(started, "fall_back", holder=None) is None


def test_a_counteract_is_one_1ap_action() -> None:
    """001 Counteract: "perform a 1AP action for free"."""
    counter = Activation(who="e1", edition="kt2024", counteracting=True)
    assert referee.spend_refusal(counter, "fall_back") == (
        "a counteract is one 1 AP action: fall back costs 2")
    after = counter.after("shoot", GUN)
    assert after.ap_used == 0
    assert referee.spend_refusal(after, "dash") == "e1 has made its counteract action"


def test_picking_up_a_friend_ends_all_actions_for_the_turn() -> None:
    """003 Carrying: "this ends all actions for this turn"."""
    carrier = Activation(who="Kell", edition="kt2024", carrying="vale", picked_up=True)
    assert referee.refusal(carrier, "shoot", weapon=GUN, holder=None) == (
        "Kell picked up vale this turn: that ended its actions, it cannot shoot")
    assert referee.refusal(carrier, "dash", holder=None) == (
        "Kell picked up vale this turn: that ended all its actions for this turn (003 "
        "Carrying)")


def test_2018_one_move_and_no_shot_after_a_charge_or_an_advance() -> None:
    """004: "A model can only make one charge attempt in each Movement phase, and once it has
    done so it cannot shoot later in the battle round"; "A model that Advances cannot charge,
    React or shoot later that battle round" (an Assault weapon still fires)."""
    moved = Activation(who="e1", edition="kt2018", phase="movement").after("normal")
    assert referee.refusal(moved, "advance", holder=None) == (
        "e1 has already moved this battle round (normal): a model moves once in the movement "
        "phase")
    charged = Activation(who="e1", edition="kt2018", phase="shooting", moved_how="charge")
    assert referee.refusal(charged, "shoot", weapon=GUN, check_control=False) == (
        "e1 charged this battle round: it cannot shoot (004)")
    advanced = Activation(who="e1", edition="kt2018", phase="shooting", moved_how="advance")
    assert referee.refusal(advanced, "shoot", weapon=GUN, check_control=False) == (
        "e1 advanced this battle round: it can only fire an Assault weapon")
    assault = weapon("assault gun", kind=WeaponType.ASSAULT)
    assert referee.refusal(advanced, "shoot", weapon=assault, check_control=False) is None


def test_a_conceal_order_forbids_a_charge_and_a_shot_unless_silent() -> None:
    """Kill Team 2024: the Charge action needs an Engage order (001's Charge line is cut
    short: docs/rules.md gives the reading); 001 Shoot "Cannot be performed with a conceal
    order"; Silent "Operative can Shoot while it has a Conceal order". An order not yet chosen
    (the planner's, None) refuses nothing; Kill Team 2018 has no orders."""
    hidden = Activation(who="Tam", edition="kt2024", stance="conceal")
    assert referee.refusal(hidden, "charge", holder=None) == (
        "Tam has a Conceal order: it cannot charge (a Charge needs an Engage order)")
    assert referee.refusal(hidden, "shoot", weapon=GUN, holder=None) == (
        "Tam has a Conceal order: it cannot shoot (unless Silent)")
    assert referee.refusal(hidden, "shoot", weapon=weapon("needle", "silent"),
                           holder=None) is None
    for kind in ("reposition", "dash"):
        assert referee.refusal(hidden, kind, holder=None) is None
    assert referee.refusal(hidden, "fight", holder="e1") is None  # no order needed to fight
    for stance in ("engage", None):
        act = Activation(who="Tam", edition="kt2024", stance=stance)
        assert referee.refusal(act, "charge", holder=None) is None
        assert referee.refusal(act, "shoot", weapon=GUN, holder=None) is None
    old = Activation(who="Tam", edition="kt2018", stance="conceal", phase="movement")
    assert referee.order_refusal(old, "charge") is None


def test_2018_a_model_shoots_once_in_the_shooting_phase_and_fights_once_in_the_fight_phase(
        ) -> None:
    """004: a model is picked to shoot, and chosen to fight, once a phase; what it did this
    phase is its activation's ``done`` (an Overwatch, fired in another phase, is not)."""
    shooting = Activation(who="Idris", edition="kt2018", phase="shooting")
    assert referee.refusal(shooting, "shoot", weapon=GUN, check_control=False) is None
    assert referee.refusal(shooting.after("shoot", GUN), "shoot", weapon=GUN,
                           check_control=False) == (
        "Idris has already shot in this shooting phase: a model shoots once a phase (004)")
    fighting = Activation(who="Corvin", edition="kt2018", phase="fight", done=("fight",))
    assert referee.timing_refusal_2018(fighting, "fight") == (
        "Corvin has already fought in this fight phase: a model fights once a phase (004)")
    twice = Activation(who="e1", edition="kt2024", done=("shoot",))  # 2024: the sequence table
    assert referee.timing_refusal_2018(twice, "shoot") is None
