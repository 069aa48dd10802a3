"""The prize table's problems in the reader's language: the arithmetic is pure, so its words are here."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from .awards import Problem

MESSAGES: dict[str, str] = {
    "not_an_object": gettext_noop("Expected an object."),
    "not_a_list": gettext_noop("Expected a list of prize lines."),
    "not_a_boolean": gettext_noop("Expected true or false."),
    "unknown_key": gettext_noop("Unknown field “%(key)s”: use %(known)s."),
    "not_an_amount": gettext_noop("Expected an amount, such as 20 or 7.50."),
    "amount_range": gettext_noop("An amount goes from 0 to %(max)s, in cents at most."),
    "percent_range": gettext_noop("A percentage goes from 0 to 100."),
    "not_a_place": gettext_noop("A place is a whole number."),
    "place_range": gettext_noop("A place goes from 1 to %(max)s."),
    "rounding_choice": gettext_noop("Round to %(choices)s."),
    "too_many_lines": gettext_noop("A prize table has at most %(max)s lines."),
    "no_place": gettext_noop("Say which place: a place, places, every, or the last."),
    "two_places": gettext_noop("Give one of %(keys)s, not both."),
    "from_to_without_every": gettext_noop("“from” and “to” go with “every”."),
    "places_pair": gettext_noop("Places are two numbers, the first and the last: [5, 8]."),
    "places_order": gettext_noop("The last place (%(last)s) comes before the first (%(first)s)."),
    "every_needs_to": gettext_noop("Say up to which place (“to”)."),
    "to_before_from": gettext_noop("“to” (%(end)s) comes before “from” (%(start)s)."),
    "last_true": gettext_noop("“last” is true, or left out."),
    "category_needs_place": gettext_noop(
        "A category prize is for a place or places of that category."
    ),
    "amount_and_percent": gettext_noop("Give an amount or a percentage, not both."),
    "kind_text": gettext_noop("A prize in kind is a text of at most %(max)s characters."),
    "category_text": gettext_noop("A category is a text of 1 to %(max)s characters."),
    "no_prize": gettext_noop("Give the line an amount, a percentage or a prize in kind."),
    "percents_over_100": gettext_noop(
        "The percentages add up to %(total)s %% of the pool, more than 100 %%."
    ),
    "unknown_category": gettext_noop("No entry has the category “%(category)s”."),
    "series_no_fees": gettext_noop(
        "A series has no entry fees of its own: give the pool as money added."
    ),
    "series_no_categories": gettext_noop(
        "A series ranks players, who have no category: give places instead."
    ),
}


def problem_message(problem: Problem) -> str:
    """The problem in the active language, its values filled in."""
    return gettext(MESSAGES[problem.code]) % dict(problem.params)
