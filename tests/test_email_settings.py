"""`BELOTE_EMAIL_URL` (issue 41 item 8): `filemail:///abs/path` became the relative
`abs/path`, so e-mails landed under whatever folder the process started in."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from config.mail import email_config

ROOT = Path(__file__).resolve().parent.parent


def test_a_file_mail_url_keeps_its_absolute_path():
    config = email_config("filemail:///var/mail/belote", base=Path("/srv/site"))
    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert config["EMAIL_FILE_PATH"] == "/var/mail/belote"


def test_a_relative_file_mail_url_is_under_the_project_folder():
    config = email_config("filemail://mails/out", base=Path("/srv/site"))
    assert config["EMAIL_FILE_PATH"] == "/srv/site/mails/out"


def test_other_mail_urls_read_as_django_environ_reads_them():
    config = email_config("smtp+tls://user:secret@smtp.example.org:587", base=ROOT)
    assert (config["EMAIL_HOST"], config["EMAIL_PORT"], config["EMAIL_USE_TLS"]) == (
        "smtp.example.org",
        587,
        True,
    )
    assert email_config("consolemail://", base=ROOT)["EMAIL_BACKEND"].endswith(
        "console.EmailBackend"
    )


def test_the_settings_take_the_absolute_path_from_the_environment(tmp_path):
    env = {**os.environ, "BELOTE_EMAIL_URL": f"filemail://{tmp_path}/mails"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    printed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings';"
            "from django.conf import settings; print(settings.EMAIL_FILE_PATH)",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert printed.stdout.strip() == f"{tmp_path}/mails", printed.stderr
