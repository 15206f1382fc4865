"""The package's layering, checked on its source: no import cycles, and imports only go the allowed ways.

Every ``import`` and ``from ... import`` in ``bleucli/`` is read with :mod:`ast`, at module top
*and* inside functions (a deferred import is still a dependency), leaving out ``if TYPE_CHECKING:``
blocks; relative imports are resolved. The layers:

* the **core** (metrics, tokenizers, input, engine and the root modules below) computes scores;
* the **faces** (``cli``, ``clikit``, ``render``, ``compat``, ``utils``, and sacreBLEU's module paths
  ``dataset`` and ``sacrebleu``) talk to users;
* the **wings** (``family``, ``report``, ``testsets``, ``shards``, ``dask``) build on the core.

The core never imports a face or a wing; nothing but ``bleucli/cli`` (and the entry points
``bleucli/__main__.py`` and ``bleucli/sacrebleu``) imports ``bleucli.cli``;
a wing imports another wing only through :data:`WING_ALLOWED`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "bleucli"

#: Imports that break a rule today because of work under way elsewhere: each entry is
#: ``(importer, imported)`` and is skipped by every rule. Whoever removes the import removes the
#: entry (the test fails on an entry that no longer happens, so the list only shrinks).
KNOWN_VIOLATIONS: set[tuple[str, str]] = {
}

CORE = ("bleucli.metrics", "bleucli.tokenizers", "bleucli.input", "bleucli.engine", "bleucli.errors",
        "bleucli.options", "bleucli.signature", "bleucli.statistics", "bleucli.significance", "bleucli.frozen",
        "bleucli.lazy", "bleucli.version")
FACES = ("bleucli.cli", "bleucli.clikit", "bleucli.render", "bleucli.compat", "bleucli.utils", "bleucli.dataset",
         "bleucli.sacrebleu")
#: Entry points that run the command line, besides ``bleucli/cli`` itself: ``python -m bleucli`` and
#: sacreBLEU's ``sacrebleu.sacrebleu.main`` at its path (``bleucli.sacrebleu.main``).
CLI_ENTRY_POINTS = ("bleucli.__main__", "bleucli.sacrebleu")
WINGS = ("bleucli.family", "bleucli.report", "bleucli.testsets", "bleucli.shards", "bleucli.dask")

#: The only imports from one wing into another: ``(importer wing, imported wing): reason``.
WING_ALLOWED: dict[tuple[str, str], str] = {
    ("bleucli.report", "bleucli.testsets"): "`compare -t/-l` scores standard test sets: testsets' options and loading",
    ("bleucli.shards", "bleucli.testsets"): "`shard` splits standard test sets: testsets' options and loading",
}

MAX_ROOT_MODULES = 12


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, not ``.__init__``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return skipped


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """``(imported bleucli module, line)`` for each import of module ``name`` (a name imported from a
    module counts as that module, or as the submodule of that name when there is one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = _type_checking_nodes(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node.lineno


def _graph() -> dict[str, dict[str, list[int]]]:
    """``graph[importer][imported]``: the lines of each import, known violations included."""
    graph: dict[str, dict[str, list[int]]] = {}
    for name, path in MODULES.items():
        edges: dict[str, list[int]] = {}
        for target, line in _imports(name, path):
            edges.setdefault(target, []).append(line)
        graph[name] = {target: sorted(set(lines)) for target, lines in edges.items()}
    return graph


GRAPH = _graph()


def _where(importer: str, imported: str) -> str:
    path = MODULES[importer].relative_to(PACKAGE.parent)
    return f"{path}:{','.join(map(str, GRAPH[importer][imported]))} imports {imported}"


def _edges() -> Iterator[tuple[str, str]]:
    """Every import, known violations left out."""
    for importer, targets in GRAPH.items():
        for imported in targets:
            if (importer, imported) not in KNOWN_VIOLATIONS:
                yield importer, imported


def _within(name: str, groups: tuple[str, ...]) -> str | None:
    return next((group for group in groups if name == group or name.startswith(group + ".")), None)


def _cycles(edges: list[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    adjacency: dict[str, list[str]] = {name: [] for name in MODULES}
    for importer, imported in edges:
        # a package's __init__ reaching its own submodules is how packages re-export: not a loop by itself
        if not imported.startswith(importer + "."):
            adjacency[importer].append(imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(adjacency):
        if root in index:
            continue
        work = [(root, iter(adjacency[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(adjacency[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def test_the_import_graph_is_read() -> None:
    """A sanity check of the parser: known imports of each kind are found."""
    assert GRAPH["bleucli.metrics.bleu"].keys() >= {"bleucli.metrics.base", "bleucli.tokenizers", "bleucli.errors"}
    assert "bleucli.metrics.formatting" in GRAPH["bleucli.metrics.base"]  # inside a method
    assert "bleucli.metrics.base" not in GRAPH["bleucli.render.text"]  # only under TYPE_CHECKING


def test_no_import_cycles() -> None:
    edges = list(_edges())
    inside = set(edges)
    problems = []
    for component in _cycles(edges):
        members = set(component)
        lines = [f"  {_where(a, b)}" for a, b in sorted(inside) if a in members and b in members]
        problems.append(f"import cycle of {len(component)} modules ({', '.join(component)}):\n" + "\n".join(lines))
    assert not problems, "\n".join(problems) + "\nbreak each cycle (move the shared code down a layer, or pass it in)"


def test_the_core_imports_no_face_and_no_wing() -> None:
    wrong = [_where(importer, imported) for importer, imported in _edges()
             if _within(importer, CORE) and _within(imported, FACES + WINGS)]
    assert not wrong, ("the core (metrics, tokenizers, input, engine, errors, options...) must not import a face "
                       "(cli, clikit, render, compat, utils) or a wing (family, report, testsets, shards, dask); "
                       "move the code into the core or have the caller pass it in:\n  " + "\n  ".join(wrong))


def test_only_the_cli_imports_the_cli() -> None:
    wrong = [_where(importer, imported) for importer, imported in _edges()
             if _within(imported, ("bleucli.cli",)) and not _within(importer, ("bleucli.cli",))
             and importer not in CLI_ENTRY_POINTS]
    assert not wrong, ("nothing outside bleucli/cli may import bleucli.cli (move what is shared into clikit/, "
                       "input/ or engine/):\n  " + "\n  ".join(wrong))


def test_wings_import_other_wings_only_as_allowed() -> None:
    wrong = []
    for importer, imported in _edges():
        source, target = _within(importer, WINGS), _within(imported, WINGS)
        if source and target and source != target and (source, target) not in WING_ALLOWED:
            wrong.append(_where(importer, imported))
    assert not wrong, ("a wing imports another wing; move the shared code into the core, or add the pair to "
                       "WING_ALLOWED with its reason:\n  " + "\n  ".join(wrong))


def test_wing_allowances_are_used() -> None:
    used = {(_within(a, WINGS), _within(b, WINGS)) for a, b in _edges()}
    unused = [f"{a} -> {b}" for a, b in WING_ALLOWED if (a, b) not in used]
    assert not unused, f"WING_ALLOWED entries no import needs any more, remove them: {', '.join(unused)}"


def test_known_violations_still_happen() -> None:
    gone = [f"{a} -> {b}" for a, b in sorted(KNOWN_VIOLATIONS) if b not in GRAPH.get(a, {})]
    assert not gone, f"these imports are gone: remove them from KNOWN_VIOLATIONS in {Path(__file__).name}: " + \
        ", ".join(gone)


def test_every_module_has_a_layer() -> None:
    root_only = {"bleucli", "bleucli.__main__"}
    unplaced = [name for name in MODULES if name not in root_only and not _within(name, CORE + FACES + WINGS)]
    assert not unplaced, f"modules in no layer (add them to CORE, FACES or WINGS here): {', '.join(unplaced)}"


def test_few_modules_at_the_package_root() -> None:
    root = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root) <= MAX_ROOT_MODULES, (
        f"{len(root)} modules at the package root (at most {MAX_ROOT_MODULES}): {', '.join(root)}; "
        "put new code into a subpackage")
