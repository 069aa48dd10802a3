"""Top-level URLs: pages, the REST API and its schema, the admin, sign-in."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournaments.views.public import home

urlpatterns = [
    path("", home, name="home"),
    # Browsers ask for /favicon.ico where a page names no icon (the API, the admin).
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(("config.api_router", "api"), namespace="api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("scoring.urls")),
    path("", include("club.urls")),
    path("", include("tournaments.urls")),
]
