"""Compile the .po catalogues under locale/ into .mo files with polib: no GNU gettext needed.

The install step runs it (`make install`), so compiled catalogues are never committed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Compile every locale/<lang>/LC_MESSAGES/*.po into a .mo next to it (pure Python)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--check", action="store_true", help="Fail if a catalogue has an untranslated entry."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            import polib  # type: ignore[import-untyped]
        except ImportError as error:  # pragma: no cover - polib is a dependency
            raise CommandError("polib is missing: pip install polib") from error
        folders = [Path(p) for p in settings.LOCALE_PATHS]
        catalogues = sorted(po for folder in folders for po in folder.glob("*/LC_MESSAGES/*.po"))
        if not catalogues:
            raise CommandError(f"No .po file under {', '.join(map(str, folders))}.")
        missing_total = 0
        for po_path in catalogues:
            catalogue = polib.pofile(str(po_path))
            language = po_path.parent.parent.name
            missing = (
                [e for e in catalogue.untranslated_entries() if not e.obsolete]
                if language != "en"
                else []
            )
            missing_total += len(missing)
            catalogue.save_as_mofile(str(po_path.with_suffix(".mo")))
            shown = po_path.relative_to(po_path.parents[3])  # locale/<lang>/LC_MESSAGES/...
            self.stdout.write(
                f"{shown}: {len(catalogue.translated_entries())} translated, {len(missing)} missing"
            )
        if options["check"] and missing_total:
            raise CommandError(f"{missing_total} untranslated strings.")
