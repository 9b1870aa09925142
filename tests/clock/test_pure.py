"""The clock's arithmetic stays pure: its pure modules (and the seat-level one) load without Django,
so they stay cheap to test and games.models can build its Clock from them without a circle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE = ("calendar", "rules", "terms", "shown", "seat")


def test_the_clock_modules_but_vacation_import_no_django():
    imports = "; ".join(f"import games.clock.{name}" for name in PURE)
    check = f"import sys; {imports}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    out = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_clock_package_itself_imports_nothing():
    tree = (ROOT / "games" / "clock" / "__init__.py").read_text()
    assert "import " not in tree.split('"""', 2)[-1]
