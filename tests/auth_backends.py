"""Authentication backends for the test settings only."""

from typing import Any

from django.http import HttpRequest

from rummy_site.auth_backends import SiteAxesBackend


class AxesBackendAllowingTestClientLogin(SiteAxesBackend):
    """django-axes as in production, except that Django's test client ``login()`` works.

    ``Client.login()`` calls ``authenticate()`` without a request, which axes refuses; every
    request through the site's views (the login page, the admin's) carries one and is
    throttled exactly as in production.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)  # raises when locked out
        return None
