"""Links from the clubs' players to the register: a club's organiser links his player to an
entry; a person claims his entry from his account for his players in member clubs, and each
club's organisers confirm or refuse the claim. Never by name alone: an organiser names the
entry by its federation id, and a claim needs the id and the registered name. A claim that
does not match is refused in one sentence, whatever did not match, so it reveals nothing of
who is registered."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User
from django.db import IntegrityError

from federations import derived
from federations.models import Federation, FederationChange, FederationClub, Person, PersonLink
from games.models import Club, Player
from games.services.errors import ServiceError
from games.text.names import loose_key

from .register import find_person, parse_number, person_label
from .writes import Actor, check_version, record, write_once

Action = FederationChange.Action
State = PersonLink.State


def _check_member(federation: Federation, club: Club) -> None:
    if not FederationClub.objects.filter(
        federation=federation, club=club, state=FederationClub.State.MEMBER
    ).exists():
        raise ServiceError("link_not_member", "not a member", club=club.name)


def _check_free(federation: Federation, person: Person, player: Player) -> None:
    """A player is linked to one entry per federation, an entry to one player per club."""
    taken = PersonLink.objects.select_related("person").filter(federation=federation, player=player).first()
    if taken is not None:
        raise ServiceError(
            "link_player_taken", "linked", field="person", player=player.name, person=taken.person.name
        )
    other = PersonLink.objects.select_related("player").filter(person=person, club=player.club).first()
    if other is not None:
        raise ServiceError(
            "link_person_taken", "linked", field="person", person=person.name, player=other.player.name
        )


def link_make(
    *,
    federation: Federation,
    club: Club,
    player: Player,
    person_id: str,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> PersonLink:
    """The club's organiser links his player to the entry of a federation id."""
    if player.club_id != club.pk or player.merged_into_id is not None:
        raise ServiceError("link_player_other_club", "other club", field="player", player=player.name)
    number = parse_number(federation, person_id)
    if number is None:
        raise ServiceError("person_unknown", "no such entry", field="person", number=person_id[:20])
    target = f"link:{player.pk}"

    def write(locked: Federation) -> PersonLink:
        _check_member(locked, club)
        person = find_person(locked, number, follow=True)
        _check_free(locked, person, player)
        try:
            link = PersonLink.objects.create(
                federation=locked,
                person=person,
                player=player,
                club=club,
                state=State.LINKED,
                created_by=user if user is not None and user.is_authenticated else None,
            )
        except IntegrityError:
            raise ServiceError(
                "link_player_taken", "linked", field="person", player=player.name, person=person.name
            ) from None
        derived.players_moved(locked, [player.pk])
        record(
            locked,
            Action.LINKED,
            user,
            request_id,
            target=target,
            club=club,
            link=link.pk,
            person=person.pk,
            number=person_label(locked, person.number),
            person_name=person.name,
            player=player.pk,
            player_name=player.name,
        )
        return link

    return _link(write_once(federation, request_id, target, write))


def _link(result: PersonLink | FederationChange) -> PersonLink:
    if isinstance(result, PersonLink):
        return result
    found = PersonLink.objects.filter(pk=result.data.get("link")).first()
    if found is None:
        raise ServiceError("link_gone", "removed")
    return found


def link_remove(
    *, link: PersonLink, version: int | None, request_id: uuid.UUID | None = None, user: Actor = None
) -> None:
    """Remove a link (by the club's or the federation's organisers): the player's games no
    longer count for the entry."""
    target = f"unlink:{link.pk}"

    def write(locked: Federation) -> None:
        current = PersonLink.objects.select_related("person", "player").filter(pk=link.pk).first()
        if current is None:
            raise ServiceError("link_gone", "removed")
        check_version(current.version, version, "stale_person")
        current.delete()
        if current.state == State.LINKED:
            derived.players_moved(locked, [current.player_id])
        record(
            locked,
            Action.UNLINKED,
            user,
            request_id,
            target=target,
            club=current.club_id,
            person=current.person_id,
            person_name=current.person.name,
            player=current.player_id,
            player_name=current.player.name,
            state=current.state,
        )

    write_once(link.federation, request_id, target, write)


def claimable_players(federation: Federation, user: User) -> list[Player]:
    """The user's own players (claimed in their clubs) in the federation's member clubs."""
    return list(
        Player.objects.select_related("club")
        .filter(
            user=user,
            merged_into=None,
            club__federations__federation=federation,
            club__federations__state=FederationClub.State.MEMBER,
        )
        .order_by("club__name")
    )


def claim(*, federation: Federation, person_id: str, name: str, user: User) -> list[PersonLink]:
    """The person claims his entry (its federation id and his name as registered) for each of
    his players in the member clubs; each club's organisers confirm. Whatever does not match
    (an unknown id, another name, an entry another account holds) gets the same answer."""
    number = parse_number(federation, person_id)
    players = claimable_players(federation, user)
    target = "claim"

    def write(locked: Federation) -> list[PersonLink]:
        # Without players of his own nothing is looked up: the answer says nothing of the register.
        if not players:
            raise ServiceError("claim_no_players", "no players")
        person = find_person(locked, number, follow=True) if number is not None else None
        if (
            person is None
            or person.key != loose_key(name)
            or (person.user_id is not None and person.user_id != user.pk)
        ):
            raise ServiceError("claim_no_match", "no match", field="person")
        made: list[PersonLink] = []
        for player in players:
            assert player.club is not None  # claimable players are clubs' players
            if PersonLink.objects.filter(federation=locked, player=player).exists():
                continue  # linked already, to this entry or (the club's word) another
            if PersonLink.objects.filter(person=person, club=player.club).exists():
                continue
            made.append(
                PersonLink.objects.create(
                    federation=locked,
                    person=person,
                    player=player,
                    club=player.club,
                    state=State.CLAIMED,
                    created_by=user,
                )
            )
        for link in made:
            record(
                locked,
                Action.CLAIMED,
                user,
                None,
                club=link.club_id,
                link=link.pk,
                person=person.pk,
                person_name=person.name,
                player=link.player_id,
                player_name=link.player.name,
            )
        return made

    # A resend finds the claims already made and makes none twice: no request id is needed.
    try:
        result = write_once(federation, None, target, write)
    except ServiceError as error:
        if error.code == "person_unknown":
            raise ServiceError("claim_no_match", "no match", field="person") from None
        raise
    assert isinstance(result, list)
    return result


def claim_answer(
    *,
    link: PersonLink,
    confirm: bool,
    version: int | None,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> PersonLink | None:
    """The club's organisers confirm a claim (the link counts; the entry is the claimant's
    account's) or refuse it (it is removed)."""
    target = f"answer-claim:{link.pk}"

    def write(locked: Federation) -> PersonLink | None:
        current = (
            PersonLink.objects.select_related("person", "player", "created_by").filter(pk=link.pk).first()
        )
        if current is None or current.state != State.CLAIMED:
            raise ServiceError("claim_not_waiting", "answered")
        check_version(current.version, version, "stale_person")
        data = {
            "link": current.pk,
            "person": current.person_id,
            "person_name": current.person.name,
            "player": current.player_id,
            "player_name": current.player.name,
        }
        if not confirm:
            current.delete()
            record(
                locked,
                Action.CLAIM_REFUSED,
                user,
                request_id,
                target=target,
                club=current.club_id,
                details=data,
            )
            return None
        current.state, current.version = State.LINKED, current.version + 1
        current.save(update_fields=["state", "version"])
        derived.players_moved(locked, [current.player_id])
        person = Person.objects.select_for_update(no_key=True).get(pk=current.person_id)
        claimant = current.created_by_id
        if person.user_id is None and claimant is not None and claimant == current.player.user_id:
            if not Person.objects.filter(federation=locked, user_id=claimant, merged_into=None).exists():
                person.user_id, person.version = claimant, person.version + 1
                person.save(update_fields=["user", "version"])
        record(
            locked,
            Action.CLAIM_CONFIRMED,
            user,
            request_id,
            target=target,
            club=current.club_id,
            details=data,
        )
        return current

    result = write_once(link.federation, request_id, target, write)
    if isinstance(result, FederationChange):
        return PersonLink.objects.filter(pk=link.pk).first()
    return result
