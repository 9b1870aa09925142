"""The writes and the questions about stored card sets: add one, change one card, who may see or
use which set, and which set a game was started with. Views, the admin and the task call these.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.cards import TRANSLATIONS, CardDataError, card_words, content_hash

from .kinds import KINDS, SetKind
from .models import STARTABLE, USABLE, CardSet, stalled_before

# what a card set choice shows and is sorted by
CHOICE_FIELDS = ("pk", "title", "name", "shared", "check_status")


class SetRefused(ValueError):
    """A set (or a change to one) that is not stored, with the reason in words."""


def kind_of(slug: str) -> SetKind:
    try:
        return KINDS[slug]
    except KeyError:
        raise SetRefused(_("%(slug)s is not a game with card sets.") % {"slug": repr(slug[:40])}) from None


def build(slug: str, files: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(the built set, warnings), or SetRefused naming file, card and field."""
    try:
        return kind_of(slug).check(files)
    except CardDataError as e:
        raise SetRefused(str(e).removeprefix(f"{slug}/")) from None


def set_key(data: dict[str, Any], files: dict[str, Any]) -> str:
    """What makes a set the same as another: its cards (the title's hash), and its own translations."""
    own = files.get(TRANSLATIONS) if isinstance(files, dict) else None
    return data["hash"] if not own else content_hash({"cards": data["hash"], TRANSLATIONS: own})


def add_set(user, slug: str, name: str, provenance: str, files: dict[str, Any]) -> CardSet:
    """Store a new set after the title's checks; a staff member's set is offered to every host."""
    data, warnings = build(slug, files)
    same = CardSet.objects.filter(title=slug, content_hash=set_key(data, files)).first()
    if same is not None:
        raise SetRefused(_same_message(user, same))
    forget_name(slug, content_hash(data))
    try:
        with transaction.atomic():
            return CardSet.objects.create(
                name=name,
                title=slug,
                provenance=provenance,
                content_hash=set_key(data, files),
                recorded_hash=content_hash(data),
                files=files,
                data=data,
                warnings=warnings,
                shared=bool(getattr(user, "is_staff", False)),
                added_by=user,
            )
    except IntegrityError:
        raise SetRefused(_("An identical set was stored a moment ago.")) from None


def _same_message(user, same: CardSet) -> str:
    if may_view(user, same):
        return _("This set is already here, as “%(name)s”: nothing was stored.") % {"name": same.name}
    return _("An identical set is already stored: nothing was stored.")


def in_use(cs: CardSet) -> bool:
    """Whether a game (draft or started) holds this set: then its cards never change in place."""
    from games.models import Game

    return Game.objects.filter(
        Q(title=cs.title) & (Q(cardset_hash=cs.recorded_hash) | Q(options__cardset__hash=cs.content_hash))
    ).exists()


def change_card(user, cs: CardSet, file: str, index: int, entry: dict[str, Any]) -> tuple[CardSet, bool]:
    """One card replaced and the whole set re-validated; (the set saved, whether it is a new set).

    A set that a game holds, or the shipped one, is never changed: the edit makes a new set (a copy).
    A changed set must pass its bot check again before it is usable.
    """
    with transaction.atomic():  # one editor at a time: the row is locked while the set is rebuilt
        cs = CardSet.objects.select_for_update().get(pk=cs.pk)
        return _change_card(user, cs, file, index, entry)


def _change_card(user, cs: CardSet, file: str, index: int, entry: dict[str, Any]) -> tuple[CardSet, bool]:
    kind = kind_of(cs.title)
    files = copy.deepcopy(cs.files)
    cards = kind.entries(files, file)
    if not 0 <= index < len(cards):
        raise SetRefused(_("That card is not in this set any more; reload the page."))
    cards[index] = entry
    data, warnings = build(cs.title, files)
    held = cs.check_status == CardSet.Check.SHIPPED or in_use(cs)
    if set_key(data, files) == cs.content_hash:  # words only (a note): the cards a game plays with stay the same
        if held:
            raise SetRefused(
                _("That change leaves the cards as they were, and this set is in use: copy it to change notes.")
            )
        cs.files = files
        cs.save(update_fields=["files"])
        return cs, False
    other = CardSet.objects.filter(title=cs.title, content_hash=set_key(data, files)).exclude(pk=cs.pk).first()
    if other is not None:
        raise SetRefused(_same_message(user, other))
    if held:
        return add_set(user, cs.title, _copy_name(cs.name), cs.provenance, files), True
    forget_name(cs.title, cs.recorded_hash)
    cs.files, cs.data, cs.content_hash, cs.warnings = files, data, set_key(data, files), warnings
    cs.recorded_hash = content_hash(data)
    forget_name(cs.title, cs.recorded_hash)
    cs.check_status, cs.check_done, cs.check_total, cs.check_results = CardSet.Check.PENDING, 0, 0, {}
    cs.check_run, cs.check_beat = "", None  # a check still running for the old cards writes nothing now
    cs.save()
    return cs, False


def start_check(cs: CardSet, total: int) -> str | None:
    """Mark the set's bot check running and return the run's id, or None when there is nothing to
    start: the check passed, or one is running and saving progress. One UPDATE, so two clicks at once
    start one run; a run silent for the stall time (its worker was lost) may be started again."""
    run = uuid.uuid4().hex
    startable = Q(check_status__in=STARTABLE) | Q(
        Q(check_beat__isnull=True) | Q(check_beat__lte=stalled_before()), check_status=CardSet.Check.RUNNING
    )
    started = CardSet.objects.filter(startable, pk=cs.pk, content_hash=cs.content_hash).update(
        check_status=CardSet.Check.RUNNING,
        check_done=0,
        check_total=total,
        check_results={},
        check_run=run,
        check_beat=timezone.now(),
    )
    return run if started else None


def _this_run(pk: int, run: str) -> QuerySet[CardSet]:
    return CardSet.objects.filter(pk=pk, check_run=run, check_status=CardSet.Check.RUNNING)


def check_progress(pk: int, run: str, done: int) -> bool:
    """Save how many bot games this run has played; False once the run is no longer the set's
    (an edit, or the run was started again after a stall), so the task can stop early."""
    return bool(_this_run(pk, run).update(check_done=done, check_beat=timezone.now()))


def check_finished(pk: int, run: str, results: dict[str, Any]) -> str | None:
    """Store this run's results (passed or failed); None when the run is no longer the set's."""
    status = CardSet.Check.PASSED if results["passed"] else CardSet.Check.FAILED
    rows = _this_run(pk, run).update(
        check_status=status, check_done=results.get("games", 0), check_results=results, check_beat=timezone.now()
    )
    return status if rows else None


def _copy_name(name: str) -> str:
    return name if name.endswith("(edited)") else f"{name[:90]} (edited)"


def may_manage(user, cs: CardSet) -> bool:
    return bool(user.is_authenticated and (user.is_staff or cs.added_by_id == user.pk))


def may_view(user, cs: CardSet) -> bool:
    """Staff see every set; others a set they added, or a shared set that passed its check."""
    return may_manage(user, cs) or bool(user.is_authenticated and cs.shared and cs.usable)


def visible(user) -> QuerySet[CardSet]:
    if user.is_staff:
        return CardSet.objects.all()
    return CardSet.objects.filter(Q(shared=True, check_status__in=USABLE) | Q(added_by=user))


def _may_choose(user) -> Q:
    """Usable sets that are shared, or that this person added."""
    own = Q(added_by=user) if user is not None and user.is_authenticated else Q(pk__in=[])
    return Q(check_status__in=USABLE) & (Q(shared=True) | own)


def offered(user, slug: str) -> QuerySet[CardSet]:
    """The sets a person may start a game of `slug` with: usable shared sets, and their own usable sets."""
    return CardSet.objects.filter(Q(title=slug) & _may_choose(user))


NAME_SECONDS = 600  # how long a set's name is remembered; the writes below forget it at once


def _name_key(slug: str, recorded_hash: str) -> str:
    return f"cardset-name:{slug}:{recorded_hash}"


def forget_name(slug: str, recorded_hash: str) -> None:
    """Called by every write that adds, renames, rehashes or deletes a set."""
    cache.delete(_name_key(slug, recorded_hash))


def name_for(slug: str, recorded_hash: str) -> str:
    """The name of the set a game holds, from Game.cardset_hash (empty when the set is not stored).
    Every seat page asks, so the answer is cached."""
    if not recorded_hash:
        return ""
    key = _name_key(slug, recorded_hash)
    name = cache.get(key)
    if name is None:
        cs = CardSet.objects.filter(title=slug, recorded_hash=recorded_hash).only("name").first()
        name = cs.name if cs else ""
        cache.set(key, name, NAME_SECONDS)
    return name


def _in_order(sets) -> list[CardSet]:
    """The shipped set first, then shared sets, then the person's own, each by name."""
    return sorted(sets, key=lambda cs: (cs.check_status != CardSet.Check.SHIPPED, not cs.shared, cs.name))


def _label(cs: CardSet) -> str:
    return cs.name + ("" if cs.shared else " (yours)")


def choices(user, slug: str) -> list[tuple[int, str]]:
    """The new-game form's card set choices for `slug` (the shipped set first when there is one)."""
    return [(cs.pk, _label(cs)) for cs in _in_order(offered(user, slug).only(*CHOICE_FIELDS))]


def chosen(user, slug: str, pk: int | None) -> dict[str, Any]:
    """Game options for the chosen set ({"cardset": data}); a set the person may not use is refused."""
    if pk is None:
        return {}
    cs = offered(user, slug).filter(pk=pk).first()
    if cs is None:
        from games.engine import OptionsError

        raise OptionsError(_("That card set cannot be used for this game; choose another."))
    own = card_words((cs.files or {}).get(TRANSLATIONS)) if isinstance(cs.files, dict) else {}
    return {"cardset": cs.data, **({"card_words": own} if own else {})}


def held(slug: str, options: dict[str, Any] | None) -> CardSet | None:
    """The stored set whose cards a game's options hold (options["cardset"]), if any."""
    cardset = (options or {}).get("cardset") if isinstance(options, dict) else None
    digest = cardset.get("hash") if isinstance(cardset, dict) else None
    if not isinstance(digest, str):
        return None
    return CardSet.objects.filter(title=slug, content_hash=digest).only(*CHOICE_FIELDS).first()


def all_choices(user) -> list[tuple[int, str]]:
    """Every title's usable sets this person may choose, for the admin's game form ("Title: set")."""
    from games.titles import get_title

    by_title: dict[str, list[CardSet]] = {slug: [] for slug in KINDS}
    for cs in CardSet.objects.filter(Q(title__in=list(KINDS)) & _may_choose(user)).only(*CHOICE_FIELDS):
        by_title[cs.title].append(cs)
    return [
        (cs.pk, f"{get_title(slug).name}: {_label(cs)}") for slug, sets in by_title.items() for cs in _in_order(sets)
    ]
