"""Reading a reply's text: what the person wrote above the quoted email, with no Django.

What a person wrote is found by what mail clients put around it, in any language where possible:
an attribution line (anything ending in ":" that names a date and a sender or says "wrote"), a
header block ("From: / Sent: / To:" in whatever words), a "----- ... -----" separator, ">" quotes,
and signatures ("-- ", and the footers phones and mail apps add); an HTML-only reply is read by
`html_to_text`. tests/support/replies/ holds the real mail-client formats this is checked against
(tests/test_reply_text.py), and `bench/reply_corpus.py` compares it with mail-parser-reply.

games.inbound (the webhook) hands it a received message; the write path reads an emailed answer
with `answer_text` against the question as it stands under the game's lock (games.actions.answers).
Pure: it imports no Django, so the corpus can be read on its own.
"""

from __future__ import annotations

import logging
import re
from html.parser import HTMLParser

from games.engine.typed import plain

log = logging.getLogger(__name__)

# what reading a body no mail program would write raises, in the email package (games.inbound adds
# anymail's own errors for the envelope; reading a body raises none of them)
UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, LookupError, IndexError)


def body_of(message) -> str:
    """The reply's text: the ESP's own stripped reply if it gives one, else the text part, else the HTML as text.
    A body no mail program writes (a lone surrogate, a broken charset) reads as empty: the player is
    told no answer was found, nothing is played."""
    try:
        for text in (getattr(message, "stripped_text", None), message.text):
            if text and text.strip():
                return plain(text)
        return plain(html_to_text(message.html or ""))
    except UNREADABLE as e:
        log.info("inbound reply body unreadable (%s)", type(e).__name__)
        return ""


# "wrote" in the attribution lines of common clients, for attributions that name no address
_WROTE = re.compile(
    r"\b(wrote|a écrit|schrieb|escribió|escreveu|schreef|geschreven|ha scritto|skrev|napisał|napisała|"
    r"kirjoitti|írta|yazdı|napsal|пишет|написал|написала)\b|写道|のメール|님이 작성",
    re.IGNORECASE,
)
_DATE = re.compile(r"\d{4}|\d{1,2}[:.]\d{2}")  # a year or a time of day (in any script's digits)
# the attributions before the year-and-time style ("On Tuesday, Ana wrote:")
_QUOTE_HEADER = re.compile(
    r"^\s*(on|le|am|el|em|op|il|den|på)\s.*\b(wrote|a écrit|schrieb|escribió|escreveu|schreef|ha scritto|skrev)\b.*:\s*$",
    re.IGNORECASE,
)
_SEPARATOR = re.compile(
    r"^\s*(-{2,}\s*\w[^-]*?\s*-{2,}|_{10,}|(begin forwarded message|début du message réexpédié|"
    r"anfang der weitergeleiteten nachricht|inicio del mensaje reenviado|início da mensagem reencaminhada|"
    r"messaggio inoltrato|doorgestuurd bericht)\s*:)\s*$",
    re.IGNORECASE,
)
# a header line: one or two words, then a colon ("From:", "*Sent:*", "De :", "差出人:")
_HEADER_LINE = re.compile(r"^\s*\*?[^\W\d_]+( [^\W\d_]+)?\s?\*?\s?[:：]\*?(\s|$)")
# "From:" and "Sent:" in Outlook's languages, for header blocks that name no address (Exchange)
_HEADER_FROM = re.compile(
    r"^\s*\*?(from|von|de|van|da|od|från|fra|от|差出人|发件人|寄件者)\s*[:：]\*?\s", re.IGNORECASE
)
_HEADER_SENT = re.compile(
    r"^\s*\*?(sent|date|gesendet|datum|envoyé|enviado|enviada|fecha|data|verzonden|inviato|wysłane|wysłano|"
    r"skickat|sendt|отправлено|дата|送信日時|发送时间|寄件日期)\s*[:：]",
    re.IGNORECASE,
)
_MOBILE = re.compile(
    r"^\s*(sent from my|sent from outlook|sent from mail for|sent from yahoo|sent from samsung|sent with proton|"
    r"envoyé de mon|envoyé depuis|von meinem\b.{0,40}\bgesendet|gesendet von meinem|enviado desde mi|"
    r"enviado do meu|enviado a partir do|inviato da iphone|inviato dal mio|verzonden vanaf|verstuurd vanaf|"
    r"skickat från min|sendt fra min|wysłane z|wysłano z|отправлено с|отправлено из|从我的|發自我的|iphoneから送信|"
    r"(get|obtenir|télécharger|obtener|descargar|obter|baixe|scarica|ottieni|hent|få|hämta|pobierz|получить|скачать)"
    r"\s+(o\s+)?outlook\b|outlook\s+\w+\s+(ios|android)\s+(herunterladen|downloaden))",
    re.IGNORECASE,
)


def _is_signature(line: str) -> bool:
    """A "-- " signature separator, or the footer a phone or mail app adds ("Sent from my iPhone")."""
    return line.strip() == "--" or (len(line.split()) <= 10 and bool(_MOBILE.match(line)))


def _is_attribution(text: str) -> bool:
    """ "On <date>, <sender> wrote:" in any words: ends with a colon and names a date or time, then
    either a sender's address or, after the date, a "wrote" ("what I wrote on 4 May:" is not one)."""
    text = text.strip()
    if not text.endswith((":", "：")):
        return False
    if _QUOTE_HEADER.match(text):
        return True
    date, wrote = _DATE.search(text), _WROTE.search(text)
    return bool(date) and ("@" in text or bool(wrote and wrote.start() > date.start()))


def _attribution_at(lines: list[str], i: int) -> int:
    """How many lines the attribution starting at line i takes (1, or 2 when wrapped), or 0."""
    if _is_attribution(lines[i]):
        return 1
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    # a wrapped one starts with its date, and its second line is not an attribution of its own
    if not _DATE.search(lines[i]) or not nxt.strip() or _is_attribution(nxt):
        return 0
    return 2 if _is_attribution(f"{lines[i]} {nxt}") else 0


def _header_block_at(lines: list[str], i: int) -> bool:
    """Whether line i opens a "From: / Sent: / To: / Subject:" block, in English or any other words:
    three header lines in a row naming an address and a date, or a known "From:" soon followed by "Sent:"."""
    if _HEADER_FROM.match(lines[i]) and any(_HEADER_SENT.match(x) for x in lines[i + 1 : i + 4]):
        return True
    block = lines[i : i + 3]
    return (
        len(block) == 3
        and all(_HEADER_LINE.match(x) for x in block)
        and any("@" in x for x in lines[i : i + 5])
        and any(_DATE.search(x) for x in lines[i : i + 5])
    )


def _starts_quote(lines: list[str], i: int) -> bool:
    """Whether line i opens quoted text: a ">" quote, an attribution, a separator or a header block."""
    line = lines[i]
    return (
        line.lstrip().startswith(">")
        or bool(_SEPARATOR.match(line))
        or _attribution_at(lines, i) > 0
        or _header_block_at(lines, i)
    )


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ").split("\n")


def reply_lines(text: str) -> list[str]:
    """The lines the person wrote above the quoted email and their signature (blank lines kept).

    A reply written below the quote (Thunderbird's default, or bottom-posting by hand) is found
    too: when nothing was written above a ">"-quoted block, the unquoted lines after it count.
    """
    lines = _lines(text)
    for i, line in enumerate(lines):
        if _is_signature(line):
            return lines[:i]
        if _starts_quote(lines, i):
            top = lines[:i]
            return top if any(x.strip() for x in top) else _below_quote(lines, i)
    return lines


def _below_quote(lines: list[str], i: int) -> list[str]:
    """What was written below the ">" quote that opens at line i (after its attribution), if any.
    Quotes that are not ">"-quoted (Outlook's header blocks, forwards, Yahoo's) are the whole rest."""
    i += _attribution_at(lines, i)
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not lines[i].lstrip().startswith(">"):
        return []
    below: list[str] = []
    for j in range(i, len(lines)):
        line = lines[j]
        if line.lstrip().startswith(">"):
            if any(x.strip() for x in below):
                break
            continue
        if _is_signature(line) or (line.strip() and _starts_quote(lines, j)):
            break
        below.append(line)
    return below


def answer_text(text: str, parts: int = 1) -> str:
    """The answer at the top of a reply: its first non-empty line, or the first `parts` of them
    (one line per part of a composite question), joined by newlines."""
    lines = [x.strip() for x in reply_lines(text) if x.strip()]
    return "\n".join(lines[: max(parts, 1)])


def talk_text(text: str) -> str:
    """A table-talk reply: everything the person wrote above the quote, trimmed."""
    return "\n".join(x.rstrip() for x in reply_lines(text)).strip()


class _HTMLText(HTMLParser):
    """Visible text of an HTML-only reply, a line per line the person saw. Quoted parts are dropped:
    a <blockquote> (and Thunderbird's "wrote:" line before it) is skipped, and Gmail's, Outlook's,
    Yahoo's and Proton's quote containers end the reply (everything after them is the old email).
    Signature containers are skipped too."""

    LINES = {"div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "table", "pre", "blockquote"}
    SKIP_TAGS = {"blockquote", "style", "script", "head", "title"}
    SKIP_MARKS = (
        "moz-cite-prefix",
        "moz-signature",
        "gmail_signature",
        "ms-outlook-mobile-signature",
        "ymail_android_signature",
        "protonmail_signature_block",
    )
    STOP_MARKS = (
        "gmail_quote",
        "divRplyFwdMsg",
        "appendonsend",
        "yahoo_quoted",
        "OLK_SRC_BODY_SECTION",
        "mail-editor-reference-message-container",
        "protonmail_quote",
    )

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line = ""
        self.skip_tag = ""  # the tag whose content is being dropped, and how deep inside it we are
        self.depth = 0
        self.pre = 0
        self.paragraphs: list[bool] = []  # for each open <p>: whether it has a margin
        self.stopped = False

    def _end_line(self, always: bool = False) -> None:
        """End the line being written; an edge of a block ends it only if it has something in it
        (a &nbsp; counts: it is how Outlook writes an empty line), a <br> always does."""
        if always or self.line.strip(" "):
            self.lines.append(self.line.strip())
            self.line = ""

    def _paragraph(self) -> None:
        """A <p> with a margin: its text, then a blank line."""
        self._end_line()
        if self.lines and self.lines[-1]:
            self.lines.append("")

    def _edge(self, tag: str, attrs, start: bool = True) -> None:
        """A tag's start or end: where lines end. Outlook's Word paragraphs (class MsoNormal) have
        no margin, so they are a line each; any other <p> is a paragraph."""
        if tag == "br":
            self._end_line(always=True)
        elif tag == "p":
            if start:
                margin = "MsoNormal" not in (dict(attrs).get("class") or "")
                self.paragraphs.append(margin)
            else:
                margin = self.paragraphs.pop() if self.paragraphs else True
            if margin:
                self._paragraph()
            else:
                self._end_line()
        elif tag in self.LINES:
            self._end_line()

    def handle_starttag(self, tag, attrs):
        if self.stopped:
            return
        if self.skip_tag:
            self.depth += tag == self.skip_tag
            return
        found = dict(attrs)
        marks = f"{found.get('class') or ''} {found.get('id') or ''}"
        if any(m in marks for m in self.STOP_MARKS):
            self.stopped = True
        elif tag in self.SKIP_TAGS or any(m in marks for m in self.SKIP_MARKS):
            self._end_line()
            self.skip_tag, self.depth = tag, 1
        else:
            self.pre += tag == "pre"
            self._edge(tag, attrs)

    def handle_startendtag(self, tag, attrs):
        if not self.stopped and not self.skip_tag and tag != "p":
            self._edge(tag, attrs)

    def handle_endtag(self, tag):
        if self.stopped:
            return
        if self.skip_tag:
            if tag == self.skip_tag:
                self.depth -= 1
                self.skip_tag = self.skip_tag if self.depth else ""
            return
        self.pre -= tag == "pre" and self.pre > 0
        self._edge(tag, [], start=False)

    def handle_data(self, data):
        if self.stopped or self.skip_tag:
            return
        if not self.pre:
            self.line += re.sub(r"[ \t\r\n]+", " ", data)
            return
        first, *rest = data.split("\n")
        self.line += first
        for part in rest:
            self._end_line(always=True)
            self.line = part


def html_to_text(html: str) -> str:
    """The visible text of an HTML reply (see _HTMLText), at most one blank line in a row."""
    parser = _HTMLText()
    parser.feed(html)
    parser.close()
    parser._end_line()
    out: list[str] = []
    for line in (x.replace("\u00a0", " ").strip() for x in parser.lines):
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n")
