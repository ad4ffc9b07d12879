"""What every registered family promises (scoring.families.RuleFamily), checked for each one: a
family added to the registry is held to the same contract as the ones shipped."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.cards import JOKER, Card
from engine.errors import EngineError
from engine.laydown import check_laydown
from engine.rules import FAMILIES, OPTIONS, RuleSet, register_rules, rule_set
from engine.values import card_value
from scoring.errors import ScoringError
from scoring.families import FAMILY_INFO, RuleFamily, families, family, family_info, register, unregister
from scoring.game import score_game
from scoring.hands import score_hand
from scoring.kinds import hand_kind

KEYS = [f.info.key for f in families()]


def _words(text: str) -> str:
    return text


def _plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def test_the_registry_and_the_engine_list_the_same_families_in_the_same_order() -> None:
    assert tuple(FAMILIES) == tuple(FAMILY_INFO) == tuple(KEYS) == tuple(OPTIONS)
    assert KEYS == ["zoliky", "gin", "carousel", "rummikub"]


@pytest.mark.parametrize("key", KEYS)
def test_a_family_states_its_facts_once_and_consistently(key: str) -> None:
    fam: RuleFamily = family(key)
    info, rules = fam.info, rule_set(key)
    assert info is family_info(key) and fam.rules.key == info.key == rules.family == key
    assert (info.min_players, info.max_players) == (rules.min_players, rules.max_players)
    assert info.min_players <= info.table_preferred <= info.max_players
    assert info.count == ("tiles" if rules.tiles else "cards")
    assert "players" in fam.fields and info.emptied_role in info.roles
    assert set(info.roles) | set(info.flags) <= set(fam.fields)
    assert info.chart_line is None or info.chart_line in rules.options
    assert not info.settles_in_crowns or "settlement" in rules.options
    # A joker's value left in hand is the family's one option for it, or there is no joker.
    if rules.jokers:
        assert rules.joker_option is not None
        assert card_value(JOKER, rules) == rules.opt_int(rules.joker_option)
    else:
        with pytest.raises(EngineError):
            card_value(JOKER, rules)


@pytest.mark.parametrize("key", KEYS)
def test_an_opening_family_refuses_a_first_laydown_below_its_minimum(key: str) -> None:
    rules = rule_set(key)
    low = (
        [[Card(2, 0), Card(3, 0), Card(4, 0)]] if not rules.tiles else [[Card(1, 0), Card(2, 0), Card(3, 0)]]
    )
    if family_info(key).opening:
        with pytest.raises(EngineError) as refused:
            check_laydown(low, rules)
        assert refused.value.code == "opening_too_low"
    else:
        assert check_laydown(low, rules).points


@pytest.mark.parametrize("key", KEYS)
def test_the_example_hand_scores_and_reads_as_a_kind_under_the_usual_rules(key: str) -> None:
    fam, rules = family(key), rule_set(key)
    example = fam.example
    assert example.named in example.players and "%(player)s" in example.said
    result = score_hand(rules=rules, outcome=dict(example.outcome), players=example.players)
    assert result.family == key and set(result.points) == set(example.players)
    assert set(result.winners) <= set(example.players)
    kind = hand_kind(result)
    assert kind.kind and (kind.player is None or kind.player in example.players)
    lines = fam.how_scored(rules.options, _words, _plural)
    assert lines and all(isinstance(line, str) and line for line in lines)


@pytest.mark.parametrize("key", KEYS)
def test_an_outcome_field_of_no_family_is_refused(key: str) -> None:
    example = family(key).example
    with pytest.raises(ScoringError) as refused:
        score_hand(rules=rule_set(key), outcome={**example.outcome, "typo": 1}, players=example.players)
    assert refused.value.code == "unknown_field"


@pytest.mark.parametrize("key", KEYS)
def test_an_evening_ended_after_the_example_has_its_leaders_as_winners(key: str) -> None:
    example, rules = family(key).example, rule_set(key)
    state = score_game(rules=rules, players=example.players, hands=[example.outcome], ended=True)
    assert state.finished and state.winners == state.leaders and state.winners
    best = (min if family_info(key).lower_is_better else max)(state.totals.values())
    assert all(state.totals[p] == best for p in state.winners)
    open_state = score_game(rules=rules, players=example.players, hands=[example.outcome])
    assert not open_state.finished and not open_state.winners and not open_state.bonuses


@pytest.mark.parametrize("key", KEYS)
def test_a_family_is_registered_once(key: str) -> None:
    with pytest.raises(ValueError, match="registered already"):
        register(family(key))
    with pytest.raises(ValueError, match="registered already"):
        register_rules(family(key).rules)
    assert family(key).info.key == key and key in FAMILIES


def _state(rules: RuleSet, players: tuple[str, ...], hands: list[object], ended: bool) -> object:
    try:
        state = score_game(rules=rules, players=players, hands=hands, ended=ended).as_dict()
    except EngineError as error:
        return ("error", error.code, dict(error.params))
    state.pop("family")
    for hand in state["hands"]:  # type: ignore[attr-defined]
        hand.pop("family")
    return state


@pytest.mark.parametrize("key", KEYS)
def test_a_family_registered_again_under_another_name_scores_exactly_as_the_original(key: str) -> None:
    """Nothing in scoring asks a family's name: eliminations, the end, bonuses, leaders and the
    settlement come out the same for a twin of each family."""
    fam = family(key)
    twin_key = f"{key}_twin"
    twin = type(
        "Twin",
        (type(fam),),
        {"rules": replace(fam.rules, key=twin_key), "info": replace(fam.info, key=twin_key)},
    )()
    register(twin)
    try:
        example = fam.example
        for count in range(1, 7):
            for ended in (False, True):
                hands: list[object] = [dict(example.outcome)] * count
                original = _state(rule_set(key), example.players, hands, ended)
                assert _state(rule_set(twin_key), example.players, hands, ended) == original
    finally:
        unregister(twin_key)
    assert twin_key not in FAMILIES and twin_key not in FAMILY_INFO


@pytest.mark.parametrize("key", KEYS)
def test_sample_outcomes_are_hands_the_family_scores(key: str) -> None:
    fam, rules = family(key), rule_set(key)
    players = ("Ann", "Bob", "Cid", "Dan", "Eva", "Fay")[: min(3, rules.max_players)]
    for seed in range(200):
        outcome = fam.sample_outcome(random.Random(seed), players)
        result = score_hand(rules=rules, outcome=outcome, players=players)
        assert set(result.points) == set(players)
        assert family_info(key).words.kind(hand_kind(result).kind) is not None  # its words name it


@pytest.mark.parametrize("key", KEYS)
def test_a_family_brings_the_words_of_its_roles_flags_kinds_and_api_examples(key: str) -> None:
    fam, info = family(key), family_info(key)
    words = info.words
    assert (
        tuple(r.name for r in words.roles) == info.roles and tuple(f.name for f in words.flags) == info.flags
    )
    assert all(r.question and "%(name)s" in r.did for r in words.roles)
    assert info.role_required or all(r.nobody and r.unanswered for r in words.roles)  # "Nobody" is a choice
    assert all(f.label for f in words.flags) and all(f.option in (None, *OPTIONS[key]) for f in words.flags)
    assert sum(f.empties for f in words.flags) <= 1
    assert words.kinds and all(k.short and "%(name)s" not in k.nobody for k in words.kinds)
    assert len({k.name for k in words.kinds}) == len(words.kinds)
    rules = rule_set(key)
    for _title, outcome in fam.api_examples:  # each example in the record's codes scores
        counts = outcome.get("left") or outcome.get("deadwood")
        assert isinstance(counts, dict)
        players = tuple(sorted({*counts, "Ann"}))
        if "notation" not in outcome:
            assert set(score_hand(rules=rules, outcome=dict(outcome), players=players).points) == set(players)
