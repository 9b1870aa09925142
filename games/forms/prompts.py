"""Prompts as plain HTML forms: the fields for one question, generated from the prompt's data.

So every title's every question works in a browser without JavaScript, and a post can only ever
name options that were offered. A post is read back into an answer by the write path, under the
game's lock (games.actions.answers), and the engine checks it again.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe


def render_prompt(p: dict[str, Any], prefix: str = "answer") -> SafeString:
    """The form fields for one prompt (the <form> and its buttons are the template's)."""
    kind = p["kind"]
    if kind == "choose":
        return _options(p, prefix, "radio", required=True)
    if kind == "choose_many":
        hint = (
            f"Pick exactly {p['min_count']}."
            if p["min_count"] == p["max_count"]
            else f"Pick {p['min_count']} to {p['max_count']}."
        )
        return format_html('<p class="hint">{}</p>{}', hint, _options(p, prefix, "checkbox", required=False))
    if kind == "number":
        # a stepper: − and + beside the box (shown by static/prompts.js; without script, the box alone),
        # starting at the lowest number (for a bid: nothing), so leaving it as it is is an answer
        box = f"{prefix}-number"
        return format_html(
            '<div class="stepper"><label class="number" for="{}">Your number ({}–{})</label> '
            '<span class="steps"><button type="button" class="step" data-step="-1" aria-label="One less: {}" '
            'aria-controls="{}" hidden>−</button>'
            '<input type="number" id="{}" name="{}" min="{}" max="{}" value="{}" required autocomplete="off" '
            'inputmode="numeric">'
            '<button type="button" class="step" data-step="1" aria-label="One more: {}" aria-controls="{}" '
            "hidden>+</button></span></div>",
            box,
            p["low"],
            p["high"],
            p["text"],
            box,
            box,
            prefix,
            p["low"],
            p["high"],
            p["low"],
            p["text"],
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
            ((prefix, o["id"], n, i + 1, prefix, o["label"], o["detail"]) for i, o in enumerate(p["options"])),
        )
        return format_html(
            '<p class="hint" id="{}-rank-help">Number them 1 (first) to {}.</p><ul class="ranks">{}</ul>',
            prefix,
            n,
            rows,
        )
    if kind == "composite":
        parts = [
            format_html(
                "<fieldset><legend>{}</legend>{}</fieldset>",
                part["text"],
                render_prompt(part, f"{prefix}.{part['name']}"),
            )
            for part in p["parts"]
        ]
        return mark_safe("".join(parts))  # noqa: S308 - every part was built with format_html
    raise ValueError(f"unknown prompt kind {kind}")


def _options(p: dict[str, Any], name: str, input_type: str, required: bool) -> SafeString:
    # autocomplete="off": a browser must never restore a pick onto a later question by position
    req = " required" if required else ""
    items = format_html_join(
        "",
        '<li><label class="option"><input type="{}" name="{}" value="{}" autocomplete="off"' + req + ">"
        '<span class="label">{}</span> <span class="detail">{}</span></label></li>',
        ((input_type, name, o["id"], o["label"], o["detail"]) for o in p["options"]),
    )
    return format_html('<ul class="options {}">{}</ul>', input_type, items)
