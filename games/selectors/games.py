"""The games pages and the API read: a user's list of games, one game with its owner and club,
the row a page's ETag check needs (both written out in SQL with the columns read from the
models' ``_meta``, since every poll makes one), the games a list shows with what it says of
each, one game as its resource shows it, and a game's changes with their place on the sheet."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.db.models import Count, Exists, Model, OuterRef, Prefetch, Q, QuerySet
from django.urls import reverse

from games.models import Change, Club, Game, Hand, Membership, Result, Seat
from games.selectors.sheets import recent_sheet
from games.services.access import AnyUser, can_view_club, club_role, edit_url, visible_clubs
from games.sheets import rows
from games.sheets.charts import ChartRule, chart_rule
from games.sheets.sheet import Sheet, marks_only, sheet_ordinals


def user_games(*, user: User | AnonymousUser, game_ids: Sequence[str], limit: int = 50) -> list[Game]:
    """The games this user started, or this browser may edit, newest first, with seats and
    clubs (2 queries); a deleted game is in no list."""
    wanted = Q(public_id__in=list(game_ids))
    if user.is_authenticated:
        wanted |= Q(owner_id=user.pk)
    return list(
        Game.objects.filter(wanted, deleted_at=None)
        .select_related("club")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("result")))
        .order_by("-updated_at")[:limit]
    )


class GameRow(NamedTuple):
    """A line of My games: the game, its players (seats in order), whether it is over (the
    evening was ended, or the family's end was reached) and who won (none while in play, or
    when it ended without a winner)."""

    game: Game
    seats: list[Seat]
    over: bool
    winners: list[str]


def game_rows(games: Sequence[Game]) -> list[GameRow]:
    """What My games shows of ``user_games``' games (no query)."""
    rows = []
    for game in games:
        seats = list(game.seats.all())
        results = [r for r in (getattr(seat, "result", None) for seat in seats) if r is not None]
        finished = any(r.finished for r in results)
        winners = [r.seat.name for r in results if r.winner] if finished else []
        rows.append(GameRow(game, seats, game.ended or finished, winners))
    return rows


def user_club_roles(*, user: User | AnonymousUser) -> dict[int, str]:
    """The user's role in each of his clubs (1 query; none for an anonymous user). A site
    admin's is organiser everywhere: ask ``access.club_role`` for a club not listed."""
    if not user.is_authenticated:
        return {}
    return dict(Membership.objects.filter(user_id=user.pk).values_list("club_id", "role"))


def game_by_public_id(*, public_id: str, deleted: bool = False) -> Game | None:
    """A game by the id in its address, with its owner and club (1 query, written out: every
    save and every page drawn reads it; games.sheets.rows). A game deleted by an organiser is None,
    as if it never was, unless ``deleted`` (the pages that offer to bring it back)."""
    with connection.cursor() as cursor:
        cursor.execute(_game_sql(), [public_id])
        row = cursor.fetchone()
    if row is None:
        return None
    owner_at, club_at = rows.width(Game), rows.width(Game) + rows.width(User)
    game = rows.instance(Game, row[:owner_at])
    if game.deleted_at is not None and not deleted:
        return None
    if game.owner_id is not None:
        game.owner = rows.instance(User, row[owner_at:club_at])
    if game.club_id is not None:
        game.club = rows.instance(Club, row[club_at:])
    return game


def _owner_and_club() -> str:
    """The game's owner (u) and club (c), joined to the game (g)."""
    owner, club = rows.column(Game, "owner", "g"), rows.column(Game, "club", "g")
    return (
        f" LEFT JOIN {rows.table(User)} u ON {rows.column(User, 'id', 'u')} = {owner}"
        f" LEFT JOIN {rows.table(Club)} c ON {rows.column(Club, 'id', 'c')} = {club}"
    )


@cache
def _game_sql() -> str:
    return (
        f"SELECT {rows.columns(Game, 'g')}, {rows.columns(User, 'u')}, {rows.columns(Club, 'c')}"
        f" FROM {rows.table(Game)} g{_owner_and_club()} WHERE {rows.column(Game, 'public_id', 'g')} = %s"
    )


@cache  # the same text for every 304: written once, not on each poll
def _revalidation_sql() -> str:
    game = [rows.column(Game, name, "g") for name in _REVALIDATED]
    user = [rows.column(User, name, "u") for name in ("username", "first_name")]
    club = [rows.column(Club, name, "c") for name in ("slug", "name", "visibility", "version")]
    return (
        f"SELECT {', '.join(game + user + club)} FROM {rows.table(Game)} g{_owner_and_club()}"
        f" WHERE {rows.column(Game, 'public_id', 'g')} = %s"
    )


# The game's fields an ETag check reads, in the order game_to_revalidate unpacks them.
_REVALIDATED = (
    "id",
    "public_id",
    "owner",
    "club",
    "edit_token",
    "updated_at",
    "deleted_at",
    # What decides who writes (a confirmed event's table) and whether a rematch is offered.
    "results_locked",
    "event_name",
    "event_path",
    # The page's tag follows a round clock's minutes (games.web.round_clock.clock_tag).
    "event_ends",
)


def _partial[M: Model](model: type[M], **given: object) -> M:
    """An instance of ``model`` as a row read from the database with only these fields: the
    others are deferred (read on first use), as with ``QuerySet.only``."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in given]
    return model.from_db(connection.alias, names, [given[name] for name in names])


def game_to_revalidate(*, public_id: str, deleted: bool = False) -> Game | None:
    """A game page's ETag check (1 query): the game with only what the tag and the access
    checks read — its ids, edit token, version (``updated_at``) and deletion, its owner's names, its club's
    names, visibility and version. Its other fields, and the owner's and club's, are deferred
    (read from the database if anything asks for them); a page drawn after the check loads the
    whole game with :func:`game_by_public_id`.

    Every phone at a table polls its game this way, so the query is written out: building the
    ORM's query for the whole game with its owner and club costs about 0.3 ms, more than the
    rest of a 304 together (docs/design/performance.md). A deleted game: as
    :func:`game_by_public_id`."""
    with connection.cursor() as cursor:
        cursor.execute(_revalidation_sql(), [public_id])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, public_id, owner_id, club_id, token, updated_at, deleted_at, locked, event, path, ends, *people = row
    username, first_name, *club = people
    if deleted_at is not None and not deleted:
        return None
    game = _partial(
        Game,
        id=pk,
        public_id=public_id,
        owner_id=owner_id,
        club_id=club_id,
        edit_token=token,
        updated_at=rows.aware(updated_at),
        deleted_at=rows.aware(deleted_at),
        results_locked=bool(locked),
        event_name=event,
        event_path=path,
        event_ends=rows.aware(ends),
    )
    if owner_id is not None:
        game.owner = _partial(User, id=owner_id, username=username, first_name=first_name)
    if club_id is not None:
        slug, name, visibility, version = club
        game.club = _partial(Club, id=club_id, slug=slug, name=name, visibility=visibility, version=version)
    return game


def game_change(*, game: Game, pk: int) -> Change | None:
    return Change.objects.filter(game=game, pk=pk).first()


def game_hand(*, game: Game, number: int) -> Hand | None:
    """A hand of the game by its number (deleted hands are gone)."""
    return Hand.objects.filter(game=game, number=number).first()


@dataclass(frozen=True)
class GameLine:
    """A game as a list shows it, and as its own representation begins."""

    game: Game
    club: str | None  # its club's slug, when the reader sees that club (else None, as if private)
    finished: bool
    hands: int  # how many were recorded
    results: Sequence[Result]  # in seat order


@dataclass(frozen=True)
class GameView(GameLine):
    """One game as its resource shows it: its line, its seats and its score sheet."""

    seats: Sequence[Seat]  # in seat order
    sheet: Sheet

    @property
    def share_path(self) -> str:
        """The address that shows the score sheet (the page's QR code)."""
        return reverse("games:detail", kwargs={"public_id": self.game.public_id})

    @property
    def edit_url(self) -> str:
        return edit_url(self.game)

    @property
    def chart_line(self) -> ChartRule | None:
        return chart_rule(self.sheet)


def _club_seen(game: Game, user: AnyUser) -> str | None:
    club = game.club
    if club is None:
        return None
    return club.slug if can_view_club(club=club, role=club_role(user=user, club=club)) else None


def game_view(*, game: Game, user: AnyUser) -> GameView:
    """``game`` (as read with :func:`game_by_public_id`) as ``user`` reads it: its seats with
    their results (1 query), its club's slug if he sees the club (1 query for a club's game),
    and its score sheet (``recent_sheet``)."""
    seats = list(Seat.objects.filter(game=game).select_related("result").order_by("position"))
    sheet = recent_sheet(game=game)
    return GameView(
        game=game,
        club=_club_seen(game, user),
        finished=sheet.finished,
        hands=len(sheet.rows),
        results=[seat.result for seat in seats if hasattr(seat, "result")],
        seats=seats,
        sheet=sheet,
    )


def listed_games(*, seen: Q, user: AnyUser) -> QuerySet[Game]:
    """The games ``seen`` lets a list show (``access.visible_games``), deleted ones left out,
    newest played first, each with its hand count and whether ``user`` sees its club; a page of it
    reads its results in one more query (:func:`game_lines` needs nothing else)."""
    results = Prefetch("results", queryset=Result.objects.select_related("seat").order_by("seat__position"))
    club_seen = Exists(Club.objects.filter(visible_clubs(user=user), pk=OuterRef("club_id")))
    return (
        Game.objects.filter(seen, deleted_at=None)
        .select_related("club")
        .prefetch_related(results)
        .annotate(hand_count=Count("hands"), club_seen=club_seen)
        .order_by("-played_at", "-pk")
    )


def with_player(games: QuerySet[Game], player_id: int) -> QuerySet[Game]:
    """The games this player sat in."""
    return games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player_id=player_id)))


def by_finished(games: QuerySet[Game], finished: bool) -> QuerySet[Game]:
    """The games that reached their family's end (``finished``), or the others."""
    done = Exists(Result.objects.filter(game=OuterRef("pk"), finished=True))
    return games.filter(done) if finished else games.exclude(done)


def game_lines(games: Iterable[Game]) -> list[GameLine]:
    """What a list says of :func:`listed_games`' games (no query)."""
    lines = []
    for game in games:
        results = list(game.results.all())
        seen = game.club is not None and game.club_seen  # type: ignore[attr-defined]
        lines.append(
            GameLine(
                game=game,
                club=game.club.slug if seen and game.club is not None else None,
                finished=any(r.finished for r in results),
                hands=game.hand_count,  # type: ignore[attr-defined]
                results=results,
            )
        )
    return lines


@dataclass(frozen=True)
class ChangeLine:
    """A change of a game's history, with its hand's row on the sheet as the sheet shows it."""

    change: Change
    hand: int | None

    @property
    def undone(self) -> bool:
        return hasattr(self.change, "undone_by")

    @property
    def undoable(self) -> bool:
        """What undo may take back: not an edit link made anew, nor the marks that followed
        another change (undone with that one)."""
        action = self.change.action
        return not self.undone and action != Change.Action.NEW_LINK and not marks_only(self.change)


def game_changes(*, game: Game) -> QuerySet[Change]:
    """The game's changes, newest first, each with what undid it (1 query a page)."""
    return Change.objects.filter(game=game).select_related("undone_by").order_by("-pk")


def change_lines(*, game: Game, changes: Sequence[Change]) -> list[ChangeLine]:
    """``changes`` of ``game`` with their hands' rows on the sheet (1 query: the hands' numbers)."""
    if not changes:
        return []
    present = list(game.hands.values_list("number", flat=True))
    numbers = {c.hand_number for c in changes if c.hand_number is not None}
    labels = sheet_ordinals(present, sorted(numbers | set(present)))
    return [ChangeLine(c, labels.get(c.hand_number) if c.hand_number is not None else None) for c in changes]


def change_line(*, game: Game, change: Change) -> ChangeLine:
    """One change as the history shows it, read afresh with what undid it (2 queries)."""
    fresh = Change.objects.select_related("undone_by").get(pk=change.pk)
    return change_lines(game=game, changes=[fresh])[0]
