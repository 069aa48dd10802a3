"""`manage.py backup`: the site's data as JSON, without its secrets; `manage.py restore` reads it.

Left out: API tokens and sessions (whoever holds them is signed in), the sign-in attempts
(addresses and user names), and what `migrate` recreates (content types, permissions).
Kept: everything else, accounts included with their password hashes, so people sign in
after a restore as before, and the admin's log (who changed what in the Django admin);
treat the file as confidential all the same. Times are written to the microsecond
(tournaments.management.exact_json), so a restore gives back every timestamp exactly.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

# The JSON format with times to the microsecond (settings.SERIALIZATION_MODULES).
EXACT_JSON = "json_exact"

# Apps and models never written to a backup (see the module docstring).
LEFT_OUT = [
    "club.apitoken",
    "sessions",
    "axes",
    "contenttypes",
    "auth.permission",
]


class Command(BaseCommand):
    help = "Write the site's data as JSON (to a file or standard output), secrets left out."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output", "-o", default=None, help="File to write (default: standard output)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        call_command(
            "dumpdata",
            exclude=LEFT_OUT,
            format=EXACT_JSON,
            natural_foreign=True,
            natural_primary=True,
            output=options["output"],
            stdout=self.stdout,
            verbosity=0,
        )
