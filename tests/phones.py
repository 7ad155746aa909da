"""Headless Chromium made to look like a phone or a designer's screen (Debian's chromium and
chromium-driver, installed by .ci/run): what the browser tests and benchmarks/serve_phones.py drive.

The tests' phones and desktops are windows of one Chromium a test process (`window`): starting a
Chromium costs about 2 s of CPU (its browser, GPU and network processes, a new profile), more than
most tests that drive it, and the suite once started nine. Each window has a screen of its own
(CDP's device metrics: a phone's 390 x 844 CSS px at twice the pixels, touch; a desktop's), and its
own page and renderer; the windows share the profile (cookies, cache), as the table's phones need
nothing of their own there (the server tells no phone from another; the token's cookie is the one
cookie it sets). benchmarks/serve_phones.py times a phone in a Chromium of its own (`phone`).

Screenshots for a person to look at (`shot`) are taken only where PNP_SHOTS=1 asks: nothing asserts
them, and each costs about 0.12 s of CPU (the suite took about 35)."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
UPRIGHT = (390, 844)          # CSS px: a common phone held upright
DESKTOP = (1400, 900)
SHOTS_WANTED = os.environ.get("PNP_SHOTS", "") not in ("", "0")


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
    """A phone's browser, a Chromium of its own with its own profile."""
    return _chromium(profile, mobile=size)


# ---------------------------------------------------------------- windows of one Chromium

_shared = None                # (driver, the handles of its windows no test holds now)
_current: list = [None]       # the window WebDriver speaks to now


def _chromium_of_this_process(config):
    """This test process's Chromium, started at its first window and quit with pytest's session
    (config's clean-up runs in each xdist worker too)."""
    global _shared
    if _shared is None:
        profile = Path(tempfile.mkdtemp(prefix="pnp-chromium-"))
        driver = _chromium(profile, f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
        _shared = (driver, [driver.current_window_handle])
        _current[0] = driver.current_window_handle

        def quit_it():
            global _shared
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)
            _shared = None
        config.add_cleanup(quit_it)
    return _shared[0]


class Window:
    """A window of the test process's Chromium, driven as a WebDriver of its own: each use switches
    WebDriver to it first (WebDriver speaks to one window at a time; a switch is one round trip, made
    only when another window was spoken to last). An element found in it is used before another
    window is. `give_back` leaves the window on a blank page for the next module to take: a new
    window and its first page cost about 1.7 s of CPU, a page in a window used before 0.4 s (the
    browser modules share a test process: tests/conftest.py's GROUPS)."""

    def __init__(self, driver, handle: str):
        self.__dict__.update(_driver=driver, handle=handle)

    def __getattr__(self, name):
        if _current[0] != self.handle:
            self._driver.switch_to.window(self.handle)
            _current[0] = self.handle
        return getattr(self._driver, name)

    def give_back(self) -> None:
        self.get("about:blank")
        _shared[1].append(self.handle)


def window(config, size: tuple[int, int], mobile: bool) -> Window:
    """A window no test holds (a new one if none is free) at this screen's size."""
    driver = _chromium_of_this_process(config)
    free = _shared[1]
    if free:
        handle = free.pop()
        driver.switch_to.window(handle)
    else:
        driver.switch_to.new_window("window")
        handle = driver.current_window_handle
    _current[0] = handle
    w = Window(driver, handle)
    w.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1], "mobile": mobile,
                                                             "deviceScaleFactor": 2 if mobile else 1})
    w.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 1})
    return w


def phone_window(config, size: tuple[int, int] = UPRIGHT) -> Window:
    """A phone: a window at a phone's size, its pixels twice its CSS px, touch."""
    return window(config, size, mobile=True)


def desktop_window(config, size: tuple[int, int] = DESKTOP) -> Window:
    """A desktop's screen (the studio's page is for a designer's)."""
    return window(config, size, mobile=False)


def shot(driver, path: Path) -> None:
    """The window's screenshot saved at path, where PNP_SHOTS=1 asks for them."""
    if SHOTS_WANTED:
        path.parent.mkdir(exist_ok=True)
        driver.save_screenshot(str(path))
