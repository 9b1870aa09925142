"""Layers point one way: accounts (people, addresses, sign-in, the signed tokens) is the lower layer
and imports nothing from games, at the top of a module or inside a function. What accounts needs
from above (mailing a sign-in link) it asks through accounts.mailing, which games implements.
The write path (games.actions) imports no web forms or pages: it is handed a raw answer and reads
it under its lock (games.actions.answers)."""

from __future__ import annotations

from tests.test_import_graph import imports_of, project_modules


def test_accounts_imports_nothing_from_games():
    modules = project_modules()
    found = {
        name: sorted(t for t in imports_of(name, path, modules) if t == "games" or t.startswith("games."))
        for name, path in modules.items()
        if name == "accounts" or name.startswith("accounts.")
    }
    assert len(found) > 5, "the accounts modules were read"
    assert {name: targets for name, targets in found.items() if targets} == {}


def test_the_write_path_imports_no_forms_and_no_pages():
    modules = project_modules()
    web = ("games.forms", "games.views")
    found = {
        name: sorted(
            t for t in imports_of(name, path, modules) if t in web or t.startswith(tuple(f"{w}." for w in web))
        )
        for name, path in modules.items()
        if name == "games.actions" or name.startswith("games.actions.")
    }
    assert len(found) > 5, "the actions modules were read"
    assert {name: targets for name, targets in found.items() if targets} == {}


def test_the_scan_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from games.models import Seat\n    return Seat\n")
    modules = {"accounts.m": module, "games.models": module}
    assert imports_of("accounts.m", module, modules) == {"games.models"}
