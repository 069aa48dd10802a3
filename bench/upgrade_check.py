"""An upgrade from an older release, checked from outside: the reads of its API answer the same.

    .venv/bin/python -m bench.upgrade_check [--old d32a6de]

Makes a SQLite database with the older code (a git worktree of `--old`, run with this
project's virtualenv): its migrations, the demo club (`load_demo`), then through its API a
concours with online registration (three registered, two waiting, three accepted) and
check-ins (present and paid cash, absent, present and waived). Reads, as the director and
anonymously, every season, series table, tournament standings, registrations, check-ins, the
cash, the club's rankings and year table. Then this code migrates a copy of that database and
reads the same addresses. Prints each address whose answer changed, and the count.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv" / "bin" / "python")

SEED = r"""
import json, os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from club.models import Club
from tournaments.models import Tournament
director = Client(HTTP_HOST="localhost")
director.force_login(get_user_model().objects.get(username="director"))
anonymous = Client(HTTP_HOST="localhost")
def post(client, path, body, **extra):
    answer = client.post(path, json.dumps(body), content_type="application/json", **extra)
    assert answer.status_code in (200, 201), (path, answer.status_code, answer.content[:300])
    return answer.json()
club = Club.objects.get()
tournament = post(director, "/api/v1/tournaments/", {"club": club.pk, "name": "Concours de printemps",
    "format": "concours", "rounds": 3, "starts_on": "2027-03-20", "registration": "open",
    "capacity": 3, "check_in": "on", "entry_fee": "5.00"})["id"]
Tournament.objects.filter(pk=tournament).update(status="open")  # the older API kept a draft
names = [["Anne Roux", "Paul Blanc"], ["Léa Petit", "Marc Noir"], ["Zoé Vert", "Luc Gris"],
         ["Ines Brun", "Tom Rose"], ["Eva Lune", "Max Soleil"]]
entries = [post(anonymous, f"/api/v1/tournaments/{tournament}/registrations/",
                {"players": players, "email": "x@example.org"}, REMOTE_ADDR=f"10.0.0.{n}")
           for n, players in enumerate(names, 1)]
for entry in entries[:3]:
    post(director, f"/api/v1/registrations/{entry['id']}/accept/", {"new_members": "create"})
marks = [("present", "cash"), ("absent", None), ("present", "waived")]
listed = director.get(f"/api/v1/tournaments/{tournament}/check-ins/").json()
for row, (attendance, paid) in zip(listed, marks):
    post(director, f"/api/v1/tournaments/{tournament}/check-ins/",
         {"entry": row["entry"], "present": attendance == "present", "paid": paid})
print(tournament)
"""

READ = r"""
import json, os, sys, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from club.models import Club
from tournaments.models import Tournament
director = Client(HTTP_HOST="localhost")
director.force_login(get_user_model().objects.get(username="director"))
anonymous = Client(HTTP_HOST="localhost")
read = {}
def get(client, path):
    answer = client.get(path)
    body = answer.json() if answer["Content-Type"].startswith("application/json") else None
    read[path + (" (anonymous)" if client is anonymous else "")] = [answer.status_code, body]
    return body if isinstance(body, list) else (body or {}).get("results", body or [])
club = Club.objects.get().pk
for season in get(director, f"/api/v1/clubs/{club}/seasons/"):
    get(director, f"/api/v1/seasons/{season['id']}/")
    for series in get(director, f"/api/v1/seasons/{season['id']}/series/"):
        get(director, f"/api/v1/series/{series['id']}/standings/")
        get(anonymous, f"/api/v1/series/{series['id']}/standings/")
for tournament in Tournament.objects.order_by("pk").values_list("pk", flat=True):
    get(director, f"/api/v1/tournaments/{tournament}/standings/")
    get(anonymous, f"/api/v1/tournaments/{tournament}/standings/")
last = Tournament.objects.order_by("pk").last().pk
for what in ("registrations", "check-ins", "cash"):
    get(director, f"/api/v1/tournaments/{last}/{what}/")
for path in (f"/api/v1/clubs/{club}/rankings/", f"/api/v1/clubs/{club}/season/"):
    get(director, path)
    get(anonymous, path)
json.dump(read, sys.stdout, sort_keys=True, ensure_ascii=False)
"""


def run(code: str, tree: Path, database: Path, *args: str) -> str:
    environment = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "PYTHONPATH": str(tree)}
    command = [PYTHON, *args] if args else [PYTHON, "-c", code]
    done = subprocess.run(
        command, cwd=tree, env=environment, capture_output=True, text=True, check=False
    )
    if done.returncode:
        sys.exit(f"{' '.join(command[:3])} failed in {tree}:\n{done.stderr[-2000:]}")
    return done.stdout


def differences(old: object, new: object, path: str = "") -> list[str]:
    if type(old) is not type(new):
        return [f"{path}: {old!r:.60} → {new!r:.60}"]
    if isinstance(old, dict):
        assert isinstance(new, dict)
        found = []
        for key in sorted(set(old) | set(new)):
            if key not in new or key not in old:
                found.append(f"{path}/{key}: {'gone' if key not in new else 'added'}")
            else:
                found += differences(old[key], new[key], f"{path}/{key}")
        return found
    if isinstance(old, list):
        assert isinstance(new, list)
        if len(old) != len(new):
            return [f"{path}: {len(old)} items → {len(new)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(old, new, strict=True))
            for d in differences(a, b, f"{path}[{i}]")
        ]
    return [] if old == new else [f"{path}: {old!r:.60} → {new!r:.60}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="d32a6de", help="the older release (a git revision)")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="belote-upgrade-"))
    old_tree = work / "old"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(old_tree), options.old],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    try:
        database = work / "old.sqlite3"
        run("", old_tree, database, "manage.py", "compile_translations")
        run("", old_tree, database, "manage.py", "migrate", "--noinput")
        run("", old_tree, database, "manage.py", "load_demo")
        run(SEED, old_tree, database)
        before = json.loads(run(READ, old_tree, database))
        upgraded = work / "upgraded.sqlite3"
        shutil.copy(database, upgraded)
        run("", ROOT, upgraded, "manage.py", "migrate", "--noinput")
        after = json.loads(run(READ, ROOT, upgraded))
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(old_tree)],
            cwd=ROOT,
            check=False,
            capture_output=True,
        )
    found = [d for path in sorted(before) for d in differences(before[path], after.get(path), path)]
    size = len(json.dumps(before, ensure_ascii=False).encode())
    print(
        f"{len(before)} reads ({size:,} bytes of JSON) made by {options.old}, read again after "
        f"this code's migrations: {len(found)} differences"
    )
    for line in found:
        print("  " + line)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
