"""The API's refusal body: `{"errors": {path: [messages]}, "code": ...}`, fields named as the
engine names them.

Here, not in tournaments/api/, because both the event's API and the score pad's answer with
it, and scoring is the lowest app both build on (the pad never imports tournaments).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def error_body(errors: Mapping[str, list[str]], code: str) -> dict[str, Any]:
    return {"errors": dict(errors), "code": code}
