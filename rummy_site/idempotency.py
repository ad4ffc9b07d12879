"""An ``Idempotency-Key`` names one request: the same key again with another body, or for
another operation or object, is refused with 422 (as the IETF's draft on the header says),
instead of answering the first request's result and dropping the second in silence.

The services make a resend idempotent themselves (a hand's, a tournament change's request id);
this only checks that a resend is one. A key is remembered once its request succeeded (a
refused request may be corrected and sent again with its key), for a week.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import IdempotentRequest
from games.web.input import InputRefused, read_json
from rummy_site.input_guard import API_PREFIX, refusal

KEPT = timedelta(days=7)
# The code of the refusal, here and where a service finds its request id given to another change.
REUSED = "idempotency_key_reused"
WRITES = ("POST", "PUT", "PATCH", "DELETE")
# Members that say what the sender saw, not what it asks (like If-Match): a hand's ``for_hand``
# may be stale in a resend from a phone's queue after the hand was placed anew.
PRECONDITIONS = frozenset({"for_hand"})


def _digest(request: HttpRequest) -> str:
    body = request.body
    if request.content_type == "application/json" and body:
        try:
            # The same document however it is spaced or ordered.
            document = read_json(body)
            if isinstance(document, dict):
                document = {k: v for k, v in document.items() if k not in PRECONDITIONS}
            body = json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
        except InputRefused:
            pass  # the parser refuses it in the view
    return hashlib.sha256(body).hexdigest()


class IdempotencyKeys:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        raw = request.headers.get("Idempotency-Key")
        if not raw or request.method not in WRITES or not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        try:
            key = uuid.UUID(raw)
        except ValueError:
            return self.get_response(request)  # the view answers the malformed header
        scope = f"{request.method} {request.path}"[:300]
        digest = _digest(request)
        earlier = IdempotentRequest.objects.filter(key=key).first()
        if earlier is not None and (earlier.scope, earlier.digest) != (scope, digest):
            return self.mismatch(request)
        response = self.get_response(request)
        if earlier is None and 200 <= response.status_code < 300:
            try:
                with transaction.atomic():
                    IdempotentRequest.objects.create(key=key, scope=scope, digest=digest)
            except IntegrityError:
                pass  # the same key, sent twice at once: the services kept one
            IdempotentRequest.objects.filter(created_at__lt=timezone.now() - KEPT).delete()
        return response

    @staticmethod
    def mismatch(request: HttpRequest) -> HttpResponse:
        return refusal(request, status=422, code=REUSED, message=reused_message())


def reused_message() -> str:
    return _(
        "This Idempotency-Key was used for another request: a resend must repeat the same request; "
        "a new request needs a new key."
    )
