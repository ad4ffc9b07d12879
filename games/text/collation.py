"""Names in a language's alphabetical order: one sort key for every list of names.

``name_sort_key`` is plain Python (no ICU, whose library a club's laptop may lack); ``by_name``
is the same key in the language of the page being drawn. Unicode's code points put "Řehoř",
"Šárka" and "Žofie" after "Zdeněk"; each language's alphabet puts them where its readers look
for them. A key compares letters first (the language's own letters, such as Czech "č", "ch",
"ř", "š", "ž", Polish "ł" or Norwegian "æ ø å", each after its base letter or the alphabet's
end, as CLDR orders them), then accents (á after a, in languages where they are no letter of
their own), then case, then the name as written (so the order is total).
"""

from __future__ import annotations

import functools
import unicodedata

from django.utils.translation import get_language

# Per language: the letters (or digraphs) that are letters of their own, each sorted right after
# the letter named (``None``: after "z"), in the order given (CLDR's tailorings).
_LETTERS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "cs": (("č", "c"), ("ch", "h"), ("ř", "r"), ("š", "s"), ("ž", "z")),
    "sk": (("ä", "a"), ("č", "c"), ("ch", "h"), ("ô", "o"), ("ř", "r"), ("š", "s"), ("ž", "z")),
    "pl": (
        ("ą", "a"),
        ("ć", "c"),
        ("ę", "e"),
        ("ł", "l"),
        ("ń", "n"),
        ("ó", "o"),
        ("ś", "s"),
        ("ź", "z"),
        ("ż", "z"),
    ),
    "nb": (("æ", None), ("ä", None), ("ø", None), ("ö", None), ("å", None), ("aa", None)),
    "en": (),
}
# Letters that sort as another letter's accented form (Norwegian "ä" is "æ", "ö" is "ø", "aa"
# is "å", "ü" is "y"), per language.
_SAME_AS: dict[str, dict[str, str]] = {"nb": {"ä": "æ", "ö": "ø", "aa": "å", "ü": "y"}}
# Letters Unicode does not decompose into a base letter and an accent.
_BASE = {"ł": "l", "đ": "d", "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ŀ": "l", "ı": "i", "ð": "d"}


@functools.cache
def _table(language: str) -> tuple[dict[str, tuple[str, int]], int]:
    """The language's own letters as (base letter, rank after it), and the longest of them."""
    same = _SAME_AS.get(language, {})
    weights: dict[str, tuple[str, int]] = {}
    counts: dict[str, int] = {}
    for letter, after in _LETTERS[language]:
        if letter in same:
            continue
        base = after if after is not None else "z"
        counts[base] = counts.get(base, 0) + 1
        weights[letter] = (base, counts[base])
    for letter, like in same.items():
        weights[letter] = weights.get(like, (like, 0))
    return weights, max((len(letter) for letter in weights), default=1)


def _language(language: str | None) -> str:
    code = (language or "en").lower().split("-")[0].split("_")[0]
    return code if code in _LETTERS else "en"


def name_sort_key(name: str, language: str | None = None) -> tuple[object, ...]:
    """The key that sorts ``name`` in ``language``'s alphabetical order (a language code such as
    "cs" or "cs-cz"; unknown languages and None sort as English)."""
    weights, longest = _table(_language(language))
    text = unicodedata.normalize("NFC", " ".join(name.split()))
    folded = text.casefold()
    primary: list[tuple[str, int]] = []
    accents: list[str] = []
    at = 0
    while at < len(folded):
        for size in range(min(longest, len(folded) - at), 0, -1):
            piece = folded[at : at + size]
            if piece in weights:
                primary.append(weights[piece])
                accents.append(unicodedata.normalize("NFD", piece)[1:] if size == 1 else "")
                at += size
                break
        else:
            char = folded[at]
            decomposed = unicodedata.normalize("NFD", char)
            base = "".join(c for c in decomposed if not unicodedata.combining(c))
            base = _BASE.get(base, base)
            # A space or a hyphen sorts before every letter ("Jan Novák" before "Jana").
            primary.extend((b if b.isalnum() else "", 0) for b in base or char)
            accents.append("".join(c for c in decomposed if unicodedata.combining(c)))
            at += 1
    return (tuple(primary), tuple(accents), tuple(not c.islower() for c in text), text)


def by_name(name: str) -> tuple[object, ...]:
    """``name_sort_key`` in the active language (the page's, the API caller's, the print's)."""
    return name_sort_key(name, get_language())
