"""The killzones' own rules (002), as :mod:`solo_ops.rules.killzones` reads them.

* Bheta-Decima: "Restricted Targeting: If 4" of more distance crosses hazardous then target is
  not valid."; "Vantage to Vantage: Restricted targetting over hazardous areas does not apply
  when both Operatives are on Vantage."; "Vantage to Floor: When attacker or defender is on
  Vantage, targets are not valid if Visible through the footprint of a Gantry other than the
  Vantage point mentioned already."
* Volkus: "Add Lethal 5+ to Blast, Torrent, Devastating weapons when targets wholly within the
  STRONGHOLD. Defenders inside the stronghold resolve first when FIGHTING enemies outside."

Reading: docs/rules.md, "Killzones: Bheta-Decima and the Volkus stronghold".
"""

from __future__ import annotations

from tests.support.killzone_boards import SLAG


def _kz_board(killzone: str, *features: dict) -> object:
    from solo_ops.geometry.board import parse_board

    items = [{"id": f"f{k}", **f} for k, f in enumerate(features)]
    return parse_board({"name": "kz", "width": 20, "depth": 12, "killzone": killzone,
                        "features": items}, "<kz>")


def test_bheta_decima_no_valid_target_over_four_inches_of_hazard() -> None:
    """002 Bheta-Decima: "Restricted Targeting: If 4" of more distance crosses hazardous then
    target is not valid." A slag channel y 4-8 (4" across): straight across it (4") is not
    valid; a line crossing 3.9" of it (a channel y 4-7.9) is."""
    from solo_ops.rules import killzones

    b = _kz_board("bheta-decima", SLAG)
    assert "4.0\" of the line crosses hazardous" in killzones.target_refusal(b, (10, 2), (10, 10))
    narrow = dict(SLAG, polygon=[[0, 4], [20, 4], [20, 7.9], [0, 7.9]])
    assert killzones.target_refusal(_kz_board("bheta-decima", narrow), (10, 2), (10, 10)) is None
    # another killzone: no such rule
    assert killzones.target_refusal(_kz_board("volkus", SLAG), (10, 2), (10, 10)) is None


def test_bheta_decima_vantage_to_vantage_and_gantry_footprints() -> None:
    """002: "Vantage to Vantage: Restricted targetting over hazardous areas does not apply
    when both Operatives are on Vantage." and "Vantage to Floor: When attacker or defender is
    on Vantage, targets are not valid if Visible through the footprint of a Gantry other than
    the Vantage point mentioned already." Two gantries bridge the slag at x 2-4 and x 16-18."""
    from solo_ops.rules import killzones

    g1 = {"traits": ["accessible", "vantage"], "height": 3,
          "polygon": [[2, 2], [4, 2], [4, 10], [2, 10]]}
    g2 = dict(g1, polygon=[[16, 2], [18, 2], [18, 10], [16, 10]])
    g3 = dict(g1, polygon=[[9, 1], [11, 1], [11, 3.5], [9, 3.5]])
    b = _kz_board("bheta-decima", SLAG, g1, g2, g3)
    # both on gantries, 14" over the slag: valid (vantage to vantage)
    assert killzones.target_refusal(b, (3, 6), (17, 6)) is None
    # from g1 to the floor across the slag (6" of it): not valid
    assert "crosses hazardous" in killzones.target_refusal(b, (3, 3), (12, 11))
    # from g1 to the floor through g3's footprint: not valid; the floor to the floor: valid
    assert "through the footprint of f3, a gantry" in killzones.target_refusal(b, (3, 3),
                                                                                (14, 3))
    assert killzones.target_refusal(b, (6, 3), (14, 3)) is None
    # the gantry it stands on does not count
    assert killzones.target_refusal(b, (10, 2), (14, 2)) is None


def test_volkus_stronghold_lethal_and_defenders_first() -> None:
    """002 Volkus: "Add Lethal 5+ to Blast, Torrent, Devastating weapons when targets wholly
    within the STRONGHOLD. Defenders inside the stronghold resolve first when FIGHTING enemies
    outside." The shipped stronghold's footprint is x 11-19, y 8-14."""
    from solo_ops.core.model import Weapon, WeaponType, parse_weapon_rule
    from solo_ops.geometry.board import parse_board
    from solo_ops.io.yamlio import read_document
    from solo_ops.rules import killzones
    from tests.support.paths import BOARDS

    board = parse_board(read_document(BOARDS / "volkus-stronghold.yaml"), "volkus-stronghold")
    r = 0.492
    assert killzones.wholly_within_stronghold(board, (15, 11), r)
    assert not killzones.wholly_within_stronghold(board, (11.3, 11), r)  # base over the wall
    blast = Weapon("frag", WeaponType.SPECIAL, range=8, attacks=4, hit=4, damage=(2, 4),
                   rules=(parse_weapon_rule("blast=2"),))
    inside = killzones.stronghold_weapon(board, blast, (15, 11), r)
    assert inside.rule("lethal") is not None and inside.rule("lethal").value == 5
    assert killzones.stronghold_weapon(board, blast, (5, 5), r) is blast
    rifle = Weapon("rifle", WeaponType.RAPID, range=24, attacks=4, hit=4, damage=(3, 4))
    assert killzones.stronghold_weapon(board, rifle, (15, 11), r) is rifle
    assert killzones.defender_first(board, (9, 11), r, (15, 11), r)
    assert not killzones.defender_first(board, (15, 12), r, (15, 11), r)
    assert not killzones.defender_first(board, (15, 11), r, (9, 11), r)
