"""The bounded memory shared by the hint and solver caches (:mod:`pasyans.hints.recent`)."""

from __future__ import annotations

import dataclasses
import threading

from pasyans.hints.recent import Recent
from pasyans.rules import get_game


def test_the_least_recently_used_entry_goes_first() -> None:
    spec = get_game("spider", {"suits": "1"})
    memory: Recent[int] = Recent(2)
    memory.put(spec, "a", 1)
    memory.put(spec, "b", 2)
    assert memory.get(spec, "a") == 1  # "a" is now the more recent
    memory.put(spec, "c", 3)
    assert memory.get(spec, "b") is None
    assert (memory.get(spec, "a"), memory.get(spec, "c")) == (1, 3)
    assert len(memory) == 2 and memory.size == 2


def test_an_entry_belongs_to_its_spec_object() -> None:
    """Another spec, even an equal copy, never reads an entry: only the spec it was made
    for."""
    spec = get_game("spider", {"suits": "1"})
    other = dataclasses.replace(spec)
    memory: Recent[str] = Recent(10)
    memory.put(spec, "k", "line")
    assert memory.get(other, "k") is None
    assert memory.get(spec, "k") == "line"


def test_many_threads_keep_the_bound() -> None:
    spec = get_game("backbone", {})
    memory: Recent[int] = Recent(100)

    def fill(base: int) -> None:
        for i in range(2_000):
            memory.put_all(spec, [((base, i), i), ((base, -i), -i)])
            memory.get(spec, (base, i // 2))

    threads = [threading.Thread(target=fill, args=(b,)) for b in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(memory) == 100
    memory.clear()
    assert len(memory) == 0
