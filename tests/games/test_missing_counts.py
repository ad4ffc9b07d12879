"""A wrong elimination is fixable in place.

Žolíky to 100: Bob's 15 typed as 150 in hand 1 put him out, and hands 2-4 were recorded without
him although he kept playing. Correcting hand 1 is accepted; hands 2-4 are kept and marked as
missing his count; one save fills the three counts in; every step is in the history and undo
takes it back exactly. Services here, pages in test_missing_counts_pages.py."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from engine.errors import EngineError
from games.models import Change, Game, Hand, Result, Score
from games.selectors.sheets import game_sheet
from games.services.errors import ServiceError, StaleEdit
from games.services.games import game_end
from games.services.hands import Fill, change_undo, counts_fill, hand_delete, hand_edit, hand_record
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db

TYPO = {"closer": "Ann", "from_hand": False, "left": {"Bob": 150, "Cid": 20}}
FIXED = {"closer": "Ann", "from_hand": False, "left": {"Bob": 15, "Cid": 20}}
LATER = [
    {"closer": "Cid", "from_hand": False, "left": {"Ann": 30}},
    {"closer": "Ann", "from_hand": False, "left": {"Cid": 25}},
    {"closer": "Cid", "from_hand": False, "left": {"Ann": 12}},
]
BOBS = {2: 20, 3: 8, 4: 31}  # what Bob had left in hands 2-4


def marked(outcome: dict[str, Any]) -> dict[str, Any]:
    return {**outcome, "missing": ["Bob"]}


def filled(outcome: dict[str, Any], count: int) -> dict[str, Any]:
    return {**outcome, "left": {**outcome["left"], "Bob": count}}


def evening() -> Game:
    """The evening as recorded: Bob out after hand 1, hands 2-4 without him."""
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    for outcome in [TYPO, *LATER]:
        hand_record(game=game, outcome=outcome, request_id=uuid.uuid4(), user=None)
    return game


def hand(game: Game, number: int) -> Hand:
    return Hand.objects.get(game=game, number=number)


def outcomes(game: Game) -> list[Any]:
    return [h.outcome for h in Hand.objects.filter(game=game)]


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a page or a standing reads: outcomes, scores, results, totals."""
    sheet = game_sheet(game=game)
    assert sheet.state is not None
    scores = sorted(Score.objects.filter(hand__game=game).values_list("hand__number", "seat__name", "points"))
    results = sorted(
        Result.objects.filter(game=game).values_list(
            "seat__name", "total", "place", "winner", "finished", "eliminated_in", "hands"
        )
    )
    return outcomes(game), scores, results, dict(sheet.state.totals), sheet.state.as_dict()


def correct(game: Game) -> Hand:
    return hand_edit(hand=hand(game, 1), outcome=FIXED, version=1, user=None)


def fill_all(game: Game) -> list[Hand]:
    fills = {n: Fill(hand(game, n).version, {"Bob": count}) for n, count in BOBS.items()}
    return counts_fill(game=game, fills=fills, user=None)


def results(game: Game) -> dict[str, tuple[Any, ...]]:
    return {
        r.seat.name: (r.total, r.winner, r.finished, r.eliminated_in)
        for r in Result.objects.filter(game=game).select_related("seat")
    }


def test_the_correction_is_accepted_and_the_later_hands_are_marked() -> None:
    game = evening()
    assert results(game)["Bob"] == (150, False, False, 1)
    correct(game)
    assert outcomes(game) == [FIXED, *(marked(o) for o in LATER)]
    assert [hand(game, n).version for n in (1, 2, 3, 4)] == [2, 2, 2, 2]
    state = game_sheet(game=game).state
    assert state is not None and state.incomplete
    assert state.missing_by_player == {"Bob": (2, 3, 4)}
    assert dict(state.totals) == {"Ann": 22, "Bob": 15, "Cid": 25}
    assert results(game) == {
        "Ann": (22, False, False, None),
        "Bob": (15, False, False, None),
        "Cid": (25, False, False, None),
    }
    # Bob's points in the marked hands are stored as 0 until filled in.
    assert sorted(Score.objects.filter(seat__name="Bob").values_list("hand__number", "points")) == [
        (1, 15),
        (2, 0),
        (3, 0),
        (4, 0),
    ]
    # The history: the correction, then each hand marked by it as a change of its own.
    changes = list(Change.objects.filter(game=game, action="edited").order_by("id"))
    assert [(c.hand_number, c.before, c.after) for c in changes] == [
        (1, TYPO, FIXED),
        (2, LATER[0], marked(LATER[0])),
        (3, LATER[1], marked(LATER[1])),
        (4, LATER[2], marked(LATER[2])),
    ]


def test_filling_the_counts_completes_the_game_with_the_right_totals() -> None:
    game = evening()
    correct(game)
    filled_hands = fill_all(game)
    assert [h.number for h in filled_hands] == [2, 3, 4]
    assert outcomes(game) == [FIXED, *(filled(o, BOBS[n]) for n, o in zip((2, 3, 4), LATER, strict=True))]
    state = game_sheet(game=game).state
    assert state is not None and not state.incomplete
    assert dict(state.totals) == {"Ann": 22, "Bob": 15 + 20 + 8 + 31, "Cid": 25}
    assert results(game)["Bob"] == (74, False, False, None)
    fills = Change.objects.filter(game=game, action="edited").order_by("-id")[:3]
    before = {n: marked(o) for n, o in zip((2, 3, 4), LATER, strict=True)}
    assert sorted((c.hand_number, c.before) for c in fills) == sorted(before.items())


def test_a_resend_of_the_fill_changes_nothing() -> None:
    game = evening()
    correct(game)
    shown = {n: hand(game, n).version for n in BOBS}
    counts_fill(game=game, fills={n: Fill(v, {"Bob": BOBS[n]}) for n, v in shown.items()}, user=None)
    before = snapshot(game), Change.objects.count()
    again = counts_fill(game=game, fills={n: Fill(v, {"Bob": BOBS[n]}) for n, v in shown.items()}, user=None)
    assert again == []
    assert (snapshot(game), Change.objects.count()) == before


def test_undo_of_each_fill_and_of_the_correction_restores_each_state_exactly() -> None:
    game = evening()
    recorded = snapshot(game)
    correct(game)
    corrected = snapshot(game)
    fill_all(game)
    fills = list(Change.objects.filter(game=game, action="edited").order_by("-id")[:3])
    # Each fill is undone on its own (any order): that hand misses Bob's count again.
    for change in fills:
        change_undo(change=change, user=None)
        assert change.hand_number is not None
        assert hand(game, change.hand_number).outcome == change.before
    assert snapshot(game)[0] == corrected[0]
    assert snapshot(game)[1:] == corrected[1:]
    # Undoing the correction unmarks the later hands: exactly the evening as recorded.
    correction = Change.objects.get(game=game, hand_number=1, action="edited", undoes=None)
    change_undo(change=correction, user=None)
    assert snapshot(game) == recorded
    # Redo (undo the undo): marked again.
    change_undo(change=Change.objects.get(undoes=correction), user=None)
    assert snapshot(game) == corrected


def test_the_correction_cannot_be_undone_under_filled_counts_and_marks_are_not_undone_alone() -> None:
    game = evening()
    correct(game)
    mark = Change.objects.filter(game=game, hand_number=2, action="edited").first()
    assert mark is not None
    with pytest.raises(ServiceError) as caught:
        change_undo(change=mark, user=None)
    assert caught.value.code == "follows_change"
    fill_all(game)
    before = snapshot(game)
    correction = Change.objects.get(game=game, hand_number=1, action="edited")
    with pytest.raises(EngineError) as refused:
        change_undo(change=correction, user=None)
    assert refused.value.code == "eliminated_player" and refused.value.params["hand"] == 2
    assert snapshot(game) == before


def test_a_fill_refuses_stale_forms_counts_not_missing_and_a_missing_version() -> None:
    game = evening()
    correct(game)
    with pytest.raises(StaleEdit) as stale:
        counts_fill(game=game, fills={2: Fill(1, {"Bob": 20})}, user=None)
    assert stale.value.params == {"hand": 2}
    assert stale.value.current == marked(LATER[0])
    with pytest.raises(ServiceError) as not_missing:
        counts_fill(game=game, fills={2: Fill(2, {"Cid": 20})}, user=None)
    assert not_missing.value.code == "count_not_missing"
    assert not_missing.value.params == {"hand": 2, "player": "Cid"}
    with pytest.raises(ServiceError) as unversioned:
        counts_fill(game=game, fills={2: Fill(None, {"Bob": 20})}, user=None)
    assert unversioned.value.code == "version_required"
    with pytest.raises(EngineError) as bad_card:
        counts_fill(game=game, fills={3: Fill(2, {"Bob": "ZZ"})}, user=None)
    assert bad_card.value.params["player"] == "Bob" and bad_card.value.params["hand"] == 3
    assert outcomes(game)[1:] == [marked(o) for o in LATER]  # nothing filled
    # One hand now, the others later: the rest stay missing.
    counts_fill(game=game, fills={3: Fill(2, {"Bob": "KH 5S"})}, user=None)
    state = game_sheet(game=game).state
    assert state is not None and state.missing_by_player == {"Bob": (2, 4)}
    assert state.totals["Bob"] == 15 + 15


def test_a_count_that_puts_the_player_out_unmarks_the_hands_after_it() -> None:
    game = evening()
    correct(game)
    # 15 + 90 = 105 after hand 2: Bob is out from hand 3 on, his counts there are moot.
    with pytest.raises(EngineError) as caught:
        counts_fill(game=game, fills={2: Fill(2, {"Bob": 90}), 3: Fill(2, {"Bob": 8})}, user=None)
    assert caught.value.code == "eliminated_player"
    assert caught.value.params == {"player": "Bob", "eliminated_in": 2, "hand": 3}
    counts_fill(game=game, fills={2: Fill(2, {"Bob": 90})}, user=None)
    assert outcomes(game) == [FIXED, filled(LATER[0], 90), *LATER[1:]]
    assert results(game)["Bob"] == (105, False, False, 2)
    unmarks = Change.objects.filter(game=game, hand_number__in=[3, 4]).order_by("-id")[:2]
    assert sorted((c.hand_number, c.before, c.after) for c in unmarks) == [
        (3, marked(LATER[1]), LATER[1]),
        (4, marked(LATER[2]), LATER[2]),
    ]


def test_only_a_correction_leaves_a_count_missing_and_only_one_missing_already() -> None:
    game = evening()
    correct(game)
    with pytest.raises(ServiceError) as new_hand:
        hand_record(game=game, outcome=marked(LATER[0]), request_id=uuid.uuid4(), user=None)
    assert new_hand.value.code == "count_required"
    assert new_hand.value.params == {"hand": 5, "player": "Bob"}
    with pytest.raises(EngineError) as typed:
        hand_record(game=game, outcome=LATER[0], request_id=uuid.uuid4(), user=None)
    assert typed.value.code == "missing_count"  # Bob is dealt in again: his count is needed
    # Correcting a marked hand may keep Bob's count missing, not leave out another one.
    kept = {"closer": "Cid", "from_hand": True, "left": {"Ann": 31}, "missing": ["Bob"]}
    hand_edit(hand=hand(game, 2), outcome=kept, version=2, user=None)
    assert hand(game, 2).outcome == kept
    with pytest.raises(ServiceError) as other:
        hand_edit(
            hand=hand(game, 3),
            outcome={"closer": "Ann", "left": {"Bob": 8}, "missing": ["Cid"]},
            version=2,
            user=None,
        )
    assert other.value.code == "count_required" and other.value.params == {"hand": 3, "player": "Cid"}


def test_nothing_is_won_or_settled_while_a_count_is_missing() -> None:
    """Bob back in with 95; Cid out after hand 2; Bob out on his known points in hand 3: Ann is
    the last player standing, but Bob's hand-2 count is missing, so nobody has won yet."""
    game = GameFactory.create(family="zoliky", players=["Ann", "Bob", "Cid"])
    hand_record(
        game=game, outcome={"closer": "Ann", "left": {"Bob": 150, "Cid": 20}}, request_id=None, user=None
    )
    hand_record(game=game, outcome={"closer": "Ann", "left": {"Cid": 90}}, request_id=None, user=None)
    assert results(game)["Ann"] == (-20, True, True, None)  # last player standing
    hand_edit(
        hand=hand(game, 1), outcome={"closer": "Ann", "left": {"Bob": 95, "Cid": 20}}, version=1, user=None
    )
    assert not any(winner or done for _, winner, done, _ in results(game).values())
    hand_record(game=game, outcome={"closer": "Ann", "left": {"Bob": 10}}, request_id=None, user=None)
    sheet = game_sheet(game=game)
    assert sheet.state is not None and sheet.state.finish_reason == "last_player"
    assert sheet.closed and not sheet.finished and sheet.incomplete
    assert sheet.state.winners == () and sheet.state.settlement is None
    assert not any(winner or done for _, winner, done, _ in results(game).values())
    # The evening declared over waits for the counts as well.
    game_end(game=game, ended=True)
    assert not any(winner or done for _, winner, done, _ in results(game).values())
    counts_fill(game=game, fills={2: Fill(2, {"Bob": 4})}, user=None)
    assert results(game)["Ann"] == (-30, True, True, None)


def test_deleting_a_marked_hand_and_undoing_it() -> None:
    game = evening()
    correct(game)
    corrected = snapshot(game)
    hand_delete(hand=hand(game, 3), version=2, user=None)
    assert [h.number for h in Hand.objects.filter(game=game)] == [1, 2, 4]
    change_undo(change=Change.objects.get(game=game, action="deleted"), user=None)
    assert snapshot(game)[0] == corrected[0]
    # A hand deleted while Bob was out comes back marked once he is back.
    game = evening()
    hand_delete(hand=hand(game, 3), version=1, user=None)
    correct(game)
    change_undo(change=Change.objects.get(game=game, action="deleted"), user=None)
    assert hand(game, 3).outcome == marked(LATER[1])
