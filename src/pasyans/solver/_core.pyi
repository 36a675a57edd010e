"""Types of the compiled search core (csrc/, built by ``uv sync``)."""

from collections.abc import Sequence
from typing import Any

_Pos = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int]
_Step = tuple[int, int, int]

def spider_steps(stock: Sequence[int], pos: tuple[Any, ...], /) -> list[_Step]: ...
def spider_children(
    stock: Sequence[int], pos: tuple[Any, ...], prune: bool, /
) -> tuple[list[_Step], bool]: ...
def spider_play(stock: Sequence[int], pos: tuple[Any, ...], step: _Step, /) -> _Pos: ...
def spider_distance(stock: Sequence[int], pos: tuple[Any, ...], /) -> int: ...
def spider_hash(stock: Sequence[int], pos: tuple[Any, ...], /) -> int: ...
def spider_search(
    stock: Sequence[int],
    pos: tuple[Any, ...],
    won: int,
    nodes: int,
    seconds: float,
    memory: int,
    prune: bool,
) -> dict[str, Any]: ...
