"""The one check of text a person types that others will read: no hidden characters.

Names (players', teams', clubs', tournaments', tokens') and free text (a dispute's remark, the
reason a director reopens results) are shown to other people. Characters that reorder the
text around them or are not seen at all (Trojan Source: bidirectional overrides, isolates and
marks; zero-width spaces and joiners; control characters) would let one string pass for
another, so every service that stores such text asks here, and its refusal names the field.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from .errors import ServiceError

# Characters that reorder or hide the text around them without being seen: the
# bidirectional embeddings, overrides, isolates and marks, and the zero-width ones. Most are
# of the Unicode category Cf (format), which is refused whole; they are named here as well
# so that the list reads as what it protects against.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")
# Categories never typed on purpose in a name or a remark: controls, format characters
# (soft hyphen, zero-width, bidi), line and paragraph separators, unassigned code points,
# private use and surrogates.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cn", "Co", "Cs"})
# Free text may go over several lines.
LINE_BREAKS = frozenset("\n\r\t")


def hidden_character_problem(
    text: str, *, label: str | None = None, multiline: bool = False
) -> str | None:
    """Why `text` cannot be shown to others, or None: the first hidden character, by code.

    `label` says what the text is ("The team name"); `multiline`: free text (a remark), where
    line breaks and tabs are what they seem.
    """
    for char in text:
        if multiline and char in LINE_BREAKS:
            continue
        if (
            char in BIDI_CONTROLS
            or char in ZERO_WIDTH
            or unicodedata.category(char) in HIDDEN_CATEGORIES
        ):
            return _("%(label)s contains an invisible or control character (U+%(code)04X).") % {
                "label": label or _("The text"),
                "code": ord(char),
            }
    return None


def require_visible_text(text: str, *, field: str, label: str, multiline: bool = False) -> None:
    """Refuse `text` with a ServiceError on `field` if it holds a hidden character.

    `label` is how the person knows the field ("The team name", "The remark").
    """
    if problem := hidden_character_problem(text, label=label, multiline=multiline):
        raise ServiceError(problem, field=field)


__all__ = ["BIDI_CONTROLS", "hidden_character_problem", "require_visible_text"]


def folded(text: str) -> str:
    """Lower case without accents, as names are compared ("Chloé" is "chloe"): the one
    folding of names the site's matchers share (club.registration, the players' search)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
