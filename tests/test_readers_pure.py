"""The readers of what people send stay pure: the reply-text reader loads without Django, so the
corpus of real mail-client replies can be read on its own (tests/test_reply_text.py, bench/)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PURE = ("games.reply_text", "games.actions.answers")


def test_the_readers_import_no_django():
    imports = "; ".join(f"import {name}" for name in PURE)
    check = f"import sys; {imports}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    out = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
