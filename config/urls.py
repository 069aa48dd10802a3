"""Top-level URLs: pages, the REST API and its schema, the admin, sign-in."""

from csp.decorators import csp_update
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournaments.views.public import home

urlpatterns = [
    path("", home, name="home"),
    # Browsers ask for /favicon.ico where a page names no icon (the API, the admin).
    # Lazy: the hashed name of a collected file is known only once collectstatic has run.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"), permanent=True)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(("config.api_router", "api"), namespace="api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its script as a file: the Content Security Policy allows no inline
    # one. Swagger UI sets style attributes as it draws: allowed on this page alone.
    path(
        "api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
    path("", include("scoring.urls")),
    path("", include("club.urls")),
    path("", include("pad.urls")),
    # Before the tournaments' own: the same addresses as when they were theirs.
    path("", include("entries.urls")),
    # Before the tournaments': `clubs/<club>/seasons/` is not a tournament's address.
    path("", include("seasons.urls")),
    path("", include("prizes.urls")),
    path("", include("tournaments.urls")),
]
