"""The game page's share card: a QR code and a link to watch for
everyone, and for those who may write a separate link to record hands; the links name the
address other phones reach (PUBLIC_URL, the LAN address), never the organiser's localhost."""

from __future__ import annotations

import re
from html import unescape

import pytest
import zxingcpp
from django.test import Client, override_settings

from games.models import Game
from games.services.access import edit_url
from games.web import links
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def qr_text(svg: str) -> str:
    """What a phone's camera reads from the QR code drawn as ``svg`` (segno's inline SVG: one
    path of unit strokes). The path is painted into a grey image and decoded by zxing-cpp."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    dark = re.search(r'<path[^>]*stroke="#000"[^>]*\sd="([^"]+)"', svg)
    assert box is not None and dark is not None, svg[:200]
    size, scale = int(box[1]), 6
    modules = [[False] * size for _ in range(size)]
    x = y = 0.0
    for command, args in re.findall(r"([MmHhVv])([^MmHhVvZz]*)", dark[1]):
        numbers = [float(n) for n in re.findall(r"-?[\d.]+", args)]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        elif command in "hH":
            end = x + numbers[0] if command == "h" else numbers[0]
            for column in range(int(x), int(end)):
                modules[int(y)][column] = True
            x = end
        else:
            raise AssertionError(f"unexpected path command {command}")
    pixels = bytearray()
    for row in modules:
        line = b"".join((b"\x00" if dark_module else b"\xff") * scale for dark_module in row)
        pixels += line * scale
    image = memoryview(bytes(pixels)).cast("B", (size * scale, size * scale))
    found = zxingcpp.read_barcode(image)
    assert found is not None, "no QR code found"
    assert found.format == zxingcpp.BarcodeFormat.QRCode
    return str(found.text)


def share_card(html: str) -> str:
    start = html.index('id="share"')
    return html[start : html.index("js/share.js", start)]


def field(html: str, name: str) -> str | None:
    found = re.search(rf'id="{name}" type="text" readonly value="([^"]*)"', html)
    return unescape(found[1]) if found else None


def qr_of(html: str, section: str) -> str:
    start = html.index(f'class="share-link {section}"')
    found = re.search(r'<svg class="qr-code".*?</svg>', html[start:], re.S)
    assert found is not None
    return found[0]


def owner_client(game: Game) -> Client:
    client = Client()
    client.force_login(game.owner)  # type: ignore[arg-type]
    return client


@pytest.fixture
def game() -> Game:
    return GameFactory.create(owner=UserFactory.create(username="org"))


def test_a_viewer_sees_only_the_link_to_watch_and_its_code_reads_the_same(game: Game) -> None:
    html = Client().get(f"/g/{game.public_id}/").content.decode()
    card = share_card(html)
    watch = field(card, "share-view-url")
    assert watch == f"http://testserver/g/{game.public_id}/"
    assert qr_text(qr_of(card, "share-watch")) == watch
    assert field(card, "share-edit-url") is None and "share-edit" not in card
    assert game.edit_token not in html
    assert "Watch" in card and "Record hands" not in card


def test_an_editor_sees_both_links_told_apart_and_both_codes_decode(game: Game) -> None:
    html = owner_client(game).get(f"/g/{game.public_id}/").content.decode()
    card = share_card(html)
    watch, record = field(card, "share-view-url"), field(card, "share-edit-url")
    assert watch == f"http://testserver/g/{game.public_id}/"
    assert record == "http://testserver" + edit_url(game)
    assert qr_text(qr_of(card, "share-watch")) == watch
    assert qr_text(qr_of(card, "share-edit")) == record
    # Told apart: its own heading and a warning, and its code folded away behind a summary.
    edit_part = card[card.index('class="share-link share-edit"') :]
    assert "Record hands" in edit_part and "Anyone with this link can change the score sheet." in edit_part
    assert edit_part.index("<details") < edit_part.index('<svg class="qr-code"')


def test_no_style_attribute_in_the_codes_the_csp_forbids_them(game: Game) -> None:
    card = share_card(owner_client(game).get(f"/g/{game.public_id}/").content.decode())
    svgs = re.findall(r"<svg.*?</svg>", card, re.S)
    assert len(svgs) == 2
    assert all("style" not in svg and 'role="img"' in svg and "aria-label=" in svg for svg in svgs)


@override_settings(PUBLIC_URL="https://rummy.example.org", ALLOWED_HOSTS=["127.0.0.1"])
def test_at_localhost_the_links_name_the_configured_public_url(game: Game) -> None:
    html = owner_client(game).get(f"/g/{game.public_id}/", HTTP_HOST="127.0.0.1:8000").content.decode()
    card = share_card(html)
    assert field(card, "share-view-url") == f"https://rummy.example.org/g/{game.public_id}/"
    assert field(card, "share-edit-url") == "https://rummy.example.org" + edit_url(game)
    assert qr_text(qr_of(card, "share-edit")) == "https://rummy.example.org" + edit_url(game)
    assert "127.0.0.1" not in card and "localhost" not in card


@override_settings(LAN_URL="http://192.168.1.20:8000", ALLOWED_HOSTS=["localhost"])
def test_at_localhost_the_links_name_the_lan_address_make_run_found(game: Game) -> None:
    html = Client().get(f"/g/{game.public_id}/", HTTP_HOST="localhost:8000").content.decode()
    card = share_card(html)
    assert field(card, "share-view-url") == f"http://192.168.1.20:8000/g/{game.public_id}/"
    assert qr_text(qr_of(card, "share-watch")) == f"http://192.168.1.20:8000/g/{game.public_id}/"


@override_settings(LAN_DETECT=True, ALLOWED_HOSTS=["127.0.0.1"])
def test_at_localhost_without_settings_the_lan_address_is_looked_up(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(links, "lan_addresses", lambda: ["10.0.0.7", "192.168.0.9"])
    monkeypatch.setattr(links, "_lan_found", (0.0, []))
    html = owner_client(game).get(f"/g/{game.public_id}/", HTTP_HOST="127.0.0.1:8123").content.decode()
    card = share_card(html)
    assert field(card, "share-view-url") == f"http://10.0.0.7:8123/g/{game.public_id}/"
    assert field(card, "share-edit-url") == "http://10.0.0.7:8123" + edit_url(game)


@override_settings(LAN_DETECT=True, LAN_URL="http://192.168.1.20:8000", ALLOWED_HOSTS=["*"])
def test_a_phone_that_opened_a_lan_address_shares_that_address(game: Game) -> None:
    html = Client().get(f"/g/{game.public_id}/", HTTP_HOST="192.168.1.44:9000").content.decode()
    assert field(share_card(html), "share-view-url") == f"http://192.168.1.44:9000/g/{game.public_id}/"


@override_settings(LAN_DETECT=True, ALLOWED_HOSTS=["localhost"])
def test_with_no_lan_address_the_link_stays_on_this_computer(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(links, "lan_addresses", list)
    monkeypatch.setattr(links, "_lan_found", (0.0, []))
    html = Client().get(f"/g/{game.public_id}/", HTTP_HOST="localhost:8000").content.decode()
    assert field(share_card(html), "share-view-url") == f"http://localhost:8000/g/{game.public_id}/"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("[::1]", True),
        ("app.localhost", True),
        ("192.168.1.5", False),
        ("rummy.example.org", False),
        ("testserver", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert links.is_loopback(host) is loopback


def test_a_short_link_is_a_full_qr_code_not_a_micro_one() -> None:
    svg = links.qr_svg("http://a/g/x/", label="x")
    assert 'viewBox="0 0 29 29"' in svg  # version 1 (21 modules) and the quiet zone
    assert qr_text(svg) == "http://a/g/x/"


def test_make_run_passes_the_first_lan_address(monkeypatch: pytest.MonkeyPatch) -> None:
    from io import StringIO

    from django.core.management import call_command

    from rummy_site.management.commands import lan_addresses as command

    monkeypatch.setattr(command, "lan_addresses", lambda: ["10.0.0.7", "192.168.0.9"])
    out = StringIO()
    call_command("lan_addresses", "--port", "8080", "--first-url", stdout=out)
    assert out.getvalue().strip() == "http://10.0.0.7:8080"
    monkeypatch.setattr(command, "lan_addresses", list)
    out = StringIO()
    call_command("lan_addresses", "--first-url", stdout=out)
    assert out.getvalue() == ""  # no LAN: LAN_URL stays empty and the server looks itself


@override_settings(PUBLIC_URL="https://rummy.example.org", ALLOWED_HOSTS=["localhost"])
def test_the_tournament_table_links_use_the_same_address_and_codes() -> None:
    from games.models import Club
    from tests.tournaments.test_access import world
    from tournaments.models import Table

    w = world(Club.Visibility.PUBLIC, playing=True)  # round 2 is being played: its links write
    html = w.client("organiser").get(f"/t/{w.tournament.public_id}/r/2/links/", HTTP_HOST="localhost:8000")
    page = html.content.decode()
    codes = re.findall(r'<svg class="qr-code".*?</svg>', page, re.S)
    fields = [unescape(v) for v in re.findall(r'type="text" readonly value="([^"]+)"', page)]
    games = [
        t.game
        for t in Table.objects.filter(round__tournament=w.tournament, round__number=2).order_by("number")
    ]
    assert fields == ["https://rummy.example.org" + edit_url(g) for g in games if g is not None]
    assert [qr_text(svg) for svg in codes] == fields
