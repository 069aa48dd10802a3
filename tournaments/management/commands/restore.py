"""`manage.py restore FILE`: load a `manage.py backup` into a new, empty database.

Migrates first, refuses a database that already holds clubs or accounts (a restore adds
rows, it does not replace them), then loads the file in one transaction. Tokens and
sessions are not in a backup: referees' devices need new tokens, everyone signs in again.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from club.models import Club


class Command(BaseCommand):
    help = "Load a backup (a file, or - for standard input) into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The backup file, or - to read standard input.")

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        if Club.objects.exists() or get_user_model().objects.exists():
            raise CommandError(
                "This database already holds clubs or accounts: restore into an empty one."
            )
        with transaction.atomic():
            call_command("loaddata", options["file"], format="json", verbosity=0)
        self.stdout.write(self.style.SUCCESS(f"Restored {options['file']}."))
