"""Loading the compiled core (:mod:`pasyans.domains.built`): the build is the module every
user gets; a module that is there but does not load warns instead of falling back to the
Python reference in silence; no module at all is None, quietly."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

from pasyans.domains import _core, built
from pasyans.domains.built import CompiledCoreWarning, load


def test_the_users_get_the_build() -> None:
    assert built.compiled is _core
    assert load("pasyans.domains._core") is _core


def test_a_build_that_does_not_load_warns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "brokenbuild"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    # what the loader raises for a build with a slip in it
    (pkg / "_core.py").write_text('raise ImportError("undefined symbol: fp_nothing")\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.warns(CompiledCoreWarning, match="undefined symbol: fp_nothing"):
        assert load("brokenbuild._core") is None
    sys.modules.pop("brokenbuild", None)


def test_no_build_at_all_is_none_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load("pasyans.domains._no_such_core") is None
        assert load("no_such_package_here._core") is None
