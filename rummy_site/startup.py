"""What a serving process builds before it answers its first request: what requests would
otherwise build on first use, several threads at once (the API's body checks, from the OpenAPI
schema; the release's digest of the code; the service worker's list of files; the export's
schema). The WSGI and ASGI entry points call ``prepare``; gunicorn loads them in each worker
before it accepts a connection, so the first requests of a fresh server find everything made.
"""

from __future__ import annotations

from games.api import body_types
from games.web import release
from rummy_site import pwa
from tournaments.exchange import schema as exchange_schema


def prepare() -> None:
    body_types.prepare()
    release.release_id()
    pwa.worker_settings()
    exchange_schema.prepare()
