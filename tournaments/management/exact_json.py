"""The backup's JSON: Django's, but with times to the microsecond.

Django's JSON encoder cuts a time to milliseconds (ECMA-262's format). A backup restored from
it would move every timestamp (when a deal was entered, a match finished, a token issued) by
up to a millisecond, and change the order of rows made within one millisecond. The times are
written here as Python writes them (`isoformat`); the ordinary JSON deserializer reads them
back exactly, so `loaddata` needs nothing of this module.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.serializers import json
from django.core.serializers.json import DjangoJSONEncoder

Deserializer = json.Deserializer


class ExactEncoder(DjangoJSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time) and o.microsecond:
            return o.isoformat()
        return super().default(o)


class Serializer(json.Serializer):
    def _init_options(self) -> None:
        super()._init_options()  # type: ignore[misc]
        self.json_kwargs["cls"] = ExactEncoder
