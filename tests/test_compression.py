"""Static files are gzipped, pages never (BREACH: docs/design/frontend.md)."""

from __future__ import annotations

import gzip

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from rummy_site.compression import StaticGZipMiddleware
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

CSS = ("body { color: var(--fg); }\n" * 200).encode()


def served(path: str) -> HttpResponse:
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse(CSS, content_type="text/css")

    request = RequestFactory().get(path, HTTP_ACCEPT_ENCODING="gzip, br")
    response = StaticGZipMiddleware(view)(request)
    assert isinstance(response, HttpResponse)
    return response


def test_a_static_file_is_gzipped() -> None:
    response = served("/static/css/site.css")
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.content) == CSS and len(response.content) < len(CSS) / 10


def test_a_page_is_never_compressed() -> None:
    assert not served("/g/abc/").has_header("Content-Encoding")
    game = GameFactory.create()
    client = Client()
    client.get(f"/g/{game.public_id}/edit/{game.edit_token}/")
    page = client.get(f"/g/{game.public_id}/", HTTP_ACCEPT_ENCODING="gzip")
    assert page.status_code == 200 and game.edit_token in page.content.decode()
    assert not page.has_header("Content-Encoding")
