"""The Wi-Fi address that shared links name is read from the network interfaces."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import pytest

from games.web import links


def test_lan_addresses_are_the_interfaces_ipv4_addresses_other_than_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def ip(address: object) -> SimpleNamespace:
        return SimpleNamespace(ip=address)

    adapters = [
        SimpleNamespace(ips=[ip("127.0.0.1"), ip(("::1", 0, 0))]),
        SimpleNamespace(ips=[ip("192.168.1.23"), ip(("fe80::1", 0, 2))]),
        SimpleNamespace(ips=[ip("169.254.10.1")]),  # no DHCP answer: no phone reaches it
        SimpleNamespace(ips=[ip("10.0.0.7")]),
    ]
    monkeypatch.setattr(links.ifaddr, "get_adapters", lambda: adapters)
    monkeypatch.setattr(links.socket, "getaddrinfo", lambda *a, **k: [])
    assert links.lan_addresses() == ["10.0.0.7", "192.168.1.23"]


def test_lan_addresses_survive_a_machine_without_interfaces_to_read(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> list[object]:
        raise OSError("no interfaces")

    monkeypatch.setattr(links.ifaddr, "get_adapters", refuse)
    monkeypatch.setattr(
        links.socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, 0, 0, "", ("192.168.0.9", 0))]
    )
    assert links.lan_addresses() == ["192.168.0.9"]
