#!/usr/bin/env python3
"""Fills a sonde SQLite database with saved measurements for the store's scale figures.

Each measurement is what `sonde measure --duration 10m` saves from a 25.6 kHz two-channel
device with the default framing (window 1024, hop 512): 30,000 windows a channel, every
default feature column, kept in batches as the pipeline hands them over. The per-window
records are generated directly (smooth random series, not the DSP), so 10,000 of them take
minutes, not the hours of measuring. Rows are written in sonde's own schema: the database
must exist and be migrated (any sonde command under its SONDE_HOME does that), and the
account must be registered (`sonde register`); its id is looked up by email.

    python Benchmarks/store/fill_store.py DATABASE --email ann@example.com \
        --count 10000 --full 10000 [--columns rms,peak,...]

`--full N`: the first N measurements carry the whole 10-minute series, the others one
batch of their first windows with the same metadata (the list reads metadata only; the
full ones are what exports are timed on). --full equal to --count is the issue's shape:
about 9.1 MB of float64 a measurement, 91 GB for 10,000.

PostgreSQL is filled from this file with `sonde store copy --from sqlite:DATABASE --to
postgres://...`, so both engines hold the same rows (run_scale.sh does both).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import struct
import sys
import time

import numpy as np

RATE = 25_600
WINDOW = 1024
HOP = 512
SECONDS = 600
FRAMES = (SECONDS * RATE - WINDOW) // HOP + 1  # 29,999 complete windows in 10 minutes
CHANNELS = ["x", "y"]
# `sonde measure`'s default columns: every feature (SondeCore's Feature.allCases), no bands.
DEFAULT_COLUMNS = (
    "mean,rms,std,peak,peak_to_peak,crest_factor,skewness,kurtosis,zero_crossing_rate,total_power,"
    "dominant_frequency,dominant_amplitude,spectral_centroid,spectral_bandwidth,spectral_rolloff,"
    "spectral_flatness,spectral_entropy,thd,snr_db"
)


def series(rng: np.random.Generator, frames: int, width: int) -> np.ndarray:
    """frames x channels x width values that drift slowly, like features of a running machine."""
    steps = rng.normal(0.0, 0.01, size=(frames, len(CHANNELS), width))
    return np.abs(1.0 + np.cumsum(steps, axis=0)) * rng.uniform(0.1, 1000.0, size=(1, len(CHANNELS), width))


def summary_json(values: np.ndarray, columns: list[str]) -> str:
    """The summary column: every column's mean per channel."""
    means = values.mean(axis=0) if len(values) else np.zeros((len(CHANNELS), len(columns)))
    channels = [{"means": [float(m) for m in means[c]] if len(values) else [], "name": name}
                for c, name in enumerate(CHANNELS)]
    return json.dumps({"channels": channels, "columns": columns, "frames": int(len(values))}, separators=(",", ":"))


def listed_means(values: np.ndarray, columns: list[str], shown: list[int]) -> bytes:
    """The listed part as sonde stores it since migration 5 (`ListedMeans`): a format byte
    (1), the window count, the shown columns' names, and per channel its name and means, as
    little-endian Int64, UInt32 counts, UTF-8 names after their byte counts, binary64 means."""
    def name(text: str) -> bytes:
        encoded = text.encode("utf-8")
        return struct.pack("<I", len(encoded)) + encoded

    means = values.mean(axis=0) if len(values) else None
    out = bytearray([1]) + struct.pack("<q", len(values)) + struct.pack("<I", len(shown))
    for index in shown:
        out += name(columns[index])
    out += struct.pack("<I", len(CHANNELS))
    for channel, channel_name in enumerate(CHANNELS):
        picked = [float(means[channel][index]) for index in shown] if means is not None else []
        out += name(channel_name) + struct.pack(f"<I{len(picked)}d", len(picked), *picked)
    return bytes(out)


def listed_columns(columns: list[str]) -> list[int]:
    """The columns a list shows (`MeasurementListing.shownColumns`): rms, peak and dominant
    frequency where there are, else the first three."""
    main = [columns.index(name) for name in ("rms", "peak", "dominant_frequency") if name in columns]
    return main or list(range(min(3, len(columns))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("database")
    parser.add_argument("--email", required=True)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--full", type=int, default=10_000)
    parser.add_argument("--columns", default=DEFAULT_COLUMNS)
    parser.add_argument("--batch-frames", type=int, default=256, help="windows per stored batch (default 256, 5 s)")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()

    columns = args.columns.split(",")
    db = sqlite3.connect(args.database, timeout=30)
    row = db.execute("SELECT id FROM users WHERE email = ?", (args.email,)).fetchone()
    if row is None:
        print(f"fill_store.py: no account {args.email} in {args.database}; run sonde register first", file=sys.stderr)
        return 1
    owner = row[0]
    rng = np.random.default_rng(args.seed)
    settings = json.dumps({"window": WINDOW, "hop": HOP, "filters": [], "features": columns}, separators=(",", ":"))
    clock = json.dumps({"kind": "seconds", "offset": 0, "sampleRate": RATE}, separators=(",", ":"))
    start = time.monotonic()
    stored = 0
    # One full series, reused with a per-measurement offset: generating 91 GB of fresh
    # random numbers would dominate the run; the bytes still differ between measurements.
    full = series(rng, FRAMES, len(columns))
    for index in range(args.count):
        frames = FRAMES if index < args.full else args.batch_frames
        values = full[:frames] + float(index) * 1e-3
        db.execute("BEGIN IMMEDIATE")
        cursor = db.execute(
            "INSERT INTO measurements (user_id, recorded_at, device_id, settings, comment, channels, columns, hop, clock,"
            " frame_count, summary, listed_means) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                owner, 1_800_000_000.0 + index * 700.0, "sim-pump-0001", settings, f"scale run {index}",
                json.dumps(CHANNELS), json.dumps(columns), HOP, clock, frames, summary_json(values, columns),
                listed_means(values, columns, listed_columns(columns)),
            ),
        )
        measurement = cursor.lastrowid
        for sequence, first in enumerate(range(0, frames, args.batch_frames)):
            batch = values[first:first + args.batch_frames]
            blob = np.ascontiguousarray(batch, dtype="<f8").tobytes()
            stored += len(blob)
            db.execute(
                "INSERT INTO measurement_batches (measurement_id, sequence, first_frame, frame_count, samples)"
                " VALUES (?, ?, ?, ?, ?)",
                (measurement, sequence, first, len(batch), blob),
            )
        db.execute("COMMIT")
        if (index + 1) % 500 == 0:
            print(f"{index + 1}/{args.count} measurements, {stored / 1e9:.2f} GB of series,"
                  f" {time.monotonic() - start:.0f} s", file=sys.stderr)
    print(f"filled {args.count} measurements ({args.full} with the full 10-minute series, {FRAMES} windows,"
          f" {len(columns)} columns, 2 channels): {stored / 1e9:.2f} GB of series in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
