"""The compiled core (csrc/, built by ``uv sync``), loaded once for every module that uses
it: ``compiled`` is the extension module, or None where it is not there, and the library
then runs on its Python reference code (the same answers, tens of times slower).

A build that is there but does not load (an undefined symbol after an edit of csrc/, a
module built for another Python) is not the same as no build, and ``uv sync`` does not
notice it: it warns (:class:`CompiledCoreWarning`, with the loader's message) instead of
falling back in silence."""

from __future__ import annotations

import importlib
import importlib.util
import warnings
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["CompiledCoreWarning", "compiled", "load"]


class CompiledCoreWarning(RuntimeWarning):
    """The compiled core is built but does not load: the Python reference runs instead."""


def load(name: str) -> ModuleType | None:
    """The module ``name``, or None when there is none; a module that is there but fails
    to import warns and gives None."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        try:
            there = importlib.util.find_spec(name) is not None
        except ImportError:
            there = False
        if there:
            warnings.warn(
                f"{name} is built but does not load ({e}); the Python reference code runs"
                " instead, far slower. Rebuild it: uv sync --reinstall-package pasyans",
                CompiledCoreWarning,
                stacklevel=2,
            )
        return None


if TYPE_CHECKING:  # the users read it as the module (None only where nothing is built)
    from pasyans.domains import _core as compiled
else:
    compiled = load("pasyans.domains._core")
