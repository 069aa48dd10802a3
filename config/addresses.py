"""The client's address, as every part of the site reads it: behind DJANGO_NUM_PROXIES proxies.

A proxy appends the address it received the request from to X-Forwarded-For, so with n
trusted proxies in front of the site the client is the n-th address from the right; any
address further left was written by the client and proves nothing. With no proxy the
header is ignored (anyone can send it) and the socket's address is the client's.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_address(request: Any) -> str:
    """The address of the client that sent `request` (login lockouts and API throttles)."""
    meta = getattr(request, "META", {})
    remote = str(meta.get("REMOTE_ADDR", "") or "")
    proxies = int(getattr(settings, "PROXY_COUNT", 0) or 0)
    forwarded = str(meta.get("HTTP_X_FORWARDED_FOR", "") or "")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    return hops[-min(proxies, len(hops))] if hops else remote
