"""Draw the home-screen icons (PNG) from one SVG with the browser tests' Chromium.

Run once after changing the design; the PNGs are committed under static/icons/:

    .venv/bin/python scripts/make_icons.py

No image library is needed: Playwright screenshots the SVG at each size. The maskable icon
keeps the mark inside the central 80 % (the safe zone a launcher may crop to a circle).
"""

import os
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = "#0b5d3b"  # the site's accent colour (static/css/site.css, --accent) and theme colour


def svg(size: int, *, mask: bool) -> str:
    """The favicon's white diamond on the site's green: rounded for the plain icons, full-bleed
    with a smaller mark for the maskable one."""
    radius = 0 if mask else size * 0.1875
    half = size * (0.25 if mask else 0.3125)  # the diamond's half-height
    c = size / 2
    w = half * 0.7
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}"><rect width="{size}" height="{size}" rx="{radius}" fill="{GREEN}"/>'
        f'<path d="M{c} {c - half}L{c + w} {c}L{c} {c + half}L{c - w} {c}z" fill="#fff"/></svg>'
    )


ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "icon-maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),  # iOS rounds the corners itself
}


def main() -> None:
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for name, (size, mask) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<html><body style='margin:0'>{svg(size, mask=mask)}</body></html>")
            page.locator("svg").screenshot(path=str(OUT / name), omit_background=not mask)
            page.close()
        browser.close()
    for name in ICONS:
        print(OUT / name)


if __name__ == "__main__":
    main()
