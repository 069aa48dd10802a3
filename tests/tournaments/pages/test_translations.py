"""The catalogues: complete in Dutch, French and Finnish, compiled by a pure-Python command."""

from __future__ import annotations

import gettext
import shutil

import polib
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.translation import trans_real

from tests.factories import MatchFactory, UserFactory
from tournaments.services.deals import enter_deal

LOCALE = settings.BASE_DIR / "locale"


@pytest.mark.parametrize("language", ["nl", "fr", "fi"])
def test_every_string_is_translated(language):
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    assert catalogue.percent_translated() == 100
    assert not [entry.msgid for entry in catalogue if "fuzzy" in entry.flags]


@pytest.mark.parametrize("language", ["nl", "fr", "fi"])
def test_every_translation_keeps_the_placeholders(language):
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    for entry in catalogue.translated_entries():
        if entry.msgid_plural:
            continue
        for mark in ("%(", "{"):
            wanted = sorted(p for p in entry.msgid.split(mark)[1:])
            found = sorted(p for p in entry.msgstr.split(mark)[1:])
            names = [p.split(")" if mark == "%(" else "}")[0] for p in wanted]
            assert names == [p.split(")" if mark == "%(" else "}")[0] for p in found], entry.msgid


def test_compile_translations_writes_mo_files_gettext_can_read(tmp_path, settings):
    shutil.copytree(LOCALE, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    call_command("compile_translations", "--check", verbosity=0)
    with open(tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.mo", "rb") as mo:
        french = gettext.GNUTranslations(mo)
    assert french.gettext("Live standings") == "Classement en direct"
    assert french.ngettext("%(n)s team", "%(n)s teams", 2) == "%(n)s équipes"


def test_compile_translations_check_fails_on_a_missing_translation(tmp_path, settings):
    folder = tmp_path / "locale" / "nl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_text('msgid ""\nmsgstr ""\n\nmsgid "Standings"\nmsgstr ""\n')
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    with pytest.raises(CommandError):
        call_command("compile_translations", "--check", verbosity=0)
    assert (folder / "django.mo").exists()


@pytest.mark.django_db
def test_the_referee_table_page_writes_sides_and_seats_in_the_readers_language(
    client, tmp_path, settings
):
    shutil.copytree(LOCALE, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    call_command("compile_translations", verbosity=0)
    trans_real._translations = {}
    trans_real._default = None
    referee = UserFactory()
    match = MatchFactory(referee=referee, table=1)
    entry = {"taker": "W", "trump": "H", "points": {"team": "EW", "cards": 98}, "belote": "EW"}
    enter_deal(match, entry, by=referee)
    client.force_login(referee)
    pages = {}
    try:
        for language in ("fr", "nl"):
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            pages[language] = client.get(reverse("tournaments:table", args=[match.pk])).content
    finally:
        trans_real._translations = {}
        trans_real._default = None
    french, dutch = (pages[lang].decode() for lang in ("fr", "nl"))
    assert f"EO · {match.ew_team}" in french and '<span class="seat">O</span>' in french
    assert f"OW · {match.ew_team}" in dutch and f"NZ · {match.ns_team}" in dutch
    assert '<span class="seat">Z</span>' in dutch
    assert f"EW · {match.ew_team}" not in french + dutch
