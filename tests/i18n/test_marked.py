"""Every word a template shows a person is marked for translation (tests/i18n/unmarked.py says how
it is read), in the site's templates and every title's."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from tests.i18n.unmarked import skeleton, unmarked

ROOT = Path(settings.BASE_DIR)
TEMPLATES = sorted(
    p
    for pattern in ("templates/**/*.html", "templates/**/*.txt", "games/titles/*/templates/**/*.html")
    for p in ROOT.glob(pattern)
)


def test_there_are_templates_to_read():
    assert len(TEMPLATES) > 80


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_word_of_the_template_is_marked(path):
    assert [str(u) for u in unmarked(path, ROOT)] == []


def test_the_reader_finds_what_is_not_marked(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(
        '{% load i18n %}<p>{% translate "Marked" %} {{ name }}</p><p title="Unmarked title">Unmarked words</p>'
        "{% blocktranslate trimmed %}Marked too {{ x }}{% endblocktranslate %}<script>var s = 'code';</script>"
        '{# a comment #}{% include "x.html" with label="Send it now" other=_("Marked here") %}',
        encoding="utf-8",
    )
    found = [u.text for u in unmarked(page, tmp_path)]
    assert found == ["Send it now", "title=Unmarked title", "Unmarked words"]
    mail = tmp_path / "mail.txt"
    mail.write_text("{% load i18n %}{% translate 'Hello' %}\n{{ link }}\nSee you", encoding="utf-8")
    assert [u.text for u in unmarked(mail, tmp_path)] == ["See you"]
    assert "Words" not in skeleton("{% comment %}Words{% endcomment %}")[0]
