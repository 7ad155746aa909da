"""A headless Chromium made to look like a phone (Debian's chromium and chromium-driver, installed
by .ci/run): the one the serve browser tests and benchmarks/serve_phones.py both drive."""
from __future__ import annotations

import shutil
from pathlib import Path

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
UPRIGHT = (390, 844)          # CSS px: a common phone held upright


def _chromium(profile: Path, *args: str, mobile: tuple[int, int] | None = None):
    """Headless Chromium with its own profile; a missing chromium is an error (a test fails, never
    skips)."""
    for path in (CHROMIUM, DRIVER):
        if not shutil.which(path):
            raise RuntimeError(f"{path} is missing: apt-get install chromium chromium-driver (.ci/run installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage",
                *args, f"--user-data-dir={profile}"):
        opts.add_argument(arg)
    if mobile:
        width, height = mobile
        opts.add_experimental_option("mobileEmulation",
                                     {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}})
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def phone(profile: Path, size: tuple[int, int] = UPRIGHT):
    """A phone's browser with its own profile."""
    return _chromium(profile, mobile=size)


def desktop(profile: Path, size: tuple[int, int] = (1400, 900)):
    """A desktop's browser (the studio's page is for a designer's screen), with its own profile."""
    return _chromium(profile, f"--window-size={size[0]},{size[1]}")
