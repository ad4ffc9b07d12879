"""django-axes as the site uses it: an account and an address are locked together first, so
ten wrong passwords typed for an organiser from one place do not lock him out everywhere; the
account alone is locked only after many more failures from anywhere (someone guessing its
password from many addresses)."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest
from django.utils import timezone

from rummy_site.security import AXES_USERNAME_LENGTH


def account_failures(username: str) -> int:
    """Failed logins for ``username`` from every address within the cool-off time."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    attempts = AccessAttempt.objects.filter(username=username[:AXES_USERNAME_LENGTH], attempt_time__gte=since)
    return int(attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0)


class SiteAxesBackend(AxesStandaloneBackend):
    def authenticate(
        self, request: HttpRequest, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> None:
        super().authenticate(request, username, password, **kwargs)  # raises when locked out
        if username and account_failures(username) >= settings.LOGIN_ACCOUNT_FAILURE_LIMIT:
            request.axes_locked_out = True  # type: ignore[attr-defined]
            raise AxesBackendPermissionDenied("the account is locked out from every address")
