"""The family table (``scoring.families``) as pages read it: names in the user's language."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from scoring.families import FAMILY_INFO, FamilyInfo


@dataclass(frozen=True)
class ShownFamily:
    info: FamilyInfo
    name: str  # translated

    @property
    def key(self) -> str:
        return self.info.key


def family_name(key: str) -> str:
    """The family's name in the current language; an unknown key is shown as it is."""
    info = FAMILY_INFO.get(key)  # type: ignore[call-overload]
    return gettext(info.name) if info is not None else key


def family_table() -> list[ShownFamily]:
    return [ShownFamily(info=info, name=gettext(info.name)) for info in FAMILY_INFO.values()]
