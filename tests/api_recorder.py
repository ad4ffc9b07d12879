"""Records every answer the REST API gives during a test run (``pytest --record-api=DIR``).

A refactoring that must not change behaviour is checked by recording before and after, on each
database, and comparing (``scripts/api_answers.py diff BEFORE AFTER``). For every test, in the
order asked: the method, the path with its query, the status, the headers a client reads and the
body. One JSON file per test module, keys sorted, so ``diff -r`` shows what changed.

What differs between two runs of the same code is replaced by a placeholder numbered by first
appearance within the test (``<public_id#1>``, ``<datetime#2>``, ``<etag#1>``, ``<id#3>``), so
the recording still checks which answers name the same object:

- every value made by ``secrets.token_urlsafe`` / ``token_hex`` and ``uuid.uuid4`` during the
  run (public ids, edit links, API tokens, request ids) wherever it appears in an answer;
- timestamps (ISO 8601 date-times), and calendar dates near the day of the run, written as days
  from it (the run may cross midnight), unless the test module writes that date itself;
- ETag values (weak or strong) and the same value inside bodies;
- integer database ids (``id`` / ``entry`` / ``*_id`` keys, and id parameters of the schema's
  paths, which PostgreSQL's sequences number by what ran before);
- keys signed with a secret made at random (24 hex digits: own table links, the door's);
- how many seconds a throttled client waits.

``secrets.randbelow`` (the seeds tournaments seat by) draws from a sequence started afresh for
each test, so two runs seat the same tables.

Answers come from Django's test client and DRF's APIClient (both end in Django's
``ClientHandler``); Schemathesis' direct WSGI calls and Hypothesis-driven tests (random inputs)
are listed as not recorded. Answers given in several threads at once are sorted within their
run, since their order is the scheduler's. Each process (each pytest-xdist worker too) merges its
tests into the module files under a lock, so DIR should start empty (a test recorded again
replaces its entry).
"""

from __future__ import annotations

import datetime
import fcntl
import hashlib
import json
import random
import re
import secrets
import threading
import uuid
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

# Headers a client reads; the rest (Date, Content-Length, security headers set for every
# answer) do not belong to the API's word. Cookies by name only.
KEPT_HEADERS = (
    "Allow",
    "Cache-Control",
    "Content-Disposition",
    "Content-Language",
    "Content-Type",
    "ETag",
    "Idempotency-Replayed",
    "Last-Modified",
    "Link",
    "Location",
    "Retry-After",
    "Vary",
    "WWW-Authenticate",
)
DATETIME = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2}|\b)")
DATE = re.compile(r"(?<![\d-])\d{4}-\d{2}-\d{2}(?![\d:T])")
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
WORD = re.compile(r"[A-Za-z0-9_-]{8,}")
ID_KEY = re.compile(r"^(id|entry|.+_id|.+_ids|ids)$")
# A link's key signed with a secret made at random (a player's own table link, the door's).
SIGNED = re.compile(r"[0-9a-f]{24}")
# A throttled answer says how long to wait: the clock's.
WAIT = re.compile(r"\b\d+ seconds?\b")
# Dates this many days either side of the run are the clock's, not the test's.
NEAR_DAYS = 400


class Generated:
    """Every random value the run made, by value: what a placeholder is named after."""

    def __init__(self) -> None:
        self.kinds: dict[str, str] = {}
        self.lengths: set[int] = set()
        self.lock = threading.Lock()

    def add(self, value: str, kind: str) -> None:
        with self.lock:
            self.kinds.setdefault(value, kind)
            self.lengths.add(len(value))


class Placeholders:
    """One test's placeholders: each distinct value gets the next number of its kind."""

    def __init__(self) -> None:
        self.names: dict[tuple[str, Any], str] = {}
        self.counts: dict[str, int] = {}

    def name(self, kind: str, value: Any) -> str:
        key = (kind, value)
        if key not in self.names:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.names[key] = f"<{kind}#{self.counts[kind]}>"
        return self.names[key]


class Normaliser:
    def __init__(
        self,
        generated: Generated,
        today: datetime.date,
        fixed_dates: set[str],
        templates: list[tuple[re.Pattern[str], list[str], str]],
    ) -> None:
        self.generated = generated
        self.today = today
        self.fixed_dates = fixed_dates
        self.templates = templates
        self.places = Placeholders()
        self.etags: dict[str, str] = {}

    # --- strings -------------------------------------------------------------------------

    def text(self, value: str) -> str:
        for etag, name in self.etags.items():
            value = value.replace(etag, name)
        value = UUID.sub(lambda m: self._random(m.group(0)) or self.places.name("uuid", m.group(0)), value)
        value = DATETIME.sub(lambda m: self.places.name("datetime", m.group(0)), value)
        value = DATE.sub(self._date, value)
        value = WAIT.sub("<seconds>", value)
        return WORD.sub(self._word, value)

    def _date(self, match: re.Match[str]) -> str:
        if match.group(0) in self.fixed_dates:
            return match.group(0)
        try:
            day = datetime.date.fromisoformat(match.group(0))
        except ValueError:
            return match.group(0)
        offset = (day - self.today).days
        if abs(offset) > NEAR_DAYS:
            return match.group(0)
        return f"<today{offset:+d}>" if offset else "<today>"

    def _random(self, word: str) -> str | None:
        kind = self.generated.kinds.get(word)
        return None if kind is None else self.places.name(kind, word)

    def _word(self, match: re.Match[str]) -> str:
        word = match.group(0)
        whole = self._random(word)
        if whole is not None:
            return whole
        if SIGNED.fullmatch(word):
            return self.places.name("key", word)
        # A made value inside a longer run of the same alphabet ("rs_" + token, "<id>-<token>").
        for length in sorted(self.generated.lengths, reverse=True):
            if length >= len(word) or length < 8:
                continue
            tail, head = word[-length:], word[:length]
            if (name := self._random(tail)) is not None:
                return word[:-length] + name
            if (name := self._random(head)) is not None:
                return name + word[length:]
        return word

    # --- paths, headers, bodies ----------------------------------------------------------

    def path(self, path: str, query: str) -> tuple[str, str | None]:
        """The path with its id parameters named, and the schema template it matches."""
        template = None
        for pattern, names, schema_path in self.templates:
            match = pattern.fullmatch(path)
            if match is None:
                continue
            template = schema_path
            parts = []
            last = 0
            for index, name in enumerate(names, start=1):
                value = match.group(index)
                if is_id_name(name) and value.isdigit():
                    parts.append(path[last : match.start(index)] + self.places.name("id", int(value)))
                    last = match.end(index)
            path = "".join(parts) + path[last:]
            break
        full = path + ("?" + query if query else "")
        return self.text(full), template

    def etag(self, value: str) -> str:
        bare = value.removeprefix("W/").strip('"')
        if bare not in self.etags:
            self.etags[bare] = self.places.name("etag", bare)
        return value.replace(bare, self.etags[bare])

    def body(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: self.body(v, k) for k, v in sorted(value.items())}
        if isinstance(value, list):
            return [self.body(v, key) for v in value]
        if isinstance(value, bool) or value is None or isinstance(value, float):
            return value
        if isinstance(value, int):
            if key is not None and ID_KEY.match(key):
                return self.places.name("id", value)
            return value
        if isinstance(value, str):
            if key in ("etag", "ETag", "current_etag") and value:
                return self.etag(value)
            return self.text(value)
        return value


def is_id_name(name: str) -> bool:
    return name in ("id", "entry", "penalty") or name.endswith("_id")


def schema_templates(schema: Path) -> list[tuple[re.Pattern[str], list[str], str]]:
    """The schema's paths as patterns, most literal first (``/clubs/join/`` before ``{slug}``)."""
    paths = re.findall(r"^  (/\S+):$", schema.read_text(), flags=re.MULTILINE) if schema.exists() else []
    compiled = []
    for path in sorted(paths, key=lambda p: (p.count("{"), p)):
        names = re.findall(r"\{(\w+)\}", path)
        pattern = re.escape(path)
        for name in names:
            pattern = pattern.replace(re.escape("{" + name + "}"), "([^/]+)")
        compiled.append((re.compile(pattern), names, path))
    return compiled


class Recorder:
    def __init__(self, directory: Path, schema: Path) -> None:
        self.directory = directory
        self.generated = Generated()
        self.templates = schema_templates(schema)
        self.today = datetime.date.today()
        self.fixed_dates: set[str] = set()
        self.test: str | None = None
        self.raw: list[dict[str, Any]] = []
        self.main_thread = threading.main_thread()
        self.modules: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()
        self.draws = random.Random(0)

    # --- what is made at random ----------------------------------------------------------

    def patches(self) -> Iterator[tuple[Any, str, Callable[..., Any]]]:
        generated = self.generated
        token_urlsafe, token_hex, uuid4 = secrets.token_urlsafe, secrets.token_hex, uuid.uuid4
        recorder = self

        def urlsafe(nbytes: int | None = None) -> str:
            value = token_urlsafe(nbytes)
            generated.add(value, "public_id" if len(value) <= 16 else "token")
            return value

        def hexa(nbytes: int | None = None) -> str:
            value = token_hex(nbytes)
            generated.add(value, "token")
            return value

        def new_uuid() -> uuid.UUID:
            value = uuid4()
            generated.add(str(value), "uuid")
            generated.add(value.hex, "uuid")
            return value

        def below(upper: int) -> int:
            # Numbers that are never shown but decide what is (a tournament's seating seed):
            # drawn from the test's own sequence, so two runs seat the same tables.
            return recorder.draws.randrange(upper)

        yield secrets, "token_urlsafe", urlsafe
        yield secrets, "randbelow", below
        yield secrets, "token_hex", hexa
        yield uuid, "uuid4", new_uuid

    # --- answers -------------------------------------------------------------------------

    def answered(self, environ: dict[str, Any], response: Any) -> None:
        path = environ.get("PATH_INFO", "")
        if self.test is None or not path.startswith("/api/"):
            return
        if getattr(response, "streaming", False):
            content = b"".join(response.streaming_content)
            response.streaming_content = [content]
        else:
            content = response.content
        headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
        if response.cookies:
            headers["Set-Cookie"] = sorted(response.cookies)
        with self.lock:
            self.raw.append(
                {
                    "method": environ.get("REQUEST_METHOD", ""),
                    "path": path,
                    "query": environ.get("QUERY_STRING", ""),
                    "status": response.status_code,
                    "headers": headers,
                    "content": content,
                    "threaded": threading.current_thread() is not self.main_thread,
                }
            )

    def finish_test(self, nodeid: str, skipped: str | None) -> None:
        raw, self.raw, self.test = self.raw, [], None
        module = nodeid.split("::", 1)[0]
        tests = self.modules.setdefault(module, {})
        if skipped is not None:
            tests[nodeid] = {"not recorded": skipped}
            return
        if not raw:
            return
        normaliser = Normaliser(self.generated, self.today, self.fixed_dates, self.templates)
        answers = [self.normalise(normaliser, answer) for answer in raw]
        tests[nodeid] = {"answers": in_stable_order(answers, [answer["threaded"] for answer in raw])}

    def normalise(self, normaliser: Normaliser, answer: dict[str, Any]) -> dict[str, Any]:
        path, template = normaliser.path(answer["path"], answer["query"])
        headers: dict[str, Any] = {}
        for name, value in answer["headers"].items():
            if name == "ETag":
                headers[name] = normaliser.etag(value)
            elif name == "Retry-After":
                headers[name] = "<seconds>"
            elif isinstance(value, str):
                headers[name] = normaliser.text(value)
            else:
                headers[name] = value
        content_type = answer["headers"].get("Content-Type", "")
        return {
            "method": answer["method"],
            "path": path,
            "operation": template,
            "status": answer["status"],
            "headers": headers,
            "body": body_of(normaliser, answer["content"], content_type),
        }

    # --- files ---------------------------------------------------------------------------

    def write(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        for module, tests in self.modules.items():
            if not tests:
                continue
            target = self.directory / (module.replace("/", "__") + ".json")
            with open(self.directory / ".lock", "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                merged = json.loads(target.read_text()) if target.exists() else {}
                merged.update(tests)
                target.write_text(json.dumps(merged, sort_keys=True, indent=1, ensure_ascii=False) + "\n")


def body_of(normaliser: Normaliser, content: bytes, content_type: str) -> Any:
    if not content:
        return None
    if "json" in content_type:
        try:
            return normaliser.body(json.loads(content))
        except ValueError:
            pass
    if (
        content_type.startswith(("text/", "application/json", "application/problem+json"))
        or "csv" in content_type
    ):
        try:
            return normaliser.text(content.decode()).splitlines()
        except UnicodeDecodeError:
            pass
    return {"bytes": len(content), "sha256": hashlib.sha256(content).hexdigest()}


def in_stable_order(answers: list[dict[str, Any]], threaded: list[bool]) -> list[dict[str, Any]]:
    """Runs of answers given in other threads, sorted: their order is the scheduler's."""
    ordered: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []
    for answer, in_thread in zip(answers, threaded, strict=True):
        if in_thread:
            run.append(answer)
            continue
        ordered.extend(sorted(run, key=lambda a: json.dumps(a, sort_keys=True)))
        run = []
        ordered.append(answer)
    ordered.extend(sorted(run, key=lambda a: json.dumps(a, sort_keys=True)))
    return ordered


def not_recorded_because(item: pytest.Item) -> str | None:
    function = getattr(item, "obj", None)
    if getattr(function, "is_hypothesis_test", False):
        return "Hypothesis draws its inputs at random"
    return None


class RecorderPlugin:
    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Generator[None, Any, Any]:
        from django.utils import timezone

        skipped = not_recorded_because(item)
        self.recorder.today = timezone.localdate()
        self.recorder.draws.seed(0)
        self.recorder.fixed_dates = set(DATE.findall(item.path.read_text()))
        self.recorder.test = None if skipped else item.nodeid
        try:
            return (yield)
        finally:
            self.recorder.finish_test(item.nodeid, skipped)

    def pytest_sessionfinish(self) -> None:
        self.recorder.write()


def install(config: pytest.Config, directory: str) -> None:
    from django.test.client import ClientHandler

    root = Path(config.rootpath)
    recorder = Recorder(Path(directory), root / "docs" / "openapi.yaml")
    patch = pytest.MonkeyPatch()
    for target, name, value in recorder.patches():
        patch.setattr(target, name, value)
    handle = ClientHandler.__call__

    def recording_call(self: ClientHandler, environ: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        response = handle(self, environ, *args, **kwargs)
        recorder.answered(environ, response)
        return response

    patch.setattr(ClientHandler, "__call__", recording_call)
    config.add_cleanup(patch.undo)
    config.pluginmanager.register(RecorderPlugin(recorder), "api_recorder")
