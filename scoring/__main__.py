"""`python -m scoring deal|match`: the §8 JSON contract on standard input and output.

Exit status 0 with the result, 2 with `{"errors": {...}}` for bad input. Paths: `deal` is the
deal object itself (missing or not an object), `points.cards` etc. inside it (unprefixed for
`deal`, `deals.<index>.` for `match`), `rules.<name>`, `first_dealer`, and `body` for standard
input that is not a JSON object (malformed JSON included).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from scoring.engine import InvalidDeal, InvalidMatch, Problem, codec
from scoring.engine.messages import problem

USAGE = "usage: python -m scoring deal|match < input.json\n"
_FIELDS = {"deal": ("rules", "deal"), "match": ("rules", "first_dealer", "deals")}


def _body(text: str, command: str) -> tuple[Mapping[str, Any] | None, list[Problem]]:
    try:
        body = json.loads(text)
    except ValueError as error:
        return None, [problem("malformed_json", "body", error=error)]
    if not isinstance(body, Mapping):
        return None, [problem("not_an_object", "body", value=body)]
    unknown = [problem("unknown_field", k, field=k) for k in body if k not in _FIELDS[command]]
    return body, unknown


def run(
    command: str, text: str, templates: Mapping[str, str] | None = None
) -> tuple[int, dict[str, Any]]:
    """The exit status and the JSON answer for `command` given standard input `text`; the
    messages from `templates` (translations by problem code) when given, else in English.

    The phone's engine calls this very function (static/js/engine-worker.js, docs/offline.md).
    """
    body, found = _body(text, command)
    if body is None:
        return 2, codec.errors_to_json(found, templates)
    try:
        if command == "deal":
            if "deal" not in body:
                found.append(problem("required", "deal"))
                raise InvalidDeal([])
            answer = codec.deal_answer(body.get("rules"), body["deal"])
        else:
            for name in ("first_dealer", "deals"):
                if name not in body:
                    found.append(problem("required", name))
            if found:
                raise InvalidMatch([])
            answer = codec.match_answer(body.get("rules"), body["first_dealer"], body["deals"])
    except (InvalidDeal, InvalidMatch) as error:
        return 2, codec.errors_to_json([*found, *error.problems], templates)
    if found:
        return 2, codec.errors_to_json(found, templates)
    return 0, answer


def main(argv: Sequence[str] | None = None, stdin: TextIO = sys.stdin) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] not in _FIELDS:
        sys.stderr.write(USAGE)
        return 64
    status, answer = run(args[0], stdin.read())
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
