"""``pasyans play``: play a game in the terminal, or from a script through a pipe.

The table shown is the player view (:meth:`Game.view`): a face-down card is ``##``, the
stock is a count. Input is one command per line: a move in the notation (``t3>f1``,
``t3>t5:4``, ``stock``) or one of the letters of :data:`HELP`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from typing import Annotated, Any

import typer
from rich.text import Text

from pasyans.cli.app import app
from pasyans.cli.common import (
    DealOpt,
    DifficultyOpt,
    GameArg,
    KindOpt,
    OptionsOpt,
    Output,
    card_text,
    choose_deal,
    choose_kind,
    error_line,
    fail,
    header,
    kind_label,
    parse_options,
    pile_line,
)
from pasyans.deals import new_game
from pasyans.engine import Game, apply, parse_move
from pasyans.engine.core import cards_on_foundations, is_won
from pasyans.errors import PasyansError
from pasyans.hints import suggest
from pasyans.hints.follow import progress
from pasyans.hints.policy import player_budget
from pasyans.position import Event, State

HELP = """\
commands (one per line):
  t3>f1      move the top card of t3 onto f1
  t3>t5:4    move the top 4 cards of t3 onto t5 (a run)
  stock      click the stock (deal, turn or redeal, as the game says)
  c t3>t6    send the cards of the last move elsewhere (one move, not an undo)
  auto       switch the safe auto-moves to the foundations on or off
  u  r       undo, redo
  a          autocollect (when the table says it is available)
  h          hint (uses only the cards you can see)
  ?          this help
  q          quit"""

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


# --- The table ----------------------------------------------------------------------------


def _pile_parts(pile_id: str, pile: Mapping[str, Any]) -> list[Text]:
    cards: list[str | None] = pile["cards"]
    kind = pile["kind"]
    if kind == "stock":
        return [Text(f"{len(cards)} cards", style="dim")]
    if kind == "done":
        return [Text(f"{len(cards) // 13} runs")]
    if not cards:
        parts = [Text("-", style="dim")]
    elif kind in ("foundation", "waste"):
        parts = [card_text(cards[-1]), Text(f"({len(cards)})", style="dim")]
    else:
        parts = [card_text(c) for c in cards]
    if "suit" in pile:
        parts.append(Text(f"[{SUIT_NAMES[pile['suit']]} {pile['build']}]", style="dim"))
    if pile.get("locked"):
        parts.append(Text("(locked by the tailbone)", style="dim"))
    return parts


def table_lines(view: Mapping[str, Any], kind: str, *, redeals: bool = True) -> list[Text]:
    """The player's table: a header, one line per pile, counters, flags and legal moves.
    ``redeals``: whether the game has redeals at all (else their count is left out)."""
    out = [header(view["game"], view["deal"], kind, view["options"])]
    for pile_id, pile in view["piles"].items():
        out.append(pile_line(pile_id, _pile_parts(pile_id, pile)))
    c, f = view["counters"], view["flags"]
    out.append(
        Text(f"moves {c['moves']}  undos {c['undos']}  hints {c['hints']}  score {c['score']}")
    )
    out.append(Text(_flags_text(view, f, redeals)))
    legal = " ".join(m["text"] for m in view["moves"]) or "(none)"
    out.append(Text(f"legal: {legal}"))
    return out


def _flags_text(view: Mapping[str, Any], f: Mapping[str, Any], redeals: bool) -> str:
    state = "won" if f["won"] else "stuck" if f["stuck"] else "playing"
    words = [f"state: {state}"]
    if f["autocollect"]:
        words.append("autocollect available (a)")
    stock = view.get("stock")
    if redeals:
        words.append(f"redeals left {f['redeals_left']} (passes left {f['passes_left']})")
    if stock is not None:
        if stock["action"] is not None:
            words.append(f"stock: {stock['action']}")
        elif stock["refusal"] is not None:
            words.append(f"stock: {stock['refusal']['message']}")
    return "  ".join(words)


# --- The session --------------------------------------------------------------------------


def _describe(events: list[Event]) -> str:
    """What a move set off, e.g. ``(flip t3)``, ``(complete t3; flip t3)``, ``(deal)``."""
    where = {"flip": "pile", "complete": "from", "refill": "to"}
    words: list[str] = []
    for e in events:
        kind = str(e.get("type", ""))
        if kind == "move" and e.get("auto"):
            words.append(f"auto {e['from']}>{e['to']}")
            continue
        if kind == "move":
            continue
        word = f"{kind} {e.get(where[kind], '')}".strip() if kind in where else kind
        if word not in words:
            words.append(word)
    return f" ({'; '.join(words)})" if words else ""


class Session:
    """One game played line by line. :meth:`handle` returns False when the game is over."""

    def __init__(self, game: Game, out: Output, *, echo: bool, auto: bool = False) -> None:
        self.game = game
        self.out = out
        self.echo = echo
        self.auto = auto
        """Safe auto-moves to the foundations follow each move (``auto`` switches)."""

    def show(self) -> None:
        g = self.game
        kind = kind_label(g.kind, g.difficulty)
        self.out.lines(table_lines(g.view(), kind, redeals=g.spec.passes > 1))
        if g.won:
            self.out.line(
                Text(
                    f"You won! moves {g.moves_made}, score {g.score}, "
                    f"undos {g.undos}, hints {g.hints}",
                    style="bold green",
                )
            )
        elif g.stuck:
            self.out.line(
                Text("Stuck: no move, deal or redeal is left. u = undo, q = quit", style="yellow")
            )

    def refuse(self, error: PasyansError) -> None:
        self.out.line(Text(f"refused: {error_line(error)}", style="red"))

    def handle(self, line: str) -> bool:
        """Carry out one input line; False means stop (quit, or the game is won)."""
        command = line.strip()
        if self.echo and command:
            self.out.line(f"> {command}")
        if not command:
            return True
        word = command.lower()
        if word in ("q", "quit", "exit"):
            self.out.line(f"quit: deal {self.game.deal}, {self.game.moves_made} moves")
            return False
        if word in ("?", "help"):
            self.out.line(HELP)
            return True
        if word in ("h", "hint"):
            self.hint()
            return True
        if word == "auto":
            self.auto = not self.auto
            self.out.line(f"auto-moves {'on' if self.auto else 'off'}")
            return True
        try:
            message = self.act(word, command)
        except PasyansError as e:
            self.refuse(e)
            return True
        self.out.line(message)
        self.show()
        return not self.game.won

    def act(self, word: str, command: str) -> str:
        """Undo, redo, autocollect or a move; returns what was done (raises on refusal)."""
        g = self.game
        if word in ("u", "undo"):
            return f"undone: {g.undo()}"
        if word in ("r", "redo"):
            events = g.redo()
            return f"redone: {g.moves[-1]}{_describe(events)}"
        if word in ("a", "autocollect"):
            before = g.moves_made
            g.autocollect()
            return f"autocollected: {g.moves_made - before} cards"
        if word.startswith(("c ", "retarget ")):
            move = parse_move(command.split(maxsplit=1)[1])
            events = g.retarget(move, auto=self.auto)
            return f"sent instead: {move}{_describe(events)}"
        before = g.moves_made
        events = g.play(command, auto=self.auto)
        return f"played: {g.moves[before]}{_describe(events)}"

    def hint(self) -> None:
        g = self.game
        hint = suggest(g.spec, g.state, history=self.history())
        if hint.move is None:
            self.out.line(f"hint: {hint.message}")
            return
        g.hints += 1
        self.out.line(f"hint: {hint.move} ({hint.message})")

    def history(self) -> list[State]:
        """The positions already passed through, oldest first."""
        states = [self.game.start]
        for m in self.game.moves:
            states.append(apply(self.game.spec, states[-1], m))
        return states[:-1]


def _autoplay(g: Game, name: str) -> None:
    """Follow every hint of the budget ``name`` (:func:`player_budget`) from the deal's
    start, no undo, printing each move; stop at a win, when no move is left, after 600
    moves, or after 100 moves in a row that moved nothing on."""
    try:
        budget = player_budget(g.spec, name)
    except ValueError as e:
        fail(str(e))
    out = Output()
    history: list[State] = []
    mark, still = progress(g.spec, g.state), 0
    while len(history) < 600 and not is_won(g.spec, g.state) and still < 100:
        hint = suggest(g.spec, g.state, history=history, budget=budget)
        if hint.move is None:
            break
        history.append(g.state)
        g.play(str(hint.move))
        out.line(f"{len(history)}: {hint.move} ({hint.source})")
        now = progress(g.spec, g.state)
        still = 0 if now != mark else still + 1
        mark = now
    won = is_won(g.spec, g.state)
    cards = cards_on_foundations(g.spec, g.state)
    out.line(f"{'won' if won else 'not won'} after {len(history)} moves, {cards} cards home")


def _input_lines(interactive: bool) -> Iterator[str]:
    if not interactive:
        yield from sys.stdin
        return
    while True:
        try:
            yield input("move> ")
        except EOFError:
            typer.echo()
            return


@app.command("play")
def play_command(
    game: GameArg,
    deal: DealOpt = None,
    option: OptionsOpt = None,
    solvable: KindOpt = None,
    difficulty: DifficultyOpt = None,
    auto: Annotated[
        bool, typer.Option("--auto/--no-auto", help="Safe auto-moves to the foundations.")
    ] = False,
    autoplay: Annotated[
        str | None,
        typer.Option(
            "--autoplay",
            help="Play by following every hint (no undo): product or expert budget.",
        ),
    ] = None,
) -> None:
    """Play in the terminal; moves in the notation (t3>f1, t3>t5:4, stock), u, r, q, ?.

    Reads moves from a pipe too: printf 't1>t2\\nu\\nq\\n' | pasyans play spider --deal 1
    """
    try:
        options = parse_options(game, option)
        number = choose_deal(deal)
        kind = choose_kind(game, solvable, difficulty)
        g = new_game(game, number, options, kind, difficulty if kind == "solvable" else None)
    except PasyansError as e:
        fail(error_line(e))
    if autoplay is not None:
        _autoplay(g, autoplay)
        return
    interactive = sys.stdin.isatty()
    session = Session(g, Output(), echo=not interactive, auto=auto)
    if interactive:
        session.out.line("Type a move, or ? for help.")
    session.show()
    try:
        for line in _input_lines(interactive):
            if not session.handle(line):
                break
    except KeyboardInterrupt:
        typer.echo()
        raise typer.Exit(130) from None
