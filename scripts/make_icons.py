"""Draw the installable site's PNG icons from the favicon's SVG (run once; the PNGs are committed).

    python scripts/make_icons.py

Headless Chromium (Debian's, through Playwright, as the browser tests use) renders the SVG at each
size: "any" icons are the favicon itself; the maskable one sets the cup on a full-bleed square of
its brown, inside the middle 80% that every launcher's mask keeps.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "static"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def maskable(svg: str) -> str:
    """The favicon's drawing, scaled to 64% around the middle, on a square without rounded corners."""
    inner = re.search(r"<svg[^>]*>(.*)</svg>", svg, re.S).group(1)
    inner = re.sub(r"<title>.*?</title>", "", inner)
    inner = re.sub(r'<rect width="64" height="64" rx="12" fill="#6b3410"/>', "", inner)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        '<rect width="64" height="64" fill="#6b3410"/>'
        f'<g transform="translate(11.5 11.5) scale(0.64)">{inner}</g></svg>'
    )


def main() -> None:
    svg = (STATIC / "favicon.svg").read_text()
    (STATIC / "icons").mkdir(exist_ok=True)
    (STATIC / "icons" / "maskable.svg").write_text(maskable(svg) + "\n")
    jobs = [("icon-192.png", svg, 192), ("icon-512.png", svg, 512), ("maskable-512.png", maskable(svg), 512)]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for name, drawing, size in jobs:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = drawing.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<style>html,body{{margin:0;background:transparent}}</style>{sized}")
            page.screenshot(path=str(STATIC / "icons" / name), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
