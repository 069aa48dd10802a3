"""The layout of docs/architecture.md holds: imports go one way, pure modules stay pure, tags run no query.

Read from the source (ast), so a new import in the wrong direction fails here first.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(folder: str) -> dict[str, set[str]]:
    """Each module file under `folder` and the absolute names it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    names.add(f"{base}.{node.module}" if node.module else base)
                else:
                    names.add(node.module or "")
        found[str(path.relative_to(ROOT))] = names
    return found


def offenders(folder: str, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    return {
        path: sorted(n for n in names if n.split(".")[0] in forbidden or n.startswith(forbidden))
        for path, names in imported_modules(folder).items()
        if any(n.split(".")[0] in forbidden or n.startswith(forbidden) for n in names)
    }


def test_club_never_imports_tournaments_nor_config():
    assert offenders("club", ("tournaments", "config")) == {}


def test_tournaments_never_import_config():
    """config wires the apps together; the apps never reach back into it (docs/architecture.md)."""
    assert offenders("tournaments", ("config",)) == {}


def test_the_engine_imports_nothing_of_the_project_nor_django():
    assert (
        offenders("scoring/engine", ("django", "club", "tournaments", "config", "rest_framework"))
        == {}
    )


def test_the_draws_and_the_standings_arithmetic_are_free_of_the_orm():
    pure = ("django.db", "rest_framework", "tournaments.models", "club.models")
    assert offenders("tournaments/scheduling", ("django", "club", "rest_framework")) == {}
    for module in (
        "names",
        "criteria",
        "tally",
        "digests",
        "lines",
        "match_figures",
        "ranking",
        "table",
    ):
        path = f"tournaments/standings/{module}.py"
        names = imported_modules("tournaments/standings")[path]
        assert not [n for n in names if n.startswith(pure)], path


def test_template_tags_run_no_query_of_their_own():
    """A tag formats what the view gave it; reads belong to the selectors."""
    for path in (ROOT / "tournaments" / "templatetags").glob("*.py"):
        tree = ast.parse(path.read_text())
        used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert "objects" not in used, path
    for path in (ROOT / "club" / "templatetags").glob("*.py"):
        assert ".objects" not in path.read_text(), path


def test_url_patterns_live_in_urls_modules():
    for folder in ("tournaments/views", "club", "scoring"):
        for path in (ROOT / folder).glob("*.py"):
            if path.name != "urls.py":
                assert "urlpatterns" not in path.read_text(), path


def test_the_import_contracts_of_pyproject_hold():
    """The layers inside tournaments/ (import-linter, `lint-imports`; lazy imports included)."""
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


# The apps and which may import which (docs/architecture.md): config → pad, seasons, entries,
# prizes → tournaments → club, live → scoring.
APPS = ("config", "pad", "seasons", "entries", "prizes", "tournaments", "club", "live", "scoring")
MAY_IMPORT = {
    "config": set(APPS) - {"config"},
    "pad": {"club", "scoring"},
    "seasons": {"tournaments", "club", "live", "scoring"},
    "entries": {"tournaments", "club", "live", "scoring"},
    "prizes": {"seasons", "entries", "tournaments", "club", "live", "scoring"},
    "tournaments": {"club", "live", "scoring"},
    "club": {"scoring"},
    "live": set(),
    "scoring": set(),
}


def import_graph() -> dict[str, set[str]]:
    """Every module of the project and those it imports: lazy imports and those for the type
    checker included."""
    graph: dict[str, set[str]] = {}
    modules = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for app in APPS
        for p in (ROOT / app).rglob("*.py")
        if "migrations" not in p.parts
    }
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom | ast.Import):
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def test_the_apps_import_one_way():
    apps_imported = {app: set() for app in APPS}
    for module, imported in import_graph().items():
        apps_imported[module.split(".")[0]] |= {m.split(".")[0] for m in imported}
    assert {
        app: sorted(found - {app} - MAY_IMPORT[app]) for app, found in apps_imported.items()
    } == {app: [] for app in APPS}


def test_no_import_circle_in_the_project():
    graph = import_graph()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                if nxt == goal:
                    return True
                seen.add(nxt)
                todo.append(nxt)
        return False

    assert sorted(m for m in graph if reaches(m, m)) == []


def test_the_series_arithmetic_imports_only_the_standard_library():
    import sys

    modules = imported_modules("seasons/arithmetic")
    assert len(modules) == 5  # the package's modules are all read
    names = {n for found in modules.values() for n in found}
    outside = sorted(
        n
        for n in names
        if n.split(".")[0] not in sys.stdlib_module_names and not n.startswith("seasons.arithmetic")
    )
    assert outside == [], outside
