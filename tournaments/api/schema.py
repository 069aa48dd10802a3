"""Completes the OpenAPI schema with the error answers every operation may give."""

from __future__ import annotations

from typing import Any

ERROR = {
    "type": "object",
    "description": "Why the request was refused: messages by field path (`detail` for the whole request).",
    "properties": {
        "errors": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "code": {"type": "string"},
    },
    "required": ["errors", "code"],
}
DESCRIPTIONS = {
    "400": "Invalid input: each problem at its field path.",
    "403": "Not allowed (or not signed in).",
    "404": "No such resource, or not visible to you.",
    "405": "Method not allowed.",
    "406": "Not acceptable.",
    "409": "Conflicts with the current state (match over or closed, schedule locked...).",
    "415": "Unsupported media type.",
    "429": "Too many requests: try again after the seconds in Retry-After.",
}
READ_ERRORS = ["400", "403", "404", "405", "406", "429"]
WRITE_ERRORS = [*READ_ERRORS, "409", "415"]


def add_error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]: document the `{"errors", "code"}` answers."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    reference = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete", "head", "options"}:
                continue
            responses = operation.setdefault("responses", {})
            for code in READ_ERRORS if method == "get" else WRITE_ERRORS:
                existing = responses.get(code)
                if existing is None:
                    responses[code] = {"description": DESCRIPTIONS[code], "content": reference}
                elif "content" not in existing:
                    existing["content"] = reference
    return result
