"""Replies by email: anymail's inbound webhook hands each received message to `receive`.

A reply is matched to its seat by the signed reply address it was sent to (games.links), and
must come from the address the seat's player was invited with. The answer is read from the top
of the body (quoted text and signatures are dropped) and goes through the one write path,
play.submit (via="email"), exactly like a web form. Table-talk replies post to the board.

What happens to each kind of message:

- not addressed to a reply address of ours (no recipient looks like one): ignored, logged;
- an automatic reply (vacation notice, bounce: RFC 3834 headers): ignored, logged, so a
  responder and our "could not be played" email can never ping-pong;
- addressed to something that looks like a reply address (our prefix at REPLY_DOMAIN) but whose
  signature does not hold (cut short, tampered with, or revoked because the seat got a new player):
  the sender is told "this reply address is not valid" with no game details, but only when the
  sender is a person this service already knows (an account exists for the address). A stranger
  forging mail to a made-up address gets nothing, so the service cannot be used to send mail to
  arbitrary third parties (backscatter);
- a genuine address from another sender: "not sent from the address this seat was invited with",
  no game details, nothing changed;
- a genuine address from the seat's player: the answer is played, or the player is told why not
  (with the question again and their link), nothing changed. A played answer gets no reply of its
  own: the game's next email follows as usual. One exception: when the same seat is asked the next
  step of its turn at once, the service sends no email (a web player sees that step on the page),
  so the email player is mailed it here, or their turn would stall until the deadline;
- a reply to an old email (the seat answered since, or is asked something else now) is not read
  against the new question: the service refuses it ("already answered", "the table changed").

Quoted text and signatures are cut by games.reply_text (which reads HTML-only replies too), our own
code with no Django in it, checked against a corpus of real mail-client formats
(tests/support/replies/: Gmail, Outlook, Apple Mail, Thunderbird, Yahoo, Proton and phones, in a
dozen languages). On that corpus
it reads every reply as meant or refuses it, and misreads none; the mail-parser-reply library,
in its kindest settings and even with our HTML reader in front, reads about two thirds as meant
and misreads a third: attributions it does not know ("tir. ... skrev", "a écrit :" wrapped),
phone footers in most languages, replies below the quote, empty Outlook replies read as the quoted
email. `bench/reply_corpus.py` prints the figures.

Nothing is accepted unless anymail checks the webhook's basic auth (ANYMAIL["WEBHOOK_SECRET"]);
without that secret configured anyone could post a forged From, so the handler ignores everything.

Each message is handled in one transaction; a refused reply never raises (the ESP must not retry
it), while a bug does (HTTP 500, so the ESP retries later and nothing half-done is kept). Log
lines carry the seat id and the outcome only: never the body, the sender or the reply address.

The same reader (`read`) takes replies that come with no provider: games.mailin's SMTP listener
(`manage.py smtpd`, for a domain whose MX points at the service) and its IMAP poller (an ordinary
mailbox, REPLY_IMAP_URL, whose plus-addresses are the reply addresses) store each raw message
first, then hand it here parsed, exactly as the webhook does.

Every answer to a reply is in the language of the person it goes to (games.notify.reply_problem),
and a reply is read in its player's language: the options by their names as that player's email
showed them (or in English), the words for picking nothing in their language or English's
(`none_words`), option numbers in any script's digits.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from email.utils import getaddresses, parseaddr
from typing import Any

from anymail.exceptions import AnymailError
from anymail.signals import inbound
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpResponseBadRequest
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from accounts import languages

from . import links, notify
from .actions import play, talk
from .actions.answers import NO_ANSWER, Replied, Unread
from .actions.write import SubmitError
from .engine import IllegalMove
from .engine.prompts import NONE_WORDS, ChooseMany, Composite
from .messages import NOBODY, Reading, reading_for, refusal, shown_prompt
from .models import Game, Seat
from .reply_text import UNREADABLE, answer_text, body_of, talk_text

log = logging.getLogger(__name__)

INVALID_ADDRESS = gettext_lazy(
    "This reply address is not valid: it may belong to an older email whose seat has a new player, "
    "or your mail program may have changed it. Nothing was played. Please reply to your latest email, "
    "or use the link in it."
)
WRONG_SENDER = gettext_lazy(
    "Your reply was not sent from the address this seat was invited with, so nothing was played. "
    "Please reply from the address the game's emails are sent to, or use the link in them."
)
NO_MESSAGE = gettext_lazy("We found no message at the top of your reply, so nothing was posted.")


def none_words() -> frozenset[str]:
    """The words a reply may pick nothing with, in the active language and in English."""
    # Translators: the words a reply by email may use to pick none of the choices, separated by "|"
    said = pgettext("reply words for none", "none|nothing")
    return NONE_WORDS | frozenset(w.strip().casefold() for w in said.split("|") if w.strip())


def _parse(prompt, text: str, words: frozenset[str]):
    takes_words = isinstance(prompt, ChooseMany | Composite)
    return prompt.parse_text(text, words) if takes_words else prompt.parse_text(text)


def read_in_language(prompt, text: str, reading: Reading = NOBODY):
    """A reply's answer to the engine's `prompt`, read in the active language: the options by their
    names as the player's email showed them, else as English names them; IllegalMove (the first
    reading's) if neither reads."""
    words = none_words()
    try:
        return _parse(shown_prompt(prompt, reading), text, words)
    except IllegalMove as first:
        if (translation.get_language() or "en").split("-")[0] == "en":
            raise
        with translation.override("en"):
            english = shown_prompt(prompt, reading)
        try:
            return _parse(english, text, words)
        except IllegalMove:
            raise first from None


@dataclass(frozen=True)
class RepliedIn(Replied):
    """A reply read in its player's language (active when the write path reads it, under the lock)."""

    reading: Reading = NOBODY

    def read(self, prompt):
        parts = len(getattr(prompt, "parts", ()) or ()) or 1
        text = answer_text(self.body, parts)
        if not text:
            raise Unread(NO_ANSWER)
        try:
            return read_in_language(prompt, text, self.reading)
        except IllegalMove as e:
            raise Unread(refusal(e, self.reading) or NO_ANSWER) from None


def _reading(game: Game) -> Reading:
    return reading_for(game, {s.index: s.name for s in game.seats.select_related("player")})


# the only white space a mail header may wrap an address in; anything else (U+2028, NEL) is not ours
HEADER_SPACE = " \t\r\n"
# what reading a message no mail program would write raises, in anymail or the email package
MALFORMED = (AnymailError, *UNREADABLE)


class MalformedWebhooks:
    """Middleware: an inbound webhook body the ESP's parser cannot read (not JSON, wrong types, broken
    encodings) is answered 400, so the ESP stops retrying it; a bug in our own handler still answers
    500, so the ESP retries it later (the handler marks its exceptions)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _INBOUND_PATH.match(request.path) and request.content_type == "application/json":
            try:
                data = json.loads(request.body)  # read once here; not JSON: the ESP's parser refuses it (400)
            except ValueError:
                data = None
            if data is not None and _has_overlong(data, ""):
                log.warning("inbound webhook refused: an address field over %d characters", MAX_ADDRESS_FIELD)
                return HttpResponseBadRequest("An address field is too long.", content_type="text/plain")
            if data is not None and b"\\ud" in request.body.lower():
                _mend_surrogates(request, data)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not _INBOUND_PATH.match(request.path) or getattr(exception, "inbound_handler", False):
            return None
        log.warning("inbound webhook refused: unreadable body (%s)", type(exception).__name__)
        return HttpResponseBadRequest("This webhook body cannot be read.", content_type="text/plain")


_INBOUND_PATH = re.compile(r"^/anymail/[\w-]+/inbound/?$")


# the standard library's address parser slows down as the square of its input (300,000 characters
# of "ab ab ..." took 100 s): no real address list is near this long, so longer is refused unread
MAX_ADDRESS_FIELD = 4000
_ADDRESS_KEYS = {
    "from",
    "fromname",
    "fromfull",
    "to",
    "tofull",
    "cc",
    "ccfull",
    "bcc",
    "bccfull",
    "replyto",
    "sender",
    "recipient",
    "recipients",
    "originalrecipient",
    "envelopeto",
    "envelopefrom",
    "envelopesender",
    "email",
    "name",
}
_ADDRESS_HEADER = re.compile(r"^(from|to|cc|bcc|reply-to|sender|return-path|delivered-to)$", re.IGNORECASE)


def _has_overlong(value: Any, key: str) -> bool:
    if isinstance(value, str):
        return len(value) > MAX_ADDRESS_FIELD and key.lower().replace("-", "").replace("_", "") in _ADDRESS_KEYS
    if isinstance(value, list):
        return any(_has_overlong(v, key) for v in value)
    if isinstance(value, dict):
        header = value.get("Name") if isinstance(value.get("Name"), str) else ""
        if _ADDRESS_HEADER.match(header) and isinstance(value.get("Value"), str):
            if len(value["Value"]) > MAX_ADDRESS_FIELD:
                return True
        return any(_has_overlong(v, str(k)) for k, v in value.items())
    return False


def _mend_surrogates(request, data: Any) -> None:
    """JSON may escape a lone UTF-16 surrogate ("\\ud800"), which is no character at all: the ESP's
    parser would fail on it and the sender never hear why. Each becomes U+FFFD, so the reply is read
    (and refused in words, if that leaves nothing to read)."""
    request._body = json.dumps(_mended(data)).encode()


def _mended(value: Any) -> Any:
    if isinstance(value, str):
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in value)
    if isinstance(value, list):
        return [_mended(v) for v in value]
    if isinstance(value, dict):
        return {_mended(k): _mended(v) for k, v in value.items()}
    return value


# --- the signal handler ----------------------------------------------------------------------


@receiver(inbound, dispatch_uid="games.inbound.receive")
def receive(sender=None, event=None, esp_name: str = "", **kwargs) -> str:
    """Handle one message the ESP's webhook posted; returns the outcome (for tests and logs). Raises only on a bug."""
    if not settings.ANYMAIL.get("WEBHOOK_SECRET"):
        log.warning("inbound mail ignored: ANYMAIL_WEBHOOK_SECRET is not set, so the webhook is not authenticated")
        return "no_webhook_secret"
    return read(event.message)


def read(message) -> str:
    """The one reply reader, whatever brought the message: the ESP's webhook, the SMTP listener or the
    IMAP mailbox (games.mailin) all hand it an AnymailInboundMessage (built from raw bytes by
    `AnymailInboundMessage.parse_raw_mime_bytes` for the last two, with the envelope set when known).
    Returns the outcome; a refused reply never raises, a bug does (marked, see MalformedWebhooks)."""
    try:
        automatic, from_addr, to = _automatic(message), address_of(message.from_email), recipients(message)
    except MALFORMED as e:  # headers no mail program writes: nothing to answer, nobody to tell
        log.info("inbound mail ignored: malformed envelope (%s)", type(e).__name__)
        return "malformed"
    if automatic:
        log.info("inbound mail ignored: automatic reply")
        return "automatic"
    if not from_addr or from_addr == address_of(settings.DEFAULT_FROM_EMAIL):
        log.info("inbound mail ignored: no usable sender")
        return "no_sender"
    try:
        return _handle(message, from_addr, to)
    except Exception as e:
        e.inbound_handler = True  # a bug of ours: the ESP must retry (see MalformedWebhooks)
        raise


def _handle(message, from_addr: str, to: list[str]) -> str:
    found, looks_ours = find_reply_address(to)
    if found is None:
        if looks_ours and _known_person(from_addr):
            with transaction.atomic():
                notify.reply_problem(None, from_addr, INVALID_ADDRESS, None)
            log.info("inbound reply refused: reply address not valid (sender told)")
            return "invalid_address"
        log.info("inbound mail ignored: %s", "reply address not valid" if looks_ours else "not a reply address")
        return "invalid_address" if looks_ours else "not_ours"
    seat, kind, version, key = found
    player = address_of(seat.player.email) if seat.player_id and not (seat.is_bot and not seat.stand_in) else ""
    if from_addr != player:
        with transaction.atomic():
            notify.reply_problem(None, from_addr, WRONG_SENDER, None)
        log.info("inbound reply seat=%s refused: wrong sender", seat.pk)
        return "wrong_sender"
    handlers = {
        "a": lambda: _answer(seat, message, version, key),
        "t": lambda: _talk(seat, message),
        "p": lambda: _plan(seat, message),
    }
    if kind not in handlers:
        log.warning("inbound reply seat=%s ignored: unknown reply kind", seat.pk)
        return "unknown_kind"
    # the player reads the answer to their reply, and wrote it, in their own language
    with translation.override(languages.for_user(seat.player)), transaction.atomic():
        outcome = handlers[kind]()
    log.info("inbound reply seat=%s kind=%s outcome=%s", seat.pk, kind, outcome)
    return outcome


def _answer(seat: Seat, message, version: int, key: str) -> str:
    """Play the reply's answer for the seat's current question, or tell the player why not.

    The reply's text is read against the question under the game's lock, as a web form is: a reply
    to an old email is refused as stale or already answered before its text is read."""
    try:
        # the service mails the next step of the turn itself: the player has no page open
        reply = RepliedIn(body_of(message), reading=_reading(seat.game))
        play.submit(seat.game_id, seat.index, reply, version, via="email", prompt_key=key)
    except SubmitError as e:
        _problem(seat, e.message)
        return e.code
    return "played"


def _talk(seat: Seat, message) -> str:
    text = talk_text(body_of(message))
    try:
        if not text:
            raise SubmitError(str(NO_MESSAGE), "empty")
        talk.post_message(seat, text, via="email")
    except SubmitError as e:
        notify.reply_problem(seat, seat.player.email, e.message, None, links.url_for(seat))
        return e.code
    return "posted"


def _plan(seat: Seat, message) -> str:
    """Answers left in advance for the seat's next question: numbers of the offered choices, in order."""
    game = Game.objects.get(pk=seat.game_id)
    upcoming = game.engine.upcoming
    prompt = upcoming(game.state, seat.index) if upcoming and game.status == Game.Status.ACTIVE else None
    if prompt is None:
        _problem(seat, _("There is nothing to plan for now: you are being asked already, or the round has moved on."))
        return "no_plan"
    text = answer_text(body_of(message))
    reading = _reading(game)
    try:
        tokens = [t for t in re.split(r"[\s,;]+", text) if t]
        if not tokens:
            raise IllegalMove(_("Write the numbers of your choices in order on the first line, e.g. 3, 1."))
        answers = [read_in_language(prompt, t, reading) for t in tokens[:3]]
        play.set_plan(seat, answers)
    except IllegalMove as e:
        _problem(seat, refusal(e, reading))
        return "illegal"
    except SubmitError as e:
        _problem(seat, getattr(e, "message", None) or str(e))
        return "illegal"
    return "planned"


def _problem(seat: Seat, problem: str) -> None:
    """Tell the seat's own player why their reply was not played, with the question as it stands now."""
    game = Game.objects.get(pk=seat.game_id)
    asked = game.state is not None and game.status != Game.Status.ENDED
    prompt = game.engine.prompts(game.state).get(seat.index) if asked else None
    notify.reply_problem(seat, seat.player.email, problem, prompt.to_dict() if prompt else None, links.url_for(seat))


# --- addresses -------------------------------------------------------------------------------


def address_of(value: Any) -> str:
    """The bare, lower-cased address of "Name <addr>", an anymail EmailAddress, or a plain address."""
    if value is None:
        return ""
    spec = getattr(value, "addr_spec", None)
    if spec is None:
        spec = parseaddr(str(value))[1]
    return spec.strip(HEADER_SPACE).lower()


def recipients(message) -> list[str]:
    """Where the message was delivered: the envelope recipient first, then To and Cc (deduplicated)."""
    found: list[str] = []
    envelope = getattr(message, "envelope_recipient", None)
    if envelope:
        found += [a for _, a in getaddresses([str(envelope)])]
    for field in (message.to, message.cc):
        found += [address_of(a) for a in field or []]
    out: list[str] = []
    for a in (x.strip(HEADER_SPACE).lower() for x in found):
        if a and a not in out:
            out.append(a)
    return out


def looks_like_reply_address(address: str) -> bool:
    """Our prefix at REPLY_DOMAIN, or a plus-address of the IMAP mailbox (links.canonical_reply_address)."""
    local, _, domain = links.canonical_reply_address(address).lower().rpartition("@")
    return local.startswith(settings.REPLY_LOCAL_PREFIX.lower()) and domain == settings.REPLY_DOMAIN.lower()


def find_reply_address(addresses: list[str]) -> tuple[tuple[Seat, str, int, str] | None, bool]:
    """(the first genuine reply address's (seat, kind, version, key), whether any address looked like ours)."""
    looks_ours = False
    for address in addresses:
        if "@" not in address:
            continue
        looks_ours = looks_ours or looks_like_reply_address(address)
        found = links.read_reply_address(address)
        if found is not None:
            return found, True
    return None, looks_ours


def _known_person(address: str) -> bool:
    from accounts.models import User

    return User.objects.filter(email__iexact=address).exists()


def _automatic(message) -> bool:
    """RFC 3834 automatic replies and bounces, which must never be answered."""
    auto = (message.get("Auto-Submitted") or "no").strip().lower()
    precedence = (message.get("Precedence") or "").strip().lower()
    return (
        auto != "no"
        or precedence in {"bulk", "junk", "list", "auto_reply"}
        or any(message.get(h) for h in ("X-Autoreply", "X-Autorespond"))
        or getattr(message, "envelope_sender", None) in ("", "<>")
    )
