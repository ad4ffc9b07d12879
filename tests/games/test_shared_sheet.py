"""The sheet copy shared by the application servers (games.sheet_cache, ``SheetCopy``): a server
that never drew a version of a game reads it from the database instead of scoring and drawing
the game, and shows exactly what drawing it afresh shows; a copy of any other version, or one
that does not read, is never shown."""

from __future__ import annotations

import dataclasses
import io
import pickle
import re
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import EngineError
from games import sheet_cache
from games.models import Game, SheetCopy
from games.selectors.sheets import game_sheet
from games.services.hands import hand_edit, hand_record
from games.sheet import Sheet
from tests.clients import editor
from tests.factories import GameFactory
from tests.games.test_results import FAST, OPTIONS, PLAYERS, outcome, still_in

pytestmark = pytest.mark.django_db


def another_server() -> None:
    """What this server kept in memory is gone: the next request is as on a server that never
    drew any game (the database, and the shared copies in it, stay)."""
    sheet_cache.forget_local()


def never_drawn(game: Game) -> None:
    """No server ever drew this game: nothing kept anywhere."""
    another_server()
    SheetCopy.objects.filter(game=game).delete()


def page(client: Client, game: Game, prefix: str = "", part: str = "") -> str:
    """The page as shown, without what names this drawing (tokens, request ids, the live tag)."""
    response = client.get(f"{prefix}/g/{game.public_id}/{part}")
    assert response.status_code == 200
    html = response.content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)
    html = re.sub(r'name="(\w*request_id)" value="[^"]*"', r'name="\1"', html)
    return re.sub(r'data-etag="[^"]*"', "", html)


@pytest.fixture
def scorings(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times a request scored a game, and drew the sheet's parts."""
    import games.selectors.sheets as sheets
    import games.views as views

    calls = {"scored": 0, "drawn": 0}
    real_score, real_render = sheets.score_game, views.render_to_string

    def score(*args: object, **kwargs: object) -> object:
        calls["scored"] += 1
        return real_score(*args, **kwargs)  # type: ignore[arg-type]

    def render(template: str, *args: object, **kwargs: object) -> str:
        calls["drawn"] += 1
        return real_render(template, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sheets, "score_game", score)
    monkeypatch.setattr(views, "render_to_string", render)
    return calls


def phone(game: Game) -> Client:
    """An editor's phone that has seen the page once (and with it the welcome message)."""
    client = editor(game)
    assert client.get(f"/g/{game.public_id}/").status_code == 200
    return client


def played(hands: int = 3) -> Game:
    game = GameFactory.create(family="rummikub", players=["Ann", "Bob", "Cid"])
    for i in range(hands):
        outcome = {"winner": "Ann", "left": {"Bob": 5 + i, "Cid": 9}}
        hand_record(game=game, outcome=outcome, request_id=None, user=None)
    return Game.objects.get(pk=game.pk)


def test_a_server_that_never_drew_the_game_shows_the_shared_copy(scorings: dict[str, int]) -> None:
    game = played()
    client = phone(game)
    never_drawn(game)
    scorings.update(scored=0, drawn=0)
    afresh = page(client, game)
    assert scorings == {"scored": 1, "drawn": 4}  # totals, table, chart and the hand form
    another_server()
    shown = page(client, game)
    assert scorings == {"scored": 1, "drawn": 4}  # neither scored nor drawn again
    assert shown == afresh
    assert "Hand 4" in shown and 'name="points_1"' in shown


def test_a_page_from_the_copy_costs_one_query_more_than_a_kept_one(
    django_assert_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    game = played()
    client = phone(game)
    page(client, game)
    with django_assert_num_queries(3) as kept:  # session, the game to revalidate, the whole game
        page(client, game)
    another_server()
    with django_assert_num_queries(4) as copied:
        page(client, game)
    assert "games_sheetcopy" in copied.captured_queries[-1]["sql"]
    assert not any("games_sheetcopy" in q["sql"] for q in kept.captured_queries)


def test_after_a_save_the_first_look_elsewhere_shares_the_new_version(
    scorings: dict[str, int],
    django_assert_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    game = played()
    client = phone(game)
    with django_assert_num_queries(15):  # the save writes no copy (test_views counts it)
        response = client.post(
            f"/g/{game.public_id}/hands/",
            {"request_id": str(uuid.uuid4()), "winner": "Bob", "points_0": "4", "points_2": "6"},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200 and "Hand 5" in response.content.decode()
    game.refresh_from_db()
    assert not SheetCopy.objects.get(game=game).stamp.endswith(game.updated_at.isoformat())
    another_server()
    scorings.update(scored=0)
    first = page(client, game)  # scores the new version, and shares it
    assert scorings["scored"] == 1 and "Hand 5" in first
    assert SheetCopy.objects.get(game=game).stamp.endswith(game.updated_at.isoformat())
    another_server()
    assert page(client, game) == first
    assert scorings["scored"] == 1  # the next server to look scores nothing
    assert SheetCopy.objects.filter(game=game).count() == 1  # one copy per game, replaced


def test_a_copy_of_an_earlier_version_is_never_shown() -> None:
    game = played()
    client = phone(game)
    page(client, game)
    old = SheetCopy.objects.get(game=game).stamp
    # Another phone records a hand through a path that draws no page.
    outcome = {"winner": "Cid", "left": {"Ann": 30, "Bob": 2}}
    hand_record(game=game, outcome=outcome, request_id=None, user=None)
    another_server()
    shown = page(client, game)
    assert "Hand 5" in shown and "Cid" in shown
    assert re.search(r'class="pts">[−+]?30<', shown)  # Ann's count in the new hand
    assert SheetCopy.objects.get(game=game).stamp != old


def test_a_copy_that_does_not_read_is_scored_anew(
    scorings: dict[str, int], caplog: pytest.LogCaptureFixture
) -> None:
    game = played()
    client = phone(game)
    never_drawn(game)
    afresh = page(client, game)
    SheetCopy.objects.filter(game=game).update(data=b"not a sheet")
    another_server()
    scorings.update(scored=0)
    assert page(client, game) == afresh
    assert scorings["scored"] == 1
    assert "does not read" in caplog.text


def test_the_copy_s_sheet_is_the_sheet_scored_afresh() -> None:
    game = played(hands=5)
    page(phone(game), game)
    another_server()
    copied = sheet_cache.shared_sheet(game)
    fresh = game_sheet(game=game)
    assert copied is not None and copied is not fresh
    assert copied.state == fresh.state and copied.rules == fresh.rules
    assert copied.players == fresh.players and copied.next_dealer == fresh.next_dealer
    fields = ("pk", "number", "outcome", "version", "request_id", "created_at", "updated_at")
    for mine, theirs in zip(copied.rows, fresh.rows, strict=True):
        assert [getattr(mine.hand, f) for f in fields] == [getattr(theirs.hand, f) for f in fields]
        times = ("created_at", "updated_at")  # to the microsecond, in UTC, as the ORM reads them
        assert [str(getattr(mine.hand, f)) for f in times] == [str(getattr(theirs.hand, f)) for f in times]
        assert mine.hand.game is game  # the reader's game, not a stored one
        assert (mine.ordinal, mine.dealer, mine.points, mine.totals, mine.kind) == (
            theirs.ordinal,
            theirs.dealer,
            theirs.points,
            theirs.totals,
            theirs.kind,
        )


def test_a_copy_written_by_another_release_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    game = played()
    client = phone(game)
    page(client, game)
    monkeypatch.setattr(sheet_cache, "RELEASE", "another release")
    another_server()
    assert sheet_cache.shared_sheet(game) is None


def test_each_language_gets_its_own_drawing_from_the_copy() -> None:
    game = played()
    client = phone(game)
    english = page(client, game)
    another_server()
    czech = page(client, game, prefix="/cs")
    with translation.override("cs"):
        caption = translation.gettext("Score sheet")
    assert caption != "Score sheet"
    assert f"<caption>{caption}</caption>" in czech
    assert "<caption>Score sheet</caption>" in english
    another_server()
    assert page(client, game, prefix="/cs") == czech  # both languages are in the copy now
    another_server()
    assert page(client, game) == english


def test_a_viewer_never_gets_the_editor_s_drawing() -> None:
    game = played()
    viewer = Client()
    never_drawn(game)
    afresh = page(viewer, game)
    never_drawn(game)
    page(editor(game), game)  # the copy now holds the editor's drawing only
    another_server()
    shown = page(viewer, game)
    assert shown == afresh
    assert 'name="points_1"' not in shown and "/edit/" not in shown


def test_the_live_view_reads_the_copy_too(scorings: dict[str, int]) -> None:
    game = played()
    client = phone(game)
    never_drawn(game)
    afresh = page(client, game, part="live/")
    another_server()
    before = dict(scorings)
    assert page(client, game, part="live/") == afresh
    assert scorings == before


def test_a_deleted_game_takes_its_copy_with_it() -> None:
    game = played()
    page(editor(game), game)
    assert SheetCopy.objects.filter(game=game).exists()
    game.delete()
    assert not SheetCopy.objects.exists()


def test_copies_nobody_rewrote_for_a_while_are_deleted(monkeypatch: pytest.MonkeyPatch) -> None:
    old, fresh = played(hands=1), played(hands=1)
    page(phone(old), old)
    long_ago = timezone.now() - sheet_cache.KEEP - timedelta(minutes=1)
    SheetCopy.objects.filter(game=old).update(written_at=long_ago)
    monkeypatch.setattr(sheet_cache, "_pruned", [])  # this server has not looked yet
    page(phone(fresh), fresh)  # a write of this server looks for old copies
    assert list(SheetCopy.objects.values_list("game", flat=True)) == [fresh.pk]
    another_server()
    assert "Hand 2" in page(phone(old), old)  # its next view draws and shares it again
    assert SheetCopy.objects.filter(game=old).exists()


def test_a_server_looks_for_old_copies_at_most_once_an_hour(
    monkeypatch: pytest.MonkeyPatch,
    django_assert_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    game = played(hands=1)
    client = phone(game)
    monkeypatch.setattr(sheet_cache, "_pruned", [])
    never_drawn(game)
    with django_assert_num_queries(8) as first:  # ... the copy missing, scored, written, pruned
        page(client, game)
    never_drawn(game)
    with django_assert_num_queries(7):  # the same, not pruned again
        page(client, game)
    assert "DELETE" in first.captured_queries[-1]["sql"]


def test_a_sheet_that_no_longer_scores_is_shared_with_its_error(
    scorings: dict[str, int], caplog: pytest.LogCaptureFixture
) -> None:
    game = played()
    client = phone(game)
    # Stored hands that no longer score (the writes prevent it; data changed behind their back).
    first = game.hands.order_by("number").first()
    assert first is not None
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now())
    first.__class__.objects.filter(pk=first.pk).update(outcome={"winner": "Nobody", "left": {}})
    game.refresh_from_db()
    never_drawn(game)
    afresh = page(client, game)
    assert "can no longer be scored" in afresh
    another_server()
    scorings.update(scored=0)
    assert page(client, game) == afresh
    assert scorings["scored"] == 0 and "does not read" not in caplog.text


@pytest.mark.parametrize("family", list(PLAYERS))
@FAST
@given(data=st.data(), steps=st.lists(st.sampled_from(["record", "record", "edit"]), min_size=1, max_size=8))
def test_every_family_s_sheet_comes_back_from_the_copy_as_scored(
    family: str, data: st.DataObject, steps: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Whatever a game holds (players out, missing counts marked by an edit that brought one
    back, knocks, gin, undercuts, an end reached), the sheet read from the copy is the sheet
    scored afresh."""
    options = data.draw(st.sampled_from(OPTIONS[family]), "options")
    game = GameFactory.create(family=family, options=options, players=PLAYERS[family])
    for step in steps:
        try:
            if step == "record":
                hand_record(
                    game=game, outcome=outcome(data.draw, family, still_in(game)), request_id=None, user=None
                )
            elif hands := list(game.hands.all()):
                hand = data.draw(st.sampled_from(hands))
                names = data.draw(st.sampled_from([still_in(game), PLAYERS[family]]))
                hand_edit(
                    hand=hand, outcome=outcome(data.draw, family, names), version=hand.version, user=None
                )
        except EngineError:
            pass  # refused: nothing changed
    game = Game.objects.get(pk=game.pk)
    never_drawn(game)
    page(phone(game), game)
    another_server()
    copied, fresh = sheet_cache.shared_sheet(game), game_sheet(game=game)
    assert copied is not None, caplog.text
    assert copied.state == fresh.state
    assert (copied.error and copied.error.as_dict()) == (fresh.error and fresh.error.as_dict())

    def shown(sheet: Sheet) -> list[object]:
        rows = [(r.hand.pk, r.hand.outcome, r.points, r.totals, r.missing, r.kind) for r in sheet.rows]
        return [*rows, sheet.players, sheet.next_dealer, sheet.closed]

    assert shown(copied) == shown(fresh)


def _locked_database(*args: object, **kwargs: object) -> None:
    raise OperationalError("database is locked")


def _unpicklable(copy: object) -> bytes:
    raise TypeError("cannot pickle this")


@pytest.mark.parametrize(
    ("target", "name", "failing", "logged"),
    [
        (SheetCopy.objects, "bulk_create", _locked_database, "not written"),  # the database busy
        (sheet_cache, "_dumps", _unpicklable, "does not pickle"),  # something in the sheet
    ],
)
def test_a_copy_that_cannot_be_kept_costs_the_copy_not_the_page(
    target: object,
    name: str,
    failing: object,
    logged: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = played()
    client = phone(game)
    never_drawn(game)
    afresh = page(client, game)
    never_drawn(game)
    monkeypatch.setattr(target, name, failing)
    assert page(client, game) == afresh
    assert not SheetCopy.objects.exists() and logged in caplog.text


def test_each_scoring_result_comes_back_from_a_copy_field_by_field() -> None:
    """The scoring's results go into a copy by their fields in order (sheet_cache._by_fields):
    each comes back with every field where it was, as its own class."""
    for cls in sheet_cache._RESULTS:
        values: dict[str, Any] = {f.name: (f.name, cls.__name__) for f in dataclasses.fields(cls)}
        original = cls(**values)  # each field its own value
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = sheet_cache._REDUCE
        pickler.dump(original)
        back = pickle.loads(buffer.getvalue())
        assert type(back) is cls
        assert {name: getattr(back, name) for name in values} == values
