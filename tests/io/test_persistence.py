"""Saves that never lose anything: atomic writes under SIGKILL, locking, migrations, event logs."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from solo_ops.core.errors import InputError, SaveError
from solo_ops.io.event_log import EventLog
from solo_ops.io.locks import campaign_lock, lock_path
from solo_ops.io.persistence import load_json, read_json_document, save_json, update_json
from solo_ops.io.writing import backup_path
from tests.support.budget import examples
from tests.support.paths import ROOT

KIND = "test-doc"


def doc(**fields: Any) -> dict[str, Any]:
    return {"schema_version": 1, "kind": KIND, **fields}


def load(path: Path, **kw: Any) -> dict[str, Any]:
    return load_json(path, kind=KIND, current_version=kw.pop("current_version", 1),
                     migrations=kw.pop("migrations", {}), **kw)


def spawn(code: str, *args: str) -> subprocess.Popen[str]:
    """A Python child running ``code`` with the repository importable."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


# -- save_json ----------------------------------------------------------------------------------
def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "c.json"
    save_json(path, doc(name="Ünïcode", n=[1, 2]))
    assert load(path) == doc(name="Ünïcode", n=[1, 2])
    assert not backup_path(path).exists()


def test_previous_version_is_kept_as_bak(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    save_json(path, doc(n=1))
    save_json(path, doc(n=2))
    save_json(path, doc(n=3))
    assert backup_path(path) == tmp_path / "c.json.bak"
    assert json.loads(backup_path(path).read_text())["n"] == 2
    assert load(path)["n"] == 3
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_stale_temp_files_of_dead_writers_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    dead = int(child.stdout)
    stale = tmp_path / f".c.json.{dead}.abc123.tmp"
    stale.write_text("{half a sa")
    save_json(path, doc(n=1))
    assert not stale.exists()


def test_unserialisable_or_malformed_documents_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    save_json(path, doc(n=1))
    with pytest.raises(SaveError, match="not plain JSON"):
        save_json(path, doc(n={1, 2}))
    with pytest.raises(SaveError, match="not plain JSON"):
        save_json(path, doc(n=float("nan")))
    with pytest.raises(TypeError):
        save_json(path, {"kind": KIND})
    with pytest.raises(TypeError):
        save_json(path, {"schema_version": 1})
    assert load(path)["n"] == 1  # untouched


def test_save_error_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SaveError, match=r"cannot be saved \(.*\); nothing was written there"):
        save_json(blocker / "c.json", doc(n=1))


# -- crash safety -------------------------------------------------------------------------------
WRITER = """
import sys
from pathlib import Path
from solo_ops.io.persistence import read_json_document, save_json

path = Path(sys.argv[1])

def doc(n):
    return {"schema_version": 1, "kind": "crash", "n": n, "pad": [n] * (n % 700 + 50)}

try:
    n = read_json_document(path)["n"]
except Exception:
    n = 0
print("ready", flush=True)
while True:
    n += 1
    save_json(path, doc(n))
"""


def crash_doc(n: int) -> dict[str, Any]:
    return {"schema_version": 1, "kind": "crash", "n": n, "pad": [n] * (n % 700 + 50)}


KILLS = examples(30)
"""kill -9 events the crash test makes: a count, never a rate (the test takes as long as the
machine needs for them). 30 with the full budget (CI's slow pass), 7 by default: each kill
falls at a random moment of a writer saving in a loop, and each is checked the same way."""


def test_sigkill_at_random_moments_never_damages_the_save(tmp_path: Path) -> None:
    path = tmp_path / "crash.json"
    rng = random.Random(20240607)
    last = 0
    kills = 0
    while kills < KILLS:
        child = spawn(WRITER, str(path))
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        if kills == 0:  # one whole save first, however slow the machine (a count, not a rate)
            deadline = time.monotonic() + 120
            while not path.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.03))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        child.stderr.close()  # type: ignore[union-attr]
        kills += 1
        if last == 0 and not path.exists():
            continue  # killed before the very first save finished
        assert path.exists()
        raw = path.read_bytes()
        assert raw, "the save is empty"
        current = json.loads(raw)
        n = current["n"]
        # exactly one whole version (the old or a new one), never a mixture, never older
        assert current == crash_doc(n)
        assert n >= last
        if backup_path(path).exists():
            bak = json.loads(backup_path(path).read_bytes())
            assert bak == crash_doc(bak["n"]) and bak["n"] in (n - 1, n)
        last = n
    assert kills == KILLS
    assert last > 0


# -- locking and concurrent writers -------------------------------------------------------------
INCREMENTER = """
import sys
from solo_ops.io.persistence import update_json

path, key, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

def bump(doc):
    doc[key] = doc.get(key, 0) + 1
    doc["total"] = doc.get("total", 0) + 1

for _ in range(count):
    update_json(path, bump, kind="test-doc", current_version=1, migrations={},
                create=lambda: {"schema_version": 1, "kind": "test-doc"}, timeout=30)
print("done", flush=True)
"""


def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "shared.json"
    count = 60
    writers = [spawn(INCREMENTER, str(path), key, str(count)) for key in ("ana", "ben")]
    for w in writers:
        out, err = w.communicate(timeout=60)
        assert w.returncode == 0, err
        assert out.strip() == "done"
    final = load(path)
    assert final["ana"] == count and final["ben"] == count
    assert final["total"] == 2 * count


HOLDER = """
import sys, time
from solo_ops.io.locks import campaign_lock

with campaign_lock(sys.argv[1]):
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
print("released", flush=True)
"""


def test_second_terminal_waits_then_gets_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    holder = spawn(HOLDER, str(path), "30")
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        started = time.monotonic()
        with pytest.raises(SaveError) as info, campaign_lock(path, timeout=0.3):
            pass
        assert time.monotonic() - started >= 0.3
        assert str(path) in str(info.value) and "in use" in str(info.value)
        assert str(lock_path(path)) in str(info.value)
    finally:
        holder.kill()
        holder.communicate()
    with campaign_lock(path, timeout=2):  # the OS released the killed holder's lock
        pass


def test_second_terminal_gets_the_lock_when_the_first_finishes(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    holder = spawn(HOLDER, str(path), "0.3")
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    with campaign_lock(path, timeout=10):
        assert holder.stdout.readline().strip() == "released"
    holder.communicate()


def test_lock_is_reentrant_in_one_thread(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with campaign_lock(path, timeout=0.1), campaign_lock(path, timeout=0.1):
        update_json(path, lambda d: None, kind=KIND, current_version=1, migrations={},
                    create=lambda: doc(n=0), timeout=0.1)
    assert load(path)["n"] == 0


def test_update_json_applies_to_the_latest_and_writes_nothing_on_error(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with pytest.raises(InputError, match="file not found"):
        update_json(path, lambda d: None, kind=KIND, current_version=1, migrations={})
    update_json(path, lambda d: {**d, "n": 1}, kind=KIND, current_version=1, migrations={},
                create=lambda: doc())
    save_json(path, doc(n=5))  # someone else wrote meanwhile

    def boom(d: dict[str, Any]) -> None:
        d["n"] = 99
        raise ValueError("no")

    with pytest.raises(ValueError):
        update_json(path, boom, kind=KIND, current_version=1, migrations={})
    assert load(path)["n"] == 5
    result = update_json(path, lambda d: d.update(n=d["n"] + 1), kind=KIND, current_version=1,
                         migrations={})
    assert result["n"] == 6 and load(path)["n"] == 6


# -- versions and damage ------------------------------------------------------------------------
def test_migration_from_an_older_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"schema_version": 1, "kind": KIND, "squad": "Vesper"}))

    def one_to_two(d: dict[str, Any]) -> dict[str, Any]:
        d["squads"] = [d.pop("squad")]
        return d

    def two_to_three(d: dict[str, Any]) -> None:
        d["missions_played"] = 0

    migrated = load(path, current_version=3, migrations={1: one_to_two, 2: two_to_three})
    assert migrated == {"schema_version": 3, "kind": KIND, "squads": ["Vesper"],
                        "missions_played": 0}
    assert json.loads(path.read_text())["schema_version"] == 1  # the file is not rewritten
    with pytest.raises(InputError, match="no migration to 2"):
        load(path, current_version=3, migrations={2: two_to_three})


def test_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    save_json(path, {"schema_version": 4, "kind": KIND})
    with pytest.raises(InputError) as info:
        load(path, current_version=2)
    line = info.value.line()
    assert line.startswith(f"{path}: schema_version: schema_version 4 was written by a newer")
    assert "update solo-ops" in line


def test_wrong_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    save_json(path, {"schema_version": 1, "kind": "solo-ops-game"})
    with pytest.raises(InputError, match="is a 'solo-ops-game' file, not a 'test-doc' file"):
        load(path)


def test_damaged_file_names_the_backup(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    save_json(path, doc(n=1))
    save_json(path, doc(n=2))
    path.write_text(path.read_text()[:20])  # a torn write by some other program
    with pytest.raises(InputError) as info:
        load(path)
    line = info.value.line()
    assert "\n" not in line
    assert line.startswith(f"{path} is damaged (not valid JSON")
    assert (f"a backup is at {path}.bak (the version before the last change) — restore it "
            f"with: cp {path}.bak {path}") in line
    # restoring as told gives the previous version
    path.write_bytes(backup_path(path).read_bytes())
    assert load(path)["n"] == 1


@pytest.mark.parametrize(("content", "reason"), [
    ("", "the file is empty"),
    ("[1, 2]", "not a JSON object"),
    ('{"kind": "test-doc"}', "no schema_version"),
    ('{"schema_version": 1}', "no kind"),
    ('{"schema_version": "4", "kind": "test-doc"}',
     "schema_version must be a whole number, got '4'"),
    ('{"schema_version": 4.5, "kind": "test-doc"}',
     "schema_version must be a whole number, got 4.5"),
    ('{"schema_version": null, "kind": "test-doc"}',
     "schema_version must be a whole number, got null"),
    ('{"schema_version": true, "kind": "test-doc"}',
     "schema_version must be a whole number, got true"),
    ('{"schema_version": 1, "kind": 7}', "kind must be text, got 7"),
])
def test_damage_reasons(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        load(path)
    assert info.value.line() == f"{path} is damaged ({reason}); no backup exists"


def test_damaged_backup_is_reported_too(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text("{")
    backup_path(path).write_text("{")
    with pytest.raises(InputError, match=r"the backup .* is damaged too"):
        load(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        read_json_document(tmp_path / "nope.json")


# -- event log ----------------------------------------------------------------------------------
def test_event_log_appends_and_reads(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "game.log.jsonl")
    for n in range(5):
        log.append({"n": n, "text": "é"})
    assert [r["n"] for r in log.read()] == [0, 1, 2, 3, 4]
    assert log.path.read_text().count("\n") == 5


def test_event_log_tolerates_a_torn_last_line(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "game.log.jsonl")
    log.append({"n": 0})
    log.append({"n": 1})
    with open(log.path, "ab") as f:
        f.write(b'{"n": 2, "te')  # the process died mid-append
    assert [r["n"] for r in log.read()] == [0, 1]
    log.append({"n": 3})  # the torn record is cut off, not glued to
    assert [r["n"] for r in log.read()] == [0, 1, 3]
    assert log.path.read_bytes().endswith(b'{"n":3}\n')


def test_event_log_reports_damage_elsewhere(tmp_path: Path) -> None:
    path = tmp_path / "game.log.jsonl"
    path.write_text('{"n": 0}\n{"n": 1, oops\n{"n": 2}\n')
    with pytest.raises(InputError) as info:
        EventLog(path).read()
    assert info.value.line().startswith(f"{path}: line 2: is damaged (not JSON")
    path.write_text('{"n": 0}\n[1]\n')
    with pytest.raises(InputError, match="line 2: is damaged"):
        EventLog(path).read()
    with pytest.raises(InputError, match="file not found"):
        EventLog(tmp_path / "none.jsonl").read()


# -- the one atomic writer: links, full disks, read-only folders ---------------------------------
def _fixed_tokens(monkeypatch: pytest.MonkeyPatch, *tokens: str) -> None:
    """Make the writer's random temporary names predictable, to plant something there."""
    import solo_ops.io.writing as writing

    queue = list(tokens)
    monkeypatch.setattr(writing.secrets, "token_hex", lambda n: queue.pop(0))


def test_a_link_planted_at_the_target_is_refused_and_never_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    games = tmp_path / "saves"
    games.mkdir()
    target = games / "c.json"
    target.symlink_to(outside)
    with pytest.raises(SaveError, match=r"c\.json is a symbolic link; solo-ops writes only "
                                        r"regular files"):
        save_json(target, doc(n=1))
    assert outside.read_text() == "precious"
    assert target.is_symlink()
    assert [p.name for p in games.iterdir()] == ["c.json"]  # no temporary file left behind


def test_a_link_planted_at_the_temporary_name_is_never_followed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from solo_ops.io.writing import write_atomic

    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    games = tmp_path / "saves"
    games.mkdir()
    planted = games / f".c.yaml.{os.getpid()}.aaaa.tmp"
    planted.symlink_to(outside)
    _fixed_tokens(monkeypatch, "aaaa", "bbbb")
    write_atomic(games / "c.yaml", b"name: fine\n")
    assert (games / "c.yaml").read_bytes() == b"name: fine\n"
    assert not (games / "c.yaml").is_symlink()
    assert outside.read_text() == "precious"
    assert planted.is_symlink()  # left alone: not ours


def test_a_link_planted_at_the_backup_name_is_replaced_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    path = tmp_path / "c.json"
    save_json(path, doc(n=1))
    backup_path(path).symlink_to(outside)
    save_json(path, doc(n=2))
    assert outside.read_text() == "precious"
    assert not backup_path(path).is_symlink()
    assert json.loads(backup_path(path).read_text())["n"] == 1
    assert load(path)["n"] == 2


@pytest.mark.parametrize("call", ["write", "fsync"])
def test_a_full_disk_is_one_line_and_the_old_file_is_intact(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str) -> None:
    import errno

    import solo_ops.io.writing as writing

    path = tmp_path / "c.json"
    save_json(path, doc(n=1))
    before = path.read_bytes()

    def full(*_args: Any) -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(writing.os, call, full)
    with pytest.raises(SaveError) as info:
        save_json(path, doc(n=2))
    monkeypatch.undo()
    assert str(info.value) == (f"{path} cannot be saved (No space left on device); the "
                               "previous version is untouched")
    assert path.read_bytes() == before
    assert not backup_path(path).exists()  # the backup is made only once the new one is whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.json"]


def test_a_read_only_folder_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    import errno

    import solo_ops.io.writing as writing

    real_open = os.open

    def refuse(path: Any, flags: int, *args: Any) -> int:
        if flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real_open(path, flags, *args)

    monkeypatch.setattr(writing.os, "open", refuse)
    with pytest.raises(SaveError, match=r"new\.yaml cannot be saved \(Permission denied\); "
                                        r"nothing was written there"):
        writing.write_text_atomic(tmp_path / "new.yaml", "x: 1\n")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_files_changed_counts_every_write(tmp_path: Path) -> None:
    from solo_ops.io.writing import files_changed

    before = files_changed()
    save_json(tmp_path / "a.json", doc(n=1))
    EventLog(tmp_path / "a.log").append({"n": 0})  # creates the file
    EventLog(tmp_path / "a.log").append({"n": 1})  # appends
    assert files_changed() == before + 3


def test_the_event_log_never_appends_through_a_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside.jsonl"
    outside.write_text('{"mine": 1}\n')
    log = tmp_path / "game.log.jsonl"
    log.symlink_to(outside)
    with pytest.raises(SaveError, match="is a symbolic link"):
        EventLog(log).append({"n": 1})
    with pytest.raises(SaveError, match="is a symbolic link"):
        EventLog(log).create({"n": 0})
    assert outside.read_text() == '{"mine": 1}\n'


def test_strict_reading_refuses_a_torn_last_line(tmp_path: Path) -> None:
    from solo_ops.io.event_log import TornLog

    log = EventLog(tmp_path / "e.jsonl")
    log.append({"n": 0})
    with open(log.path, "ab") as fh:
        fh.write(b'{"n": 1, "ro')
    assert log.read() == [{"n": 0}]
    with pytest.raises(TornLog, match=r"e\.jsonl: line 2: is torn"):
        log.read(strict=True)


def test_file_digest_predicts_the_log_after_an_append(tmp_path: Path) -> None:
    import hashlib

    from solo_ops.io.event_log import file_digest, log_line

    log = EventLog(tmp_path / "e.jsonl")
    log.append({"n": 0})
    with open(log.path, "ab") as fh:
        fh.write(b'{"torn')  # a crash mid-append: the next append cuts it off
    predicted = file_digest(log.path, then=log_line({"n": 1}))
    log.append({"n": 1})
    data = b'{"n":0}\n{"n":1}\n'
    assert log.path.read_bytes() == data
    assert predicted == file_digest(log.path) == {"size": len(data),
                                                  "sha256": hashlib.sha256(data).hexdigest()}


def test_set_aside_keeps_the_bytes_and_never_overwrites(tmp_path: Path) -> None:
    from solo_ops.io.writing import set_aside

    first = tmp_path / "g-7.log.jsonl"
    first.write_text("one")
    moved = set_aside(first, "20260101-120000")
    assert moved == tmp_path / "g-7.old-20260101-120000.log.jsonl"
    assert moved.read_text() == "one" and not first.exists()
    first.write_text("two")
    again = set_aside(first, "20260101-120000")
    assert again == tmp_path / "g-7.old-20260101-120000-2.log.jsonl"
    assert again.read_text() == "two" and moved.read_text() == "one"
    assert set_aside(first, "20260101-120000") is None  # nothing there any more


def test_a_full_disk_while_appending_keeps_the_records_already_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import solo_ops.io.event_log as event_log

    log = EventLog(tmp_path / "e.jsonl")
    log.create({"n": 0})
    log.append({"n": 1})

    def full(*_args: Any) -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(event_log.os, "write", full)
    with pytest.raises(SaveError, match=r"e\.jsonl cannot be appended to \(No space left on "
                                        r"device\); the records already there are untouched"):
        log.append({"n": 2})
    monkeypatch.undo()
    assert log.read(strict=True) == [{"n": 0}, {"n": 1}]
