"""The Python examples in the engine's docs are run, so they stay true."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("name", ["engine.md", "notation.md"])
def test_doc_examples(name: str) -> None:
    result = doctest.testfile(
        str(DOCS / name), module_relative=False, optionflags=doctest.ELLIPSIS, report=True
    )
    assert result.attempted > 0 and result.failed == 0
