"""A power-cut simulator for the crash tests: build the LD_PRELOAD recorder
(``powercut_shim.c``, compiled here with gcc), and rebuild from its journal the files a
power cut would leave on the disk.

The model is Linux's: a write lands in the page cache; an fsync that succeeds puts on the
disk every write to that file made before the fsync began (by any process: the cache is
shared); a failed fsync puts none of them there, and they never will be (the pages are
marked clean), unless written again. Removing a file is on the disk at once.
"""

from __future__ import annotations

import os
import struct
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

SHIM = Path(__file__).with_name("powercut_shim.c")
HEADER = struct.Struct("=IIqq")
WRITE, SYNC_BEGIN, SYNC_OK, SYNC_FAIL, TRUNCATE, UNLINK = 1, 2, 3, 4, 5, 6


def build_shim(out: Path) -> Path:
    """Compile the recorder into ``out`` (a shared library for LD_PRELOAD)."""
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", str(out), str(SHIM), "-ldl"],
        check=True,
    )
    return out


@dataclass
class Recorder:
    """A power-cut recorder set up in ``tmp``: the files under ``volume`` are journaled to
    ``journal``; while ``trigger`` exists, the next fsync of one of them fails."""

    volume: Path
    journal: Path
    trigger: Path
    env: dict[str, str]
    """What a process to record needs in its environment."""


def recorder(tmp: Path, fail_suffix: str | None = None) -> Recorder:
    """Build the shim and make ``tmp/volume``; ``fail_suffix``: fail only the fsync of a
    file whose path ends so."""
    shim = build_shim(tmp / "powercut.so")
    volume = tmp / "volume"
    volume.mkdir()
    journal, trigger = tmp / "journal.bin", tmp / "fail-one-fsync"
    env = {
        "LD_PRELOAD": str(shim),
        "PCUT_JOURNAL": str(journal),
        "PCUT_TRACK": os.path.realpath(volume),
        "PCUT_FAIL": str(trigger),
    }
    if fail_suffix is not None:
        env["PCUT_FAIL_SUFFIX"] = fail_suffix
    return Recorder(volume, journal, trigger, env)


@dataclass
class Image:
    """What the journal says: per file, what is on the disk and what is only cached."""

    disk: dict[str, bytearray | None] = field(default_factory=dict)
    pending: dict[str, list[tuple[int, int, int, bytes]]] = field(default_factory=dict)
    """Per file, the writes and truncations not yet on the disk: (seq, kind, offset, data)."""
    syncs: dict[int, int] = field(default_factory=dict)  # sync id -> seq when it began
    failed_syncs: int = 0
    ok_syncs: int = 0
    lost_writes: int = 0
    seq: int = 0

    def read(self, journal: Path) -> None:
        data = journal.read_bytes()
        at = 0
        while at + HEADER.size <= len(data):
            kind, plen, offset, length = HEADER.unpack_from(data, at)
            at += HEADER.size
            path = data[at : at + plen].decode()
            at += plen
            body = data[at : at + length]
            at += length
            self.seq += 1
            if kind in (WRITE, TRUNCATE):
                self.pending.setdefault(path, []).append((self.seq, kind, offset, body))
            elif kind == SYNC_BEGIN:
                self.syncs[offset] = self.seq
            elif kind in (SYNC_OK, SYNC_FAIL):
                self._synced(path, self.syncs.pop(offset), kind == SYNC_OK)
            elif kind == UNLINK:
                self.disk[path] = None
                self.pending.pop(path, None)

    def _synced(self, path: str, began: int, ok: bool) -> None:
        waiting = self.pending.get(path, [])
        covered = [p for p in waiting if p[0] < began]
        self.pending[path] = [p for p in waiting if p[0] >= began]
        if not ok:
            self.failed_syncs += 1
            self.lost_writes += len(covered)
            return
        self.ok_syncs += 1
        image = self.disk.get(path)
        if image is None:
            image = self.disk[path] = bytearray()
        for _, kind, offset, body in covered:
            if kind == TRUNCATE:
                del image[offset:]
                image.extend(b"\0" * (offset - len(image)))
            else:
                if len(image) < offset:
                    image.extend(b"\0" * (offset - len(image)))
                image[offset : offset + len(body)] = body

    def write(self, source_dir: Path, target_dir: Path) -> list[Path]:
        """Write the files of ``source_dir`` as the disk holds them into ``target_dir``."""
        source = os.path.realpath(source_dir)
        written: list[Path] = []
        for path, image in self.disk.items():
            if image is None or os.path.dirname(path) != source:
                continue
            out = target_dir / os.path.basename(path)
            out.write_bytes(bytes(image))
            written.append(out)
        return written
