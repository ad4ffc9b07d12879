"""A sheet asked again unchanged answers 304 from its ETag; anything the page shows changes it."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from games.selectors.games import game_by_public_id, game_to_revalidate
from games.services.hands import hand_record
from games.sheets.cache import sheet_version
from tests.clients import editor
from tests.factories import ClubFactory, GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def etag(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return str(response["ETag"])


def test_an_unchanged_sheet_answers_304_from_one_query(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    hand_record(game=game, outcome={"winner": "Ann", "left": {"Bob": 7}}, request_id=None, user=None)
    viewer = Client()
    url = f"/g/{game.public_id}/"
    tag = etag(viewer, url)
    assert "no-cache" in viewer.get(url)["Cache-Control"]  # kept, and asked again
    with django_assert_num_queries(1):
        response = viewer.get(url, HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 304 and response["ETag"] == tag and not response.content


def test_a_write_changes_the_etag() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    viewer = Client()
    url = f"/g/{game.public_id}/"
    before = etag(viewer, url)
    client = editor(game)
    client.post(
        f"/g/{game.public_id}/hands/", {"request_id": str(uuid.uuid4()), "winner": "Ann", "cards_1": "R7"}
    )
    response = viewer.get(url, HTTP_IF_NONE_MATCH=before)
    assert response.status_code == 200 and response["ETag"] != before
    assert "Hand 1:" in response.content.decode()  # the hand just saved


def test_an_editor_and_a_viewer_get_different_etags_and_the_editor_page_is_not_stored() -> None:
    owner = UserFactory.create()
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"], owner=owner)
    url = f"/g/{game.public_id}/"
    owner_client = Client()
    owner_client.force_login(owner)
    stranger = Client()
    stranger.force_login(UserFactory.create())
    mine, theirs = etag(owner_client, url), etag(stranger, url)
    assert mine != theirs
    # Another viewer's tag never gets a 304 (it would keep his page, or another user's view).
    assert owner_client.get(url, HTTP_IF_NONE_MATCH=theirs).status_code == 200
    assert "no-store" in owner_client.get(url)["Cache-Control"]
    assert editor(game).get(url, HTTP_IF_NONE_MATCH=mine).status_code == 200


def test_the_language_changes_the_etag() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    viewer = Client()
    english = etag(viewer, f"/g/{game.public_id}/")
    czech = viewer.get(f"/cs/g/{game.public_id}/", HTTP_IF_NONE_MATCH=english)
    assert czech.status_code == 200 and czech["ETag"] != english


def test_pending_messages_are_never_answered_304() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    client = Client()
    url = f"/g/{game.public_id}/"
    tag = etag(client, url)
    # Opening the edit link leaves a message for the next page (and the right to edit).
    client.get(f"/g/{game.public_id}/edit/{game.edit_token}/")
    response = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 200 and "You can now record hands" in response.content.decode()


def test_the_history_answers_304_until_the_game_changes() -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    viewer = Client()
    url = f"/g/{game.public_id}/history/"
    tag = etag(viewer, url)
    assert viewer.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    hand_record(game=game, outcome={"winner": "Ann", "left": {"Bob": 7}}, request_id=None, user=None)
    assert viewer.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


@pytest.mark.parametrize("in_club", [True, False])
def test_the_etag_check_reads_the_game_as_the_whole_game_reads_it(
    in_club: bool, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    """The ETag check's one plain query (selectors.games.game_to_revalidate) gives the fields
    the tag and the access checks read exactly as the ORM's whole game does, on either database."""
    owner = UserFactory.create(first_name="Věra")
    club = ClubFactory.create(name="Klub Žolíky") if in_club else None
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"], owner=owner, club=club)
    hand_record(game=game, outcome={"winner": "Ann", "left": {"Bob": 7}}, request_id=None, user=None)
    whole = game_by_public_id(public_id=game.public_id)
    with django_assert_num_queries(1):
        checked = game_to_revalidate(public_id=game.public_id)
        assert checked is not None and whole is not None
        assert sheet_version(checked) == sheet_version(whole)
        assert checked.updated_at == whole.updated_at and checked.updated_at.tzinfo is not None
        fields = ("pk", "public_id", "owner_id", "club_id", "edit_token")
        assert [getattr(checked, f) for f in fields] == [getattr(whole, f) for f in fields]
        assert checked.owner is not None
        assert (checked.owner.username, checked.owner.first_name) == (owner.username, "Věra")
        if club is None:
            assert checked.club is None
        else:
            assert checked.club is not None
            fields = ("pk", "slug", "name", "visibility", "version")
            assert [getattr(checked.club, f) for f in fields] == [getattr(club, f) for f in fields]
            assert checked.club.name == "Klub Žolíky"
    # Whatever it did not read is deferred, never a default: asked for, it comes from the row.
    assert {"options", "family", "ended"} <= checked.get_deferred_fields()
    assert (checked.options, checked.family, checked.ended) == (whole.options, whole.family, whole.ended)
    assert game_to_revalidate(public_id="nosuchgame12") is None


def test_the_live_view_and_the_history_answer_304_from_one_query(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    viewer = Client()
    for url in (f"/g/{game.public_id}/live/", f"/g/{game.public_id}/history/"):
        tag = etag(viewer, url)
        with django_assert_num_queries(1):
            response = viewer.get(url, HTTP_IF_NONE_MATCH=tag)
        assert response.status_code == 304 and response["ETag"] == tag


def test_a_new_release_answers_the_page_again_not_304(settings: object) -> None:
    """A phone that kept the sheet and the live part from before a release gets them drawn by the
    new release's templates and translations, not a 304 for the old drawing."""
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob"])
    viewer = Client()
    page, live = f"/g/{game.public_id}/", f"/g/{game.public_id}/live/"
    settings.RELEASE = "release-1"  # type: ignore[attr-defined]
    tags = {url: etag(viewer, url) for url in (page, live)}
    assert all(viewer.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304 for url, tag in tags.items())
    settings.RELEASE = "release-2"  # type: ignore[attr-defined]
    for url, tag in tags.items():
        response = viewer.get(url, HTTP_IF_NONE_MATCH=tag)
        assert response.status_code == 200 and response["ETag"] != tag


def test_without_a_release_setting_the_sources_name_the_release(settings: object, tmp_path: Path) -> None:
    """Two servers of one release agree on its name; a changed template changes it."""
    from games.web import release

    (tmp_path / "templates").mkdir()
    sheet = tmp_path / "templates" / "sheet.html"
    sheet.write_text("<p>totals</p>")
    settings.RELEASE, settings.BASE_DIR, settings.DEBUG = "", tmp_path, True  # type: ignore[attr-defined]
    first = release.release_id()
    assert release.release_id() == first
    sheet.write_text("<p>totals, new</p>")
    assert release.release_id() != first


def test_in_development_the_sources_are_read_again_only_when_one_changed(
    settings: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each call looks at the sources' sizes and times; their contents are read when those
    change, even for an edit of the same size."""
    from games.web import release

    (tmp_path / "templates").mkdir()
    sheet = tmp_path / "templates" / "sheet.html"
    sheet.write_text("<p>totals</p>")
    settings.RELEASE, settings.BASE_DIR, settings.DEBUG = "", tmp_path, True  # type: ignore[attr-defined]
    read: list[str] = []
    digest = release._digest

    def reading() -> str:
        read.append(digest())
        return read[-1]

    monkeypatch.setattr(release, "_digest", reading)
    first = release.release_id()
    assert release.release_id() == release.release_id() == first and len(read) == 1
    sheet.write_text("<p>sheets</p>")
    os.utime(sheet, ns=(sheet.stat().st_mtime_ns + 10**9,) * 2)
    assert release.release_id() != first and len(read) == 2
