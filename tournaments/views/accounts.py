"""Sign-in: the page a locked-out sign-in gets (django-axes calls it; settings say when)."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """429 with a page that says why and for how long, on the site's and the admin's sign-in."""
    minutes = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": minutes}
    return render(request, "registration/locked_out.html", context, status=429)
