"""An engine error survives pickling as it was raised (as an exception crossing processes must)."""

from __future__ import annotations

import pickle

from engine.errors import EngineError
from games.services.errors import StaleEdit


def test_an_engine_error_pickles_with_its_code_message_and_params() -> None:
    error = EngineError("card_unknown", "no such card: XX", card="XX", hand=3)
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is EngineError
    assert (back.code, back.message, dict(back.params), str(back)) == (
        "card_unknown",
        "no such card: XX",
        {"card": "XX", "hand": 3},
        "no such card: XX",
    )
    assert back.as_dict() == error.as_dict()


def test_a_subclass_with_its_own_fields_pickles_whole() -> None:
    error = StaleEdit(hand=4, current={"winner": "Ann"})
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is StaleEdit
    assert (back.code, back.params, back.current, str(back)) == (
        "stale_edit",
        {"hand": 4},
        {"winner": "Ann"},
        "hand 4 was changed by someone else meanwhile",
    )
