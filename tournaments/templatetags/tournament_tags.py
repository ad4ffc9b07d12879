"""Template helpers for the tournament pages: numbers as people read them, the standings'
rows with their "what separated them" notes, and a tournament change in words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django import template
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game
from scoring.families import family_info
from scoring.ratings import Rating, display
from scoring.standings import DEFAULT_TIEBREAKS
from tournaments.models import RatingEvent, Tournament, TournamentChange
from tournaments.selectors.seasons import game_name
from tournaments.selectors.standings import StandingRow
from tournaments.services.final_stages import final_size
from tournaments.tournament_data import Penalty

register = template.Library()

Number = Fraction | float | int | Decimal


@register.filter
def points(value: Number | None) -> str:
    """6.5, 7, 4.33: at most two decimals (halves rounded up), no trailing zeros, the language's
    decimal mark and a real minus sign. None (nothing to average yet) reads "—".

    Integer arithmetic on the exact fraction: the standings page formats four numbers for each
    of up to a hundred players, and Decimal or number_format cost more than the rest of a row."""
    if value is None:
        return "—"
    exact = Fraction(str(value)) if isinstance(value, float | Decimal) else Fraction(value)
    hundredths, rest = divmod(abs(exact.numerator) * 100, exact.denominator)
    if 2 * rest >= exact.denominator:
        hundredths += 1
    whole, cents = divmod(hundredths, 100)
    text = str(whole)
    if cents:
        text += str(get_format("DECIMAL_SEPARATOR")) + f"{cents:02d}".rstrip("0")
    return f"−{text}" if exact < 0 and hundredths else text


def tiebreak_note(key: str, above: str) -> str:
    """Why a row is below the row above: the first tie-break that separated them."""
    notes = {
        "points": _("Below %(name)s on points"),
        "game_score": _("Below %(name)s on game score"),
        "game_score_average": _("Below %(name)s on game score per table"),
        "average_place": _("Below %(name)s on average place"),
        "firsts": _("Below %(name)s on first places"),
        "opponents_points": _("Below %(name)s on opponents' points"),
        "head_to_head": _("Below %(name)s on their games against each other"),
    }
    return notes.get(key, _("Below %(name)s on a tie-break")) % {"name": above}


@register.filter
def tiebreak_name(key: str) -> str:
    names = {
        "points": _("points"),
        "game_score": _("game score"),
        "game_score_average": _("game score per table"),
        "average_place": _("average place"),
        "firsts": _("first places"),
        "opponents_points": _("opponents' points"),
        "head_to_head": _("games against each other"),
    }
    return names.get(key, key)


def penalty_text(kind: str, taken: Number, round_number: object) -> str:
    """A warning or a penalty in words: "Warning, round 2", "−2 points off the total"."""
    if kind == "warning":
        if round_number:
            return _("Warning, round %(round)s") % {"round": round_number}
        return _("Warning")
    amount = points(taken)
    if round_number:
        return _("−%(points)s points, round %(round)s") % {"points": amount, "round": round_number}
    return _("−%(points)s points off the total") % {"points": amount}


@register.simple_tag
def penalty_words(penalty: Penalty) -> str:
    return penalty_text(penalty.kind, penalty.points, penalty.round)


@dataclass(frozen=True)
class StandingItem:
    row: StandingRow
    rank: str  # "2", or "=2" when shared
    shared: bool
    first_shared: bool  # the first row of a shared rank: the note "shared" goes there once
    note: str  # the tie-break that put him below the row above, or ""
    game_score: int  # the sum of his table totals as the game counts them
    url: str  # the player's page in the club
    # The numbers as shown (formatted here, once, rather than by a filter per cell).
    points: str = ""
    game_score_text: str = ""
    average_place: str = ""
    opponents_points: str = ""


@register.simple_tag
def per_table_score(tournament: Tournament) -> bool:
    """The standings show the game score per table (the tie-break the tournament uses), not
    the sum: the column then means what the tie-break notes say."""
    order = tournament.tiebreaks or DEFAULT_TIEBREAKS
    return "game_score_average" in order and "game_score" not in order


@register.simple_tag
def standing_items(
    rows: Sequence[StandingRow], tournament: Tournament, start: int | str = 0, limit: int | str | None = None
) -> list[StandingItem]:
    """The standings' rows ``start`` to ``start + limit`` for the table: each with its rank as
    shown and a note saying which tie-break put it below the row above."""
    lower = family_info(tournament.family).lower_is_better
    average = per_table_score(tournament)
    ranks = Counter(row.rank for row in rows)
    # A player's page in the tournament is its prefix + his entry's id: one reverse for the table.
    players_url = reverse("tournaments:player", kwargs={"public_id": tournament.public_id, "entry_id": 0})[
        :-2
    ]
    first = int(start or 0)  # a variable missing from the include's context reads ""
    end = first + int(limit) if limit else len(rows)
    items: list[StandingItem] = []
    for index in range(first, min(end, len(rows))):
        row = rows[index]
        standing = row.standing
        shown_score = standing.game_score_average if average else standing.game_score
        if shown_score is not None and lower:
            shown_score = -shown_score
        shared = ranks[row.rank] > 1
        note = ""
        # Points that differ need no note: only a tie-break that decided between equal points.
        if standing.separated_by and standing.separated_by != "points" and index > 0:
            note = tiebreak_note(standing.separated_by, rows[index - 1].name)
        items.append(
            StandingItem(
                row=row,
                rank=f"={row.rank}" if shared else str(row.rank),
                shared=shared,
                first_shared=shared and (index == 0 or rows[index - 1].rank != row.rank),
                note=note,
                # Standing.game_score is negated when lower is better (higher always better):
                # show the totals the players know from their score sheets.
                game_score=-standing.game_score if lower else standing.game_score,
                url=f"{players_url}{standing.player}/",
                points=points(standing.points),
                game_score_text=points(shown_score),
                average_place=points(standing.average_place),
                opponents_points=points(standing.opponents_points),
            )
        )
    return items


def _round_words(number: object) -> str:
    return _("Round %(round)s") % {"round": number}


def _table_words(number: object) -> str:
    if number in (0, None):
        return _("the bye")
    return _("table %(table)s") % {"table": number}


def _names(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value or "")


def _settings_words(after: Mapping[str, object]) -> str:
    labels = []
    for key in after:
        try:
            field = Tournament._meta.get_field(key)
        except Exception:  # a setting no longer a field: its key
            labels.append(key.replace("_", " "))
            continue
        labels.append(str(getattr(field, "verbose_name", key)))
    return ", ".join(labels)


@register.filter
def change_summary(change: TournamentChange) -> list[str]:
    """The data of a tournament change in words, a line each: the round, the player, the
    tables (a seated round: one line per table)."""
    data = change.data if isinstance(change.data, Mapping) else {}
    action = change.action
    Action = TournamentChange.Action
    parts: list[str] = []
    if action == Action.CREATED:
        parts.append(str(data.get("name", "")))
    elif action == Action.SETTINGS:
        after = data.get("after")
        if isinstance(after, Mapping) and after:
            parts.append(_("Changed: %(settings)s") % {"settings": _settings_words(after)})
    elif action == Action.REGISTERED:
        players = data.get("players") or []
        parts.append(_names(players))
        if data.get("round", 1) not in (1, None):
            parts.append(_("from round %(round)s") % {"round": data["round"]})
    elif action in (Action.CHECKED_IN, Action.CHECKED_SELF, Action.CHECKED_OUT, Action.UNREGISTERED):
        parts.append(_names(data.get("player")))
    elif action == Action.DROPPED:
        parts.append(_names(data.get("player")))
        if data.get("after"):
            parts.append(_("after round %(round)s") % {"round": data["after"]})
    elif action == Action.REJOINED:
        parts.append(_names(data.get("player")))
        if data.get("round"):
            parts.append(_("from round %(round)s") % {"round": data["round"]})
    elif action in (Action.APART, Action.APART_ENDED):
        parts.append(_names(data.get("players")))
    elif action == Action.PINNED:
        table = data.get("table")
        if table:
            parts.append(
                _("%(player)s at table %(table)s") % {"player": _names(data.get("player")), "table": table}
            )
        else:
            parts.append(_("%(player)s: no fixed table") % {"player": _names(data.get("player"))})
    elif action == Action.SEATED:
        tables = data.get("tables") or []
        words = [_round_words(data.get("round"))]
        if isinstance(tables, list):
            words.append(
                ngettext("%(count)d table", "%(count)d tables", len(tables)) % {"count": len(tables)}
            )
        parts.append(": ".join(words))
        if isinstance(tables, list):
            for number, names in enumerate(tables, start=1):
                parts.append(capfirst(_table_words(number)) + ": " + _names(names))
        if data.get("byes"):
            parts.append(_("Bye: %(players)s") % {"players": _names(data["byes"])})
        if data.get("again"):
            parts.append(_("seated again"))
    elif action == Action.MOVED:
        parts.append(
            _("Round %(round)s: %(player)s from %(source)s to %(target)s")
            % {
                "round": data.get("round"),
                "player": _names(data.get("player")),
                "source": _table_words(data.get("source")),
                "target": _table_words(data.get("to")),
            }
        )
    elif action in (Action.PUBLISHED, Action.UNPUBLISHED):
        parts.append(_round_words(data.get("round")))
    elif action == Action.STARTED:
        parts.append(_round_words(data.get("round")))
        if data.get("published"):
            parts.append(_("the seating published as it started"))
        minutes = data.get("minutes")
        if isinstance(minutes, int) and minutes:
            parts.append(
                ngettext("a clock of %(minutes)d minute", "a clock of %(minutes)d minutes", minutes)
                % {"minutes": minutes}
            )
    elif action in (Action.PENALTY, Action.PENALTY_UNDONE):
        taken = data.get("points") or "0"
        amount = Fraction(str(taken)) if isinstance(taken, str | int) else Fraction(0)
        said = penalty_text(str(data.get("kind")), amount, data.get("round"))
        parts.append(f"{_names(data.get('player'))}: {said}")
        if data.get("reason"):
            parts.append(_("Reason: %(reason)s") % {"reason": data["reason"]})
    elif action == Action.CONFIRMED:
        parts.append(_round_words(data.get("round")))
        closed = data.get("closed")
        if isinstance(closed, list) and closed:
            parts.append(
                _("tables ended by the organiser: %(tables)s") % {"tables": ", ".join(str(t) for t in closed)}
            )
    elif action in (Action.RESULT_AGREED, Action.RESULT_DISPUTED):
        # The dispute's word is shown by the page to the organisers only.
        parts.append(
            _("Round %(round)s, %(table)s: %(player)s")
            % {
                "round": data.get("round"),
                "table": _table_words(data.get("table")),
                "player": _names(data.get("player")),
            }
        )
        totals = data.get("totals")
        if isinstance(totals, list) and totals:
            parts.append(_("totals %(totals)s") % {"totals": ", ".join(str(t) for t in totals)})
    return [p for p in parts if p]


@register.filter
def rating_after(event: RatingEvent) -> int:
    """The rating (as displayed) a player had after a rated game."""
    return display(Rating(event.mu, event.sigma))


DROPPED = SafeString(' class="dropped"')
ROW = (
    '<tr{}><td class="rank">{}</td><th scope="row" class="name"><a href="{}">{}</a>{}</th>'
    '<td class="points">{}</td><td class="game-score">{}</td><td class="secondary phone-more">{}</td>'
    '<td class="secondary phone-more">{}</td><td class="secondary phone-more">{}</td>'
    '<td class="phone-more">{}{}</td></tr>{}'
)
# A tie-break note: a line of its own under the row, across the table (a note in the name's
# column wrapped a word a line on a phone).
NOTE_ROW = '<tr class="note"><td class="rank"></td><td colspan="7">{}</td></tr>'
HAS_NOTE = SafeString(' class="has-note"')
# A penalised row's reasons: one tap away under the row (the row itself stays one line).
PENALTY_NOTE = '<details class="penalty-note"><summary>{}</summary><ul>{}</ul></details>'


def _penalty_notes(given: Sequence[Penalty]) -> SafeString | str:
    if not given:
        return ""
    words = [penalty_text(p.kind, p.points, p.round) for p in given]
    reasons = SafeString(
        "".join(format_html("<li>{}: {}</li>", said, p.reason) for said, p in zip(words, given, strict=True))
    )
    return format_html(PENALTY_NOTE, "; ".join(words), reasons)


DROPPED_NOTE = SafeString(' class="dropped has-note"')


@register.simple_tag
def standings_rows(items: Sequence[StandingItem]) -> SafeString:
    """The standings' rows, drawn here rather than by a template loop: a hundred rows of a
    template cost more than everything else the page does (bench/bench_tournament.py)."""
    dropped = _("dropped out")
    # Why players share a place: the standings' tie, or a final's (nobody tie-breaks there).
    shared_notes = {
        None: _("Shared place: equal on every tie-break"),
        "knockout": _("Shared place: out in the same round of the knockout"),
        "final": _("Shared place: tied at the final table"),
    }
    rows = []
    for item in items:
        standing = item.row.standing
        badge = format_html(' <span class="badge out">{}</span>', dropped) if item.row.dropped else ""
        notes = [
            format_html('<small class="tiebreak">{}</small>', item.note) if item.note else "",
            format_html('<small class="tiebreak shared">{}</small>', shared_notes[standing.shared_by])
            if item.first_shared
            else "",
            _penalty_notes(item.row.penalties),
        ]
        note = format_html(NOTE_ROW, format_html("{}{}{}", *notes)) if any(notes) else ""
        if item.row.penalties:
            badge = format_html(
                '{} <span class="badge missing penalised">{}</span>',
                badge,
                _("penalty") if standing.penalty else _("warning"),
            )
        if item.row.dropped:
            marks = DROPPED_NOTE if note else DROPPED
        else:
            marks = HAS_NOTE if note else SafeString("")
        byes = ""
        if standing.byes:
            byes = format_html(
                " <small>{}</small>",
                ngettext("+%(counter)s bye", "+%(counter)s byes", standing.byes) % {"counter": standing.byes},
            )
        rows.append(
            format_html(
                ROW,
                marks,
                item.rank,
                item.url,
                item.row.name,
                badge,
                item.points,
                item.game_score_text,
                item.average_place,
                standing.firsts,
                item.opponents_points,
                standing.tables,
                byes,
                note,
            )
        )
    return SafeString("".join(rows))


@register.filter(name="game_name")
def game_name_filter(game: Game, player_id: int | None = None) -> str:
    """The game as a list names it beside its date: its event's table, else who else played."""
    return game_name(game, player_id=player_id)


@register.simple_tag
def round_title(tournament: Tournament, number: int, final_stage: int) -> str:
    """A round as players call it: "Round 3", or the final's "Final", "Semi-finals" or
    "Quarter-finals" (a knockout's stage named by the players still in it)."""
    if not final_stage:
        return _("Round %(number)s") % {"number": number}
    if tournament.final != Tournament.Final.KNOCKOUT:
        return _("Final")
    left = final_size(tournament) >> (final_stage - 1)
    names = {2: _("Final"), 4: _("Semi-finals"), 8: _("Quarter-finals")}
    return names.get(left) or _("Final, stage %(stage)s") % {"stage": final_stage}
