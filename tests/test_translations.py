"""The committed .mo catalogues match their .po sources, so a fresh clone (no gettext) is translated."""

import ast
import gettext
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != "en"]


def po_entries(path: Path) -> dict[tuple[str | None, str], str]:
    """(msgctxt, msgid) -> msgstr of a .po file (singular entries, fuzzy ones skipped)."""
    entries: dict[tuple[str | None, str], str] = {}
    msgctxt = msgid = msgstr = None
    fuzzy = False
    current = ""
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = line.strip()
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgctxt "):
            msgctxt = ast.literal_eval(line[8:])
        elif line.startswith("msgid "):
            msgid, current = ast.literal_eval(line[6:]), "id"
        elif line.startswith("msgstr "):
            msgstr, current = ast.literal_eval(line[7:]), "str"
        elif line.startswith('"') and current == "id" and msgid is not None:
            msgid += ast.literal_eval(line)
        elif line.startswith('"') and current == "str" and msgstr is not None:
            msgstr += ast.literal_eval(line)
        elif not line:
            if msgid and msgstr is not None and not fuzzy:
                entries[(msgctxt, msgid)] = msgstr
            msgctxt = msgid = msgstr = None
            fuzzy, current = False, ""
    return entries


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_is_translated_and_compiled(language: str) -> None:
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    entries = po_entries(po)
    assert entries, f"{po} has no entries"
    untranslated = [msgid for (_, msgid), msgstr in entries.items() if not msgstr]
    assert not untranslated, f"{language}: untranslated {untranslated[:5]}"
    with mo.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    stale = [
        msgid
        for (context, msgid), msgstr in entries.items()
        if (catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)) != msgstr
    ]
    assert not stale, f"{mo} is older than {po}: run `make messages` ({stale[:3]})"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_plural_has_each_form_the_language_counts(language: str) -> None:
    """A plural missing one of its language's forms is shown in English for those numbers."""
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    header = text[text.index("Plural-Forms:") :]
    forms = int(header[header.index("nplurals=") + 9 :].split(";")[0])
    short = []
    for entry in text.split("\n\n"):
        if "\nmsgid_plural " in entry and not entry.lstrip().startswith("#~"):
            found = sum(1 for line in entry.splitlines() if line.startswith("msgstr["))
            if found != forms:
                short.append(entry.split("msgid_plural", 1)[0].split("msgid ", 1)[1].strip())
    assert not short, f"{language}: {forms} plural forms wanted, another count in {short[:3]}"
