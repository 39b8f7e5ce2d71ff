"""Backups that mean something (issue #41, item 10): ``.bak`` is the version before the last
change — a game opened and closed again changes nothing, so its step back is kept (it became a
copy of the save each time a game was opened); the temporary files a killed writer leaves are
removed when the game is next opened, whatever their pid; an edited save is named as edited,
with the backup to restore, never taken for a version change and rebuilt from its checkpoint."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.io.opening import load_save_doc
from tests.support.players import small_scenario


def play(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["play", *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_bak_is_the_version_before_the_last_change(tmp_path: Path) -> None:
    scenario = small_scenario(tmp_path)
    save, bak = tmp_path / "g.json", tmp_path / "g.json.bak"
    assert play(str(scenario), "--save", str(save), "--answer", "kell")[0] == 0
    after_kell = save.read_bytes()
    assert play("--resume", str(save), "--answer", "done")[0] == 0
    assert bak.read_bytes() == after_kell  # the step back: before "done"
    saved, backup = save.read_bytes(), bak.read_bytes()
    for answers in (["quit"], ["status", "save", "quit"], []):  # opened, closed, nothing new
        code, out, _err = play("--resume", str(save), *[x for a in answers
                                                        for x in ("--answer", a)])
        assert code == 0 and "Resuming" in out
        assert (save.read_bytes(), bak.read_bytes()) == (saved, backup)


def test_temporary_files_a_killed_writer_left_are_removed_when_the_game_is_opened(
        tmp_path: Path) -> None:
    """Named as the writer names them (``.<name>.<pid>.<8 hex>.tmp``, ``.bak.tmp``), of the
    save and of its log, whatever the pid (1 is always alive: a pid taken again by another
    process once the writer was killed is no reason to keep one); other files are left."""
    scenario = small_scenario(tmp_path)
    save = tmp_path / "g.json"
    assert play(str(scenario), "--save", str(save), "--answer", "kell")[0] == 0
    left = [tmp_path / ".g.json.1.0123abcd.tmp", tmp_path / ".g.json.1.89abcdef.bak.tmp",
            tmp_path / ".g.log.jsonl.424242.00ff00ff.tmp"]
    kept = [tmp_path / ".g.json.notes", tmp_path / ".other.json.1.0123abcd.tmp"]
    for path in left + kept:
        path.write_bytes(b"half a save")
    assert play("--resume", str(save), "--answer", "quit")[0] == 0
    assert [p for p in left if p.exists()] == []
    assert all(p.read_bytes() == b"half a save" for p in kept)


def test_an_edited_save_is_named_as_edited_with_the_backup_to_restore(tmp_path: Path) -> None:
    """An answer changed by hand replays into another game: it was taken for a newer version
    playing the history otherwise ("written by these same versions") and the game rebuilt from
    its checkpoint. Now: one line naming the field, the save left as it is; the ``cp`` it gives
    restores the step back, which opens."""
    scenario = small_scenario(tmp_path)
    save = tmp_path / "g.json"
    assert play(str(scenario), "--save", str(save), "--answer", "kell", "--answer",
                "done")[0] == 0
    doc = json.loads(save.read_text(encoding="utf-8"))
    first = next(a for a in doc["actions"] if a["type"] == "activate")
    first["operative"] = "rask"
    edited = json.dumps(doc, indent=2)
    save.write_text(edited, encoding="utf-8")
    code, out, err = play("--resume", str(save), "--answer", "status")
    assert code == 2 and err.count("\n") == 1 and out == ""
    assert err.startswith(f"solo-ops: error: {save}: actions: was edited after it was saved (it "
                          "does not match the file's seal); a backup is at")
    assert "plays differently" not in err and "versions" not in err
    assert save.read_text(encoding="utf-8") == edited
    subprocess.run(shlex.split(err.rsplit("restore it with: ", 1)[1]), check=True)
    _doc, _game, state = load_save_doc(save)
    assert [a.get("operative") for a in _doc["actions"] if a["type"] == "activate"] == ["kell"]
    assert state.active_operative == "kell"  # the step back: before "done"
    assert os.path.exists(f"{save}.bak")
