"""The translation catalogues: complete in every language (no message missing, untranslated or
fuzzy, no placeholder the English lacks), compiled, and read by Django."""

from __future__ import annotations

from babel.messages.catalog import Catalog
from django.utils import translation
from django.utils.translation import gettext, pgettext

from games import i18n_sources


def test_every_catalogue_is_complete_in_every_language():
    problems = i18n_sources.check()
    assert problems == [], f"{len(problems)} problems, the first: " + "\n".join(problems[:40])


def test_the_check_refuses_what_is_missing_untranslated_fuzzy_or_misnamed():
    cat = Catalog(locale="de")
    cat.add("Done", "")
    cat.add("Maybe", "Vielleicht", flags=("fuzzy",))
    cat.add("%(seat)s passes.", "%(sitz)s passt.")
    cat.add("Fine", "Gut")
    wanted = {("Done", None), ("Maybe", None), ("%(seat)s passes.", None), ("Fine", None), ("Gone", None)}
    found = i18n_sources.problems_in(cat, wanted, "x.po")
    assert sorted(found) == [
        "x.po: '%(seat)s passes.': placeholders not in the English: ['sitz']",
        "x.po: fuzzy: 'Maybe'",
        "x.po: not in the catalogue: 'Gone'",
        "x.po: untranslated: 'Done'",
    ]


def test_django_reads_the_compiled_catalogues_of_apps_and_titles():
    i18n_sources.compile_all()
    with translation.override("de"):
        assert gettext("Sign in") != "Sign in"
        assert pgettext("seat", "Seat %(number)s") != "Seat %(number)s"
    for source in i18n_sources.sources():
        if source.context is None:
            continue
        # a title's longest sentence (no translation is the English word for word) in its own catalogue
        longest = max(
            (m for m in i18n_sources.template_for(source) if m.id and m.context == source.context),
            key=lambda m: len(m.id if isinstance(m.id, str) else m.id[0]),
        )
        text = longest.id if isinstance(longest.id, str) else longest.id[0]
        for lang in ("ja", "de"):
            with translation.override(lang):
                assert pgettext(source.context, text) != text, (source.name, lang, text)
