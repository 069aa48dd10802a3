"""The API's personas (tests/api/conftest.py) for the entries' API tests."""

from tests.api.conftest import (  # noqa: F401
    anonymous_client,
    club,
    director,
    director_client,
    referee,
    referee_client,
    tournament,
)
