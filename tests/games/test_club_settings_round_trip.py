"""The club's settings, the rating list's two among them: set through the API, seen and kept on
the settings page saved unchanged; refused out of range at the field and in the API."""

from __future__ import annotations

import pytest

from games.models import Club
from tests.tournaments.test_settings_round_trip import organiser_client, save_unchanged, settings_of

pytestmark = pytest.mark.django_db


def test_the_club_settings_page_keeps_every_setting_the_api_accepts() -> None:
    client, slug = organiser_client()
    api = f"/api/v1/clubs/{slug}/"
    tag = client.get(api)["ETag"]
    changed = client.patch(
        api,
        {"visibility": "members", "provisional_games": 12, "inactive_days": 45},
        content_type="application/json",
        headers={"If-Match": tag},
    )
    assert changed.status_code == 200, changed.content
    before = settings_of(client, api)
    assert before["provisional_games"] == 12 and before["inactive_days"] == 45
    assert before["visibility"] == "members"
    saved = save_unchanged(client, f"/c/{slug}/settings/")
    assert saved.status_code == 302, saved.content.decode()[-3000:]
    assert settings_of(client, api) == before
    assert Club.objects.get(slug=slug).version == 2  # the API changed it; the page saved nothing new


def test_out_of_range_settings_are_refused_at_the_field_and_in_the_api() -> None:
    client, slug = organiser_client()
    api = f"/api/v1/clubs/{slug}/"
    tag = client.get(api)["ETag"]
    refused = client.patch(
        api, {"inactive_days": -1}, content_type="application/json", headers={"If-Match": tag}
    )
    assert refused.status_code == 400
    assert client.patch(api, {"provisional_games": 3}, content_type="application/json").status_code == 428
    club = Club.objects.get(slug=slug)
    page = client.post(
        f"/c/{slug}/settings/",
        {
            "name": club.name,
            "slug": slug,
            "visibility": "public",
            "provisional_games": "1000",
            "inactive_days": "30",
            "version": club.version,
        },
    )
    assert page.status_code == 200
    assert "provisional_games" in page.context["form"].errors
    assert Club.objects.get(slug=slug).provisional_games == 5  # the default, kept
