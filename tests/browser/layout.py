"""Layout checks a browser test can run on any page: boxes that overlap, what is in the first screen.

Kept apart from any one page's test so the seat page, the admin's "table as seat" and the outbox are
judged the same way.
"""

from __future__ import annotations

# The page's panels and cards: what a person reads as separate boxes.
BOXES = (
    "main section, main .panel, main .pic, main .control, main .decision, main .log, main .seats-panel, "
    "main .status, main table, main form.prompt, main .msg"
)

# For each visible box: its rectangle in page coordinates and a short name; nested boxes (a card in
# a panel) are not compared with what holds them.
_BOXES_JS = """(selector) => {
  const els = Array.from(document.querySelectorAll(selector)).filter(e => {
    // checkVisibility also leaves out what a closed <details> holds (laid out, but not shown)
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true});
  });
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
      (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') +
      (e.dataset.cardId ? '[' + e.dataset.cardId + ']' : '');
  const boxes = els.map(e => {
    const r = e.getBoundingClientRect();
    return {el: e, name: name(e), x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height};
  });
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (dx > 1 && dy > 1) out.push(`${a.name} and ${b.name} overlap by ${Math.round(dx)}x${Math.round(dy)} px`);
    }
  }
  return {count: boxes.length, overlaps: out.slice(0, 12)};
}"""


def overlapping_boxes(page, selector: str = BOXES) -> tuple[int, list[str]]:
    """(how many visible boxes were compared, the pairs that overlap by more than a pixel each way).

    A box is compared with every other visible box that neither holds it nor is held by it.
    """
    found = page.evaluate(_BOXES_JS, selector)
    return found["count"], found["overlaps"]


def assert_no_overlap(page, selector: str = BOXES, where: str = "") -> None:
    count, overlaps = overlapping_boxes(page, selector)
    assert count > 1, f"{where}: fewer than two boxes matched {selector!r}"
    assert not overlaps, f"{where}: boxes overlap:\n" + "\n".join(overlaps)


def in_first_screen(page, selector: str) -> bool:
    """Whether the first element matching `selector` is wholly inside the viewport without scrolling."""
    return page.evaluate(
        """(selector) => {
      window.scrollTo(0, 0);
      const e = document.querySelector(selector);
      if (!e) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
    }""",
        selector,
    )


# Words a line break cuts in two (main's overflow-wrap lets a squeezed box break anywhere): each word
# of three letters or more whose characters lie on more than one line. SVG text is the cards' own.
_BROKEN_JS = """(selector) => {
  const out = [];
  const range = document.createRange();
  // text a screen reader alone reads sits in a box of a pixel: every word of it "breaks"
  const tiny = e => { for (; e; e = e.parentElement) if (e.getBoundingClientRect().width <= 1) return true; return false; };
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n && out.length < 12; n = walker.nextNode()) {
      if (n.parentElement.closest('svg, script, style, [hidden]') || tiny(n.parentElement) || !n.parentElement.checkVisibility()) continue;
      const re = /[^\\s\\-\\/]{3,}/g;  // a break after a hyphen or a slash is no cut
      let m;
      while ((m = re.exec(n.textContent))) {
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
        if (rects.length > 1 && Math.abs(rects[0].top - rects[rects.length - 1].top) > 2) out.push(m[0]);
      }
    }
  }
  return out;
}"""


def broken_words(page, selector: str = "main") -> list[str]:
    """The words (three letters or more) that a line break cuts in two inside `selector` (up to 12)."""
    return page.evaluate(_BROKEN_JS, selector)
