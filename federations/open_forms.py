"""Forms of the opens: a club's tournament hosted as an open, a person entered (his own entry,
one of a club organiser's people from a list, or anyone by federation id for the federation's
and the host's organisers) and withdrawn. The services check what was sent and raise coded
errors, which ``put_error`` places at the field they name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from federations.forms import _Once
from federations.link_forms import MAX_ID


class EndForm(_Once):
    """The tournament no longer an open: its request id only."""


class HostForm(_Once):
    """Host the tournament as an open of one of the club's federations."""

    federation = forms.ChoiceField(label=_("Federation"))
    self_entry = forms.BooleanField(label=_("Players may enter themselves"), required=False, initial=True)

    def __init__(self, *args: Any, federations: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["federation"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = federations


class EntryForm(_Once):
    """A person to enter or withdraw: his federation id (typed, or picked from a list)."""

    person = forms.CharField(label=_("Federation id"), max_length=MAX_ID)


class PickForm(_Once):
    """A club organiser's people, to enter one."""

    person = forms.TypedChoiceField(label=_("Person"), coerce=str)

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["person"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(str(number), label) for number, label in choices]
