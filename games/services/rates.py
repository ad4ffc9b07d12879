"""Rate limits that hold under parallel requests: each request adds one to its client's count
for the current window with a single ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` (SQLite and
PostgreSQL both have it), so two requests at once can never both read the old count. Windows are
fixed (a new one starts every ``seconds``): within one, no more than the limit get through.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction

from games.models import RateCount


@dataclass(frozen=True)
class Hit:
    count: int  # this request's place in the window, 1-based
    allowed: bool
    wait: float  # seconds until the next window


def rate_hit(key: str, *, limit: int, seconds: int, now: float | None = None) -> Hit:
    """Count one request for ``key``; allowed while the window's count is within ``limit``."""
    now = time.time() if now is None else now
    window = int(now // seconds)
    table, k, w, c = map(connection.ops.quote_name, [RateCount._meta.db_table, "key", "window", "count"])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({k}, {w}, {c}) VALUES (%s, %s, 1) "
            f"ON CONFLICT ({k}, {w}) DO UPDATE SET {c} = {table}.{c} + 1 RETURNING {c}",
            [key[:200], window],
        )
        (count,) = cursor.fetchone()
        if count == 1:
            # A new window for this client: its older ones are done with.
            RateCount.objects.filter(key=key[:200], window__lt=window).delete()
    return Hit(count=count, allowed=count <= limit, wait=(window + 1) * seconds - now)


def invite_lookup_allowed(address: str) -> bool:
    """Counts one look-up of an invite token from ``address``; False once there were too many
    this hour (a script trying tokens), the right token included, so guessing gains nothing."""
    return rate_hit(f"invite:{address}", limit=settings.INVITE_TRIES_PER_HOUR, seconds=3600).allowed
