"""Prompts as plain HTML forms: the fields for one question, generated from the prompt's data.

So every title's every question works in a browser without JavaScript, and a post can only ever
name options that were offered. A post is read back into an answer by the write path, under the
game's lock (games.actions.answers), and the engine checks it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

Picked = Mapping[str, list[str]]  # a refused form's answer fields, {field name: values}, shown ticked again
KEPT_FIELDS = 64  # at most this many answer fields (and values each) are kept from a refused form
KEPT_LENGTH = 200


def kept_picks(post) -> dict[str, list[str]]:
    """The answer fields of a posted form that was refused, to show the player's picks again on the
    page it comes back to (a box ticked before a refused "pick exactly 3" stays ticked). Bounded:
    only fields named like an answer, a few values each, short ones."""
    kept: dict[str, list[str]] = {}
    for name in list(post.keys())[:KEPT_FIELDS]:
        if name == "answer" or name.startswith("answer."):
            kept[name[:KEPT_LENGTH]] = [v[:KEPT_LENGTH] for v in post.getlist(name)[:KEPT_FIELDS] if isinstance(v, str)]
    return kept


def render_prompt(p: dict[str, Any], prefix: str = "answer", picked: Picked | None = None) -> SafeString:
    """The form fields for one prompt (the <form> and its buttons are the template's); `picked` (a
    refused form's fields) ticks and fills them as the player left them."""
    picked = picked or {}
    kind = p["kind"]
    if kind == "choose":
        return _options(p, prefix, "radio", required=True, picked=picked.get(prefix, ()))
    if kind == "choose_many":
        hint = (
            _("Pick exactly %(n)s.") % {"n": p["min_count"]}
            if p["min_count"] == p["max_count"]
            else _("Pick %(low)s to %(high)s.") % {"low": p["min_count"], "high": p["max_count"]}
        )
        return format_html(
            '<p class="hint">{}</p>{}',
            hint,
            _options(p, prefix, "checkbox", required=False, picked=picked.get(prefix, ())),
        )
    if kind == "number":
        # a stepper: − and + beside the box (shown by static/prompts.js; without script, the box alone),
        # starting at the number the player gave before a refusal, else the lowest (for a bid: nothing),
        # so leaving it as it is is an answer
        given = (picked.get(prefix) or [""])[0]
        box = f"{prefix}-number"
        return format_html(
            '<div class="stepper"><label class="number" for="{}">{}</label> '
            '<span class="steps"><button type="button" class="step" data-step="-1" aria-label="{}" '
            'aria-controls="{}" hidden>−</button>'
            '<input type="number" id="{}" name="{}" min="{}" max="{}" value="{}" required autocomplete="off" '
            'inputmode="numeric">'
            '<button type="button" class="step" data-step="1" aria-label="{}" aria-controls="{}" '
            "hidden>+</button></span></div>",
            box,
            _("Your number (%(low)s–%(high)s)") % {"low": p["low"], "high": p["high"]},
            _("One less: %(question)s") % {"question": p["text"]},
            box,
            box,
            prefix,
            p["low"],
            p["high"],
            given or p["low"],
            _("One more: %(question)s") % {"question": p["text"]},
            box,
        )
    if kind == "order":
        # a plain list (no printed 1, 2, 3... beside the rank boxes, which would read as ranks too), each
        # rank box first and spaced from its label. With script (static/prompts.js) the rows are dragged
        # or moved by buttons and keys instead, and the boxes follow: the same fields are posted.
        n = len(p["options"])
        rows = format_html_join(
            "",
            '<li class="rank"><label><input type="number" name="{}.{}" min="1" max="{}" value="{}" required '
            'autocomplete="off" inputmode="numeric" aria-describedby="{}-rank-help"><span class="label">{}</span></label>'
            '<span class="detail">{}</span></li>',
            (
                (prefix, o["id"], n, (picked.get(f"{prefix}.{o['id']}") or [i + 1])[0], prefix, o["label"], o["detail"])
                for i, o in enumerate(p["options"])
            ),
        )
        return format_html(
            '<p class="hint" id="{}-rank-help">{}</p><ul class="ranks">{}</ul>',
            prefix,
            _("Number them 1 (first) to %(n)s.") % {"n": n},
            rows,
        )

    if kind == "composite":
        parts = [
            format_html(
                "<fieldset><legend>{}</legend>{}</fieldset>",
                part["text"],
                render_prompt(part, f"{prefix}.{part['name']}", picked),
            )
            for part in p["parts"]
        ]
        return mark_safe("".join(parts))  # noqa: S308 - every part was built with format_html
    raise ValueError(f"unknown prompt kind {kind}")


def _options(p: dict[str, Any], name: str, input_type: str, required: bool, picked=()) -> SafeString:
    # autocomplete="off": a browser must never restore a pick onto a later question by position (a
    # refused form's own picks are ticked by the server instead, on the same question only)
    req = " required" if required else ""
    items = format_html_join(
        "",
        '<li><label class="option"><input type="{}" name="{}" value="{}"{} autocomplete="off"' + req + ">"
        '<span class="label">{}</span> <span class="detail">{}</span></label></li>',
        (
            (input_type, name, o["id"], mark_safe(" checked") if o["id"] in picked else "", o["label"], o["detail"])  # noqa: S308 - a constant
            for o in p["options"]
        ),
    )
    return format_html('<ul class="options {}">{}</ul>', input_type, items)
