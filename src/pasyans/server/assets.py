"""The UI's static files as the browser gets them: packed, content-hashed, cached forever.

Built once per process from ``static/`` (no build step, nothing generated in the repo):

- **Scripts.** ``static/js`` holds small ES modules, one job each. A page should not pay a
  request per module, so they are packed: the entry ``app.js`` with every module it imports
  statically makes the *core* pack; each module that a script loads with ``import("./x.js")``
  makes a *page* pack of the modules it needs beyond the core. In a pack each module becomes
  a factory registered with a tiny loader (``__pasyans``); its ``import`` lines become
  look-ups of the modules it names, its ``export`` keywords a returned object. Only the
  forms the project uses are accepted (named, namespace and dynamic imports; exported
  declarations and ``export { a as b }``); anything else, or an import cycle, fails the
  build loudly.
- **Names.** Every pack, style sheet and image gets a name with the hash of its content
  (``app.3f2a9c1d0b.js``), served with ``Cache-Control: immutable`` for a year. The page
  (``index.html``, always revalidated) names the hashed files; scripts find the others
  through the manifest the core pack carries (``assetUrl`` in ``js/assets.js``).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pasyans import caches

STATIC = Path(__file__).resolve().parent / "static"
IMMUTABLE = "public, max-age=31536000, immutable"

_IMPORT = re.compile(
    r'^import\s+(?P<what>[^;]*?)\s+from\s+"\./(?P<mod>[\w-]+)\.js";?[ \t]*$', re.M | re.S
)
_DYNAMIC = re.compile(r'\bimport\(\s*"\./(?P<mod>[\w-]+)\.js"\s*\)')
_EXPORT_DECL = re.compile(
    r"^export\s+(?P<kw>(?:async\s+)?function\*?|class|const|let)\s+(?P<name>[\w$]+)", re.M
)
_EXPORT_LIST = re.compile(r"^export\s*\{(?P<list>[^}]*)\};?[ \t]*$", re.M)
_LEFT = re.compile(r"^\s*(import|export)\b", re.M)
_NAMED = re.compile(r"^\{(?P<list>[^}]*)\}$", re.S)
_NAMESPACE = re.compile(r"^\*\s+as\s+(?P<name>[\w$]+)$")

TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".html": "text/html; charset=utf-8",
}

LOADER = """const __P = (globalThis.__pasyans ||= { defs: {}, mods: {}, packs: {}, assets: {} });
__P.r ||= (name) => {
  if (!(name in __P.mods)) {
    const make = __P.defs[name];
    if (!make) throw new Error(`module ${name} is not loaded`);
    __P.mods[name] = make(__P.r);
  }
  return __P.mods[name];
};
__P.load ||= async (name) => {
  if (!__P.defs[name]) await import(__P.packs[name]);
  return __P.r(name);
};
"""


class AssetError(ValueError):
    """A static file uses a form the packer does not take (or modules import in a cycle)."""


@dataclass
class Module:
    name: str
    source: str
    imports: list[str] = field(default_factory=list)  # static, in order
    dynamic: list[str] = field(default_factory=list)


@dataclass
class Asset:
    path: str  # the hashed path under /static
    body: bytes
    media_type: str


@dataclass
class Assets:
    by_path: dict[str, Asset]  # hashed path -> file
    urls: dict[str, str]  # source path ("js/app.js", "css/app.css", "deck.svg") -> URL
    index_html: str | None

    def get(self, path: str) -> Asset | None:
        return self.by_path.get(path)


def _split_names(text: str) -> list[tuple[str, str]]:
    """``a, b as c`` -> [("a", "a"), ("b", "c")] (exported name, local name)."""
    out = []
    for part in text.split(","):
        part = " ".join(part.split())
        if not part:
            continue
        m = re.fullmatch(r"([\w$]+)(?:\s+as\s+([\w$]+))?", part)
        if not m:
            raise AssetError(f"cannot read the names {part!r}")
        out.append((m.group(1), m.group(2) or m.group(1)))
    return out


def read_module(name: str, source: str) -> Module:
    mod = Module(name, source)
    mod.imports = [m.group("mod") for m in _IMPORT.finditer(source)]
    mod.dynamic = [m.group("mod") for m in _DYNAMIC.finditer(source)]
    return mod


def factory(mod: Module) -> str:
    """The module as ``__P.defs[name] = (__r) => { ...; return {exports}; }``."""
    src = mod.source

    def imp(m: re.Match[str]) -> str:
        what, dep = " ".join(m.group("what").split()), json.dumps(m.group("mod"))
        named, ns = _NAMED.match(what), _NAMESPACE.match(what)
        if ns:
            return f"const {ns.group('name')} = __r({dep});"
        if named:
            pairs = _split_names(named.group("list"))
            inner = ", ".join(a if a == b else f"{a}: {b}" for a, b in pairs)
            return f"const {{ {inner} }} = __r({dep});"
        raise AssetError(f"{mod.name}.js: unsupported import {what!r}")

    exports: list[tuple[str, str]] = []
    src = _IMPORT.sub(imp, src)
    src = _DYNAMIC.sub(lambda m: f"__P.load({json.dumps(m.group('mod'))})", src)

    def decl(m: re.Match[str]) -> str:
        exports.append((m.group("name"), m.group("name")))
        return f"{m.group('kw')} {m.group('name')}"

    def listed(m: re.Match[str]) -> str:
        exports.extend((b, a) for a, b in _split_names(m.group("list")))
        return ""

    src = _EXPORT_DECL.sub(decl, src)
    src = _EXPORT_LIST.sub(listed, src)
    left = _LEFT.search(src)
    if left:
        line = src[left.start() : src.find("\n", left.start())].strip()
        raise AssetError(f"{mod.name}.js: unsupported {left.group(1)} form: {line!r}")
    ret = ", ".join(a if a == b else f"{a}: {b}" for a, b in exports)
    return f"__P.defs[{json.dumps(mod.name)}] = (__r) => {{\n{src}\nreturn {{ {ret} }};\n}};\n"


def closure(modules: dict[str, Module], root: str) -> list[str]:
    """``root`` and its static imports, dependencies first; a cycle is an error."""
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        if name not in modules:
            raise AssetError(f"{path[-1] if path else '?'}.js imports a missing module {name}.js")
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            raise AssetError("import cycle: " + " -> ".join([*path, name]))
        state[name] = 1
        for dep in modules[name].imports:
            visit(dep, [*path, name])
        state[name] = 2
        order.append(name)

    visit(root, [])
    return order


def _hashed(rel: str, body: bytes) -> str:
    digest = hashlib.sha256(body).hexdigest()[:10]
    stem, dot, ext = rel.rpartition(".")
    return f"{stem}.{digest}.{ext}" if dot else f"{rel}.{digest}"


def build(static: Path = STATIC) -> Assets:
    by_path: dict[str, Asset] = {}
    urls: dict[str, str] = {}

    def add(rel: str, body: bytes) -> str:
        hashed = _hashed(rel, body)
        media = TYPES.get(Path(rel).suffix, "application/octet-stream")
        by_path[hashed] = Asset(hashed, body, media)
        urls[rel] = f"/static/{hashed}"
        return urls[rel]

    # Style sheets and images first: scripts and the page name them.
    for f in sorted(static.rglob("*")):
        rel = f.relative_to(static).as_posix()
        if f.is_file() and f.suffix in (".css", ".svg", ".png") and rel != "favicon.svg":
            add(rel, f.read_bytes())

    js = static / "js"
    modules = {
        f.stem: read_module(f.stem, f.read_text(encoding="utf-8")) for f in sorted(js.glob("*.js"))
    }
    if "app" in modules:
        core = closure(modules, "app")
        packs: dict[str, list[str]] = {}
        todo = [d for n in core for d in modules[n].dynamic]
        while todo:
            name = todo.pop(0)
            if name in packs or name in core:
                continue
            if name not in modules:
                raise AssetError(f"a dynamic import names a missing module {name}.js")
            packs[name] = [n for n in closure(modules, name) if n not in core]
            todo.extend(d for n in packs[name] for d in modules[n].dynamic)
        pack_urls = {}
        for name, members in packs.items():
            body = LOADER + "".join(factory(modules[n]) for n in members)
            pack_urls[name] = add(f"js/{name}.js", body.encode())
        manifest = (
            f"Object.assign(__P.packs, {json.dumps(pack_urls, sort_keys=True)});\n"
            f"Object.assign(__P.assets, {json.dumps(urls, sort_keys=True)});\n"
        )
        body = LOADER + manifest + "".join(factory(modules[n]) for n in core) + '__P.r("app");\n'
        add("js/app.js", body.encode())

    index_html = None
    page = static / "index.html"
    if page.is_file():
        index_html = re.sub(
            r'"/static/([^"]+)"',
            lambda m: f'"{urls.get(m.group(1), "/static/" + m.group(1))}"',
            page.read_text(encoding="utf-8"),
        )
    return Assets(by_path, urls, index_html)


@cache
def assets() -> Assets:
    """The assets of the installed ``static/``, built on first use."""
    return build(STATIC)


caches.register("server.assets", assets, bound=1, memory=False)
