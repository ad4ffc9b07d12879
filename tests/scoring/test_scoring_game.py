"""Games: running totals, elimination, the end, winners and end bonuses. Worked by hand."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.errors import EngineError
from scoring import GameState, score_game, start
from scoring.messages import MESSAGES

from ._support import rules


def game(
    family: str, players: Sequence[str], outcomes: Sequence[object], ended: bool = False, **options: object
) -> GameState:
    return score_game(rules=rules(family, **options), players=players, hands=outcomes, ended=ended)


ZOL = ["Ann", "Bob", "Cid"]


def zol(closer: str, **left: object) -> dict[str, object]:
    return {"closer": closer, "left": left}


def test_zoliky_running_totals_and_elimination_at_100_reaching() -> None:
    hands = [
        zol("Ann", Bob=60, Cid=5),  # Ann -10, Bob 60, Cid 5
        zol("Cid", Ann=20, Bob=40),  # Ann 10, Bob 100 -> out (reaching 100), Cid -5
        zol("Ann", Cid=30),  # Ann 0, Cid 25
    ]
    state = game("zoliky", ZOL, hands)
    assert [dict(t) for t in state.after_each_hand] == [
        {"Ann": -10, "Bob": 60, "Cid": 5},
        {"Ann": 10, "Bob": 100, "Cid": -5},
        {"Ann": 0, "Bob": 100, "Cid": 25},
    ]
    assert [(e.player, e.hand, e.total) for e in state.eliminated] == [("Bob", 2, 100)]
    assert state.active == ("Ann", "Cid")
    assert not state.finished
    assert state.leaders == ("Ann",)
    assert state.winners == ()


def test_zoliky_last_player_standing_wins() -> None:
    hands = [zol("Ann", Bob=99, Cid=50), zol("Ann", Bob=1, Cid=50)]
    state = game("zoliky", ZOL, hands)
    assert state.finished and state.finish_reason == "last_player" and state.finished_after == 2
    assert [e.player for e in state.eliminated] == ["Bob", "Cid"]
    assert state.winners == ("Ann",)


def test_zoliky_elimination_option_and_open_evening() -> None:
    hands = [zol("Ann", Bob=40, Cid=5), zol("Cid", Ann=20, Bob=45)]
    assert game("zoliky", ZOL, hands).eliminated == ()
    assert [(e.player, e.hand) for e in game("zoliky", ZOL, hands, elimination=50).eliminated] == [("Bob", 2)]
    open_evening = game("zoliky", ZOL, hands * 5, elimination=0)
    assert open_evening.eliminated == () and not open_evening.finished
    assert open_evening.totals == {"Ann": 50, "Bob": 425, "Cid": -25}
    ended = game("zoliky", ZOL, hands * 5, ended=True, elimination=0)
    assert ended.finished and ended.finish_reason == "ended"
    assert ended.winners == ("Cid",)  # fewest penalty points
    assert ended.settlement is not None
    assert ended.settlement.crowns == {"Ann": 5, "Bob": 43, "Cid": -2}  # 42.5 -> 43, -2.5 -> -2


def test_eliminated_player_cannot_score_later() -> None:
    hands = [zol("Ann", Bob=100, Cid=5), zol("Bob", Ann=3, Cid=4)]
    with pytest.raises(EngineError) as caught:
        game("zoliky", ZOL, hands)
    error = caught.value
    assert error.code == "eliminated_player"
    assert error.params == {"player": "Bob", "eliminated_in": 1, "hand": 2}
    assert error.message == "hand 2: " + MESSAGES["eliminated_player"].format(**error.params)
    # also when only named in "players" or in "left"
    for later in ({"players": ZOL, "closer": "Ann", "left": {"Cid": 3}}, zol("Ann", Bob=3, Cid=4)):
        with pytest.raises(EngineError, match="eliminated"):
            game("zoliky", ZOL, [hands[0], later])


def test_hand_errors_name_the_hand() -> None:
    with pytest.raises(EngineError) as caught:
        game("zoliky", ZOL, [zol("Ann", Bob=1, Cid=2), zol("Ann", Bob=-1, Cid=2)])
    assert caught.value.code == "negative_count"
    assert caught.value.params["hand"] == 2
    assert caught.value.message.startswith("hand 2: ")


def test_gin_to_150_highest_wins_and_no_hand_after_the_end() -> None:
    knock = {"knocker": "Ann", "gin": True, "deadwood": {"Ann": 0, "Bob": 30}}  # 55 a hand
    state = game("gin", ["Ann", "Bob"], [knock] * 3)
    assert state.hand_totals == {"Ann": 165, "Bob": 0}
    assert state.finished and state.finish_reason == "target" and state.finished_after == 3
    assert state.winners == ("Ann",)
    assert [dict(t)["Ann"] for t in state.after_each_hand] == [55, 110, 165]
    with pytest.raises(EngineError) as caught:
        game("gin", ["Ann", "Bob"], [knock] * 4)
    assert caught.value.code == "game_over"
    assert caught.value.params == {"finished_after": 3, "hand": 4}
    assert not game("gin", ["Ann", "Bob"], [knock] * 3, target=200).finished


def test_carousel_end_bonuses() -> None:
    players = ["Ann", "Bob", "Cid"]
    hands = [
        {"knocker": "Ann", "left": {"Ann": 2, "Bob": 50, "Cid": 60}},  # Ann 48 + 58 = 106
        {"knocker": None, "out": "Bob", "left": {"Ann": 30, "Cid": 40}},  # Bob 70 + 25 = 95
        {"knocker": "Cid", "left": {"Ann": 30, "Bob": 30, "Cid": 5}},  # Cid 50
        {"knocker": "Ann", "left": {"Ann": 1, "Bob": 31, "Cid": 21}},  # Ann 30 + 20 = 50 -> 156
    ]
    state = game("carousel", players, hands)
    assert state.hand_totals == {"Ann": 156, "Bob": 95, "Cid": 50}
    assert state.finished and state.finish_reason == "target"
    assert state.hands_won == {"Ann": 2, "Bob": 1, "Cid": 1}
    assert [(b.player, b.kind, b.points) for b in state.bonuses] == [
        ("Ann", "game", 100),
        ("Ann", "hands_won", 50),
        ("Bob", "hands_won", 25),
        ("Cid", "hands_won", 25),
    ]
    assert state.totals == {"Ann": 306, "Bob": 120, "Cid": 75}
    assert state.winners == ("Ann",)
    options = game("carousel", players, hands, game_bonus=50, hand_win_bonus=10)
    assert options.totals == {"Ann": 226, "Bob": 105, "Cid": 60}


def test_carousel_bonuses_only_at_the_end() -> None:
    state = game("carousel", ["Ann", "Bob"], [{"knocker": "Ann", "left": {"Ann": 1, "Bob": 11}}])
    assert not state.finished and state.bonuses == () and state.totals == {"Ann": 10, "Bob": 0}


def test_rummikub_agreed_hands_and_open() -> None:
    out = {"winner": "Ann", "left": {"Bob": 10}}
    state = game("rummikub", ["Ann", "Bob"], [out, out], hands=2)
    assert state.finished and state.finish_reason == "hands" and state.winners == ("Ann",)
    assert state.totals == {"Ann": 20, "Bob": -20}
    assert not game("rummikub", ["Ann", "Bob"], [out, out]).finished


def test_winners_tie() -> None:
    hands = [{"winner": "Ann", "left": {"Bob": 10}}, {"winner": "Bob", "left": {"Ann": 10}}]
    assert game("rummikub", ["Ann", "Bob"], hands, ended=True).winners == ("Ann", "Bob")


def test_incremental_edit_and_delete() -> None:
    g = start(rules=rules("zoliky"), players=ZOL)
    g = g.play(zol("Ann", Bob=60, Cid=5)).play(zol("Cid", Ann=20, Bob=40)).play(zol("Ann", Cid=30))
    assert [e.player for e in g.state.eliminated] == ["Bob"]
    # correcting hand 2 keeps Bob in; hand 3 (which omits Bob) is now missing him
    with pytest.raises(EngineError) as caught:
        g.replace(1, zol("Cid", Ann=20, Bob=30))
    assert caught.value.code == "missing_count" and caught.value.params["hand"] == 3
    edited = g.replace(2, zol("Ann", Cid=35))
    assert edited.state.totals == {"Ann": 0, "Bob": 100, "Cid": 30}
    deleted = g.delete(2)
    assert deleted.state.totals == {"Ann": 10, "Bob": 100, "Cid": -5}
    with pytest.raises(EngineError) as caught:
        g.delete(0)  # Bob is no longer out when the third hand (now the second) is scored
    assert caught.value.code == "missing_count" and caught.value.params["hand"] == 2
    assert (
        deleted.state.as_dict()
        == score_game(rules=rules("zoliky"), players=ZOL, hands=deleted.outcomes).as_dict()
    )


def test_game_players_are_checked() -> None:
    for players, code in (
        (["Ann"], "player_count"),
        (["Ann", "Ann"], "duplicate_player"),
        (["Ann", ""], "bad_player_name"),
    ):
        with pytest.raises(EngineError) as caught:
            game("zoliky", players, [])
        assert caught.value.code == code
    with pytest.raises(EngineError) as caught:
        game("gin", ["A", "B", "C"], [])
    assert caught.value.params == {"family": "gin", "minimum": 2, "maximum": 2, "count": 3}


def test_a_hand_limit_ends_every_family_after_that_many_hands() -> None:
    """A tournament round of N hands: the game is finished after N hands (unless the family's
    own end came first), and a further hand is refused as for any finished game."""
    cases = {
        "zoliky": (
            ["Ann", "Bob", "Cid"],
            {"closer": "Ann", "from_hand": False, "left": {"Bob": 5, "Cid": 9}},
        ),
        "gin": (["Ann", "Bob"], {"knocker": "Ann", "gin": False, "deadwood": {"Ann": 3, "Bob": 20}}),
        "carousel": (
            ["Ann", "Bob", "Cid"],
            {"knocker": "Ann", "out": None, "left": {"Ann": 2, "Bob": 9, "Cid": 7}},
        ),
        "rummikub": (["Ann", "Bob", "Cid"], {"winner": "Ann", "left": {"Bob": 5, "Cid": 9}}),
    }
    for family, (players, hand) in cases.items():
        game_rules = rules(family)
        open_game = score_game(rules=game_rules, players=players, hands=[hand, hand])
        assert not open_game.finished, family
        limited = score_game(rules=game_rules, players=players, hands=[hand, hand], hand_limit=2)
        assert limited.finished and limited.finish_reason == "hands" and limited.finished_after == 2, family
        assert limited.totals == open_game.totals or family == "carousel", family  # Carousel adds end bonuses
        with pytest.raises(EngineError) as over:
            score_game(rules=game_rules, players=players, hands=[hand, hand, hand], hand_limit=2)
        assert over.value.code == "game_over", family
