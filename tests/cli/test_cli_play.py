"""``pasyans play``: scripted sessions through a pipe, the player's table, and a terminal."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from pasyans.cards import card_code, make_card
from pasyans.cli.common import Output, kind_label
from pasyans.cli.play import HELP, Session, table_lines
from pasyans.deals import new_game
from pasyans.engine import Game, Move
from pasyans.position import State
from pasyans.rules.registry import GAMES

Invoke = Callable[..., Result]
RunScript = Callable[..., "subprocess.CompletedProcess[str]"]
CODE = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def tables(output: str) -> list[list[str]]:
    """Every table printed, as lists of lines (from the header to the ``legal:`` line)."""
    out: list[list[str]] = []
    current: list[str] | None = None
    for line in output.splitlines():
        if re.match(r"^[a-z-]+  deal \d+  ", line):
            current = []
        if current is not None:
            current.append(line)
            if line.startswith("legal: "):
                out.append(current)
                current = None
    return out


def pile_tokens(table: list[str]) -> dict[str, list[str]]:
    """``{"t1": ["##", "##", "7D"], …}`` from the pile lines of a table."""
    lines = table[1 : table.index(next(t for t in table if t.startswith("moves ")))]
    return {line.split()[0]: line.split()[1:] for line in lines}


def expected_table(game: Game) -> list[str]:
    kind = kind_label(game.kind, game.difficulty)  # "solvable medium": the header names it
    view = table_lines(game.view(), kind, redeals=game.spec.passes > 1)
    return [t.plain.rstrip() for t in view]


def assert_columns_match(game: Game, table: list[str]) -> None:
    """Each column line shows ``##`` for exactly its face-down cards, then the codes of
    its face-up cards, bottom to top."""
    tokens = pile_tokens(table)
    for i, p in enumerate(game.spec.piles):
        if p.kind.value != "column":
            continue
        pile, down = game.state.piles[i], game.state.down[i]
        want = ["##"] * down + [card_code(c) for c in pile[down:]] if pile else ["-"]
        assert tokens[p.id] == want, p.id


def first_card_move(game: Game) -> Move:
    return next(m for m in game.legal_moves() if not m.is_stock)


def illegal_column_move(game: Game) -> Move:
    legal = set(game.legal_moves())
    cols = [p.id for p in game.spec.piles if p.kind.value == "column"]
    return next(Move(a, b) for a in cols for b in cols if a != b and Move(a, b) not in legal)


def test_scripted_session_moves_refusals_undo_redo_quit(invoke: Invoke) -> None:
    game = Game("spider", 1)
    move = first_card_move(game)
    bad = illegal_column_move(game)
    script = f"{move}\n{bad}\nnonsense\nu\nu\nr\n\n?\nq\nt1>t2\n"
    result = invoke(["play", "spider", "--deal", "1"], stdin=script)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert f"> {move}\nplayed: {move} (flip {move.src})\n" in out  # the flip is part of it
    assert re.search(rf"> {bad}\nrefused: {bad}: .+ \[does_not_fit\]\n", out)
    assert "> nonsense\nrefused: not a move: 'nonsense'" in out and "[bad_notation]" in out
    assert f"undone: {move}\n" in out
    assert "refused: there is no move to undo [nothing_to_undo]" in out
    assert f"redone: {move}" in out
    assert HELP in out
    assert out.rstrip().endswith("> q\nquit: deal 1, 1 moves")  # nothing after q is read
    shown = tables(out)
    assert len(shown) == 4  # the start, then after the move, the undo and the redo
    game.play(move)
    game.undo()
    game.redo()
    assert shown[-1] == expected_table(game)
    assert "moves 1  undos 1  hints 0  score 499" in shown[-1]
    assert_columns_match(game, shown[-1])


def _three_moves(game_id: str) -> tuple[Game, list[str]]:
    """The first deal (from 1) of the game's default kind where three moves can be played,
    each the first legal one."""
    for deal in range(1, 200):
        game, script = new_game(game_id, deal), []
        while len(script) < 3 and game.legal_moves():
            script.append(game.legal_moves()[0].to_str())
            game.play(script[-1])
        if len(script) == 3:
            return game, script
    raise AssertionError(f"no {game_id} deal with three moves")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_plays_end_to_end_and_eof_ends_cleanly(invoke: Invoke, game_id: str) -> None:
    game, script = _three_moves(game_id)
    args = ["play", game_id, "--deal", str(game.deal)]
    result = invoke(args, stdin="\n".join(script) + "\n")
    assert result.exit_code == 0, result.stderr  # end of input, no q: still a clean exit
    played = [line for line in result.stdout.splitlines() if line.startswith("played: ")]
    assert [line.split(" (")[0] for line in played] == [f"played: {m}" for m in script]
    shown = tables(result.stdout)
    assert len(shown) == 4
    assert shown[-1] == expected_table(game)
    assert set(pile_tokens(shown[-1])) == set(GAMES[game_id].index)


@pytest.mark.parametrize("suits", ["1", "2", "4"])
def test_spider_table_never_shows_a_face_down_card(invoke: Invoke, suits: str) -> None:
    deal = json.loads(
        invoke(["deal", "spider", "--deal", "8", "-o", f"suits={suits}", "--json"]).stdout
    )
    game = Game("spider", 8, {"suits": suits})
    script = ["stock"]
    game.play("stock")
    for _ in range(4):
        card_moves = [m for m in game.legal_moves() if not m.is_stock]
        if not card_moves:
            break
        game.play(card_moves[-1])
        script.append(card_moves[-1].to_str())
    result = invoke(["play", "spider", "-d", "8", "-o", f"suits={suits}"], "\n".join(script))
    assert result.exit_code == 0
    first, *_, last = tables(result.stdout)
    tokens = pile_tokens(first)
    for i in range(1, 11):
        codes, down = deal["piles"][f"t{i}"], deal["face_down"][f"t{i}"]
        assert tokens[f"t{i}"] == ["##"] * down + codes[down:]
    assert tokens["stock"] == ["50", "cards"]
    assert_columns_match(game, last)
    stock_line = next(line for line in last if line.startswith("stock "))
    assert not CODE.search(stock_line)
    cols = range(2, 12)  # stock and done come first; done shows a count of runs
    assert [game.spec.piles[i].id for i in cols] == [f"t{i}" for i in range(1, 11)]
    face_up = sum(len(game.state.piles[i]) - game.state.down[i] for i in cols)
    pile_lines = last[1 : last.index(next(t for t in last if t.startswith("moves ")))]
    assert sum(len(CODE.findall(line)) for line in pile_lines) == face_up


def test_play_errors_are_one_line_and_exit_2(invoke: Invoke) -> None:
    for args in (
        ["play", "spider", "-o", "suits=3"],
        ["play", "nope"],
        ["play", "spine", "-d", "0"],
    ):
        result = invoke(args, stdin="q\n")
        assert result.exit_code == 2
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("pasyans: error: ")


def test_play_a_solvable_deal_of_a_difficulty(invoke: Invoke) -> None:
    """``--difficulty`` plays that band's solvable layout and the header names it."""
    from pasyans.cards import card_code
    from pasyans.deals import make_solvable

    for band in ("easy", "hard"):
        result = invoke(["play", "spine", "-d", "5", "--difficulty", band], stdin="q\n")
        assert result.exit_code == 0, result.stderr
        assert "deal 5  solvable " + band in result.stdout
        spine = make_solvable("spine", {}, 5, band).state.piles[-1]
        assert " ".join(card_code(c) for c in spine[-3:]) in result.stdout


def test_scripted_play_with_the_installed_script(run_script: RunScript) -> None:
    result = run_script(["play", "spider", "--deal", "1"], stdin="t1>t2\nu\nq\n")
    assert result.returncode == 0, result.stderr
    assert "> t1>t2\nrefused: t1>t2:" in result.stdout
    assert "refused: there is no move to undo [nothing_to_undo]" in result.stdout
    assert result.stdout.rstrip().endswith("quit: deal 1, 0 moves")


# --- Sessions on made-up positions --------------------------------------------------------


def _spine_state(columns: list[list[int]], foundations: list[list[int]], spine: list[int]) -> State:
    piles = (*map(tuple, foundations), *map(tuple, columns), tuple(spine))
    return State(tuple(piles), (0,) * len(piles))


def _near_won_spine() -> Game:
    """Every card on the foundations but the eight Kings, one on each column."""
    foundations = [[make_card(r, s % 4) for r in range(1, 13)] for s in range(8)]
    columns = [[make_card(13, s % 4)] for s in range(8)]
    return Game("spine", 1, start=_spine_state(columns, foundations, []))


def _stuck_spine() -> Game:
    """Aces buried under the columns, a Two on top of each: nothing can move."""
    rest = [make_card(r, s) for _ in range(2) for r in range(3, 14) for s in range(4)]
    columns = [
        [make_card(1, s % 4), *rest[4 * s : 4 * s + 4], make_card(2, s % 4)] for s in range(8)
    ]
    spine = rest[32:]
    assert len(spine) == 56
    return Game("spine", 1, start=_spine_state(columns, [[]] * 8, spine))


def test_autocollect_then_the_win_summary(capsys: pytest.CaptureFixture[str]) -> None:
    game = _near_won_spine()
    session = Session(game, Output(color=False), echo=True)
    session.show()
    assert "autocollect available (a)" in capsys.readouterr().out
    assert session.handle("a") is False  # the game is over
    out = capsys.readouterr().out
    assert "autocollected: 8 cards" in out
    assert "You won! moves 8, score 104, undos 0, hints 0" in out
    assert game.won


def test_stuck_says_so_and_offers_undo_and_quit(capsys: pytest.CaptureFixture[str]) -> None:
    session = Session(_stuck_spine(), Output(color=False), echo=True)
    session.show()
    out = capsys.readouterr().out
    assert "state: stuck" in out and "legal: (none)" in out
    assert "Stuck: no move, deal or redeal is left. u = undo, q = quit" in out
    assert session.handle("a") is True
    assert "refused: autocollect is not available here [no_autocollect]" in capsys.readouterr().out


def test_hint_suggests_a_legal_move_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game("spider", 1, {"suits": "1"})
    session = Session(game, Output(color=False), echo=False)
    assert session.handle("h") is True
    m = re.fullmatch(r"hint: (\S+) \(.+\)\n", capsys.readouterr().out)
    assert m and Move.parse(m.group(1)) in game.legal_moves()
    assert game.hints == 1
    session.show()
    assert "hints 1" in capsys.readouterr().out


def test_nivernais_and_backbone_tables_show_their_special_piles(invoke: Invoke) -> None:
    niv = tables(invoke(["play", "nivernais", "-d", "2"], stdin="q\n").stdout)[0]
    assert pile_tokens(niv)["f5"] == ["-", "[clubs", "down]"]
    assert "redeals left 2 (passes left 3)" in "\n".join(niv)
    back = tables(invoke(["play", "backbone", "-d", "2"], stdin="q\n").stdout)[0]
    assert pile_tokens(back)["spine1"][-4:] == ["(locked", "by", "the", "tailbone)"]
    assert pile_tokens(back)["stock"] == ["75", "cards"]


def test_in_a_terminal_it_prompts_and_colours() -> None:
    script = Path(sys.executable).parent / "pasyans"
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm-256color"
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [str(script), "play", "spider", "--deal", "1"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    seen = b""

    def read_until(marker: bytes, timeout: float = 60) -> None:
        nonlocal seen
        end = time.monotonic() + timeout
        while marker not in seen and time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    return

    try:
        read_until(b"move> ")
        os.write(master, b"t1>t5\n")
        read_until(b"played: t1>t5")
        os.write(master, b"q\n")
        read_until(b"quit: deal 1")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = seen.decode(errors="replace")
    assert "Type a move, or ? for help." in text
    assert "\x1b[" in text  # Rich colours on a terminal
    assert "played: t1>t5" in text and "quit: deal 1, 1 moves" in text


def test_stock_clicks_say_what_they_did(invoke: Invoke) -> None:
    # Nivernais: 72 cards in the stock are three deals of 24; the fourth click redeals.
    out = invoke(["play", "nivernais", "-d", "3"], stdin="stock\n" * 4).stdout
    played = [line for line in out.splitlines() if line.startswith("played: ")]
    assert played == ["played: stock (deal)"] * 3 + ["played: stock (redeal; deal)"]
    assert "redeals left 1 (passes left 2)" in tables(out)[-1][-2]
    turned = invoke(["play", "backbone", "-d", "3"], stdin="stock\n").stdout
    assert "played: stock (turn)" in turned


def test_retarget_sends_the_last_card_elsewhere_without_an_undo(invoke: Invoke) -> None:
    out = invoke(["play", "spine", "-d", "4", "--random"], stdin="t5>f1\nc t5>f3\nq\n").stdout
    assert "sent instead: t5>f3" in out
    last = tables(out)[-1]
    assert any(line.startswith("moves 1  undos 0") for line in last)
    assert any(line.startswith("f3") and "AH" in line for line in last)


def test_auto_moves_follow_a_move_when_switched_on(invoke: Invoke) -> None:
    out = invoke(["play", "backbone", "-d", "3", "--auto"], stdin="stock\n" * 30 + "q\n").stdout
    assert re.search(r"\(.*auto [a-z0-9]+>f\d", out)


def test_autoplay_follows_every_hint_and_says_how_it_ended(invoke: Invoke) -> None:
    result = invoke(["play", "spider", "-o", "suits=1", "-d", "3", "--autoplay", "product"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    moves = [line for line in lines if re.match(r"^\d+: ", line)]
    assert [int(line.split(":")[0]) for line in moves] == list(range(1, len(moves) + 1))
    assert re.fullmatch(rf"(won|not won) after {len(moves)} moves, \d+ cards home", lines[-1])
    bad = invoke(["play", "spider", "-d", "3", "--autoplay", "peek"])
    assert bad.exit_code != 0 and "unknown budget 'peek'" in bad.output
