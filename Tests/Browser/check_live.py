"""The live page of `sonde stream --serve`, as a person sees it in a real (headless) browser.

Starts a stream from the simulated device, opens the page in headless Chromium and checks:
no console errors; the values table fills and its values change while the stream runs;
every figure (the trends and the latest spectrum) has drawn content, both in the SVG and
in the pixels on screen. Screenshots go to Tests/Browser/artifacts/.

usage: check_live.py path/to/sonde
"""

import io
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Live"))

from PIL import Image  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from headless import ARTIFACTS, Browser  # noqa: E402
from live_stream import Checks, PROFILE, LiveStream, wait_until  # noqa: E402


def table_values(driver):
    return [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#values tbody td:not(:first-child)")]


def distinct_colours(png, limit=64):
    """How many different colours a screenshot holds (a blank box holds one or two)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return len(image.getcolors(maxcolors=1 << 16) or []) if image.width and image.height else 0


def main():
    binary = sys.argv[1]
    check = Checks()

    arguments = ["--profile", PROFILE, "--seed", "5", "--duration", "30s", "--bands", "0-500,500-2000"]
    browser = Browser(width=1280, height=1000)
    driver = browser.driver
    try:
        with LiveStream(binary, arguments) as stream:
            browser.open(stream.url)
            filled = wait_until(lambda: any(value not in ("", "–") for value in table_values(driver)), timeout=15)
            check(filled, "the values table never filled")
            figures_drawn = wait_until(
                lambda: len(driver.find_elements(By.CSS_SELECTOR, "#trends figure svg")) > 0
                and len(driver.find_elements(By.CSS_SELECTOR, "#spectrum figure svg")) > 0,
                timeout=15,
            )
            check(figures_drawn, "no trend or spectrum figure appeared")
            first = table_values(driver)
            time.sleep(2)
            second = table_values(driver)
            changed = sum(a != b for a, b in zip(first, second))
            check(len(first) == len(second) and changed > 0, f"the live values did not change ({changed} of {len(first)})")
            status = driver.find_element(By.ID, "status").text
            check("records" in status, f"status line: {status!r}")

            figures = driver.find_elements(By.CSS_SELECTOR, "figure")
            # The faulty pump's two channels: rms, peak, kurtosis and dominant_frequency trends
            # for each, and each channel's latest spectrum.
            check(len(figures) == 4 * 2 + 2, f"{len(figures)} figures, expected 10")
            for index in range(len(figures)):
                # The page redraws its figures every second, replacing the elements: each
                # figure is measured in one script call and looked up again if it was replaced.
                for attempt in range(5):
                    try:
                        figure = driver.find_elements(By.CSS_SELECTOR, "figure")[index]
                        caption, marks, width, height = driver.execute_script(
                            "const f = arguments[0], svg = f.querySelector('svg'), r = svg.getBoundingClientRect();"
                            "return [f.querySelector('figcaption').textContent,"
                            " svg.querySelectorAll('path[d], polyline[points], polygon[points], rect, line').length,"
                            " r.width, r.height];",
                            figure,
                        )
                        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", figure)
                        colours = distinct_colours(figure.screenshot_as_png)
                        break
                    except StaleElementReferenceException:
                        if attempt == 4:
                            raise
                check(marks > 2, f"figure {caption!r} has {marks} marks")
                check(width > 100 and height > 50, f"figure {caption!r} is {width} x {height}")
                check(colours > 3, f"figure {caption!r} shows {colours} colours on screen")
            driver.execute_script("window.scrollTo(0, 0)")
            screenshot = browser.screenshot("live.png")

            errors = browser.console_errors()
            check(not errors, f"console errors: {errors}")
            check(not stream.bad_lines, f"stdout lines that are not records: {stream.bad_lines[:2]}")
            records_seen = stream.records
            check(records_seen > 0, "no records on stdout while the page was open")
    finally:
        browser.quit()

    check.finish(f"ok: live page with {len(figures)} figures, {changed} of {len(first)} values changed in 2 s, "
          f"no console errors; {records_seen} records on stdout meanwhile; screenshot {screenshot}")


if __name__ == "__main__":
    main()
