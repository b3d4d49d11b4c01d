"""No import cycles between the modules of amdgpu_tools.

The import graph is built statically with ``ast`` from every ``.py`` file of
the package. Every ``import`` / ``from ... import`` statement naming a module
of the package is an edge, wherever it stands: at module level, or inside a
function or method (a function-level import hides a cycle from Python's
import machinery, it does not remove it; such imports remain only where an
import must be deferred, e.g. so that a command-line tool starts without
loading NumPy-heavy modules it does not need). ``from pkg import name`` is an
edge to ``pkg.name`` when that is a module, else to ``pkg`` (its
``__init__``); importing ``a.b.c`` from outside ``a.b`` also runs
``a/b/__init__.py``, so it is an edge to that package too.

Not seen: imports by name at run time (``importlib.import_module``), which
only the plug-in registry of ``isa/families`` and the semantics loader of
``exec/semantics.py`` use.

A cycle makes a module's meaning depend on which of its partners was imported
first, and keeps layers from being understood (or tested) one at a time. The
test lists each strongly connected component with the edges that close it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "amdgpu_tools"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE


def _modules():
    """{dotted name: (path, is_package)} of every module of the package."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


def _imports(tree, module, is_package, modules):
    """[(target module, line, inside a function)] of the import statements of ``tree``."""
    package = module if is_package else module.rpartition(".")[0]

    def resolve(name):
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                       ast.Lambda))
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package
                    for _ in range(child.level - 1):
                        base = base.rpartition(".")[0]
                    source = f"{base}.{child.module}" if child.module else base
                else:
                    source = child.module or ""
                names = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                         else source for alias in child.names]
            else:
                visit(child, nested)
                continue
            for name in names:
                if name == PACKAGE or name.startswith(PACKAGE + "."):
                    target = resolve(name)
                    if target and target != module:
                        found.append((target, child.lineno, in_function))
    visit(tree, False)
    return found


def import_graph():
    """({module: {target: [(line, in_function)]}}, modules)."""
    modules = _modules()
    graph = {name: {} for name in modules}
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        for target, line, in_function in _imports(tree, name, is_package, modules):
            parts = target.split(".")
            enclosing = [".".join(parts[:i]) for i in range(2, len(parts))]  # run first
            for reached in [target] + [package for package in enclosing if package in modules
                                       and package != name
                                       and not name.startswith(package + ".")]:
                sites = graph[name].setdefault(reached, [])
                if (line, in_function) not in sites:
                    sites.append((line, in_function))
    return graph, modules


def strongly_connected(graph):
    """Components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(graph[succ])))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
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


def function_level_imports():
    """[(module, line)] of the imports of package modules made inside functions."""
    graph, _ = import_graph()
    return sorted({(name, line) for name, targets in graph.items()
                   for sites in targets.values() for line, inside in sites if inside})


def test_no_import_cycles():
    graph, modules = import_graph()
    report = []
    for component in strongly_connected(graph):
        members = set(component)
        lines = [f"cycle among {len(component)} modules: {', '.join(component)}"]
        for name in component:
            for target, sites in sorted(graph[name].items()):
                if target in members:
                    where = ", ".join(f"{modules[name][0].relative_to(ROOT.parent)}:{line}"
                                      f"{' (in a function)' if inside else ''}"
                                      for line, inside in sites)
                    lines.append(f"    {name} -> {target}  [{where}]")
        report.append("\n".join(lines))
    assert not report, "import cycles:\n" + "\n".join(report)


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b": []}, "b": {"c": []}, "c": {"a": []}, "d": {"a": []}, "e": {}}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b": []}, "b": {}}) == []
