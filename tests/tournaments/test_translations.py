"""The catalogues: complete in Dutch and French, compiled by a pure-Python command."""

from __future__ import annotations

import gettext
import shutil

import polib
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

LOCALE = settings.BASE_DIR / "locale"


@pytest.mark.parametrize("language", ["nl", "fr"])
def test_every_string_is_translated(language):
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    assert catalogue.percent_translated() == 100
    assert not [entry.msgid for entry in catalogue if "fuzzy" in entry.flags]


@pytest.mark.parametrize("language", ["nl", "fr"])
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
