"""The map's legend line for the numbered steps of the activation shown names who acts and
what the numbers are within the legend's width (``picture_style.LEGEND_CHARS``): a long id is
cut, never the words.
"""

from __future__ import annotations

from solo_ops.game.engine import step


def test_the_legend_names_who_acts_whole_and_cuts_a_long_name_not_the_words() -> None:
    """The map's legend line for the numbered steps of the activation shown names who acts
    and what the numbers are, within the legend's width: a long id is cut, never the words
    (it read "this activation (vale): numbe…" on a 30-character legend line)."""
    import xml.etree.ElementTree as ET

    from solo_ops.cli.maps import view_scene
    from solo_ops.view import drawing
    from solo_ops.view.picture_style import LEGEND_CHARS
    from tests.support.pictures import texts_with_class
    from tests.support.small_table import active

    game, state = active()
    step(game, state, {"type": "move", "how": "reposition", "to": [5, 10]})
    legend = texts_with_class(ET.fromstring(drawing.svg_text(view_scene(game, state))),
                              "legend-text")
    assert "a1: steps in order" in legend
    assert all(len(text) <= LEGEND_CHARS and not text.endswith("…") for text in legend)
    long = "a" * 20
    for record in state.log:
        for event in record.get("events", []):
            if event.get("operative") == "a1":
                event["operative"] = long
    legend = texts_with_class(ET.fromstring(drawing.svg_text(view_scene(game, state))),
                              "legend-text")
    assert "a" * 13 + "…: steps in order" in legend, legend


def test_an_activation_with_no_step_drawn_names_no_steps() -> None:
    """The activation shown has done nothing yet (activated, no move or attack): no numbered
    circle is drawn, so the legend lists no "steps in order" line for it (a tester's map
    listed "u4: steps in order" with nothing numbered)."""
    import xml.etree.ElementTree as ET

    from solo_ops.cli.maps import view_scene
    from solo_ops.view import drawing
    from tests.support.pictures import texts_with_class
    from tests.support.small_table import active

    game, state = active()  # a1 activated, nothing done yet
    legend = texts_with_class(ET.fromstring(drawing.svg_text(view_scene(game, state))),
                              "legend-text")
    assert not any(text.endswith("steps in order") for text in legend), legend
