"""Figures of the package's layout, for docs/notes/2026-12-03-redesign.md.

    uv run python tools/layout_stats.py [SRC]       (SRC: default src/pasyans)

Prints: the modules and their lines (median, max), the import circles between modules
(strongly connected parts of the graph of ``pasyans`` imports, the ones under
``if TYPE_CHECKING:`` left out), the imports of ``pasyans`` made inside a function, and
the modules over 400 lines and functions over 60 lines (the rule of docs/STYLE: each
gives a reason in its docstring), each marked ``no reason`` when neither its docstring
nor, for a function, its module's docstring says "because".
"""

from __future__ import annotations

import ast
import statistics
import sys
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.Module, modules: set[str]) -> tuple[set[str], int]:
    """The ``pasyans`` modules this module imports, and how many imports sit in a function."""
    out: set[str] = set()
    inside = 0

    def visit(node: ast.AST, in_function: bool) -> None:
        nonlocal inside
        if isinstance(node, ast.If) and _type_checking(node):
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif node.module and node.level == 0:
                names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            found = [n for n in names if n in modules]
            if found:
                out.update(found)
                if in_function:
                    inside += 1
            return
        child_in = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for c in ast.iter_child_nodes(node):
            visit(c, child_in)

    visit(tree, False)
    return out, inside


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in graph:
        if v not in index:
            strong(v)
    return out


MODULE_LINES = 400
FUNCTION_LINES = 60


def long_parts(path: Path, tree: ast.Module, lines: int) -> list[str]:
    """The module if over MODULE_LINES, and its functions over FUNCTION_LINES."""
    out = []
    doc = ast.get_docstring(tree) or ""
    if lines > MODULE_LINES:
        mark = "" if "because" in doc.lower() else "  (no reason)"
        out.append(f"    {path}: {lines} lines{mark}")
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > FUNCTION_LINES:
                own = (ast.get_docstring(node) or "").lower()
                named = node.name in doc and "because" in doc.lower()
                mark = "" if "because" in own or named else "  (no reason)"
                out.append(f"    {path}:{node.lineno} {node.name}(): {length} lines{mark}")
    return out


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "src/pasyans")
    files = sorted(p for p in root.rglob("*.py") if "migrations" not in p.parts)
    names = {module_name(root, p): p for p in files}
    modules = set(names)
    graph: dict[str, set[str]] = {}
    inside_total = 0
    lines = []
    long: list[str] = []
    for name, path in names.items():
        text = path.read_text(encoding="utf-8")
        lines.append(len(text.splitlines()))
        tree = ast.parse(text)
        long += long_parts(path, tree, lines[-1])
        deps, inside = imports(tree, modules)
        # a package's own __init__ is not an edge of its submodules
        graph[name] = {d for d in deps if d != name and not name.startswith(d + ".")}
        inside_total += inside
    found = cycles(graph)
    print(f"modules: {len(files)}; lines: median {statistics.median(lines):g}, max {max(lines)}")
    print(f"import circles: {len(found)}")
    for c in found:
        print("   ", " <-> ".join(c))
    print(f"imports of pasyans inside a function: {inside_total}")
    print(f"modules over {MODULE_LINES} lines, functions over {FUNCTION_LINES}: {len(long)}")
    print(f"    of them with no reason: {sum('(no reason)' in x for x in long)}")
    for x in long:
        print(x)


if __name__ == "__main__":
    main()
