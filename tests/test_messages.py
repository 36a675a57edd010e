"""The message catalogue (pasyans.messages): every language has every code with the same
placeholders, every code the code asks for exists, and every code is asked for somewhere.

Uses are read from the sources: Python string constants (AST) under src/pasyans, and the
string literals of static/js/*.js and static/index.html. A JS template literal
`prefix.${…}` uses every code under that prefix (``pile.${id}``), and a dialog
``ask("abandon")`` every ``abandon.*``."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from pasyans import messages

SRC = Path(messages.__file__).resolve().parent.parent
STATIC = SRC / "server" / "static"
PY_CODE = re.compile(r"^(error|refusal|hint|verdict|ui)\.[\w.-]+$")
JS_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')
JS_TEMPLATE_PREFIX = re.compile(r"`([\w.-]*[._])\$\{")
JS_DIALOG = re.compile(r"""\bask\(\s*["'](\w+)["']""")  # dialogs.js: <name>.title, .text, …
JS_T_CALL = re.compile(r"""\b(?:t|plural)\(\s*["']([^"']+)["']""")
HTML_I18N = re.compile(r'data-i18n(?:-title|-aria)?="([^"]+)"')


SAME_WORDS_OTHER_PLACEHOLDERS = {
    # Russian gives the bare number ("Сдана, ходов: 3") where English says "after 3
    # moves": the page passes both {moves} and {n}.
    "ui.share.given_up": {"moves", "n"},
    "ui.share.abandoned": {"moves", "n"},
}


def codes() -> set[str]:
    return set(messages.catalogue()[messages.LANGS[0]])


@cache
def python_strings() -> tuple[set[str], set[str]]:
    """(every string constant, every f-string's literal start) of src/pasyans."""
    constants: set[str] = set()
    prefixes: set[str] = set()
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
            if isinstance(node, ast.JoinedStr) and node.values:
                first = node.values[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    prefixes.add(first.value)
    return constants, prefixes


@cache
def js_sources() -> dict[str, str]:
    files = {p.name: p.read_text("utf-8") for p in sorted((STATIC / "js").glob("*.js"))}
    files["index.html"] = (STATIC / "index.html").read_text("utf-8")
    return files


def js_literals() -> tuple[set[str], set[str]]:
    literals: set[str] = set()
    prefixes: set[str] = set()
    for text in js_sources().values():
        for m in JS_STRING.finditer(text):
            literals.add(m.group(1) if m.group(1) is not None else m.group(2))
        prefixes.update(JS_TEMPLATE_PREFIX.findall(text))
        prefixes.update(f"{name}." for name in JS_DIALOG.findall(text))
        literals.update(HTML_I18N.findall(text))
    return literals, prefixes


def browser_code(key: str) -> str:
    """The catalogue code t(key) reads (i18n.js: ``ui.<key>`` first, then the key)."""
    return f"ui.{key}" if f"ui.{key}" in codes() else key


def test_every_language_has_every_code_with_the_same_placeholders() -> None:
    cat = messages.catalogue()
    base = cat[messages.LANGS[0]]
    for lang in messages.LANGS[1:]:
        assert set(cat[lang]) == set(base), (
            f"{lang}: missing {sorted(set(base) - set(cat[lang]))[:10]}, "
            f"extra {sorted(set(cat[lang]) - set(base))[:10]}"
        )
        for code, text in base.items():
            other = cat[lang][code]
            mine, theirs = messages.placeholders(text), messages.placeholders(other)
            if code in SAME_WORDS_OTHER_PLACEHOLDERS:
                assert mine ^ theirs <= SAME_WORDS_OTHER_PLACEHOLDERS[code], (lang, code)
                continue
            assert mine == theirs, (lang, code)
            assert ("|" in text) == ("|" in other), f"{lang}: {code} has forms in one only"
            assert other.strip(), (lang, code)


def test_codes_are_in_the_sections_of_the_interface() -> None:
    for code in codes():
        assert code.split(".", 1)[0] in messages.SECTIONS, code


def test_every_code_python_asks_for_exists() -> None:
    constants, _ = python_strings()
    asked = {s for s in constants if PY_CODE.match(s)}
    assert asked, "the scan found no code at all"
    assert sorted(asked - codes()) == []


def test_every_code_js_asks_for_exists() -> None:
    asked: set[str] = set()
    for text in js_sources().values():
        asked.update(JS_T_CALL.findall(text))
        asked.update(HTML_I18N.findall(text))
    assert len(asked) > 100, "the scan found too few codes"
    assert sorted(k for k in asked if browser_code(k) not in codes()) == []


def test_every_code_is_used() -> None:
    constants, _ = python_strings()
    literals, js_prefixes = js_literals()
    unused = []
    for code in sorted(codes()):
        section, key = code.split(".", 1)
        used = (
            code in constants
            or (section in ("error", "refusal") and key in constants)
            or code in literals
            or (section == "ui" and key in literals)
            or (section == "ui" and any(key.startswith(p) for p in js_prefixes))
        )
        if not used:
            unused.append(code)
    assert unused == []


@pytest.mark.parametrize("lang", messages.LANGS)
def test_text_fills_placeholders_and_refuses_a_missing_one(lang: str) -> None:
    assert messages.text("ui.stock.deals", lang, n=3).count("3") == 1
    with pytest.raises(KeyError):
        messages.text("ui.stock.deals", lang)
    with pytest.raises(KeyError):
        messages.text("ui.no_such_code", lang)


def test_an_unknown_language_falls_back_to_english() -> None:
    assert messages.text("error.not_found", "de") == messages.text("error.not_found", "en")
    assert messages.text("error.not_found", "ru") != messages.text("error.not_found", "en")
