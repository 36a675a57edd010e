"""Rate limits on the costly endpoints (hint, winnable, new game): a token bucket per
player and per process. Several workers each keep their own buckets (no shared state:
the limit is then per worker, which is what a reverse proxy's limit would add to)."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request

from pasyans.server.deps import PlayerDep
from pasyans.server.errors import ApiError


class RateLimiter:
    """``per_minute`` requests a minute, bursts up to ``burst``; at most ``max_keys``
    players remembered (the least recently seen are forgotten)."""

    def __init__(self, per_minute: float, burst: int, max_keys: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, key: str, now: float | None = None) -> float:
        """0 when allowed (and counted), else the seconds to wait."""
        t = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.pop(key, (self.burst, t))
            tokens = min(self.burst, tokens + (t - last) * self.rate)
            wait = 0.0
            if tokens >= 1:
                tokens -= 1
            else:
                wait = (1 - tokens) / self.rate if self.rate > 0 else 60.0
            self._buckets[key] = (tokens, t)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
            return wait


def limited(name: str) -> Callable[[Request, str], None]:
    """A dependency that answers 429 ``rate_limited`` when the player is over the limit."""

    def dependency(request: Request, player: PlayerDep) -> None:
        limiter: RateLimiter | None = request.app.state.limiters.get(name)
        if limiter is None:
            return
        wait = limiter.check(player)
        if wait > 0:
            raise ApiError("rate_limited", headers={"Retry-After": str(math.ceil(wait))})

    return dependency


HintLimit = Annotated[None, Depends(limited("hint"))]
NewGameLimit = Annotated[None, Depends(limited("new_game"))]
