"""Forms of the clubs' and persons' federation pages: a club's answer to an invitation, a
player linked by his federation id, a claim of one's own entry. They read what was typed; the
services check it and raise coded errors, which ``put_error`` places at the field they name."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.club_forms import _Write
from games.models import Player
from games.text.names import MAX_NAME

# A federation id as typed ("CZ-00042", "cz 42"): never more than this.
MAX_ID = 20


class VersionedForm(_Write):
    """An answer or a removal: the version shown and a request id."""


class LinkForm(forms.Form):
    """Link one of the club's players not linked yet to the entry of a federation id."""

    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    person = forms.CharField(
        label=_("Federation id"),
        max_length=MAX_ID,
        help_text=_("As the federation's register shows it, e.g. CZ-00042."),
    )

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("request_id", uuid.uuid4())
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(p.pk, p.name) for p in players]


class RateForm(forms.Form):
    """Mark one of the club's tournaments federation-rated (1) or take the mark back (0)."""

    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    rated = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")


class ClaimForm(forms.Form):
    """A person's claim: his federation id and his name as the register has it."""

    person = forms.CharField(
        label=_("Your federation id"),
        max_length=MAX_ID,
        help_text=_("Your federation's organisers give it, e.g. CZ-00042."),
    )
    name = forms.CharField(
        label=_("Your name as registered"),
        max_length=MAX_NAME,
        help_text=_("As the federation's register has it."),
    )
