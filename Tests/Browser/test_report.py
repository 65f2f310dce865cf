#!/usr/bin/env python3
"""`sonde report` in a real browser: open the page, check it as a person would.

    python3 Tests/Browser/test_report.py [--binary .build/debug/sonde] [--update-screenshot]

Makes a 2-channel vibration recording (a 1 kHz line with harmonics and a 120 Hz
modulation on ch0, a rising chirp on ch1, noise on both), runs `sonde report` on it with
a filter and bands, and opens the page in headless Chromium (`headless.py`):

- no console errors;
- every figure has drawn content: each SVG has a non-empty path or image with a non-zero
  box, and the spectrogram PNG decodes in the browser to many colours, not a blank;
- the summary tables agree with reference.py (numpy/scipy, independent of sonde): mean,
  min, max, p5 and p95 (numpy.percentile) to the table's four digits, p5 and p95 within
  min-max;
- the HTML is self-contained (no script, no external URL) and under 5 MB;
- with `--shaft-speed 1797rpm --bearing 6205` on sample-data/bearing.f32le (an outer-race
  fault): each channel's envelope figure has its twelve defect labels, none overlapping
  another as the browser lays them out, and under it the four defects' levels and a verdict
  with its threshold, "outer race fault likely" on ch1 (artifacts/report-envelope.png).

Screenshots go to Tests/Browser/artifacts/ (gitignored); with --update-screenshot the top
of the page is also saved as docs/screenshots/report.png (kept under 300 KB).
Exit status 0 when every check passes.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests", "Fixtures"))
import reference as ref  # noqa: E402
from headless import ARTIFACTS, Browser  # noqa: E402

FS = 25600.0
ARGS = ["--rate", "25600", "--channels", "2", "--sample-type", "f64le", "--window", "1024", "--hop", "512",
        "--filter", "highpass:10:4", "--bands", "0-2000,2800-3200,5000-9000"]
CHECKED = ["rms", "peak", "crest_factor", "kurtosis", "dominant_frequency", "spectral_centroid",
           "band_power:0-2000", "band_power:2800-3200", "band_power:5000-9000"]


def make_recording(path: str) -> np.ndarray:
    rng = np.random.default_rng(20)
    t = np.arange(int(FS * 6)) / FS
    line = (1 + 0.3 * np.sin(2 * np.pi * 2 * t)) * np.sin(2 * np.pi * 1000 * t)
    harmonics = 0.3 * np.sin(2 * np.pi * 2000 * t) + 0.1 * np.sin(2 * np.pi * 3000 * t)
    ch0 = 9.81 + line + harmonics + 0.05 * rng.standard_normal(t.size)
    ch1 = 0.5 * np.sin(2 * np.pi * (200 * t + 0.5 * (9000 - 200) / 6 * t * t)) + 0.02 * rng.standard_normal(t.size)
    samples = np.stack([ch0, ch1], axis=1)
    samples.astype("<f8").tofile(path)
    return samples


def tables(browser: Browser) -> list[dict[str, list[float]]]:
    """Each channel's summary table as {feature: [mean, min, max, p5, p95]}."""
    # A row is named by its column (data-column, as the records name it); a feature not
    # measured in any window has no number cells and is left out.
    rows = browser.run("""
        return [...document.querySelectorAll('table.summary')].map(t =>
            [...t.querySelectorAll('tr[data-column]')].map(r =>
                [r.dataset.column, ...[...r.querySelectorAll('td.number')].map(c => c.textContent)]));
    """)
    return [{r[0]: [float(v) for v in r[1:]] for r in table if len(r) > 1} for table in rows]


def figure_report(browser: Browser) -> list[dict]:
    return browser.run("""
        return [...document.querySelectorAll('figure')].map(f => {
            const svg = f.querySelector('svg');
            const drawn = [...svg.querySelectorAll('path, image, circle')].filter(e => {
                if (e.tagName === 'path' && !(e.getAttribute('d') || '').trim()) return false;
                const b = e.getBBox(); return b.width > 0 || b.height > 0;
            });
            return {kind: f.className, label: svg.getAttribute('aria-label'), drawn: drawn.length,
                    width: svg.getBoundingClientRect().width, height: svg.getBoundingClientRect().height};
        });
    """)


def spectrogram_colours(browser: Browser) -> list[int]:
    """Distinct colours of each spectrogram image, decoded and drawn by the browser."""
    return browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const images = [...document.querySelectorAll('image.spectrogram')];
        Promise.all(images.map(node => new Promise(resolve => {
            const img = new Image();
            img.onload = () => {
                const c = document.createElement('canvas');
                c.width = img.naturalWidth; c.height = img.naturalHeight;
                const g = c.getContext('2d'); g.drawImage(img, 0, 0);
                const d = g.getImageData(0, 0, c.width, c.height).data;
                const seen = new Set();
                for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
                resolve(seen.size);
            };
            img.onerror = () => resolve(0);
            img.src = node.getAttribute('href');
        }))).then(done);
    """)


def check_tables(got: list[dict[str, list[float]]], samples: np.ndarray) -> list[str]:
    o = ref.parse_args(ARGS)
    records = ref.features(samples, FS, o["window"], o["hop"], o["filters"], o["bands"])
    problems = []
    for channel, table in enumerate(got):
        name = f"ch{channel}"
        for feature in CHECKED:
            values = np.sort(np.array([r[feature] for r in records if r["channel"] == name]))
            # p5/p95 are numpy.percentile's exactly while an input's values fit the report's
            # budget (issue 43), as they do here; and never outside [min, max].
            exact = [values.mean(), values[0], values[-1], np.percentile(values, 5), np.percentile(values, 95)]
            page = table[feature]  # rounding to four digits keeps the order
            if not page[1] <= page[3] <= page[4] <= page[2]:
                problems.append(f"{name} {feature}: p5/p95 {table[feature][3:]} outside min-max")
            for label, g, w in zip(["mean", "min", "max", "p5", "p95"], table[feature], exact):
                # Four significant digits (%.4g): half a unit in the fourth digit.
                allowed = 5e-4 * abs(w) * (1 + 1e-9) + 1e-9 * abs(values).max() + 1e-300
                if abs(g - w) > allowed:
                    problems.append(f"{name} {feature} {label}: page {g}, reference {w}")
    return problems


ENVELOPE_ARGS = ["--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--shaft-speed", "1797rpm",
                 "--bearing", "6205"]


def check_envelope(binary: str, work: str) -> list[str]:
    """The envelope figures and defect tables of `sonde report --shaft-speed --bearing`."""
    page = os.path.join(work, "bearing.html")
    recording = os.path.join(ROOT, "sample-data", "bearing.f32le")
    run = subprocess.run([binary, "report", recording, *ENVELOPE_ARGS, "-o", page, "--quiet"], capture_output=True,
                         text=True)
    if run.returncode != 0:
        return [f"report --shaft-speed --bearing failed: {run.stderr}"]
    problems = []
    with Browser(1400, 1000) as browser:
        browser.open("file://" + page)
        errors = browser.console_errors()
        if errors:
            problems.append(f"envelope page console errors: {errors}")
        figures = browser.run("""
            return [...document.querySelectorAll('figure.envelope')].map(f =>
                [...f.querySelectorAll('text')].filter(t => /^(\\d×)?(BPFO|BPFI|BSF|FTF)$/.test(t.textContent))
                    .map(t => { const b = t.getBBox(); return [t.textContent, b.x, b.y, b.width, b.height]; }));
        """)
        if len(figures) != 2:
            problems.append(f"{len(figures)} envelope figures, expected 2")
        for channel, labels in enumerate(figures):
            if len(labels) != 12:
                problems.append(f"ch{channel}: {len(labels)} defect labels, expected 12: {[l[0] for l in labels]}")
            for i, (a, ax, ay, aw, ah) in enumerate(labels):
                for b, bx, by, bw, bh in labels[i + 1:]:
                    if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                        problems.append(f"ch{channel}: labels {a} and {b} overlap")
        rows = browser.run("""
            return [...document.querySelectorAll('table.defects')].map(t =>
                [...t.querySelectorAll('tr')].slice(1).map(r => [...r.children].map(c => c.textContent)));
        """)
        verdicts = browser.run("return [...document.querySelectorAll('p.verdict')].map(p => p.textContent)")
        if [len(r) for r in rows] != [4, 4] or [r[0] for r in rows[0]] != ["BPFO", "BPFI", "BSF", "FTF"]:
            problems.append(f"defect tables: {rows}")
        # ch1's band gives BPFO's fundamental a level; ch0's 1 s in a 3.2-6.4 kHz band has
        # bins too coarse for it (its table says "not measurable"), as `sonde diagnose` says.
        if len(verdicts) != 2 or not verdicts[1].startswith("Bearing: outer race fault likely (BPFO"):
            problems.append(f"verdicts: {verdicts}")
        if not all("10 dB" in v for v in verdicts):
            problems.append(f"a verdict without its threshold: {verdicts}")
        if len(rows) == 2 and not rows[0][0][2].startswith("not measurable"):
            problems.append(f"ch0 BPFO: {rows[0][0]}")
        browser.run("document.querySelector('figure.envelope').scrollIntoView()")
        browser.screenshot("report-envelope.png", full_page=False)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "sonde"))
    parser.add_argument("--update-screenshot", action="store_true")
    options = parser.parse_args()
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="sonde-browser-") as work:
        recording = os.path.join(work, "vibration.f64")
        samples = make_recording(recording)
        page = os.path.join(work, "report.html")
        run = subprocess.run([options.binary, "report", recording, *ARGS, "-o", page], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        html = open(page, encoding="utf-8").read()
        size = os.path.getsize(page)
        if size > 5_000_000:
            failures.append(f"HTML is {size} bytes")
        if "<script" in html or re.search(r"(src|href)=\"https?:", html) or "url(http" in html:
            failures.append("the page refers to something outside itself")
        with Browser(1400, 1000) as browser:
            browser.open("file://" + page)
            errors = browser.console_errors()
            if errors:
                failures.append(f"console errors: {errors}")
            figures = figure_report(browser)
            kinds = [f["kind"] for f in figures]
            for kind, count in [("spectrogram", 2), ("spectrum", 2), ("trend", 18)]:
                if kinds.count(kind) != count:
                    failures.append(f"{kinds.count(kind)} {kind} figures, expected {count}")
            for figure in figures:
                if figure["drawn"] == 0 or figure["width"] < 100 or figure["height"] < 100:
                    failures.append(f"figure {figure['label']} has nothing drawn: {figure}")
            colours = spectrogram_colours(browser)
            if len(colours) != 2 or min(colours) < 32:
                failures.append(f"spectrogram images decode to {colours} colours (blank?)")
            failures += check_tables(tables(browser), samples)
            browser.screenshot("report.png")
            browser.driver.set_window_size(1400, 1000)
            browser.run("window.scrollTo(0, 0)")
            browser.run("document.querySelector('section.channel').scrollIntoView()")
            top = browser.screenshot("report-top.png", full_page=False)
            if options.update_screenshot:
                from PIL import Image

                target = os.path.join(ROOT, "docs", "screenshots", "report.png")
                os.makedirs(os.path.dirname(target), exist_ok=True)
                image = Image.open(top).convert("RGB")
                image.save(target, optimize=True)
                if os.path.getsize(target) > 300_000:  # keep the repository small: 256 colours, dithered
                    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.FLOYDSTEINBERG).save(
                        target, optimize=True)
                print(f"wrote {target} ({os.path.getsize(target)} bytes)")
        print(f"report: {size} bytes, {len(figures)} figures, spectrogram colours {colours}, console errors {len(errors)}")
        failures += check_envelope(options.binary, work)
    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    print("browser test:", "FAILED" if failures else "passed", f"(screenshots in {ARTIFACTS})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
