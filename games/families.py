"""The family table (``scoring.families``) as pages read it: names and words in the user's
language.

A family declares its words with its facts (``FamilyInfo.words``: roles, flags and kinds of
hand, marked for translation); forms, labels, summaries and the score sheet read them here, so
a family registered later brings its own words and needs no table in this layer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext, gettext_lazy

from scoring.families import FAMILY_INFO, FamilyInfo, Vocabulary, every_word

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise


@dataclass(frozen=True)
class ShownFamily:
    info: FamilyInfo
    name: str  # translated

    @property
    def key(self) -> str:
        return self.info.key


def family_name(key: str) -> str:
    """The family's name in the current language; an unknown key is shown as it is."""
    info = FAMILY_INFO.get(key)
    return gettext(info.name) if info is not None else key


def family_table() -> list[ShownFamily]:
    return [ShownFamily(info=info, name=gettext(info.name)) for info in FAMILY_INFO.values()]


def family_choices() -> list[tuple[str, str]]:
    """Every registered family as a (key, name) choice, names in the current language; the
    models' and forms' choices call it, so a family registered later is a choice too (and a
    new family needs no migration)."""
    return [(info.key, gettext(info.name)) for info in FAMILY_INFO.values()]


class _LiveChoices:
    """:func:`family_choices` read afresh each time it is iterated. Not callable, unlike the
    function, so the API schema's generator lists the families (it never calls a callable)."""

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(family_choices())


FAMILY_CHOICES: Iterable[tuple[str, str]] = _LiveChoices()


def words(family: str | None) -> Vocabulary:
    """The words of ``family``; with none or an unknown one (a stored outcome read without its
    game's rules), every registered family's at once."""
    info = FAMILY_INFO.get(family) if family is not None else None
    return info.words if info is not None else every_word()


def said(text: str) -> _StrPromise:
    """A family's word (marked in its module), translated when shown: form labels are drawn
    in the language of the request that shows them."""
    return gettext_lazy(text)
