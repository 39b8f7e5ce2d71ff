"""Every cell of the supplement's tables, checked against the printed text, and the loader's
refusal of damaged tables."""

from __future__ import annotations

import pytest

from solo_ops.core.documents import parse_yaml_text
from solo_ops.core.errors import InputError
from solo_ops.core.tables import (
    ORDER_FIELDS,
    TroopType,
    enemy_count_table,
    hidden_enemy_table,
    order_table,
    parse_order_table,
    parse_simple_table,
    vocabulary,
)

# The supplement's order table exactly as printed ("Roll: Melee / Fire Teams / Support"),
# one tuple (Move, Cover, Shoot, Charge, Allies) per roll and troop type.
PRINTED = {
    "melee": {
        1: ("Remain Stationary", "Ignore", "Fire at will", "Within 6'", "Ignore"),
        2: ("To Cover", "Use if possible", "Fire at will", "If within 12'", "Ignore"),
        3: ("Towards closest enemy", "Ignore", "Unhindered move/charge", "Yes", "Ignore"),
        4: ("Towards closest enemy", "Ignore", "Unhindered move/charge", "Yes",
            "Group with leaders *1"),
        5: ("Towards closet enemy", "Use if possible", "Unhindered move/charge", "Yes",
            "Group with leaders *1"),
        6: ("Towards closest enemy", "Use if possible", "Unhindered move/charge", "Yes",
            "Rally *3"),
    },
    "fire-teams": {
        1: ("Remain Stationary", "Ignore", "Fire at will", "Within 6'", "Ignore"),
        2: ("To Cover", "Use if possible", "Unhindered move", "Within 6'",
            "Group with leaders *1"),
        3: ("To Cover w/ firing line*2", "Use if possible", "Unhindered movement", "Within 6'",
            "Ignore"),
        4: ("Hold 12' from enemy", "Ignore", "Unhindered Move", "Within 6'", "Ignore"),
        5: ("Hold 12' from enemy", "Use if possible", "Unhindered Move", "Within 6'",
            "Group with leaders *1"),
        6: ("Hold 12' from enemy", "Use if possible", "Fire at will", "Within 6'", "Rally *3"),
    },
    "support": {
        1: ("Remain Stationary", "Ignore", "Fire at will", "Within 6'", "Ignore"),
        2: ("To Cover", "Use if possible", "Unhindered move", "Within 6'",
            "Group with leaders *1"),
        3: ("To Cover w/ firing line*2", "Use if possible", "Unhindered movement", "Within 6'",
            "Ignore"),
        4: ("To Firing range", "Ignore", "Fire at will", "Within 6'", "Ignore"),
        5: ("To Firing range", "Use if possible", "Fire at will", "Within 6'",
            "Group with leaders *1"),
        6: ("To Firing range", "Use if possible", "Fire at will", "Within 6'", "Rally *3"),
    },
}

# What each printed text must make the engine do.
MEANING = {
    "Remain Stationary": "remain_stationary",
    "To Cover": "to_cover",
    "Towards closest enemy": "towards_closest_enemy",
    "Towards closet enemy": "towards_closest_enemy",
    "To Cover w/ firing line*2": "to_cover_firing_line",
    "Hold 12' from enemy": "hold_12",
    "To Firing range": "to_firing_range",
    "Ignore": "ignore",
    "Use if possible": "use_if_possible",
    "Fire at will": "fire_at_will",
    "Unhindered move": "unhindered_move",
    "Unhindered Move": "unhindered_move",
    "Unhindered movement": "unhindered_move",
    "Unhindered move/charge": "unhindered_move_charge",
    "Within 6'": "within_6",
    "If within 12'": "within_12",
    "Yes": "yes",
    "Group with leaders *1": "group_with_leaders",
    "Rally *3": "rally",
}

CELLS = [
    (troop, face, field, PRINTED[troop][face][i])
    for troop in PRINTED
    for face in range(1, 7)
    for i, field in enumerate(ORDER_FIELDS)
]


@pytest.mark.parametrize(("troop", "face", "field", "printed"), CELLS,
                         ids=[f"{t}-{f}-{n}" for t, f, n, _ in CELLS])
def test_order_table_cell(troop: str, face: int, field: str, printed: str) -> None:
    cell = getattr(order_table(troop)[face], field)
    assert cell.text == printed
    assert cell.code == MEANING[printed]
    assert cell.explain


def test_order_tables_have_exactly_six_rows() -> None:
    for troop in TroopType:
        assert sorted(order_table(troop).rows) == [1, 2, 3, 4, 5, 6]


HIDDEN = {
    1: ("remain_stationary", "Remains stationary"),
    2: ("to_cover", "Moves towards cover then remain stationary"),
    3: ("join_higher_command",
        "Moves towards friendly unit or hidden enemy unit with higher command, which ever is "
        "closer. If joins with higher command unit, take on command then begin acting on the "
        "new command."),
    4: ("towards_enemy", "Moves towards enemy"),
    5: ("towards_enemy_using_cover", "Moves towards enemy using cover"),
    6: ("towards_enemy_using_cover_rally",
        "Moves towards enemy using cover, rally hidden enemy units within 12'. Hidden enemy units "
        "with lower command values that fall within 12' will move to try into coherency with "
        "unit, if they fall 3' from rallying unit they take on its command and begin acting on "
        "it."),
}


@pytest.mark.parametrize("face", range(1, 7))
def test_hidden_enemy_table_row(face: int) -> None:
    row = hidden_enemy_table()[face]
    assert (row.code, row.text) == HIDDEN[face]


COUNT = {
    1: ("false_alarm", 0, "False Alarm. Move counter to random table sector and roll for new "
        "hidden enemy order."),
    2: ("enemies", 1, "1 Enemy"),
    3: ("enemies", 2, "2 Enemies"),
    4: ("enemies", 3, "3 Enemies"),
    5: ("enemies", 4, "4 Enemies"),
    6: ("ambush", 0, "Ambush! Take a second counter and move it and the original counter to 6' "
        "away from the player unit that spotted the hidden enemy force within line of sight, "
        "next to a hidden position if possible, such as a building or trench. Both counters "
        "are then resolved, ignoring and re,rolling 6's and 1's."),
}


@pytest.mark.parametrize("face", range(1, 7))
def test_enemy_count_table_row(face: int) -> None:
    row = enemy_count_table()[face]
    assert (row.code, row.enemies, row.text) == COUNT[face]


# -- the loader refuses damaged tables ------------------------------------------------------------
GOOD_ROW = ('{move: "Remain Stationary", cover: "Ignore", shoot: "Fire at will", '
            'charge: "Within 6\'", allies: "Ignore"}')


def _order_yaml(faces: list[str]) -> str:
    rows = "\n".join(f"  {face}: {GOOD_ROW}" for face in faces)
    return f"name: t\ntitle: T\nkind: order\ndie: d6\nfaces:\n{rows}\n"


def _load_order(text: str) -> object:
    return parse_order_table(parse_yaml_text(text, "bad.yaml"), "bad.yaml", vocabulary())


def test_loader_accepts_complete_table() -> None:
    table = _load_order(_order_yaml(["1", "2", "3", "4", "5", "6"]))
    assert len(table.rows) == 6  # type: ignore[attr-defined]


def test_loader_rejects_missing_face() -> None:
    with pytest.raises(InputError, match="missing face 4") as err:
        _load_order(_order_yaml(["1", "2", "3", "5", "6"]))
    assert err.value.source == "bad.yaml"


def test_loader_rejects_extra_face() -> None:
    with pytest.raises(InputError, match="extra face") as err:
        _load_order(_order_yaml(["1", "2", "3", "4", "5", "6", "7"]))
    assert err.value.field == "faces.7"


def test_loader_rejects_duplicate_face() -> None:
    with pytest.raises(InputError, match="duplicate key 3"):
        _load_order(_order_yaml(["1", "2", "3", "3", "4", "5", "6"]))


def test_loader_rejects_unknown_instruction() -> None:
    text = _order_yaml(["1", "2", "3", "4", "5", "6"]).replace("Fire at will", "Fire at whim", 1)
    with pytest.raises(InputError, match="unknown shoot instruction 'Fire at whim'") as err:
        _load_order(text)
    assert err.value.field == "faces.1.shoot"


def test_loader_rejects_missing_field() -> None:
    text = _order_yaml(["1", "2", "3", "4", "5", "6"]).replace(', allies: "Ignore"', "", 1)
    with pytest.raises(InputError, match="is required") as err:
        _load_order(text)
    assert err.value.field == "faces.1.allies"


def test_simple_table_rejects_missing_and_extra_faces() -> None:
    def doc(faces: str) -> str:
        return f"name: t\ntitle: T\nkind: hidden\ndie: d6\nfaces:\n{faces}"

    rows = "".join(f"  {f}: {{code: c{f}, text: t{f}}}\n" for f in (1, 2, 3, 4, 5))
    with pytest.raises(InputError, match="missing face 6"):
        parse_simple_table(parse_yaml_text(doc(rows), "s.yaml"), "s.yaml")
    rows += "  6: {code: c6, text: t6}\n  0: {code: c0, text: t0}\n"
    with pytest.raises(InputError, match="extra face"):
        parse_simple_table(parse_yaml_text(doc(rows), "s.yaml"), "s.yaml")


def test_a_new_game_reads_every_order_table_before_the_enemy_plans() -> None:
    """The order tables are read when a game is made (once per process), so the enemy's first
    turn never pauses to parse them; what is read is the tables themselves."""
    from solo_ops.core.tables import order_tables
    from solo_ops.game.engine import new_game
    from tests.support.small_table import scenario

    new_game(scenario(), 1)
    tables = order_tables()
    assert set(tables) == set(TroopType)
    for troop, table in tables.items():
        assert table is order_table(troop)
        # a unit keeps its troop as a name ("melee"): asked so, it is the same table, not
        # read again (the allies' rules ask by name during the enemy's first turn)
        assert table is order_table(str(troop.value))
