"""Export and import of a federation's own records through the API
(docs/design/federation-export.md):

- ``GET federations/{slug}/export/``: the federation's document, as an attachment. Organisers
  only (a members-only federation answers 404 to whoever may not see it).
- ``POST federations/import/``: the document (a JSON body, or a multipart form's ``file``)
  makes a new federation with the caller as its organiser. Everything is validated first; a
  problem anywhere answers 400 ``import_invalid`` with ``fields`` and ``report``, and nothing is
  written. A resend makes a second federation (as a club's import, no ``Idempotency-Key``).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework import parsers, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federations.api import exchange_schemas as schemas
from federations.api.exchange_serializers import ImportedFederationSerializer
from federations.api.lookups import visible_federation
from federations.exchange.exporting import export_federation
from federations.exchange.importing import import_federation
from federations.exchange.validation import ImportInvalid
from games.api.auth import TokenScope
from games.api.common import ApiError, StrictJSONParser
from games.web.input import InputRefused, read_json

# A file's document is read whole, as the JSON body is: the same limit.
MAX_FILE = 2_621_440


class FederationExport(APIView):
    @schemas.federation_export
    def get(self, request: Request, slug: str) -> Response:
        federation = visible_federation(request, slug, manage=True)
        response = Response(export_federation(federation))
        response["Content-Disposition"] = f'attachment; filename="{federation.slug}-federation.json"'
        return response


def _document(request: Request) -> Any:
    """The document of the body, or of the form's file."""
    try:
        body = request.data
    except RequestDataTooBig:
        raise ApiError(
            status_code=413,
            code="too_big",
            message=_("The export is too big to upload here; ask the site's administrator to import it."),
        ) from None
    upload = request.FILES.get("file") if request.content_type.startswith("multipart/") else None
    if upload is not None:
        if upload.size is not None and upload.size > MAX_FILE:
            raise ApiError(
                status_code=413,
                code="too_big",
                message=_("The export is too big to upload here; ask the site's administrator to import it."),
            )
        try:
            return read_json(upload.read())
        except InputRefused as refused:
            raise ApiError(status_code=400, code="invalid", message=refused.message, fields={}) from None
    if not isinstance(body, dict) or request.content_type.startswith("multipart/"):
        raise ApiError(
            status_code=400,
            code="invalid",
            message=_("Send the export as a JSON body, or as a form's file."),
            fields={},
        )
    return dict(body)


class FederationImport(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScope]
    parser_classes = [StrictJSONParser, parsers.MultiPartParser]

    @schemas.federation_import
    def post(self, request: Request) -> Response:
        doc = _document(request)
        assert request.user.is_authenticated
        try:
            done = import_federation(doc, user=request.user)
        except ImportInvalid as invalid:
            fields: dict[str, list[str]] = {}
            for problem in invalid.problems:
                fields.setdefault(problem.path, []).append(problem.message)
            raise ApiError(
                status_code=400,
                code="import_invalid",
                message=_("The export cannot be imported; nothing was written."),
                fields=fields,
                report=[p.as_dict() for p in invalid.problems],
            ) from None
        response = Response(ImportedFederationSerializer(done).data, status=status.HTTP_201_CREATED)
        response["Location"] = f"/f/{done.federation.slug}/"
        return response
