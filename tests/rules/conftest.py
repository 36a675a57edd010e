"""A checker for rule tests: a move is listed and plays, or is not listed and is refused."""

from __future__ import annotations

import pytest

from pasyans.engine.core import legal_moves, play_checked
from pasyans.engine.moves import Move
from pasyans.errors import IllegalMoveError
from pasyans.position import Event, State
from pasyans.rules.spec import GameSpec


class Rules:
    """``allowed`` plays a listed move and returns the new state; ``refused`` checks that a
    move is not listed, that play_checked raises with ``code``, and returns the reason."""

    def allowed(
        self, spec: GameSpec, state: State, text: str, events: list[Event] | None = None
    ) -> State:
        move = Move.parse(text)
        assert move in legal_moves(spec, state), f"{text} should be legal"
        return play_checked(spec, state, move, events)

    def refused(self, spec: GameSpec, state: State, text: str, code: str = "does_not_fit") -> str:
        move = Move.parse(text)
        assert move not in legal_moves(spec, state), f"{text} should not be legal"
        with pytest.raises(IllegalMoveError) as err:
            play_checked(spec, state, move)
        assert err.value.code == code, str(err.value)
        return str(err.value)

    def texts(self, spec: GameSpec, state: State) -> list[str]:
        return [m.to_str() for m in legal_moves(spec, state)]


@pytest.fixture
def rules() -> Rules:
    return Rules()
