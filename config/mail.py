"""The e-mail settings from `BELOTE_EMAIL_URL`: django-environ's URL forms, with file paths kept.

django-environ reads `filemail:///var/mail/belote` as the relative `var/mail/belote` (it
drops the path's first slash), so e-mails would land under whatever folder the process
started in. Here the path is the URL's as written: `filemail:///abs/path` is absolute,
`filemail://folder/sub` is `folder/sub` under the project folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import environ


def email_config(url: str, *, base: Path) -> dict[str, Any]:
    """Django's EMAIL_* settings for `url` (`smtp+tls://…`, `consolemail://`, `filemail://…`)."""
    config: dict[str, Any] = environ.Env.email_url_config(url)
    parts = urlsplit(url)
    if parts.scheme == "filemail":
        written = unquote(parts.netloc + parts.path)
        path = Path(written) if written.startswith("/") else base / written
        config["EMAIL_FILE_PATH"] = str(path)
        config["EMAIL_HOST"] = None
    return config
