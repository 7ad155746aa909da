"""The code's structure, measured from its own imports (at the top of a module and inside functions
alike): no module imports, through any chain, one that imports it back, and no module imports one
of a higher floor. The floors, from the ground up, are the rooms of the README's code layout:
a new room goes on a floor here, and an arrow up is a bug to fix (move the code, not the floor)."""
from __future__ import annotations

import ast
import hashlib
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "generator"

# Each floor may import its own floor and those below it.
FLOORS = [
    ("errors", "units", "paper", "colour", "colour_vision", "icc", "options", "paths", "limits", "signals",
     "watching"),                                                    # leaves (watching: the files a build read, watched)
    ("inputs", "outputs", "spec", "draw"),                           # reading, writing, checking, drawing
    ("layout", "laser"),                                             # print layout, laser layout
    ("referee",),                                                    # the referee contract, a game in play
    ("shops", "cutters"),                                            # the print shops' and cutting machines' profiles
    ("products",),                                                   # the products: files made of what games hold
    ("games",),                                                      # the games, each in its folder
    ("pipeline", "project"),                                         # a build planned and run; a user's folder
    ("serve",),                                                      # the web layer: the phones' pages, the studio's
    ("studio",),                                                     # the studio: a folder's cards drawn as saved
    ("cli",),                                                        # the command
    ("entry", "__main__", "__init__"),                               # its entry point
]


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports(path: Path, cache: dict | None = None, kept: dict | None = None) -> set[str]:
    """Every generator module this file imports, wherever in the file the import stands."""
    name = module_name(path)
    found = set()
    for target, aliases in _imported(path, cache or {}, kept):
        if aliases is None:                    # `import generator.x`
            found.add(target)
        for alias in aliases or ():            # `from . import x` may name a module
            sub = f"{target}.{alias}"
            found.add(sub if _exists(sub) else target)
    return {m for m in found if m != name}


def _imported(path: Path, cache: dict, kept: dict | None) -> list:
    """[generator module, the names imported from it (None for `import module`)] of each import in
    the file: what its text says, whatever modules exist. Parsing the package takes about 1 s: a
    file's answer is looked up in `cache` and noted in `kept` by its path and content, so a run
    parses only what changed since the last."""
    data = path.read_bytes()
    key = f"{path.relative_to(ROOT).as_posix()}:{hashlib.sha256(data).hexdigest()}"
    found = cache.get(key)
    if found is None:
        found = _parsed(path, data)
    if kept is not None:
        kept[key] = found
    return found


def _parsed(path: Path, data: bytes) -> list:
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(data.decode("utf-8"))):
        if isinstance(node, ast.Import):
            found += [[a.name, None] for a in node.names if a.name.startswith("generator")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("generator"):
                found.append([target, [a.name for a in node.names]])
    return found


def _exists(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _cache_key() -> str:
    """The cache's name, made from _parsed's own text: a change to how a file is read starts afresh."""
    return "pnp/structure-imports-" + hashlib.sha256(inspect.getsource(_parsed).encode()).hexdigest()[:16]


@pytest.fixture(scope="module")
def graph(request) -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports (once a run: both checks
    read it), each file parsed only if pytest's cache has not its imports (-p no:cacheprovider:
    every file parsed)."""
    store = getattr(request.config, "cache", None)
    cache = store.get(_cache_key(), {}) if store is not None else {}
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    kept: dict = {}
    out = {name: {m for m in imports(path, cache, kept) if m in modules} for name, path in modules.items()}
    if store is not None and kept != cache:
        store.set(_cache_key(), kept)          # this tree's files only: the cache does not grow
    return out


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on, stack, found, counter = {}, {}, set(), [], [], [0]
    for start in g:
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(g[nxt]))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        m = stack.pop()
                        on.discard(m)
                        part.append(m)
                        if m == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))
    return found


def floor(module: str) -> int:
    room = module.split(".")[1] if "." in module else "__init__"
    for i, rooms in enumerate(FLOORS):
        if room in rooms:
            return i
    raise AssertionError(f"{module}: a room on no floor (add it to FLOORS)")


def test_no_import_circles(graph):
    assert circles(graph) == []


def test_no_import_runs_up_a_floor(graph):
    up = [f"{a} -> {b}" for a, targets in graph.items() for b in sorted(targets) if floor(b) > floor(a)]
    assert up == []


def test_the_checks_can_fail():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert floor("generator.cli") > floor("generator.games.sorry.rules") > floor("generator.referee.contract")
    here = imports(PACKAGE / "referee" / "game.py")
    assert "generator.referee.journal" in here and "generator.spec.loader" in here


def test_every_benchmark_and_script_imports_what_the_package_has():
    """benchmarks/ and scripts/ are run by hand, not by the suite: a name they import from the
    package that a change removed (game_module, once) breaks them unseen. Every `from generator...
    import NAME` there names a module, or an attribute of one, that exists."""
    import ast
    import importlib
    missing = []
    for path in sorted([*(ROOT / "benchmarks").glob("*.py"), *(ROOT / "scripts").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "generator":
                module = importlib.import_module(node.module)
                for alias in node.names:
                    if not hasattr(module, alias.name):
                        try:
                            importlib.import_module(f"{node.module}.{alias.name}")
                        except ImportError:
                            missing.append(f"{path.relative_to(ROOT)}: {node.module}.{alias.name}")
    assert missing == []
