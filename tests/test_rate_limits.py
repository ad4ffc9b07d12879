"""Rate limits that hold under parallel requests: the API's throttles count with one atomic
upsert, sign-ups are limited per address, and the live-token limit holds with a row lock.
The parallel tests need a database with real concurrent connections (PostgreSQL); on the
in-memory SQLite of the default run the threads would share one connection."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, connections
from django.test import Client

from games.api.auth import AnonThrottle, TokenThrottle
from games.models import ApiToken, RateCount
from games.services.errors import ServiceError
from games.services.rates import rate_hit
from games.services.tokens import MAX_TOKENS, token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

needs_postgres = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3",
    reason="parallel connections need PostgreSQL (the in-memory SQLite has one shared connection)",
)


def in_parallel(count: int, work: Callable[[int], Any]) -> list[Any]:
    """``work(i)`` in ``count`` threads started together, each on its own connection."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_each_request_is_counted_once_per_window() -> None:
    start = 1_000_000 * 60.0
    hits = [rate_hit("k", limit=3, seconds=60, now=start + i).allowed for i in range(5)]
    assert hits == [True, True, True, False, False]
    assert rate_hit("other", limit=3, seconds=60, now=start).allowed
    later = rate_hit("k", limit=3, seconds=60, now=start + 61)
    assert later.allowed and later.count == 1
    # The finished window is cleared away when the next one starts.
    assert RateCount.objects.filter(key="k").count() == 1
    assert rate_hit("k", limit=3, seconds=60, now=start + 61).wait == pytest.approx(59)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_connections_never_get_more_than_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    rates = {"anon": "40/day", "user": "40/day"}  # one window for the whole test
    monkeypatch.setattr(AnonThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(TokenThrottle, "THROTTLE_RATES", rates)

    bearer = token_create(user=UserFactory.create(), name="script", scope="read")[1]
    for headers in [{}, {"HTTP_AUTHORIZATION": f"Bearer {bearer}"}]:

        def calls(_index: int, headers: dict[str, str] = headers) -> list[int]:
            client = Client()
            client.defaults.update(headers)
            return [client.get("/api/v1/clubs/").status_code for _ in range(12)]

        statuses = Counter(status for answers in in_parallel(8, calls) for status in answers)
        assert statuses == {200: 40, 429: 8 * 12 - 40}, headers


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_token_creations_keep_the_live_token_limit() -> None:
    user = UserFactory.create()
    results = in_parallel(30, lambda i: token_create(user=user, name=f"t{i}", scope="read"))
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert ApiToken.objects.filter(user=user, revoked_at=None).count() == MAX_TOKENS
    assert len(refused) == 30 - MAX_TOKENS and {r.code for r in refused} == {"token_limit"}


def signup(client: Client, name: str) -> Any:
    return client.post(
        "/accounts/signup/",
        {"username": name, "password1": "table-Secret-77", "password2": "table-Secret-77"},
    )


def test_sign_ups_are_limited_per_address(settings: Any) -> None:
    settings.SIGNUPS_PER_HOUR = 3
    answers = [signup(Client(), f"new{i}").status_code for i in range(5)]
    assert answers == [302, 302, 302, 429, 429]
    assert User.objects.filter(username__startswith="new").count() == 3
    refused = signup(Client(), "new9")
    assert "Too many new accounts" in refused.content.decode() and int(refused["Retry-After"]) > 0
    assert signup(Client(REMOTE_ADDR="10.0.0.7"), "elsewhere").status_code == 302


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_sign_ups_from_one_address_keep_the_limit(settings: Any) -> None:
    settings.SIGNUPS_PER_HOUR = 5
    answers = in_parallel(12, lambda i: signup(Client(), f"rush{i}").status_code)
    assert Counter(answers) == {302: 5, 429: 7}
    assert User.objects.filter(username__startswith="rush").count() == 5
    assert connection.vendor == "postgresql"
