"""Completes the OpenAPI schema: how to sign in, the error answers with an example of each code.

drf-spectacular documents each operation from its view; these hooks
(SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]) add what no single view knows: the guide
at the top, the security schemes' "how to get one", and the `{"errors", "code"}` answers
every operation may give.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

from club.api import ID_PATTERN

ERROR = {
    "type": "object",
    "description": (
        "Why the request was refused: messages by field path (`detail` for the whole "
        "request), and a machine-readable `code`."
    ),
    "properties": {
        "errors": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "code": {"type": "string"},
    },
    "required": ["errors", "code"],
}


# An operation with its own example of a refusal declares the status with this; the
# hook below gives it the `Error` schema like every other.
ERROR_RESPONSE = OpenApiResponse(response=OpenApiTypes.OBJECT, description="Refused.")


def _example(summary: str, errors: dict[str, list[str]], code: str) -> dict[str, Any]:
    return {"summary": summary, "value": {"errors": errors, "code": code}}


# Each status, what it means, and an example of each `code` it answers with.
ERRORS: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    "400": (
        "Invalid input: each problem at its field path.",
        {
            "invalid": _example(
                "A field missing or of the wrong type",
                {"name": ["This field is required."]},
                "invalid",
            ),
            "invalid_deal": _example(
                "A deal the rule book refuses (the engine's paths and words)",
                {"taker": ["Unknown seat 'X': use N, E, S or W."]},
                "invalid_deal",
            ),
            "invalid_settings": _example(
                "House rules or settings refused",
                {"rules.target": ["Expected a whole number, got 'lots'."]},
                "invalid_settings",
            ),
            "invalid_lines": _example(
                "Pasted names or teams with mistakes, line by line",
                {"text": ["line 2: a name is missing"]},
                "invalid_lines",
            ),
            "invalid_credentials": _example(
                "Sign-in refused",
                {"detail": ["The username or the password is wrong."]},
                "invalid_credentials",
            ),
            "parse_error": _example(
                "The body is not JSON",
                {"detail": ["JSON parse error - Expecting value."]},
                "parse_error",
            ),
            "refused": _example(
                "An action refused for a reason you can fix",
                {"after_round": ["after_round must be a round number."]},
                "refused",
            ),
        },
    ),
    "401": (
        "Not signed in, or the token is not valid (revoked, mistyped). The answer's "
        "`WWW-Authenticate: Token` says how: send `Authorization: Token <key>`, a key from "
        "`POST /api/v1/auth/token/`.",
        {
            "not_authenticated": _example(
                "No credentials, or a revoked token",
                {"detail": ["This token is not valid, or was revoked."]},
                "not_authenticated",
            )
        },
    ),
    "403": (
        "Signed in, but not allowed (a referee closing a round, a director of another club).",
        {
            "forbidden": _example(
                "Not this person's to do",
                {"detail": ["Only a director of this club may do this."]},
                "forbidden",
            ),
            "permission_denied": _example(
                "Refused by the API's access rules",
                {"detail": ["You do not have permission to perform this action."]},
                "permission_denied",
            ),
        },
    ),
    "404": (
        "No such resource, or not visible to you (a private tournament does not leak).",
        {"not_found": _example("Not found", {"detail": ["Not found."]}, "not_found")},
    ),
    "405": (
        "Method not allowed.",
        {
            "method_not_allowed": _example(
                "A method the resource does not have",
                {"detail": ['Method "DELETE" not allowed.']},
                "method_not_allowed",
            )
        },
    ),
    "406": (
        "Not acceptable: ask for `application/json`.",
        {
            "not_acceptable": _example(
                "An Accept header the API cannot answer",
                {"detail": ["Could not satisfy the request Accept header."]},
                "not_acceptable",
            )
        },
    ),
    "409": (
        "Conflicts with the current state: reload and decide again.",
        {
            "conflict": _example(
                "Two requests at once, or a state that forbids it",
                {"detail": ["This conflicts with the current state; reload and try again."]},
                "conflict",
            ),
            "match_over": _example(
                "A deal after the match ended",
                {"detail": ["This match is over: no deal can be added."]},
                "match_over",
            ),
            "match_closed": _example(
                "A referee writing to a match a director closed",
                {"detail": ["A director has closed this match: it is read-only."]},
                "match_closed",
            ),
            "schedule_locked": _example(
                "Regenerating a schedule once deals exist",
                {"detail": ["Deals have been entered: the schedule can no longer be regenerated."]},
                "schedule_locked",
            ),
            "settings_locked": _example(
                "House rules once deals exist",
                {"rules": ["Deals have been entered: the house rules can no longer change."]},
                "settings_locked",
            ),
        },
    ),
    "415": (
        "Unsupported media type: send JSON (`Content-Type: application/json`).",
        {
            "unsupported_media_type": _example(
                "A form-encoded body",
                {
                    "detail": [
                        'Unsupported media type "application/x-www-form-urlencoded" in request.'
                    ]
                },
                "unsupported_media_type",
            )
        },
    ),
    "429": (
        "Too many requests (signing in is limited per address): wait the seconds of `Retry-After`.",
        {
            "throttled": _example(
                "Too many sign-ins",
                {"detail": ["Request was throttled. Expected available in 42 seconds."]},
                "throttled",
            )
        },
    ),
}
READ_ERRORS = ["400", "401", "403", "404", "405", "406", "429"]
WRITE_ERRORS = [*READ_ERRORS, "409", "415"]
METHODS = {"get", "post", "put", "patch", "delete", "head", "options"}


def add_error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Document the `{"errors", "code"}` answers of every operation, each code with an example."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    reference = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for code in READ_ERRORS if method == "get" else WRITE_ERRORS:
                description, examples = ERRORS[code]
                answer = responses.setdefault(code, {})
                answer["description"] = description
                media = answer.setdefault("content", {}).setdefault("application/json", {})
                media["schema"] = reference
                # An operation's own examples (a refused deal) come first.
                media["examples"] = {**examples, **media.get("examples", {})}
    return result


TOKEN_SCHEME = {
    "type": "apiKey",
    "in": "header",
    "name": "Authorization",
    "description": (
        "Send `Authorization: Token <key>` with every request. To get a key:\n\n"
        "- **Yourself**: `POST /api/v1/auth/token/` with your username and password "
        '(`{"username": "marie", "password": "..."}`); the answer\'s `key` is shown once. '
        "Signed in on the site, `POST /api/v1/me/tokens/` makes another. "
        "`GET /api/v1/me/tokens/` lists yours, `DELETE /api/v1/me/tokens/{id}/` revokes one.\n"
        "- **A referee's device**: their director creates the referee "
        "(`POST /api/v1/clubs/{id}/referees/`) and issues the token "
        '(`POST /api/v1/tokens/` with `{"user": <their user id>}`). Such a token acts with '
        "referee rights in that club only.\n\n"
        "A token needs no cookie and no CSRF token. A missing or revoked one answers 401."
    ),
}
SESSION_DESCRIPTION = (
    "The site's session cookie (`sessionid`), after signing in on the site's page "
    "`/accounts/login/`: how the browsable API and the docs page call the API. Writes "
    "with it must also send the `csrftoken` cookie's value as `X-CSRFToken` and a same-site "
    "`Referer`. Scripts: use a token instead."
)


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """club.authentication.TokenAuthentication in the schema, with how to get a key."""

    target_class = "club.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return TOKEN_SCHEME


GUIDE = """Clubs, tournaments, schedules, deal entry, standings and club rankings.

## Getting started

1. **Reading** public tournaments, schedules, matches, standings and rankings needs nothing.
2. **Signing in**: `POST /api/v1/auth/token/` with `{"username": ..., "password": ...}`
   answers a `key`, shown once. Send it as `Authorization: Token <key>` with every request.
   `GET /api/v1/me/` says who you are, your clubs and your role in each.
3. **A new install**: a site admin founds a club and its first director with
   `POST /api/v1/clubs/` (or `manage.py create_club`).
4. **An evening**: a director creates the tournament (`POST /api/v1/tournaments/`),
   registers teams (`POST /api/v1/tournaments/{id}/teams/`), opens it
   (`POST /api/v1/tournaments/{id}/status/`), draws the round robin
   (`POST /api/v1/tournaments/{id}/schedule/`), makes referees
   (`POST /api/v1/clubs/{id}/referees/`), gives each a device token
   (`POST /api/v1/tokens/`) and a table (`POST /api/v1/matches/{id}/referee/`). Referees
   enter each deal (`POST /api/v1/matches/{id}/deals/`, the JSON contract of the rule book
   §8, with an `Idempotency-Key`); everyone reads the standings
   (`GET /api/v1/tournaments/{id}/standings/`).

The repository's `docs/api.md` walks through a whole evening with `curl`.

## Errors

Every refusal has one shape, `{"errors": {"field.path": ["message", ...]}, "code": "..."}`:
messages by the path of the field they are about (`detail` for the whole request; a deal's
paths are the rule book's, `points.cards`), and a `code` a program can test. Each
operation lists its statuses with an example of each code.
"""


def describe_security_schemes(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """The guide at the top, and how to obtain each credential."""
    result.setdefault("info", {})["description"] = GUIDE
    schemes = result.setdefault("components", {}).setdefault("securitySchemes", {})
    if "cookieAuth" in schemes:
        schemes["cookieAuth"]["description"] = SESSION_DESCRIPTION
    return result


def integer_ids(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Ids in paths are whole numbers (their URL pattern, club.api.ID_PATTERN, is digits):
    say so, so a generated client takes an `int`, not a `str`."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter.get("in") == "path" and schema.get("pattern") == f"^{ID_PATTERN}$":
                    parameter["schema"] = {"type": "integer"}
    return result
