"""The engine packaged for the phone (scoring/bundle.py), and what the pad page tells its script.

The browser half, the engine answering in the browser as on the server, is
tests/e2e/test_engine_browser.py's.
"""

from __future__ import annotations

import json
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import bundle
from scoring.__main__ import run
from scoring.engine.messages import MESSAGES
from scoring.templatetags.engine_tags import engine_config
from scoring.translation import engine_messages

pytestmark = pytest.mark.django_db

THREE_OVER = {
    "rules": {"players": 3},
    "first_dealer": "N",
    "deals": [{"taker": "N", "trump": "H", "points": {"cards": {"N": 70, "E": 50, "S": 50}}}],
}


def fake_pyodide(folder: Path, version: str = "9.9.9") -> Path:
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"version": version}))
    for name in bundle.PYODIDE_FILES:
        (folder / name).write_bytes(b"x")
    return folder


def test_the_bundle_holds_the_engine_and_the_command_lines_run_and_nothing_else():
    names = zipfile.ZipFile(BytesIO(bundle.engine_zip())).namelist()
    assert names[:2] == ["scoring/__init__.py", "scoring/__main__.py"]
    assert "scoring/engine/codec.py" in names and "scoring/engine/solo_game.py" in names
    assert all(n.startswith("scoring/engine/") for n in names[2:])
    assert "scoring/translation.py" not in names and "scoring/forms.py" not in names


def test_the_same_engine_makes_the_same_bundle_and_its_name_is_its_hash(tmp_path):
    assert bundle.engine_zip() == bundle.engine_zip()
    found = bundle.build(tmp_path / "static", fake_pyodide(tmp_path / "pyodide"))
    assert found is not None
    zip_file = tmp_path / "static" / found["bundle"]
    assert zip_file.read_bytes() == bundle.engine_zip()
    assert found["bundle"] == f"engine/engine-{found['version']}.zip"
    assert (tmp_path / "static/vendor/pyodide/9.9.9/pyodide.asm.wasm").is_file()
    assert bundle.built(tmp_path / "static") == found


def test_without_pyodide_nothing_is_built_and_an_old_manifest_goes(tmp_path):
    static = tmp_path / "static"
    assert bundle.build(static, fake_pyodide(tmp_path / "pyodide")) is not None
    assert bundle.build(static, tmp_path / "no-npm-here") is None
    assert bundle.built(static) is None


def test_a_new_pyodide_version_replaces_the_old_copy(tmp_path):
    static = tmp_path / "static"
    bundle.build(static, fake_pyodide(tmp_path / "old", "1.0.0"))
    bundle.build(static, fake_pyodide(tmp_path / "new", "2.0.0"))
    assert sorted(p.name for p in (static / "vendor/pyodide").iterdir()) == ["2.0.0"]


def test_the_engines_messages_are_every_template_in_the_pages_language(client, compiled_catalogues):
    messages = client.get(reverse("scoring:engine_messages", args=["nl"])).json()
    assert set(messages) == set(MESSAGES)
    assert (
        messages["card_points_total"] == "De kaartpunten zijn samen {value}; een spel is 162 waard."
    )


def test_the_command_lines_run_says_the_problems_in_the_templates_given(compiled_catalogues):
    assert run("match", json.dumps(THREE_OVER))[1] == {
        "errors": {"deals.0.points.cards": ["The card points add up to 170; a deal has 162."]}
    }
    with translation.override("fr"):
        status, answer = run("match", json.dumps(THREE_OVER), engine_messages())
    assert status == 2
    assert answer == {
        "errors": {"deals.0.points.cards": ["Les points de cartes font 170 ; une donne en a 162."]}
    }


def test_the_engines_messages_of_an_unknown_language_are_not_found(client):
    assert client.get("/engine/messages.xx.json").status_code == 404


def test_a_broken_translation_falls_back_to_the_english_message():
    _status, answer = run("match", json.dumps(THREE_OVER), {"card_points_total": "{nothing}"})
    assert answer["errors"]["deals.0.points.cards"] == [
        "The card points add up to 170; a deal has 162."
    ]


def test_the_pad_page_carries_the_engine_when_it_is_built(client, monkeypatch):
    built = {
        "version": "abc123abc123",
        "bundle": "engine/engine-abc123abc123.zip",
        "pyodide": "vendor/pyodide/0.27.7/",
        "pyodide_version": "0.27.7",
        "files": ["vendor/pyodide/0.27.7/pyodide.js"],
    }
    monkeypatch.setattr(bundle, "built", lambda *a: built)
    page = client.get(reverse("pad:new")).content.decode()
    assert 'id="belote-engine" type="application/json"' in page
    config = engine_config()
    assert config["bundle"] == "/static/engine/engine-abc123abc123.zip"
    assert config["pyodide"] == "/static/vendor/pyodide/0.27.7/"
    assert config["worker"].endswith("js/engine-worker.js")
    assert config["messages"] == "/engine/messages.en.json"
    worker = client.get("/sw.js").content.decode()
    assert 'var ENGINE_CACHE = "belote\\u002Dengine\\u002D0.27.7\\u002Dabc123abc123"' in worker
    assert "/static/engine/engine\\u002Dabc123abc123.zip" in worker


def test_without_the_build_the_page_scores_on_the_server(client, monkeypatch):
    monkeypatch.setattr(bundle, "built", lambda *a: None)
    config = engine_config()
    assert config == {}
    worker = client.get("/sw.js").content.decode()
    assert 'var ENGINE_CACHE = "";' in worker and "var ENGINE = [];" in worker
