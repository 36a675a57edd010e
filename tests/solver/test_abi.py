"""The compiled core's shared numbers come from one declaration, csrc/abi.toml: the files
generated from it (tools/gen_abi.py) are up to date, and both sides read them."""

from __future__ import annotations

from pathlib import Path

import pytest
from devtools import load_script

from pasyans.domains import _core_abi as abi
from pasyans.domains import packed
from pasyans.engine.core import initial_state
from pasyans.rules import get_game
from pasyans.rules.spec import EmptyColumn, PileKind

ROOT = Path(__file__).resolve().parents[2]
GEN = load_script(ROOT / "tools" / "gen_abi.py", "gen_abi")


@pytest.mark.parametrize("path", list(GEN.outputs()), ids=lambda p: p.name)
def test_the_generated_files_are_up_to_date(path: Path) -> None:
    """Regenerated in memory from csrc/abi.toml, each committed file reads the same (else:
    ``uv run python tools/gen_abi.py``)."""
    assert path.read_text() == GEN.outputs()[path], f"{path.name} is stale"


def test_an_edited_declaration_makes_them_stale() -> None:
    decl = GEN.load()
    decl["constants"]["CLICK"]["value"] = 0xFFFFFE
    changed = GEN.outputs(decl)
    assert changed[GEN.HEADER] != GEN.HEADER.read_text()
    assert changed[GEN.MODULE] != GEN.MODULE.read_text()


def test_the_enums_mirror_the_rule_vocabulary() -> None:
    """Every kind the packed core knows is a pile kind, numbered as declared, and every
    empty-column rule has its number."""
    decl = GEN.load()
    assert {k.name: v for k, v in abi.KIND.items()} == decl["enums"]["kind"]["members"]
    assert set(abi.EMPTY) == set(EmptyColumn)
    assert len(set(abi.KIND.values())) == len(abi.KIND) and PileKind.RESERVE not in abi.KIND
    assert len(decl["enums"]["status"]["names"]) == len(decl["enums"]["status"]["members"])


def test_the_flags_are_the_c_struct_in_order() -> None:
    decl = GEN.load()
    assert abi.CoreFlags._fields == tuple(f["name"] for f in decl["flags"])
    assert f'"({"".join(f["c"] for f in decl["flags"])})"' in GEN.header(decl)


def test_move_codes_round_trip() -> None:
    for src, dst, n in [(0, 0, 1), (31, 2, 13), (7, 30, 255)]:
        code = abi.move_code(src, dst, n)
        assert (abi.move_src(code), abi.move_dst(code), abi.move_cards(code)) == (src, dst, n)
        assert code != abi.CLICK


def test_the_packed_position_follows_the_declared_layout() -> None:
    """pack writes the fields at the declared offsets, and unpack reads them back."""
    spec = get_game("backbone")
    state = initial_state(spec, 3)
    pos = packed.pack(state)
    n = len(spec.piles)
    assert pos[abi.pos_redeals(n)] == state.redeals
    assert tuple(pos[abi.pos_len(n) : abi.pos_len(n) + n]) == tuple(len(p) for p in state.piles)
    assert tuple(pos[abi.pos_down(n) : abi.pos_down(n) + n]) == state.down
    assert pos[abi.pos_cards(n) :] == bytes(c for p in state.piles for c in p)
    assert packed.unpack(pos, n) == state


def test_the_check_mode_passes_on_this_tree() -> None:
    assert GEN.stale() == []
