"""JSON bodies hold the types the schema says. DRF's fields are lenient (a boolean field takes
``0`` or ``"yes"``, an integer field ``"5"`` or ``5.0``, a text field ``5``), so a body the
published schema forbids could be accepted; clients written from the schema then meet an API
looser than its contract, and the contract stops meaning anything. Each request's body is checked
against its operation's request schema (the one ``make schema`` publishes) for types alone:
bounds, lengths, choices and required members stay the serializers' (their messages are the
specific ones).

The types are stated once, in the serializers: drf-spectacular reads them into the published
schema, and the checks here are made from that same schema. They are made once per process
before it answers (``prepare``, from the WSGI and ASGI entry points), never inside a request:
drf-spectacular's generator keeps its state on the view classes every thread shares, so two
generations at once in one process break each other. ``GENERATING`` lets one run at a time
(the schema's own page generates it too).
"""

from __future__ import annotations

import re
import threading
from typing import Any

from django.utils.translation import gettext as _
from jsonschema import Draft4Validator  # type: ignore[import-untyped]
from rest_framework import exceptions

JSON = "application/json"
_PARAMETER = re.compile(r"\{\w+\}")
GENERATING = threading.RLock()

type Validators = list[tuple[re.Pattern[str], str, Draft4Validator]]
_validators: Validators | None = None


def _nullable(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` in JSON Schema's words (a null allowed beside the type)."""
    if isinstance(node, list):
        return [_nullable(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _nullable(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable") is True:
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def prepare() -> Validators:
    """Each operation with a JSON body: its path as a pattern, its method, its body's validator;
    the paths with fewer parameters first (``/clubs/import/`` before ``/clubs/{slug}/``). Made
    on the first call, which the entry points make before the process answers."""
    global _validators
    with GENERATING:
        if _validators is None:
            _validators = _build()
        return _validators


def _build() -> Validators:
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)
    components = _nullable(document.get("components", {}))
    found = []
    for path, methods in document.get("paths", {}).items():
        pattern = re.compile("^" + "[^/]+".join(re.escape(part) for part in _PARAMETER.split(path)) + "$")
        for method, operation in methods.items():
            body = (operation.get("requestBody") or {}).get("content", {}).get(JSON)
            if body and "schema" in body:
                root = {**_nullable(body["schema"]), "components": components}
                found.append((path.count("{"), pattern, method.upper(), Draft4Validator(root)))
    found.sort(key=lambda item: item[0])
    return [(pattern, method, validator) for _count, pattern, method, validator in found]


def check_types(request: Any, document: Any) -> None:
    """400 when ``document`` (the request's parsed JSON body) has a member of another type than
    its operation's request schema says; nothing is checked for a path the schema lacks."""
    validator = next(
        (
            v
            for pattern, method, v in (_validators or prepare())
            if method == request.method and pattern.match(request.path)
        ),
        None,
    )
    if validator is None:
        return
    fields: dict[str, list[str]] = {}
    for error in validator.iter_errors(document):
        if error.validator != "type":
            continue
        where = ".".join(str(p) for p in error.absolute_path) or "non_field_errors"
        expected = error.validator_value
        kinds = " or ".join(expected) if isinstance(expected, list) else str(expected)
        fields.setdefault(where, []).append(_("The API's schema wants %(kinds)s here.") % {"kinds": kinds})
    if fields:
        raise exceptions.ValidationError(fields)
