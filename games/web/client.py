"""The address a request came from, as throttles and lockouts count it.

Behind ``PROXY_COUNT`` reverse proxies (each appending to ``X-Forwarded-For``), the address the
outermost one saw is that many entries from the right. The header is believed only when the
request itself came from one of ``TRUSTED_PROXIES``: a client that reaches the server directly
could otherwise name any address it likes and never be locked out. Entries further left are
whatever the client sent, so they are never trusted.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _from_proxy(remote: str) -> bool:
    try:
        address = ipaddress.ip_address(remote)
    except ValueError:
        return False
    networks = getattr(settings, "TRUSTED_PROXIES", ())
    return any(address in ipaddress.ip_network(net, strict=False) for net in networks)


def client_ip(request: HttpRequest) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    count = int(getattr(settings, "PROXY_COUNT", 0))
    if count <= 0 or not remote or not _from_proxy(remote):
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < count:
        return remote
    return forwarded[-count]
