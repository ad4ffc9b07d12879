"""Small hardening edges: API error documents keep the site's security headers, tournament and
season names are cleaned like player and club names."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/api/v1/no-such-thing/", "/api/v1/games/%00/"])
def test_api_error_documents_keep_the_security_headers(url: str) -> None:
    answer = Client().get(url)
    assert answer.status_code in (400, 404) and answer["Content-Type"] == "application/problem+json"
    assert "frame-ancestors 'none'" in answer["Content-Security-Policy"]
    assert answer["X-Frame-Options"] == "DENY"
    assert answer["X-Content-Type-Options"] == "nosniff"
