"""What every CLI command shares: game options (``--option KEY=VALUE``), deal numbers and
deal kinds, one-line errors (exit code 2), and plain-or-coloured output of card lines."""

from __future__ import annotations

import re
import secrets
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from pasyans.deals import DIFFICULTIES, check_difficulty, default_kind
from pasyans.engine.core import MAX_DEAL, check_deal_number
from pasyans.errors import DealNumberError, OptionError, PasyansError
from pasyans.rules.registry import GAMES, resolve_options

USAGE_ERROR = 2
"""Exit code of every error a user can fix by changing the command line."""

GameArg = Annotated[str, typer.Argument(help=f"Game id: {', '.join(GAMES)}.")]
DealOpt = Annotated[
    str | None,
    typer.Option(
        "--deal",
        "-d",
        metavar="N",
        help=f"Deal number 1…{MAX_DEAL}; random when left out.",
    ),
]
"""Taken as text and checked by :func:`choose_deal`, so ``--deal abc`` gets the one-line
error (``bad_deal``) rather than the framework's usage box."""
OptionsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="A game option, e.g. suits=2 (repeat for more).",
    ),
]
KindOpt = Annotated[
    bool | None,
    typer.Option(
        "--solvable/--random",
        help="Only proven-winnable deals, or the plain shuffle (default: the game's own).",
        show_default=False,
    ),
]
DifficultyOpt = Annotated[
    str | None,
    typer.Option(
        "--difficulty",
        metavar="|".join(DIFFICULTIES),
        help="The difficulty of a solvable deal [medium]; implies --solvable.",
        show_default=False,
    ),
]
"""Taken as text and checked by :func:`choose_difficulty` (one-line error)."""


def fail(message: str) -> NoReturn:
    """Print ``pasyans: error: …`` on stderr as one line and exit with code 2."""
    line = " ".join(message.split())
    typer.echo(f"pasyans: error: {line}", err=True)
    raise typer.Exit(USAGE_ERROR)


def error_line(error: PasyansError) -> str:
    """One line for an engine error: its message and its stable code."""
    return f"{' '.join(str(error).split())} [{error.code}]"


def parse_options(game_id: str, raw: Sequence[str] | None) -> dict[str, str]:
    """``["suits=2", …]`` → every option of the game, checked, defaults included.

    Raises :class:`~pasyans.errors.UnknownGameError` or :class:`OptionError`.
    """
    given: dict[str, str] = {}
    for item in raw or ():
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise OptionError(f"an option is KEY=VALUE, e.g. suits=2; got {item[:40]!r}")
        if key in given and given[key] != value:
            raise OptionError(f"option {key[:40]} is given twice ({given[key]} and {value[:40]})")
        given[key] = value
    return resolve_options(game_id, given)


def choose_deal(deal: int | str | None) -> int:
    """The deal number given (a whole number, as text or int), checked; or a random one,
    announced on stderr. Raises :class:`~pasyans.errors.DealNumberError`."""
    if deal is None:
        number = secrets.randbelow(MAX_DEAL) + 1
        typer.echo(f"pasyans: no --deal given; using deal {number}", err=True)
        return number
    if isinstance(deal, str):
        text = deal.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,20}", text):
            raise DealNumberError(
                f"a deal number is a whole number from 1 to {MAX_DEAL}; got {text[:20]!r}"
            )
        deal = int(text)
    return check_deal_number(deal)


def choose_kind(game_id: str, solvable: bool | None, difficulty: str | None = None) -> str:
    """``--solvable`` → ``solvable``, ``--random`` → ``random``, neither → the game's own;
    a ``--difficulty`` asks for a solvable deal (with ``--random``: :class:`OptionError`).

    >>> choose_kind("spider", None), choose_kind("spider", None, "hard")
    ('random', 'solvable')
    """
    if difficulty is not None:
        if solvable is False:
            raise OptionError("--difficulty chooses among solvable deals: drop --random")
        check_difficulty(difficulty)
        return "solvable"
    if solvable is None:
        return default_kind(game_id)
    return "solvable" if solvable else "random"


def kind_label(kind: str, difficulty: str | None) -> str:
    """``solvable hard``, or the kind alone (a random deal has no difficulty)."""
    return kind if difficulty is None or kind != "solvable" else f"{kind} {difficulty}"


# --- Output -------------------------------------------------------------------------------

RED_SUITS = frozenset("DH")


def card_text(code: str | None, *, face_down: bool = False) -> Text:
    """A card as text: its code (red for ♦ and ♥), or ``##`` for a card the player
    cannot see. ``face_down`` with a code marks a card a tool may show but is face down."""
    if code is None:
        return Text("##", style="dim")
    style = "red" if code[-1] in RED_SUITS else ""
    return Text(code, style=f"{style} dim" if face_down else style)


def pile_line(pile_id: str, parts: Iterable[Text], width: int = 9) -> Text:
    """``pile_id`` padded to ``width``, then the parts separated by single spaces."""
    line = Text()
    line.append(pile_id.ljust(width), style="bold")
    line.append_text(Text(" ").join(list(parts)))
    line.rstrip()
    return line


def header(game_id: str, deal: int, kind: str, options: Mapping[str, str]) -> Text:
    """``spider  deal 7  random  suits=2``: what is on the table."""
    words = [game_id, f"deal {deal}", kind, *(f"{k}={v}" for k, v in options.items())]
    return Text("  ".join(words), style="bold")


class Output:
    """Writes lines to stdout: coloured with Rich on a terminal, plain text otherwise."""

    def __init__(self, color: bool | None = None) -> None:
        self.color = sys.stdout.isatty() if color is None else color
        self._console = Console(highlight=False, soft_wrap=True) if self.color else None

    def line(self, text: Text | str = "") -> None:
        if self._console is not None:
            self._console.print(text, soft_wrap=True, markup=False)
        else:
            plain = text.plain if isinstance(text, Text) else text
            typer.echo(plain.rstrip())

    def lines(self, texts: Iterable[Text | str]) -> None:
        for t in texts:
            self.line(t)
