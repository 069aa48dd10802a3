"""`manage.py create_club`: a new install's first club and its director, with no admin clicks.

    python manage.py create_club "Belote Club de Lyon" --city Lyon \\
        --director marie --director-name "Marie Dupont"

asks for the director's password twice (or reads BELOTE_DIRECTOR_PASSWORD with
--no-input). An existing account named by --director becomes the director as it is.
`--token` prints a key of the director's own, for scripts that go on through the API.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.errors import ServiceError
from club.founding import create_club
from club.permissions import SYSTEM
from club.tokens import issue_own_token

PASSWORD_VARIABLE = "BELOTE_DIRECTOR_PASSWORD"


class Command(BaseCommand):
    help = "Create a club and its first director (a new account, or an existing one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The club's name.")
        parser.add_argument("--slug", default="", help="Its address (default: from the name).")
        parser.add_argument("--city", default="")
        parser.add_argument("--director", required=True, help="The director's username.")
        parser.add_argument(
            "--director-name", default="", help='A new director\'s name, "First Last".'
        )
        parser.add_argument(
            "--no-input",
            action="store_true",
            help=f"Ask nothing: a new director's password comes from ${PASSWORD_VARIABLE}.",
        )
        parser.add_argument(
            "--token",
            action="store_true",
            help="Print an API key of the director's own (the only time it is shown).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["director"]
        exists = get_user_model()._default_manager.filter(username=username).exists()
        password = None if exists else self._password(options["no_input"])
        try:
            founded = create_club(
                name=options["name"],
                slug=options["slug"],
                city=options["city"],
                director_username=username,
                director_name=options["director_name"],
                director_password=password,
                by=SYSTEM,
            )
        except ServiceError as error:
            problems = "\n".join(
                f"  {field}: {message}"
                for field, messages in error.errors().items()
                for message in messages
            )
            raise CommandError(f"The club was not created:\n{problems}") from None
        club, director = founded.club, founded.director
        account = "a new account" if founded.new_account else "an existing account"
        self.stdout.write(
            f"Created the club {club.name} (id {club.pk}, /clubs/{club.slug}/), "
            f"directed by {director.get_username()} (user id {director.pk}, {account})."
        )
        if options["token"]:
            issued = issue_own_token(by=director, name="create_club")
            self.stdout.write(f"API key of {director.get_username()}: {issued.key}")

    def _password(self, no_input: bool) -> str | None:
        if no_input:
            password = os.environ.get(PASSWORD_VARIABLE)
            if not password:
                raise CommandError(
                    f"Set {PASSWORD_VARIABLE} to the new director's password, or leave out "
                    "--no-input to type it."
                )
            return password
        first = getpass.getpass("The director's password: ")
        if first != getpass.getpass("The same again: "):
            raise CommandError("The two passwords differ.")
        return first
