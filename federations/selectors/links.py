"""A club's side of its federations (the invitations waiting, its memberships and, per
federation it belongs to, its players' links and the claims waiting for it) and a person's
claim page (his players in the federation's member clubs and where each stands). Each in a
fixed number of queries, whatever the number of players."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import User

from federations.models import Federation, FederationClub, PersonLink, RatedTournament
from federations.services.links import claimable_players
from federations.services.register import person_label
from games.models import Club, Player
from tournaments.models import Tournament

State = FederationClub.State
# Ids beyond this cannot be stored (an address may name any).
MAX_ID = 2**31 - 1


@dataclass(frozen=True)
class LinkRow:
    """A club's player linked (or claimed) to a register entry."""

    link: PersonLink
    label: str  # the entry's federation id, "CZ-00042"

    @property
    def pk(self) -> int:
        return self.link.pk

    @property
    def version(self) -> int:
        return self.link.version

    @property
    def state(self) -> str:
        return self.link.state

    @property
    def player(self) -> Player:
        return self.link.player

    @property
    def person_name(self) -> str:
        return self.link.person.name

    @property
    def claimant(self) -> str:
        """The account that claimed the entry ("" when an organiser linked it)."""
        user = self.link.created_by
        return user.get_username() if user is not None and self.state == PersonLink.State.CLAIMED else ""


@dataclass(frozen=True)
class RatedRow:
    """One of the club's tournaments, and whether it counts for the federation."""

    tournament: Tournament
    rated: bool


# The club's latest tournaments offered to be marked federation-rated.
RECENT_TOURNAMENTS = 20


def club_tournaments(*, club: Club, federation: Federation) -> list[RatedRow]:
    """The club's latest tournaments, newest first, each marked or not for the federation
    (2 queries)."""
    tournaments = list(Tournament.objects.filter(club=club).order_by("-date", "-pk")[:RECENT_TOURNAMENTS])
    rated = set(
        RatedTournament.objects.filter(federation=federation, tournament__in=tournaments).values_list(
            "tournament_id", flat=True
        )
    )
    return [RatedRow(t, t.pk in rated) for t in tournaments]


@dataclass(frozen=True)
class FederationSide:
    """The club in one federation it belongs to: its links, the claims waiting and the
    players not linked yet (whom its organisers may link)."""

    membership: FederationClub
    links: list[LinkRow] = field(default_factory=list)
    claims: list[LinkRow] = field(default_factory=list)
    unlinked: list[Player] = field(default_factory=list)
    # For a federation that counts only its clubs' federation-rated tournaments: the club's
    # latest tournaments and their marks.
    tournaments: list[RatedRow] = field(default_factory=list)

    @property
    def federation(self) -> Federation:
        return self.membership.federation


@dataclass(frozen=True)
class ClubFederations:
    club: Club
    invitations: list[FederationClub]
    sides: list[FederationSide]

    @property
    def memberships(self) -> list[FederationClub]:
        return [side.membership for side in self.sides]


def club_federations(*, club: Club, federation: Federation | None = None) -> ClubFederations:
    """What the club's federations page shows (3 queries, and 2 for each federation that counts
    only rated tournaments); ``federation``: that one only."""
    rows = FederationClub.objects.select_related("federation").filter(
        club=club, state__in=(State.INVITED, State.MEMBER)
    )
    if federation is not None:
        rows = rows.filter(federation=federation)
    open_rows = list(rows.order_by("federation__name", "pk"))
    members = [m for m in open_rows if m.state == State.MEMBER]
    sides = {m.federation_id: FederationSide(m) for m in members}
    linked: dict[int, set[int]] = {pk: set() for pk in sides}
    if sides:
        links = (
            PersonLink.objects.select_related("person", "player", "created_by")
            .filter(club=club, federation_id__in=list(sides))
            .order_by("player__name", "pk")
        )
        for link in links:
            side = sides[link.federation_id]
            row = LinkRow(link, person_label(side.federation, link.person.number))
            (side.claims if link.state == PersonLink.State.CLAIMED else side.links).append(row)
            linked[link.federation_id].add(link.player_id)
        players = list(Player.objects.filter(club=club, merged_into=None).order_by("name", "pk"))
        for pk, side in sides.items():
            side.unlinked.extend(p for p in players if p.pk not in linked[pk])
            if side.federation.counts == Federation.Counts.EVENTS:
                side.tournaments.extend(club_tournaments(club=club, federation=side.federation))
    return ClubFederations(
        club=club,
        invitations=[m for m in open_rows if m.state == State.INVITED],
        sides=list(sides.values()),
    )


def club_membership(*, club: Club, federation_slug: str) -> FederationClub | None:
    """The club's open period (invited or member) in the federation of that address."""
    return (
        FederationClub.objects.select_related("federation", "club")
        .filter(club=club, federation__slug=federation_slug, state__in=(State.INVITED, State.MEMBER))
        .first()
    )


def club_side(*, club: Club, federation: Federation) -> FederationSide | None:
    """The club in one federation it belongs to (3 queries)."""
    sides = club_federations(club=club, federation=federation).sides
    return sides[0] if sides else None


def latest_membership(*, club: Club, federation_slug: str) -> FederationClub | None:
    """The club's latest period in the federation of that address, open or ended (a resend of
    an answer finds the period it answered)."""
    return (
        FederationClub.objects.select_related("federation", "club")
        .filter(club=club, federation__slug=federation_slug)
        .order_by("-invited_at", "-pk")
        .first()
    )


def stored_membership(*, pk: int) -> FederationClub | None:
    return FederationClub.objects.select_related("federation", "club").filter(pk=pk).first()


def stored_link(*, pk: int) -> PersonLink | None:
    return PersonLink.objects.select_related("federation", "person", "player").filter(pk=pk).first()


def club_link(*, club: Club, federation: Federation, pk: int) -> PersonLink | None:
    if not 0 < pk <= MAX_ID:
        return None
    return (
        PersonLink.objects.select_related("federation", "person", "player")
        .filter(club=club, federation=federation, pk=pk)
        .first()
    )


def club_player(*, club: Club, pk: int) -> Player | None:
    if not 0 < pk <= MAX_ID:
        return None
    return Player.objects.filter(club=club, pk=pk).first()


@dataclass(frozen=True)
class ClaimRow:
    """One of the person's players in a member club, and where it stands: ``linked`` (to
    ``label``), ``claimed`` (waiting for the club) or ``none``."""

    player: Player
    state: str
    label: str = ""
    person_name: str = ""

    @property
    def club(self) -> Club:
        assert self.player.club is not None  # claimable players are clubs' players
        return self.player.club


def claim_rows(*, federation: Federation, user: User) -> list[ClaimRow]:
    """The user's players in the federation's member clubs, each with its link (2 queries)."""
    players = claimable_players(federation, user)
    links = {
        link.player_id: link
        for link in PersonLink.objects.select_related("person").filter(
            federation=federation, player__in=players
        )
    }
    rows = []
    for player in players:
        link = links.get(player.pk)
        if link is None:
            rows.append(ClaimRow(player, "none"))
        else:
            label = person_label(federation, link.person.number)
            rows.append(ClaimRow(player, link.state, label, link.person.name))
    return rows


def club_tournament(*, club: Club, public_id: str) -> Tournament | None:
    return Tournament.objects.select_related("club").filter(club=club, public_id=public_id[:16]).first()
