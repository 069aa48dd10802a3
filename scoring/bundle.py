"""The engine for the phone: Pyodide's browser files and scoring/engine/ packaged as static files.

`manage.py build_engine_bundle` (run by `make install` and by the test set-up) copies Pyodide
(CPython in WebAssembly, fetched by npm into node_modules/) to static/vendor/pyodide/<version>/
and zips the engine's own source, as the server runs it, into static/engine/engine-<hash>.zip.
The hash is of the zip's content, so a changed engine is a new address and the service worker
keeps the new one. Without npm's copy of Pyodide nothing is built: the pages then score on the
server (docs/offline.md).
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"
# What a browser needs of the npm package (the .d.ts, maps and console page stay behind).
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Named at the end of pyodide.js and .mjs: copied too, or `collectstatic`'s manifest storage
# refuses the scripts (a browser fetches them only with its developer tools open).
SOURCE_MAPS = ("pyodide.js.map", "pyodide.mjs.map")
ENGINE_DIR = "engine"
PYODIDE_DIR = "vendor/pyodide"
MANIFEST = f"{ENGINE_DIR}/engine.json"
# A fixed date in the zip, so that the same source makes the same bundle (and the same hash).
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def engine_sources(root: Path = ROOT) -> list[Path]:
    """The files the phone imports: the engine, and the command line's `run` that answers a
    `python -m scoring match` request (scoring/__main__.py), standard library only."""
    scoring = root / "scoring"
    return [
        scoring / "__init__.py",
        scoring / "__main__.py",
        *sorted((scoring / "engine").glob("*.py")),
    ]


def engine_zip(root: Path = ROOT) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in engine_sources(root):
            info = zipfile.ZipInfo(path.relative_to(root).as_posix(), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def pyodide_version(node_pyodide: Path = NODE_PYODIDE) -> str | None:
    try:
        package = json.loads((node_pyodide / "package.json").read_text())
    except (OSError, ValueError):
        return None
    if not all((node_pyodide / name).is_file() for name in PYODIDE_FILES):
        return None
    return str(package["version"])


def build(static: Path = STATIC, node_pyodide: Path = NODE_PYODIDE) -> dict[str, Any] | None:
    """Copy Pyodide and write the engine's zip and its manifest; None (and the manifest removed)
    when npm has not fetched Pyodide."""
    manifest = static / MANIFEST
    version = pyodide_version(node_pyodide)
    if version is None:
        manifest.unlink(missing_ok=True)
        return None
    vendor = static / PYODIDE_DIR
    target = vendor / version
    if vendor.exists():
        for old in vendor.iterdir():
            if old != target:
                shutil.rmtree(old) if old.is_dir() else old.unlink()
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(node_pyodide / name, target / name)
    for name in SOURCE_MAPS:
        if (node_pyodide / name).is_file():
            shutil.copyfile(node_pyodide / name, target / name)

    data = engine_zip()
    digest = hashlib.sha256(data).hexdigest()[:12]
    engine_dir = static / ENGINE_DIR
    engine_dir.mkdir(parents=True, exist_ok=True)
    for old in engine_dir.glob("engine-*.zip"):
        old.unlink()
    (engine_dir / f"engine-{digest}.zip").write_bytes(data)
    found = {
        "version": digest,
        "bundle": f"{ENGINE_DIR}/engine-{digest}.zip",
        "pyodide": f"{PYODIDE_DIR}/{version}/",
        "pyodide_version": version,
        # What the worker loads (pyodide.mjs is there for a module worker, and not loaded).
        "files": [f"{PYODIDE_DIR}/{version}/{n}" for n in PYODIDE_FILES if n != "pyodide.mjs"],
    }
    manifest.write_text(json.dumps(found, indent=2) + "\n")
    return found


def built(static: Path = STATIC) -> dict[str, Any] | None:
    """The manifest of the last build, or None when the engine was not built for the phone."""
    try:
        found: dict[str, Any] = json.loads((static / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return found
