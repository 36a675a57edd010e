"""Types of the compiled search core (csrc/, built by ``uv sync``)."""

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, TypeVar

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
def spider_attempt(k: int, /) -> tuple[int, int]: ...
def engine_spec(kinds: bytes, locked_by: bytes, flags: tuple[int, ...], /) -> object: ...
def engine_moves(spec: object, pos: bytes, /) -> list[int]: ...
def engine_play(spec: object, pos: bytes, code: int, /) -> bytes: ...
def engine_children(spec: object, pos: bytes, /) -> list[tuple[int, bytes, bool]]: ...
def engine_key(spec: object, pos: bytes, /) -> bytes: ...
def engine_won(spec: object, pos: bytes, /) -> bool: ...
def engine_lock(spec: object, pos: bytes, /) -> bytes: ...
def engine_dead(spec: object, pos: bytes, /) -> bool: ...
def engine_hash(spec: object, pos: bytes, /) -> int: ...
def engine_child_hashes(spec: object, pos: bytes, /) -> list[int]: ...

_Outcome = Literal["won", "lost", "unknown"]
_R_co = TypeVar("_R_co", covariant=True)

class _Restarts(Protocol[_R_co]):
    """``restarts`` in csrc/engine.c: the restarting search of a packed position, behind
    two entry points that take the same arguments and differ in what they answer."""

    def __call__(
        self,
        spec: object,
        root: bytes,
        nodes: int,
        deadline: float,
        first: int,
        unit: int,
        detour: float,
        early: float,
        dead: Callable[[bytes], bool] | bool | None,
        locks: dict[bytes, bool],
        locks_max: int,
        /,
    ) -> _R_co: ...

engine_restarts: _Restarts[tuple[_Outcome, list[int], int]]
"""(outcome, the winning line's move codes, positions expanded)."""
engine_reach: _Restarts[tuple[_Outcome, int, int]]
"""(outcome, positions expanded, the most cards on the foundations it reached)."""
