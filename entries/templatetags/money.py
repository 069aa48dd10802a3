"""Amounts of money as the reader writes them: the site's currency sign (`BELOTE_CURRENCY`)
placed and the number written in the active language ("€5.00", "5,00 €", "€ 5,00")."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from babel.numbers import format_currency
from django import template
from django.conf import settings
from django.utils import translation

register = template.Library()


@register.filter
def money(amount: Any) -> str:
    """`{{ amount|money }}`: every amount of the evening's fees goes through here."""
    if amount is None or amount == "":
        return ""
    try:
        value = Decimal(str(amount))
    except InvalidOperation:
        return ""
    locale = translation.to_locale(translation.get_language() or settings.LANGUAGE_CODE)
    return format_currency(value, settings.BELOTE_CURRENCY, locale=locale)
