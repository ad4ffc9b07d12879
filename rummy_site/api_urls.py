"""``/api/v1/``: every app's resources, the OpenAPI schema and its documentation page."""

from __future__ import annotations

from typing import Any

from django.urls import include, path
from django.utils.csp import CSP
from django.utils.decorators import method_decorator
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.api.body_types import GENERATING
from rummy_site import settings

# The documentation page runs Swagger UI (vendored, served from our static files), which sets
# style attributes as it draws: only that page may use inline styles; scripts stay our own.
DOCS_CSP: dict[str, Any] = {**settings.SECURE_CSP, "style-src": [CSP.SELF, CSP.UNSAFE_INLINE]}


class SchemaView(SpectacularAPIView):
    # Generated per request, in the caller's language; one generation at a time in a process
    # (drf-spectacular's generator keeps its state on the shared view classes).
    def _get_schema_response(self, request: Any) -> Any:
        with GENERATING:
            return super()._get_schema_response(request)


app_name = "api"
urlpatterns = [
    # The schema and its page are the same for everyone and cost nothing to serve: not throttled
    # (nor counted in the database).
    path("schema/", SchemaView.as_view(throttle_classes=[]), name="schema"),
    path(
        "docs/",
        method_decorator(csp_override(DOCS_CSP), name="dispatch")(SpectacularSwaggerSplitView).as_view(
            url_name="api:schema", throttle_classes=[]
        ),
        name="docs",
    ),
    # tournaments' first: its clubs/import/ must not be read as the club "import" (a reserved
    # address, like "new" and "join").
    path("", include("federations.api.urls")),
    path("", include("tournaments.api.urls")),
    path("", include("games.api.urls")),
]
