"""A title's own templates and static files, kept in its package and found through the registry.

A title keeps them in its folder (TITLE.folder): `templates/` (its page and email tables and their
pieces) and `static/` (its CSS and JS). The rest of the site names them `titles/<slug>/<file>`:
`Loader` finds such a template name in that title's templates/, `Finder` such a static path in its
static/ (and lists every title's static files for collectstatic and whitenoise). Both ask the
registry each time, so a title registered from another folder is found like a packaged one. They
are registered in config/settings.py (TEMPLATES' loaders, STATICFILES_FINDERS).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from django.apps import apps
from django.contrib.staticfiles import utils
from django.contrib.staticfiles.finders import BaseFinder
from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import FileSystemStorage
from django.template import Origin
from django.template.loaders.filesystem import Loader as FilesystemLoader
from django.utils._os import safe_join

from games.titles import get_title, titles, when_changed

PREFIX = "titles"


def title_path(name: str, part: str) -> Path | None:
    """The file a name `titles/<slug>/<file>` stands for in that title's `part` folder ("templates" or
    "static"), or None when the name is not of that form, names no registered title, or leaves the folder."""
    head, _, rest = name.partition("/")
    slug, _, file = rest.partition("/")
    if head != PREFIX or not slug or not file:
        return None
    try:
        folder = get_title(slug).folder
    except KeyError:
        return None
    if folder is None:
        return None
    try:
        return Path(safe_join(Path(folder) / part, file))
    except SuspiciousFileOperation:
        return None


class Loader(FilesystemLoader):
    """Template names `titles/<slug>/<file>`, read from that title's templates/ folder."""

    def get_dirs(self) -> list[Path]:
        """Every title's templates/ folder (what the development server watches for changes)."""
        return [Path(t.folder) / "templates" for t in titles() if t.folder is not None]

    def get_template_sources(self, template_name: str) -> Iterator[Origin]:
        path = title_path(template_name, "templates")
        if path is not None:
            yield Origin(name=str(path), template_name=template_name, loader=self)


class Finder(BaseFinder):
    """Static paths `titles/<slug>/<file>`, from that title's static/ folder."""

    def check(self, **kwargs) -> list:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs):
        found = title_path(path, "static")
        if found is None or not found.is_file():
            return []
        return [str(found)] if find_all else str(found)

    def list(self, ignore_patterns):
        for title in titles():
            folder = Path(title.folder) / "static" if title.folder is not None else None
            if folder is None or not folder.is_dir():
                continue
            storage = FileSystemStorage(location=folder)
            storage.prefix = f"{PREFIX}/{title.slug}"  # collectstatic and whitenoise put the files under it
            for path in utils.get_files(storage, ignore_patterns):
                yield path, storage


@when_changed
def _forget_templates() -> None:
    """A title came or went: the cached template loaders forget what they found (or did not find)."""
    if not apps.ready:
        return
    from django.template import engines

    for engine in engines.all():
        for loader in getattr(getattr(engine, "engine", None), "template_loaders", ()):
            if hasattr(loader, "reset"):
                loader.reset()
