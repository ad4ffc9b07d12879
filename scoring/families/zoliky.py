"""Žolíky: penalty points, closing (from hand), elimination at a limit, settlement in crowns."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.messages import gettext_noop
from engine.rules import ZOLIKY, RuleSet

from ..errors import ScoringError
from ..reading import (
    Count,
    check_pack,
    flag_field,
    left_in_hands,
    missing_field,
    parse_laid,
    per_player,
    player_field,
)
from ..scored import HandKind, HandResult, cards_detail
from . import PLAIN_TURN, Example, Flag, Kind, Role, Translate, TranslatePlural, make_info
from .base import StandardFamily, best, name_of, sample_count


@dataclass(frozen=True, slots=True)
class ZolikyOutcome:
    players: tuple[str, ...]
    closer: str
    from_hand: bool
    left: Mapping[str, Count]  # every player but the missing ones; the closer's is empty
    laid: Mapping[str, Count]  # every player; zero unless credit_laid_down (and for the missing)
    kept_joker: bool
    # Players dealt in whose count is missing (seat order): they score 0 until it is filled in.
    missing: tuple[str, ...] = ()


class Zoliky(StandardFamily):
    rules = ZOLIKY
    info = make_info(
        ZOLIKY,
        gettext_noop("Žolíky"),
        lower_is_better=True,
        roles=(Role("closer", gettext_noop("Who closed?"), gettext_noop("%(name)s closed")),),
        emptied_role="closer",
        role_required=True,
        flags=(
            Flag("from_hand", gettext_noop("Closed from hand"), said=gettext_noop("from hand")),
            Flag("kept_joker", gettext_noop("Kept a joker"), option="keep_joker"),
        ),
        kinds=(
            Kind("closed", gettext_noop("closed"), gettext_noop("%(name)s closed"), gettext_noop("closed")),
            Kind(
                "from_hand",
                gettext_noop("closed from hand"),
                gettext_noop("%(name)s closed from hand"),
                gettext_noop("closed from hand"),
            ),
        ),
        settles_in_crowns=True,
        preferred=4,
        eliminates=True,
        chart_line="elimination",
        # A minute a turn, as in Rummikub; the Czech rules know no time limit (docs/RULES.md §1).
        timer=PLAIN_TURN,
    )
    fields = ("players", "closer", "from_hand", "left", "laid", "kept_joker", "missing")
    example = Example(
        ("Ann", "Bob", "Cid"),
        {"closer": "Ann", "from_hand": False, "left": {"Bob": "KH 5S JK", "Cid": "AS 2D"}},
        gettext_noop("%(player)s closes; Bob and Cid count the cards left in their hands."),
        "Ann",
    )
    api_examples = (
        ("Žolíky", {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KH 5S JK"}}),
        (
            "Žolíky, cards in Czech letters",
            {"closer": "Ann", "from_hand": False, "left": {"Bob": 23, "Cid": "KS 5P Ž"}, "notation": "cs"},
        ),
    )

    # The command line's help (python -m scoring --help): the outcome's fields, the result's details.
    cli_fields = """\
  zoliky:   {"players": [...], "closer": "Ann", "from_hand": false,
             "left": {"Bob": 23, "Cid": "KH 5S JK"},
             "laid": {"Ann": 42, "Bob": "AS 2S 3S | 7H 7D 7C"}, "kept_joker": false}
      closer      who closed (required); his "left" may be omitted (must be empty)
      from_hand   closed from hand (no earlier laydown); default false
                  (true, and false is rejected, under no_laydown)
      left        cards left of every other player (required for each)
      laid        points laid down per player, or the melds ("|" between melds), valued
                  as melds; only with credit_laid_down; missing players laid 0
      kept_joker  the closer keeps an unused joker (only with keep_joker; recorded)
      missing     players dealt in whose count is missing (a correction brought them
                  back into a hand recorded while they were out): no "left" for them;
                  they score 0 until it is filled in (zoliky only)
"""
    cli_results = """\
  zoliky:   closer, from_hand, credit, doubled, penalties, laid (credit_laid_down),
            kept_joker (keep_joker), left_cards (when cards were given)
"""

    def parse(self, raw: Mapping[str, object], rules: RuleSet, players: tuple[str, ...]) -> ZolikyOutcome:
        closer = player_field(raw, "closer", players, required=True)
        assert closer is not None
        no_laydown = rules.opt_bool("no_laydown")
        from_hand = flag_field(raw, "from_hand")
        if no_laydown and from_hand is False:
            raise ScoringError("must_close_from_hand")
        from_hand = no_laydown if from_hand is None else from_hand
        missing = missing_field(raw, players, closer)
        left = left_in_hands(
            raw, rules, players, emptied=closer, with_cards="closer_with_cards", missing=missing
        )
        laid_raw = per_player(raw, "laid", players)
        if laid_raw and not rules.opt_bool("credit_laid_down"):
            raise ScoringError("option_off", field="laid", option="credit_laid_down")
        for name in missing:
            if name in laid_raw:
                raise ScoringError("missing_with_count", player=name, field="laid")
        laid = {name: parse_laid(value, rules, player=name) for name, value in laid_raw.items()}
        if no_laydown:
            for name, count in laid.items():
                if name != closer and count.points:
                    raise ScoringError("laid_without_laydown", player=name)
        kept_joker = flag_field(raw, "kept_joker") or False
        if kept_joker and not rules.opt_bool("keep_joker"):
            raise ScoringError("option_off", field="kept_joker", option="keep_joker")
        check_pack(
            rules,
            *(c.cards or () for c in left.values()),
            *(c.cards or () for c in laid.values()),
        )
        return ZolikyOutcome(
            players=players,
            closer=closer,
            from_hand=from_hand,
            left={name: left[name] for name in players if name not in missing},
            laid={name: laid.get(name, Count(0)) for name in players},
            kept_joker=kept_joker,
            missing=missing,
        )

    def score(self, outcome: object, rules: RuleSet) -> HandResult:
        assert isinstance(outcome, ZolikyOutcome)
        o = outcome
        doubled = o.from_hand and rules.opt_bool("double_from_hand")
        if doubled:
            credit = 0  # the doubled penalties replace the closer's from-hand credit
        elif o.from_hand:
            credit = rules.opt_int("closer_credit_from_hand")
        else:
            credit = rules.opt_int("closer_credit")
        factor = 2 if doubled else 1
        counted = [p for p in o.players if p not in o.missing]  # a missing count scores 0 for now
        penalties = {p: (0 if p == o.closer else o.left[p].points * factor) for p in counted}
        points = {p: (-credit if p == o.closer else penalties.get(p, 0)) for p in o.players}
        details: dict[str, object] = {
            "closer": o.closer,
            "from_hand": o.from_hand,
            "credit": credit,
            "doubled": doubled,
            "penalties": penalties,
        }
        if rules.opt_bool("credit_laid_down"):
            laid = {p: o.laid[p].points for p in counted}
            for p in counted:
                points[p] -= laid[p]
            details["laid"] = laid
        if rules.opt_bool("keep_joker"):
            details["kept_joker"] = o.kept_joker
        cards_detail(details, "left_cards", {p: o.left[p].cards for p in counted}, rules)
        counts = {p: o.left[p].points for p in counted}
        return HandResult(rules.family, o.players, points, (o.closer,), counts, details, o.missing)

    def kind(self, details: Mapping[str, object]) -> HandKind:
        return HandKind("from_hand" if details.get("from_hand") else "closed", name_of(details.get("closer")))

    def elimination(self, rules: RuleSet) -> int:
        return rules.opt_int("elimination")

    def finish_reason(
        self, rules: RuleSet, *, number: int, totals: Mapping[str, int], remaining: int
    ) -> str | None:
        return "last_player" if rules.opt_int("elimination") and remaining <= 1 else None

    def leaders(
        self,
        *,
        players: Sequence[str],
        totals: Mapping[str, int],
        active: Sequence[str],
        reason: str | None,
    ) -> tuple[str, ...]:
        if reason == "last_player":  # the last player standing wins
            return tuple(active) or best(totals, players, lowest=True)
        return best(totals, players, lowest=True)

    def sample_outcome(self, rng: random.Random, active: Sequence[str]) -> dict[str, object]:
        closer = rng.choice(active)
        return {
            "closer": closer,
            "from_hand": rng.random() < 0.08,
            "left": {p: sample_count(rng, 20, 90) for p in active if p != closer},
        }

    def how_scored(self, options: Mapping[str, object], _: Translate, ngettext: TranslatePlural) -> list[str]:
        o = options
        lines = [
            _("Penalty points: the lowest total is best."),
            _(
                "The player who closes (lays down all his cards) is credited %(credit)s points, "
                "%(from_hand)s when he closes from hand (everything laid down in one turn)."
            )
            % {"credit": o["closer_credit"], "from_hand": o["closer_credit_from_hand"]},
            _(
                "Everyone else takes the value of the cards left in his hand: 2 to 10 as numbered, "
                "jack, queen and king 10, ace 11, a joker %(joker)s."
            )
            % {"joker": o["joker_penalty"]},
        ]
        if o["double_from_hand"]:
            lines.append(_("A close from hand doubles the others' penalties, and the closer gets no credit."))
        if o["credit_laid_down"]:
            lines.append(_("Every player, the closer too, is credited the points of the melds he laid down."))
        if o["no_laydown"]:
            lines.append(_("Nobody lays down during the hand: every close is a close from hand."))
        if o["elimination"]:
            lines.append(
                _(
                    "A player whose total reaches %(limit)s drops out; the last player left wins. "
                    "Ended earlier, the fewest points win."
                )
                % {"limit": o["elimination"]}
            )
        else:
            lines.append(_("An open evening: when the players end it, the fewest points win."))
        return lines


FAMILY = Zoliky()
