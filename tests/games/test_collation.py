"""Names sort in each language's alphabetical order (games/text/collation.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.text.collation import name_sort_key
from games.text.names import clean_name

CZECH = [
    "Adam",
    "Ámos",
    "Cyril",
    "Čeněk",
    "Hana",
    "Chrudoš",
    "Radek",
    "Řehoř",
    "Sára",
    "Šárka",
    "Zdeněk",
    "Žofie",
]
# English (CLDR's root order): accents are no letters of their own, "ch" is c then h.
ENGLISH = [
    "Adam",
    "Ámos",
    "Čeněk",
    "Chrudoš",
    "Cyril",
    "Hana",
    "Radek",
    "Řehoř",
    "Sára",
    "Šárka",
    "Zdeněk",
    "Žofie",
]


@pytest.mark.parametrize(("language", "expected"), [("cs", CZECH), ("sk", CZECH), ("en", ENGLISH)])
def test_czech_and_slovak_letters_sort_after_their_base_letter(language: str, expected: list[str]) -> None:
    assert sorted(reversed(expected), key=lambda name: name_sort_key(name, language)) == expected


def test_polish_and_norwegian_letters() -> None:
    polish = ["Lech", "Łukasz", "Mariusz", "Oskar", "Óla", "Zenon", "Źdźisław", "Żaneta"]
    assert sorted(reversed(polish), key=lambda n: name_sort_key(n, "pl")) == polish
    norwegian = ["Ola", "Zorro", "Ærlig", "Øyvind", "Åse"]
    assert sorted(reversed(norwegian), key=lambda n: name_sort_key(n, "nb-NO")) == norwegian
    # A space sorts before any letter; case comes after the letters and accents.
    assert sorted(["Jana", "Jan Novák", "jan"], key=lambda n: name_sort_key(n, "cs")) == [
        "jan",
        "Jan Novák",
        "Jana",
    ]


@given(
    st.lists(st.text(max_size=8), max_size=8, unique_by=clean_name),
    st.sampled_from(["cs", "sk", "pl", "nb", "en", None]),
)
def test_the_order_is_total_so_any_listing_sorts_alike(names: list[str], language: str | None) -> None:
    """Different names never compare equal: the same names sort alike however they were listed."""
    keys = {name: name_sort_key(name, language) for name in names}
    assert len(set(keys.values())) == len(names)
    assert sorted(names, key=keys.__getitem__) == sorted(reversed(names), key=keys.__getitem__)
