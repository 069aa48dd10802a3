"""Sign-in: the answer a locked-out sign-in gets (django-axes calls it; settings say when)."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext

from club.permissions import directs_any


def locked_out(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """429 that says why and for how long: a page on the site's and the admin's sign-in, the
    API's error body on `POST /api/v1/auth/token/`."""
    minutes = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    if request.path.startswith("/api/"):
        message = ngettext(
            "Too many failed sign-ins for this account or from this address: "
            "try again in %(minutes)d minute.",
            "Too many failed sign-ins for this account or from this address: "
            "try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
        response = JsonResponse({"errors": {"detail": [message]}, "code": "locked_out"}, status=429)
        response["Retry-After"] = str(minutes * 60)
        return response
    context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": minutes}
    return render(request, "registration/locked_out.html", context, status=429)


@login_required
def signed_in(request: HttpRequest) -> HttpResponse:
    """Where signing in lands: a director on the pages of the clubs they direct, anyone else
    (a referee) on their tables."""
    return redirect(
        "tournaments:director_index" if directs_any(request.user) else "tournaments:my_tables"
    )
