"""Links to share: the address other phones can open, and its QR code.

A link shown to be scanned or sent must name the address *other* phones reach, not the one the
organiser's own browser happens to use. In order:

1. ``settings.PUBLIC_URL``: the site's public address, configured in production.
2. The request's own host, unless it is a loopback name (``localhost``, ``127.0.0.1``, ``::1``):
   a phone that opened the page at a LAN address shares that address.
3. For a loopback host: ``settings.LAN_URL`` (``make run`` passes the first LAN address it
   found), else, with ``settings.LAN_DETECT``, this machine's first LAN address found now,
   with the request's scheme and port.
4. The request's host after all (no LAN address known: the link works on this computer only).
"""

from __future__ import annotations

import functools
import socket
import time

import ifaddr
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language_from_path, gettext

from games.models import Game
from games.services.access import edit_url

LOOPBACK_NAMES = frozenset({"localhost", "::1", "[::1]", "0.0.0.0"})
_LAN_SECONDS = 60.0  # how long a LAN address found at request time is used before looking again
_lan_found: tuple[float, list[str]] = (0.0, [])


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine other than loopback, without sending any traffic (read from
    the network interfaces, on Linux, macOS and Windows alike)."""
    found: set[str] = set()
    try:
        for adapter in ifaddr.get_adapters():
            found.update(ip.ip for ip in adapter.ips if isinstance(ip.ip, str))
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith(("127.", "169.254.")))


def is_loopback(host: str) -> bool:
    """``host`` (a request's host name, without the port) names this computer only."""
    name = host.lower().strip("[]") if host.startswith("[") else host.lower()
    return name in LOOPBACK_NAMES or name.startswith("127.") or name.endswith(".localhost")


def _recent_lan_addresses() -> list[str]:
    """``lan_addresses()``, looked up at most once a minute (it runs a command)."""
    global _lan_found
    when, found = _lan_found
    now = time.monotonic()
    if not when or now - when > _LAN_SECONDS:
        found = lan_addresses()
        _lan_found = (now, found)
    return found


def site_url(request: HttpRequest) -> str:
    """The scheme and host (with port) other phones open this site at, without a trailing slash."""
    public = str(getattr(settings, "PUBLIC_URL", "") or "").rstrip("/")
    if public:
        return public
    host = request.get_host()
    name, colon, port = host.rpartition(":") if not host.endswith("]") else ("", "", "")
    if not colon:
        name, port = host, request.get_port()
    if is_loopback(name):
        lan = str(getattr(settings, "LAN_URL", "") or "").rstrip("/")
        if lan:
            return lan
        if getattr(settings, "LAN_DETECT", False):
            found = _recent_lan_addresses()
            if found:
                return f"{request.scheme}://{found[0]}:{port}"
    return f"{request.scheme}://{host}"


def unprefixed(path: str) -> str:
    """``path`` without its language prefix (``/cs/g/…`` is ``/g/…``): the address that answers
    in each reader's own language (rummy_site/languages.py)."""
    code = get_language_from_path(path)
    return path.removeprefix(f"/{code}") if code else path


def absolute_url(request: HttpRequest, path: str) -> str:
    """``path`` (a site path, as ``reverse`` gives it) as a link other phones can open: without
    its language prefix, so that each phone reads it in its reader's language, not the
    sharer's."""
    return site_url(request) + unprefixed(path)


@functools.lru_cache(maxsize=256)
def _qr_path(url: str) -> str:
    import segno  # only pages that draw a code pay for the import

    # One module per SVG unit: the page sizes the code with CSS. No style attributes (the
    # site's CSP forbids them): segno's inline SVG uses fill/stroke attributes only.
    # make_qr: never a Micro QR, which phone cameras do not read.
    code = segno.make_qr(url, error="m")
    return str(code.svg_inline(scale=1, dark="#000", light="#fff", omitsize=True))


def qr_svg(url: str, *, label: str, css_class: str = "qr-code") -> SafeString:
    """The QR code of ``url`` as inline SVG, an image named ``label`` for screen readers."""
    svg = _qr_path(url)
    assert svg.startswith("<svg ")
    head = format_html('<svg class="{}" role="img" aria-label="{}" ', css_class, label)
    rest = svg.removeprefix("<svg ").replace(' class="segno"', "", 1)
    return mark_safe(head + rest)


class ShareLinks:
    """The game page's share card: the link to watch, for everyone, and the link to record
    hands, only for those who may write (it carries the edit token). Each is drawn when the
    page asks for it (an htmx answer that swaps only the sheet draws none)."""

    def __init__(self, request: HttpRequest, game: Game, *, editable: bool) -> None:
        self._request = request
        self._game = game
        # A game its event confirmed: the link no longer writes (the organisers correct it on
        # the page itself), so it is neither shown nor shared.
        self.locked = editable and game.results_locked
        self.editable = editable and not game.results_locked

    @functools.cached_property
    def view_url(self) -> str:
        path = reverse("games:detail", kwargs={"public_id": self._game.public_id})
        return absolute_url(self._request, path)

    @functools.cached_property
    def view_qr(self) -> SafeString:
        return qr_svg(self.view_url, label=gettext("QR code of the link to watch the score sheet"))

    @functools.cached_property
    def edit_url(self) -> str | None:
        return absolute_url(self._request, edit_url(self._game)) if self.editable else None

    @functools.cached_property
    def edit_qr(self) -> SafeString | None:
        if self.edit_url is None:
            return None
        return qr_svg(self.edit_url, label=gettext("QR code of the link to record hands"))


def token_from(text: str) -> str:
    """The token from what was pasted: the token itself, a new-style link (after ``#``) or an
    old-style one (its last path segment)."""
    text = text.strip()
    if "#" in text:
        return text.rsplit("#", 1)[1].strip()
    parts = [part for part in text.split("?", 1)[0].split("/") if part]
    return parts[-1] if parts else ""
