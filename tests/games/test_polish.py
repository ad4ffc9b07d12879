"""Small things newcomers noticed on the hand form: the cards field's placeholder reads as an
example, the picker's button carries its words, and a card count's request inherits no
disabled-element selector that finds nothing inside the field."""

from __future__ import annotations

import pytest

from tests.clients import editor
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def test_the_hand_form_reads_as_newcomers_expect() -> None:
    game = GameFactory.create(players=["Ann", "Bob"])
    html = editor(game).get(f"/g/{game.public_id}/").content.decode()
    assert 'placeholder="e.g. KH 5S JK"' in html
    assert '<span class="pick-text">Tap the cards</span>' in html and "pick-icon" not in html
    # The form's save is disabled while it saves; the count fields inside do not inherit that.
    assert 'hx-disabled-elt="find .save" hx-disinherit="hx-disabled-elt"' in html
    assert "button[type=submit]" not in html


def test_czech_placeholder_is_an_example_too() -> None:
    game = GameFactory.create(players=["Ann", "Bob"])
    html = editor(game).get(f"/cs/g/{game.public_id}/").content.decode()
    assert 'placeholder="např. KS 5P Ž"' in html  # in the Czech letters the field reads
