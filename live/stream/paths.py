"""Which regions a stream request may ask for: the URL configuration's streamed views.

A stream request's path is `PREFIX` and then the path of the region's fragment on the site
(`/stream/clubs/<club>/<slug>/standings/live/`). The rest is resolved by Django's URL
resolver, and streamed only when the view it lands on is marked a region
(`live.regions.streamed`): the host keeps no copy of the site's paths, nor of which version
a region follows.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlencode

from django.urls import Resolver404, resolve

from ..regions import region_of
from ..versions import live_key
from .hub import Topic

PREFIX = "/stream"
LANGUAGE = re.compile(r"[a-z]{2}(-[a-z]{2,4})?")


def topic_of(scope: dict[str, Any]) -> tuple[Topic, bool] | None:
    """The topic a stream request asks for and whether it takes gzip; None for anything
    that is not one of the streamed regions."""
    path = scope.get("path", "")
    if not path.startswith(PREFIX + "/"):
        return None
    fragment = path[len(PREFIX) :]
    try:
        found = resolve(fragment)
    except Resolver404:
        return None
    region = region_of(found.func)
    if region is None:
        return None
    raw = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    query = {}
    for name in region.variants:
        value = (raw.get(name) or [""])[0]
        if value:
            if not (value.isdigit() and len(value) <= 5):
                return None
            query[name] = value
    language = (raw.get("lang") or ["en"])[0].lower()
    if not LANGUAGE.fullmatch(language):
        return None
    # The visitor's Host is not read: every fetch uses one the site trusts (`trusted_host`),
    # or a visitor could name one the site refuses and freeze the region for everyone.
    headers = {name.lower(): value for name, value in scope.get("headers", ())}
    gzip = b"gzip" in headers.get(b"accept-encoding", b"")
    key = f"{fragment}?{urlencode(sorted(query.items()))}|{language}"
    # The pub/sub channel of a subject's versions is its live key (versions.publish_live).
    club_slug, slug = (str(found.kwargs[name]) for name in region.address)
    channel = live_key(club_slug, slug)
    return Topic(key, channel, region.name, region.version, fragment, query, language), gzip
