"""The translation catalogues: `extract` (bring every language's .po up to date with the source),
`compile` (the .mo files Django reads; run by the install step), `check` (fail on a message that is
missing, untranslated, fuzzy or has other placeholders than its English).

Babel does the reading and writing (pure Python, so neither the install step nor the tests need
GNU gettext). What is extracted, into which catalogue (games/i18n_sources.py says which files):
- Python: Django's gettext calls; in a title or the engine, its messages (`msg`, `nmsg`), a
  title's under the msgctxt of its slug (games/messages.py looks them up so);
- templates: Django's `{% translate %}` and `{% blocktranslate %}`, read through Django's own
  `templatize`, as `makemessages` does;
- a title's card words: the values of its `card_words` keys in seeds/<slug>/, msgctxt "<slug>:card".
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from games import i18n_sources


class Command(BaseCommand):
    help = "Extract, compile or check the translation catalogues."

    def add_arguments(self, parser) -> None:
        parser.add_argument("action", choices=["extract", "compile", "check"])
        parser.add_argument("--language", action="append", help="extract: only these languages (default: all)")

    def handle(self, *args, action: str, language: list[str] | None = None, **options) -> None:
        if action == "extract":
            for path, added, dropped in i18n_sources.extract(language):
                self.stdout.write(f"{path}: {added} new, {dropped} dropped")
        elif action == "compile":
            written = i18n_sources.compile_all()
            self.stdout.write(f"compiled {written} catalogue(s)")
        else:
            problems = i18n_sources.check()
            for problem in problems:
                sys.stdout.write(problem + "\n")
            if problems:
                raise CommandError(f"{len(problems)} problem(s) in the catalogues")
            self.stdout.write("every catalogue is complete")
