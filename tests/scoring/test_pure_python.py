"""The engine is pure Python: importing it pulls in nothing of Django."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_engine_and_the_command_line_loads_no_django():
    code = textwrap.dedent(
        """
        import sys
        import scoring.engine
        import scoring.__main__
        from scoring.engine import codec, score_deal
        score_deal({"taker": "N", "trump": "H", "points": {"team": "NS", "cards": 98}})
        loaded = [m for m in sys.modules if m == "django" or m.startswith("django.")]
        assert not loaded, loaded
        """
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
