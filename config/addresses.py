"""The client's address, as every part of the site reads it: behind DJANGO_NUM_PROXIES proxies.

A proxy appends the address it received the request from to X-Forwarded-For, so with n
trusted proxies in front of the site the client is the n-th address from the right; any
address further left was written by the client and proves nothing. With no proxy the
header is ignored (anyone can send it) and the socket's address is the client's.

The web tier (Django's requests) and the stream host (an ASGI scope, `scope_address`) read
it by the same rule; the stream host's uvicorn runs with `--no-proxy-headers`, so the scope's
client is the socket's own peer, as REMOTE_ADDR is behind gunicorn.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def _proxies() -> int:
    return int(getattr(settings, "PROXY_COUNT", 0) or 0)


def forwarded_address(remote: str, forwarded: str, proxies: int) -> str:
    """The client behind `proxies` proxies, given the peer's address and X-Forwarded-For."""
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    return hops[-min(proxies, len(hops))] if hops else remote


def client_address(request: Any) -> str:
    """The address of the client that sent `request` (login lockouts and API throttles)."""
    meta = getattr(request, "META", {})
    remote = str(meta.get("REMOTE_ADDR", "") or "")
    forwarded = str(meta.get("HTTP_X_FORWARDED_FOR", "") or "")
    return forwarded_address(remote, forwarded, _proxies())


def scope_address(scope: dict[str, Any]) -> str:
    """The address of the client of an ASGI request (the stream host's per-client cap)."""
    peer = scope.get("client") or ("", 0)
    # Several X-Forwarded-For lines are one list, in order (RFC 9110 §5.3).
    forwarded = ", ".join(
        value.decode("latin-1")
        for name, value in scope.get("headers", ())
        if name.lower() == b"x-forwarded-for"
    )
    return forwarded_address(str(peer[0]), forwarded, _proxies())
