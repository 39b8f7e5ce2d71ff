"""The campaign: the players' squads carried from mission to mission (pure logic, no files).

The modules, lowest first: :mod:`~solo_ops.campaign.storage` (the save document's kind, schema
version and migrations, and the readers of its plain records), :mod:`~solo_ops.campaign.model`
(squads, their models and the campaign as data, with their parsing and ``to_dict``/
``from_dict``), :mod:`~solo_ops.campaign.results` (a mission's result, from a result file or
the ended game's state), :mod:`~solo_ops.campaign.survival` (survival tests and the report they
return), :mod:`~solo_ops.campaign.missions` (the squads sent to the next mission and
:func:`record_mission`), :mod:`~solo_ops.campaign.recruits` (a new model in place of a fallen
one) and :mod:`~solo_ops.campaign.carrying` (carrying a downed friend, for the game loop), and
:mod:`~solo_ops.campaign.threat` (each mission's threat: proposed, played, predicted, and how
well the predictions held) and :mod:`~solo_ops.campaign.chronicle` (the campaign's story). This
package re-exports their public names (``from solo_ops.campaign import Campaign``). The save is
written by :mod:`solo_ops.io.persistence`; :mod:`solo_ops.cli.campaign` is the edge.
"""

from solo_ops.campaign.carrying import (
    CARRY_MOVE_LIMIT,
    Carrier,
    carried_to_safety,
    carry_move_allowance,
    carry_move_limit,
    counts_as_moved,
    drop_carried,
    start_carry,
)
from solo_ops.campaign.missions import (
    check_wounds_lost,
    downed_lost_all,
    mission_mismatch,
    mission_title,
    record_mission,
    scenario_squads,
)
from solo_ops.campaign.model import (
    ACTIVE,
    DIFFICULTIES,
    DOWN_FAILURES,
    FALLEN,
    INJURED,
    INJURED_FAILURES,
    MODEL_KEYS,
    RECOVERING,
    SQUAD_KEYS,
    STATES,
    TARGET_WIN,
    UNITS,
    WOUNDED,
    WOUNDED_FAILURES,
    Campaign,
    CampaignSettings,
    Squad,
    SquadModel,
    add_squad,
    new_campaign,
    parse_squad,
    parse_squad_model,
)
from solo_ops.campaign.recruits import rename_model, replace_model
from solo_ops.campaign.results import (
    OUTCOME_KEYS,
    OUTCOMES,
    RESULT_KEYS,
    MissionResult,
    ModelOutcome,
    kills_in,
    parse_mission_result,
    result_from_state,
    result_key,
)
from solo_ops.campaign.storage import CAMPAIGN_KIND, MIGRATIONS, SCHEMA_VERSION
from solo_ops.campaign.survival import (
    ALL_DESTROYED_BONUS,
    CARRIED_BONUS,
    MissionReport,
    SurvivalTest,
    pending_tests,
    result_words,
    run_survival_tests,
    survival_bonuses,
    survival_test,
)
from solo_ops.campaign.threat import Calibration, calibration, prediction_line

__all__ = [
    "ACTIVE",
    "ALL_DESTROYED_BONUS",
    "CAMPAIGN_KIND",
    "CARRIED_BONUS",
    "CARRY_MOVE_LIMIT",
    "DIFFICULTIES",
    "DOWN_FAILURES",
    "FALLEN",
    "INJURED",
    "INJURED_FAILURES",
    "MIGRATIONS",
    "MODEL_KEYS",
    "OUTCOMES",
    "OUTCOME_KEYS",
    "RECOVERING",
    "RESULT_KEYS",
    "SCHEMA_VERSION",
    "SQUAD_KEYS",
    "STATES",
    "TARGET_WIN",
    "UNITS",
    "WOUNDED",
    "WOUNDED_FAILURES",
    "Calibration",
    "Campaign",
    "CampaignSettings",
    "Carrier",
    "MissionReport",
    "MissionResult",
    "ModelOutcome",
    "Squad",
    "SquadModel",
    "SurvivalTest",
    "add_squad",
    "calibration",
    "carried_to_safety",
    "carry_move_allowance",
    "carry_move_limit",
    "check_wounds_lost",
    "counts_as_moved",
    "downed_lost_all",
    "drop_carried",
    "kills_in",
    "mission_mismatch",
    "mission_title",
    "new_campaign",
    "parse_mission_result",
    "parse_squad",
    "parse_squad_model",
    "pending_tests",
    "prediction_line",
    "record_mission",
    "rename_model", "replace_model",
    "result_from_state",
    "result_key",
    "result_words",
    "run_survival_tests",
    "scenario_squads",
    "start_carry",
    "survival_bonuses",
    "survival_test",
]
