"""The hand form's hidden fields drawn by ``{% hidden_inputs %}`` are exactly what Django's own
``{{ field }}`` draws: the tag only skips the widget templates (docs/design/performance.md)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django import forms
from django.utils import translation

from engine.rules import rule_set
from games.forms import HandForm, NewHandForm
from games.templatetags.games_tags import field_widget, hidden_inputs, radio_input

PLAYERS = ["Ola", "Kari", "Anna <b>"]


def drawn_by_django(form: forms.BaseForm) -> str:
    return "".join(str(field) for field in form.hidden_fields())


def hand_forms() -> list[forms.BaseForm]:
    rules = rule_set("zoliky")
    shown: dict[str, Any] = {"rules": rules, "players": PLAYERS, "seating": PLAYERS}
    request_id = uuid.UUID("6b1f0c2e-8a4b-4c55-9e1d-0f2a3b4c5d6e")
    return [
        NewHandForm(**shown, initial={"request_id": request_id, "for_hand": 7}),
        NewHandForm(**shown),  # no initial values: no value attributes
        HandForm(**shown, initial={"version": 3, "request_id": request_id}, prefix="h12"),
        # Bound, with what a phone sent (quotes and a bad version included) and its errors.
        NewHandForm({"request_id": "not-a-uuid", "for_hand": '4"><script>', "dealt_in": '["Ola"]'}, **shown),
        HandForm({"h3-version": "x", "h3-dealt_in": "[]"}, **shown, prefix="h3"),
    ]


@pytest.mark.parametrize("index", range(5))
def test_the_hand_forms_hidden_fields_are_drawn_as_django_draws_them(index: int) -> None:
    form = hand_forms()[index]
    if form.is_bound:
        form.is_valid()
    assert form.hidden_fields()
    assert hidden_inputs(form) == drawn_by_django(form)


class Flags(forms.Form):
    """Hidden fields with what the hand form does not use: required (which a hidden input never
    says), disabled, attributes and an id of their own, and no id at all."""

    needed = forms.CharField(widget=forms.HiddenInput)
    frozen = forms.IntegerField(widget=forms.HiddenInput(attrs={"data-x": 'a"b'}), disabled=True, initial=5)
    named = forms.CharField(widget=forms.HiddenInput(attrs={"id": "own"}), required=False, initial="")


@pytest.mark.parametrize("auto_id", ["id_%s", False])
def test_other_hidden_fields_are_drawn_as_django_draws_them_too(auto_id: str | bool) -> None:
    form = Flags(auto_id=auto_id)
    assert hidden_inputs(form) == drawn_by_django(form)
    drawn = hidden_inputs(form)
    assert " disabled" in drawn and 'data-x="a&quot;b"' in drawn and 'id="own"' in drawn


# ------------------------------------------------------------ the visible fields, and radios

FAMILIES = {
    "zoliky": {"credit_laid_down": True},  # laid-down fields
    "gin": {},  # melds, with its help text (aria-describedby)
    "carousel": {},
    "rummikub": {},
}


def every_hand_form() -> list[forms.BaseForm]:
    """Each family's hand forms, new and bound with what a phone may send (quotes, markup, a bad
    number, a choice that is no player) and their errors, with and without a prefix, in the
    languages the site speaks."""
    made: list[forms.BaseForm] = []
    for family, options in FAMILIES.items():
        rules = rule_set(family, options)
        shown: dict[str, Any] = {"rules": rules, "players": PLAYERS, "seating": PLAYERS}
        made.append(NewHandForm(**shown, initial={"for_hand": 3}))
        sent = {"points_0": '7"><b>', "points_1": "12", "cards_2": "KH <i>", "melds": "7H 8H | x"}
        sent |= {"laid_0": "a&b", "winner": "Anna <b>", "closer": "nobody", "knocker": "Kari", "gin": "on"}
        made.append(NewHandForm(sent, **shown))
        made.append(HandForm({f"h2-{k}": v for k, v in sent.items()}, **shown, prefix="h2"))
    return made


@pytest.mark.parametrize("language", ["en", "cs", "nb"])
def test_every_visible_field_and_radio_is_drawn_as_django_draws_it(language: str) -> None:
    drawn = 0
    with translation.override(language):
        for form in every_hand_form():
            if form.is_bound:
                form.is_valid()
            for field in form.visible_fields():
                assert field_widget(field) == str(field), field.name
                drawn += 1
                for radio in field.subwidgets if isinstance(field.field.widget, forms.RadioSelect) else []:
                    assert radio_input(radio) == radio.tag(), (field.name, radio.data["value"])
                    drawn += 1
    assert drawn > 100


class Others(forms.Form):
    """Widgets the hand form does not use: drawn by Django itself, as before."""

    text = forms.CharField(widget=forms.Textarea)
    when = forms.DateTimeField(localize=True, initial="2026-01-01 10:00")
    pick = forms.ChoiceField(choices=[("a", "A")], widget=forms.Select)


def test_other_widgets_are_left_to_django() -> None:
    form = Others()
    assert [field_widget(field) for field in form] == [str(field) for field in form]
