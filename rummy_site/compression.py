"""Gzip for static files only (CSS, scripts, the manifest), never for pages.

In production WhiteNoise serves the Brotli and gzip copies that ``collectstatic`` made
(``CompressedManifestStaticFilesStorage``); under ``make run`` (DEBUG) it serves the files as they
are, so this middleware compresses them on the fly: htmx goes from 52 KB to 17 KB on a phone on the
club's Wi-Fi. A response that is already compressed passes through untouched.

HTML pages are never compressed, on purpose: they carry secrets next to text a visitor can
influence (the edit link's token on an editor's page, the CSRF token, invite tokens), which is what
the BREACH attack needs to read a secret from compressed sizes (docs/design/frontend.md).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class StaticGZipMiddleware(GZipMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        static = "/" + settings.STATIC_URL.lstrip("/")
        if not request.path.startswith(static) and request.path != "/manifest.webmanifest":
            return response
        return super().process_response(request, response)
