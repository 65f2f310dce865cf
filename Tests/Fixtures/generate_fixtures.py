#!/usr/bin/env python3
"""Generate sonde's end-to-end fixtures (deterministic; rerun reproduces identical files).

    python3 Tests/Fixtures/generate_fixtures.py

Writes, relative to this directory:
  inputs/            sample files in every supported format
  bad/               malformed / edge-case inputs
  expected/NAME.csv  reference.py output for every case of cases.json
  cases.json         [{name, description, inputs, args, expected[, expected_note]}]
  bad_cases.json     [{name, description, inputs, args, kind, line, column[, ...]}]

All paths in the JSON files are relative to Tests/Fixtures: run
`sonde process INPUTS... ARGS...` with Tests/Fixtures as the working directory and
compare its CSV output with `expected` under the page's tolerances
(`python3 reference.py compare got.csv expected.csv` does that).

Every case is also checked for fragility: features are recomputed on frames perturbed
by ~1e-14 relative (a stand-in for another implementation's round-off) and every
discrete choice (argmax, rolloff, band edge, round at .5, k1 >= 5, sign of a tiny
sample) is checked for a near-tie.  The generator fails if any expected value could
legitimately differ by more than the page's tolerance.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys

import numpy as np
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference as ref  # noqa: E402

INPUTS = os.path.join(HERE, "inputs")
BAD = os.path.join(HERE, "bad")
EXPECTED = os.path.join(HERE, "expected")


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# ------------------------------------------------------------------ writers


def g(v: float, sig: int) -> str:
    """Sensor-style number text with `sig` significant digits (always strtod-decimal)."""
    s = format(float(v), f".{sig}g")
    assert ref.is_number(s), s
    return s


def write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


def write_csv_input(path: str, header: list[str] | None, cols: list[list[str]], eol: str = "\n") -> None:
    lines = []
    if header is not None:
        lines.append(",".join(header))
    for row in zip(*cols):
        lines.append(",".join(row))
    write_text(path, eol.join(lines) + eol)


def write_raw(path: str, data: np.ndarray, sample_type: str) -> None:
    data = np.asarray(data, dtype=np.float64)
    if data.ndim == 1:
        data = data[:, None]
    if sample_type == "f32le":
        out = data.astype("<f4")
    elif sample_type == "f64le":
        out = data.astype("<f8")
    elif sample_type == "i16le":
        out = np.clip(np.round(data * 2**15), -(2**15), 2**15 - 1).astype("<i2")
    elif sample_type == "i32le":
        out = np.clip(np.round(data * 2**31), -(2**31), 2**31 - 1).astype("<i4")
    else:
        raise ValueError(sample_type)
    out.tofile(path)


def write_audio(path: str, data: np.ndarray, fs: int, subtype: str, fmt: str) -> None:
    data = np.asarray(data, dtype=np.float64)
    if data.ndim == 1:
        data = data[:, None]
    with sf.SoundFile(path, "w", fs, data.shape[1], subtype=subtype, format=fmt) as fh:
        # SFC_SET_ADD_PEAK_CHUNK = 0x1050, SF_FALSE: the PEAK chunk holds a wall-clock
        # timestamp, which would make float WAV/AIFF output non-deterministic.
        sf._snd.sf_command(fh._file, 0x1050, sf._ffi.NULL, 0)
        fh.write(data)


# ------------------------------------------------------------------ signal building blocks


def tone(t, f, a, ph=0.0):
    return a * np.sin(2 * np.pi * f * t + ph)


def ringing_impulses(n, fs, rate_hz, f_ring, decay_s, amp, r, jitter=0.0, first=0.0):
    """Impulse train (e.g. a bearing defect) exciting a damped resonance."""
    x = np.zeros(n)
    t_hit = first
    L = int(min(n, 8 * decay_s * fs))
    tt = np.arange(L) / fs
    kernel = np.exp(-tt / decay_s) * np.sin(2 * np.pi * f_ring * tt)
    while t_hit < n / fs:
        i = int(t_hit * fs)
        m = min(L, n - i)
        x[i : i + m] += amp * (0.7 + 0.3 * r.random()) * kernel[:m]
        t_hit += (1.0 / rate_hz) * (1 + jitter * r.standard_normal())
    return x


# ------------------------------------------------------------------ inputs


def make_inputs() -> None:
    os.makedirs(INPUTS, exist_ok=True)

    # A. CSV, header + time column, 2 channels, 1000 Hz, t0 = 3.25 s
    r = rng(101)
    fs, n, t0 = 1000, 5000, 3.25
    t = np.arange(n) / fs
    ax = 9.81 + tone(t, 47, 0.05) + tone(t, 94, 0.02, 0.3) + tone(t, 141, 0.01, 1.1) + 0.004 * r.standard_normal(n)
    ax[2000:3300] = 9.81  # stuck sensor: whole frames exactly constant
    ay = tone(t, 7.3, 0.2, 0.4) + 0.01 * r.standard_normal(n)
    ay += ringing_impulses(n, fs, 2.0, 180.0, 0.01, 0.8, r, first=0.13)
    write_csv_input(os.path.join(INPUTS, "accel_time_1k.csv"), ["time", "accel_x", "accel_y"],
                    [[f"{t0 + k / fs:.3f}" for k in range(n)], [g(v, 7) for v in ax], [g(v, 7) for v in ay]])

    # A2. second run of the same sensor (multi-file case), t0 = 60 s, 3000 rows
    r = rng(102)
    n, t0 = 3000, 60.0
    t = np.arange(n) / fs
    ax = 9.79 + tone(t, 52, 0.07) + tone(t, 104, 0.03) + 0.005 * r.standard_normal(n)
    ay = tone(t, 3.1, 0.3) + tone(t, 210, 0.02) + 0.01 * r.standard_normal(n)
    write_csv_input(os.path.join(INPUTS, "accel_time_1k_b.csv"), ["time", "accel_x", "accel_y"],
                    [[f"{t0 + k / fs:.3f}" for k in range(n)], [g(v, 7) for v in ax], [g(v, 7) for v in ay]])

    # B. CSV, header without time column (needs --rate 8000): pressure + accel_z
    r = rng(103)
    fs, n = 8000, 8000
    t = np.arange(n) / fs
    p = 101325.0 + tone(t, 120, 2.0) + tone(t, 240, 0.5, 0.7) + 0.3 * r.standard_normal(n)
    p[3000:4600] = 101325.0  # flat frames at N=256 hop 256: k = 12..16
    az = 9.81 + tone(t, 1000, 0.02) + 0.001 * r.standard_normal(n)  # 1000 Hz = bin 32 at N=256
    az[5000:6200] = 9.81
    az[6500:7300] = 0.0  # disconnected: exact zeros
    write_csv_input(os.path.join(INPUTS, "pressure_accel_norate.csv"), ["pressure_pa", "accel_z"],
                    [[g(v, 10) for v in p], [g(v, 7) for v in az]])

    # C. CSV without header, 3 channels (needs --rate 8000)
    r = rng(104)
    fs, n = 8000, 4096
    t = np.arange(n) / fs
    c0 = tone(t, 1000, 0.8, 0.2) + 1e-3 * r.standard_normal(n)  # bin 64 at N=512
    c1 = (tone(t, 250, 1.0) + tone(t, 500, 0.08, 0.5) + tone(t, 750, 0.12, 1.0) + tone(t, 1250, 0.04, 2.0)
          + 0.005 * r.standard_normal(n))  # 250 Hz = bin 16 at N=512: clear harmonics for thd
    c2 = 0.05 * r.standard_normal(n) + ringing_impulses(n, fs, 9.0, 2200.0, 0.002, 1.5, r, first=0.05)
    c2[2000:3600] = 0.0
    write_csv_input(os.path.join(INPUTS, "noheader_3ch.csv"), None,
                    [[g(v, 6) for v in c0], [g(v, 6) for v in c1], [g(v, 6) for v in c2]])

    # D. CSV with quoted fields, CRLF line ends, empty lines (first line too), a Timestamp
    #    column in the middle, no newline at the end of the file.
    r = rng(105)
    fs, n, t0 = 1000, 3000, 100.0
    t = np.arange(n) / fs
    v = tone(t, 60, 0.4) + tone(t, 180, 0.1) + 0.02 * r.standard_normal(n) + 0.1
    pk = 98.6 + tone(t, 2.0, 0.3) + tone(t, 125, 0.05) + 0.01 * r.standard_normal(n)
    lines = ["", '"vib ""A"" (m/s2)",Timestamp,"pressure, kPa"', ""]
    for k in range(n):
        cells = [g(v[k], 6), f"{t0 + k / fs:.3f}", g(pk[k], 7)]
        cells = [f'"{c}"' if r.random() < 0.3 else c for c in cells]
        lines.append(",".join(cells))
        if k % 700 == 350:
            lines.append("")
    write_text(os.path.join(INPUTS, "quoted_crlf.csv"), "\r\n".join(lines))

    # E. short 1-channel CSV for N=16, H=1
    r = rng(106)
    fs, n = 1000, 300
    t = np.arange(n) / fs
    s = tone(t, 330, 1.0) + tone(t, 125, 0.3) + 0.1 * r.standard_normal(n) + 0.05
    write_csv_input(os.path.join(INPUTS, "strain_short.csv"), ["strain"], [[g(x, 6) for x in s]])

    # F. raw f32le, 2 channels, 51200 Hz: gearbox accelerometer
    r = rng(107)
    fs, n = 51200, 16384
    t = np.arange(n) / fs
    a0 = (9.81 + tone(t, 24.6, 0.3) + tone(t, 1230, 0.1) + tone(t, 2460, 0.03, 0.4) + tone(t, 3690, 0.02, 1.3)
          + ringing_impulses(n, fs, 107.3, 6000.0, 0.0008, 0.6, r, jitter=0.01)
          + 0.01 * r.standard_normal(n) + 0.2 * np.sin(2 * np.pi * 0.7 * t))
    a1 = tone(t, 24.6, 0.05, 1.0) + tone(t, 1230, 0.02) + 0.02 * r.standard_normal(n)
    write_raw(os.path.join(INPUTS, "gearbox_2ch_51k2.f32le"), np.column_stack([a0, a1]), "f32le")

    # G. raw f64le, 3 channels, 8000 Hz: pressure (large offset), tone with harmonics, hum
    r = rng(108)
    fs, n = 8000, 5000
    t = np.arange(n) / fs
    p = 101325.0 + tone(t, 60, 2.0) + tone(t, 900, 0.4) + 0.2 * r.standard_normal(n)
    p[1000:2600] = 101325.0
    b = tone(t, 440, 0.5) + tone(t, 880, 0.05) + tone(t, 1320, 0.03) + 0.002 * r.standard_normal(n)
    h = tone(t, 50, 0.2) + tone(t, 150, 0.05) + 0.01 * r.standard_normal(n)
    h[4000:4300] = 0.0  # short: a long exact-zero stretch through a fast low-pass underflows (see report)
    write_raw(os.path.join(INPUTS, "plant_3ch_8k.f64le"), np.column_stack([p, b, h]), "f64le")

    # H. raw i16le, 1 channel, 44100 Hz: microphone with mains hum and a 1 kHz tone
    r = rng(109)
    fs, n = 44100, 16384
    t = np.arange(n) / fs
    m = (tone(t, 50, 0.1) + tone(t, 150, 0.05) + tone(t, 250, 0.03) + tone(t, 1000, 0.3)
         + 0.003 * r.standard_normal(n))
    write_raw(os.path.join(INPUTS, "mic_1ch_44k1.i16le"), m, "i16le")

    # I. raw i32le, 2 channels, 1000 Hz: strain gauge bridge + an ADC with a Nyquist whine
    r = rng(110)
    fs, n = 1000, 8000
    t = np.arange(n) / fs
    s0 = 0.3 + tone(t, 2.0, 0.1) + tone(t, 60, 0.02) + 0.002 * r.standard_normal(n)
    s1 = 0.01 * r.standard_normal(n) + ringing_impulses(n, fs, 1.5, 120.0, 0.02, 0.5, r, first=0.3)
    s1[5000:6000] += 0.2 * (-1.0) ** np.arange(1000)  # energy at fs/2: dominant at k = N/2
    write_raw(os.path.join(INPUTS, "strain_2ch_1k.i32le"), np.column_stack([s0, s1]), "i32le")

    # J. WAV 16-bit PCM, 1 channel, 44100 Hz: motor
    r = rng(111)
    fs, n = 44100, 22050
    t = np.arange(n) / fs
    mo = (tone(t, 29.5, 0.2) + tone(t, 100, 0.1) + tone(t, 1180, 0.25) + tone(t, 2360, 0.05) + tone(t, 3540, 0.03)
          + 0.01 * r.standard_normal(n))
    write_audio(os.path.join(INPUTS, "motor_1ch_44k1_pcm16.wav"), mo, fs, "PCM_16", "WAV")

    # K. WAV float32, 2 channels, 51200 Hz, m/s^2 (values far outside +-1: floats are not clipped)
    r = rng(112)
    fs, n = 51200, 8192
    t = np.arange(n) / fs
    w0 = 9.81 + tone(t, 400, 3.0) + tone(t, 800, 0.6) + tone(t, 1200, 0.3) + 0.05 * r.standard_normal(n)
    w1 = tone(t, 6400, 1.5) + 0.05 * r.standard_normal(n) + ringing_impulses(n, fs, 40, 9000, 0.0005, 4.0, r)
    write_audio(os.path.join(INPUTS, "accel_2ch_51k2_float.wav"), np.column_stack([w0, w1]), fs, "FLOAT", "WAV")

    # L. FLAC 24-bit, 1 channel, 8000 Hz: hydrophone
    r = rng(113)
    fs, n = 8000, 8000
    t = np.arange(n) / fs
    hy = tone(t, 312.5, 0.3) + tone(t, 625, 0.06) + tone(t, 937.5, 0.04) + 0.01 * r.standard_normal(n)
    hy += 0.05 * np.sin(2 * np.pi * 1.3 * t)
    write_audio(os.path.join(INPUTS, "hydrophone_1ch_8k.flac"), hy, fs, "PCM_24", "FLAC")

    # M. AIFF 24-bit, 2 channels, 44100 Hz: gearbox
    r = rng(114)
    fs, n = 44100, 12000
    t = np.arange(n) / fs
    q0 = tone(t, 735, 0.4) + tone(t, 1470, 0.1) + tone(t, 2205, 0.05) + 0.01 * r.standard_normal(n)
    q1 = 0.2 * r.standard_normal(n) * (1 + 0.5 * np.sin(2 * np.pi * 13 * t))
    write_audio(os.path.join(INPUTS, "gearbox_2ch_44k1.aiff"), np.column_stack([q0, q1]), fs, "PCM_24", "AIFF")


# ------------------------------------------------------------------ bad / edge inputs


def make_bad() -> list[dict]:
    os.makedirs(BAD, exist_ok=True)
    r = rng(201)

    def good_rows(n, start=0):
        return [f"{(start + k) / 1000:.3f},{g(0.5 * math.sin(k / 7) + 0.01 * r.standard_normal(), 6)},"
                f"{g(9.81 + 0.01 * r.standard_normal(), 7)}" for k in range(n)]

    cases = []
    # non-number cells: file line 1 is the header, data rows start at line 2
    for name, cell, line, col in [("abc", "abc", 41, 2), ("nan", "nan", 77, 3), ("inf", "inf", 130, 2),
                                  ("hex", "0x1p3", 12, 3), ("empty", "", 200, 2), ("time_cell", "1.2.3", 55, 1)]:
        rows = good_rows(300)
        cells = rows[line - 2].split(",")
        cells[col - 1] = cell
        rows[line - 2] = ",".join(cells)
        fn = f"bad/cell_{name}.csv"
        write_text(os.path.join(HERE, fn), "time,accel_x,accel_y\n" + "\n".join(rows) + "\n")
        cases.append({"name": f"bad_cell_{name}", "description": f"cell {cell!r} at line {line}, column {col}",
                      "inputs": [fn], "args": ["--window", "64"], "kind": "bad_cell", "line": line, "column": col,
                      "cell": cell})

    # quoted bad cell, after empty lines (line numbers count physical lines, empty ones included)
    rows = good_rows(100)
    rows[20] = '0.020,"abc",9.81'
    text = "time,accel_x,accel_y\n\n" + "\n".join(rows[:10]) + "\n\n\n" + "\n".join(rows[10:]) + "\n"
    write_text(os.path.join(BAD, "cell_quoted_after_empty_lines.csv"), text)
    cases.append({"name": "bad_cell_quoted_after_empty_lines",
                  "description": "quoted \"abc\" in data row 21; 3 empty lines before it count as lines",
                  "inputs": ["bad/cell_quoted_after_empty_lines.csv"], "args": ["--window", "64"], "kind": "bad_cell",
                  "line": 25, "column": 2, "cell": "abc"})

    # wrong number of cells
    rows = good_rows(300)
    rows[98] = rows[98] + ",0.5"  # line 100: 4 cells
    write_text(os.path.join(BAD, "cells_extra.csv"), "time,accel_x,accel_y\n" + "\n".join(rows) + "\n")
    cases.append({"name": "wrong_cell_count_extra", "description": "line 100 has 4 cells, header has 3",
                  "inputs": ["bad/cells_extra.csv"], "args": ["--window", "64"], "kind": "wrong_cell_count",
                  "line": 100, "column": 4, "expected_cells": 3, "got_cells": 4})
    rows = [",".join(x.split(",")[1:]) for x in good_rows(300)]
    rows[150] = rows[150].split(",")[0]  # line 151 (no header): 1 cell
    write_text(os.path.join(BAD, "cells_missing_noheader.csv"), "\n".join(rows) + "\n")
    cases.append({"name": "wrong_cell_count_missing", "description": "header-less, line 151 has 1 cell, others 2",
                  "inputs": ["bad/cells_missing_noheader.csv"], "args": ["--rate", "1000", "--window", "64"],
                  "kind": "wrong_cell_count", "line": 151, "column": 2, "expected_cells": 2, "got_cells": 1})

    # missing rate
    write_text(os.path.join(BAD, "noheader_norate.csv"),
               "\n".join(",".join(x.split(",")[1:]) for x in good_rows(200)) + "\n")
    cases.append({"name": "missing_rate_noheader", "description": "header-less CSV without --rate",
                  "inputs": ["bad/noheader_norate.csv"], "args": ["--window", "64"], "kind": "missing_rate",
                  "line": None, "column": None})
    write_text(os.path.join(BAD, "header_notime_norate.csv"),
               "accel_x,accel_y\n" + "\n".join(",".join(x.split(",")[1:]) for x in good_rows(200)) + "\n")
    cases.append({"name": "missing_rate_header_no_time", "description": "header but no time column, no --rate",
                  "inputs": ["bad/header_notime_norate.csv"], "args": ["--window", "64"], "kind": "missing_rate",
                  "line": None, "column": None})

    # invalid filter stages / bands / hop, on a good input (rejected before any output)
    base = ["inputs/noheader_3ch.csv"]
    for nm, spec, why in [("lowpass_at_nyquist", "lowpass:4000", "F >= fs/2"),
                          ("highpass_zero", "highpass:0", "F <= 0"),
                          ("bandpass_reversed", "bandpass:1000-500", "F1 >= F2"),
                          ("order_zero", "lowpass:100:0", "ORDER < 1"),
                          ("order_17", "highpass:100:17", "ORDER > 16"),
                          ("notch_q_zero", "notch:50:0", "Q <= 0")]:
        cases.append({"name": f"invalid_filter_{nm}", "description": f"--filter {spec}: {why}",
                      "inputs": base, "args": ["--rate", "8000", "--window", "256", "--filter", "lowpass:3000:2",
                                               "--filter", spec],
                      "kind": "invalid_filter", "line": None, "column": None, "stage": spec})
    for nm, bands, why in [("above_nyquist", "0-100,3000-4000.5", "HI > fs/2"),
                           ("reversed", "200-100", "LO >= HI")]:
        cases.append({"name": f"invalid_band_{nm}", "description": f"--bands {bands}: {why}", "inputs": base,
                      "args": ["--rate", "8000", "--bands", bands], "kind": "invalid_band", "line": None,
                      "column": None})
    cases.append({"name": "invalid_hop_above_window", "description": "--hop 512 > --window 256", "inputs": base,
                  "args": ["--rate", "8000", "--window", "256", "--hop", "512"], "kind": "invalid_hop",
                  "line": None, "column": None})
    cases.append({"name": "invalid_hop_zero", "description": "--hop 0", "inputs": base,
                  "args": ["--rate", "8000", "--window", "256", "--hop", "0"], "kind": "invalid_hop",
                  "line": None, "column": None})

    # edge inputs that are *valid* (go to cases.json, not bad_cases.json)
    fs, n = 25600, 3000
    t = np.arange(n) / fs
    x = np.column_stack([tone(t, 3200, 0.5) + 0.01 * r.standard_normal(n), 9.81 + 0.02 * r.standard_normal(n)])
    write_raw(os.path.join(BAD, "partial_2ch.f32le"), x, "f32le")
    with open(os.path.join(BAD, "partial_2ch.f32le"), "ab") as fh:
        fh.write(np.array([0.25], "<f4").tobytes() + b"\x00\x00")  # 6 bytes: not a whole 8-byte frame
    fs, n = 22050, 4000
    t = np.arange(n) / fs
    x = np.column_stack([tone(t, 441, 0.5) + 0.01 * r.standard_normal(n), tone(t, 882, 0.3) + 0.01 * r.standard_normal(n)])
    full = os.path.join(BAD, "_full.wav")
    write_audio(full, x, fs, "PCM_16", "WAV")
    data = open(full, "rb").read()
    os.remove(full)
    with open(os.path.join(BAD, "truncated_mid_frame.wav"), "wb") as fh:
        fh.write(data[:-3])  # last 4-byte frame cut to 1 byte; header still claims 4000 frames
    write_text(os.path.join(BAD, "short_input.csv"),
               "time,accel_x,accel_y\n" + "\n".join(good_rows(100)) + "\n")
    return cases


# ------------------------------------------------------------------ cases

F32 = ["--rate", "51200", "--channels", "2", "--sample-type", "f32le"]
F64 = ["--rate", "8000", "--channels", "3", "--sample-type", "f64le"]
I16 = ["--rate", "44100", "--channels", "1", "--sample-type", "i16le"]
I32 = ["--rate", "1000", "--channels", "2", "--sample-type", "i32le"]

CASES = [
    ("csv_time_defaults", "CSV header+time (fs from time column, t0=3.25), all defaults N=1024 H=512",
     ["inputs/accel_time_1k.csv"], []),
    ("csv_time_n256_bands", "CSV header+time, N=256 H=128, stuck-sensor flat frames, 7.3 Hz tone (k1<5), fractional/overlapping bands",
     ["inputs/accel_time_1k.csv"], ["--window", "256", "--hop", "128", "--bands", "0-50,12.5-40,40-160.5,100-249"]),
    ("csv_time_rate_override_highpass", "CSV header+time with --rate 1024 overriding the time column (t0 still added), highpass:2:2",
     ["inputs/accel_time_1k.csv"], ["--rate", "1024", "--window", "512", "--hop", "256", "--filter", "highpass:2:2"]),
    ("csv_header_no_time_flat", "CSV header, no time column, --rate 8000; 101325 Pa and 9.81 constant stretches and zeros (flat frames), H=N",
     ["inputs/pressure_accel_norate.csv"], ["--rate", "8000", "--window", "256", "--hop", "256", "--bands", "0-200,100-300,900-1100"]),
    ("csv_noheader_3ch_bin_centred", "header-less 3-channel CSV, --rate 8000, N=512: 1000 Hz tone centred on bin 64, 250 Hz with harmonics (thd), zero stretch",
     ["inputs/noheader_3ch.csv"], ["--rate", "8000", "--window", "512", "--hop", "256", "--bands", "0-490,900-1100,1990-3999.5"]),
    ("csv_noheader_bandpass_o8", "header-less 3-channel CSV, bandpass:200-1500:8",
     ["inputs/noheader_3ch.csv"], ["--rate", "8000", "--window", "1024", "--hop", "512", "--filter", "bandpass:200-1500:8"]),
    ("csv_quoted_crlf", "RFC 4180 quoted header/cells, CRLF, empty lines (incl. first line), Timestamp column in the middle, no final newline",
     ["inputs/quoted_crlf.csv"], ["--window", "128", "--hop", "64", "--bands", "50-70,120-130"]),
    ("csv_n16_h1", "N=16 (smallest), H=1, 1-channel CSV with --rate 1000 (no harmonic fits in N=16)",
     ["inputs/strain_short.csv"], ["--rate", "1000", "--window", "16", "--hop", "1"]),
    ("csv_n32_h32_lowpass_o2", "N=32 H=N, lowpass:200:2 on the short CSV",
     ["inputs/strain_short.csv"], ["--rate", "1000", "--window", "32", "--hop", "32", "--filter", "lowpass:200:2"]),
    ("f32le_highpass_n4096", "raw f32le 2ch 51200 Hz, highpass:10:4 (poles near unit circle), N=4096 H=1024",
     ["inputs/gearbox_2ch_51k2.f32le"], F32 + ["--window", "4096", "--hop", "1024", "--filter", "highpass:10:4",
                                              "--bands", "0-95,13.3-41.7,1005-1495,5010-6990"]),
    ("f32le_bandpass_o8_default_window", "raw f32le, bandpass:500-5000:8, default N/H",
     ["inputs/gearbox_2ch_51k2.f32le"], F32 + ["--filter", "bandpass:500-5000:8"]),
    ("f32le_n2048_h2048_nofilter", "raw f32le, N=2048 H=N, 9.81 offset on ch0, no filter",
     ["inputs/gearbox_2ch_51k2.f32le"], F32 + ["--window", "2048", "--hop", "2048"]),
    ("flac_lowpass_o1", "FLAC 24-bit mono 8000 Hz, lowpass:1000:1, N=512 H=256",
     ["inputs/hydrophone_1ch_8k.flac"], ["--window", "512", "--hop", "256", "--filter", "lowpass:1000:1"]),
    ("f64le_3ch_bandstop_o2", "raw f64le 3ch 8000 Hz (101325 Pa offset + flat stretch, 440 Hz with harmonics, hum + zeros), bandstop:45-55:2, bands",
     ["inputs/plant_3ch_8k.f64le"], F64 + ["--window", "1024", "--hop", "512", "--filter", "bandstop:45-55:2",
                                           "--bands", "0-100,400-495.5,850-950.25"]),
    ("f64le_3ch_nofilter_flat", "raw f64le, no filter: exact 101325.0 and 0.0 flat frames, N=256 H=200",
     ["inputs/plant_3ch_8k.f64le"], F64 + ["--window", "256", "--hop", "200"]),
    ("i16le_notch_default_q", "raw i16le 44100 Hz, notch:50 (Q=30 default), N=2048 H=512",
     ["inputs/mic_1ch_44k1.i16le"], I16 + ["--window", "2048", "--hop", "512", "--filter", "notch:50"]),
    ("i16le_notch_q10_then_highpass_o8", "raw i16le, chain notch:150:10 then highpass:80:8",
     ["inputs/mic_1ch_44k1.i16le"], I16 + ["--window", "1024", "--hop", "1024", "--filter", "notch:150:10",
                                           "--filter", "highpass:80:8"]),
    ("i32le_dc", "raw i32le 2ch 1000 Hz, dc filter, N=256 H=128; Nyquist-whine frames (k*=N/2)",
     ["inputs/strain_2ch_1k.i32le"], I32 + ["--window", "256", "--hop", "128", "--filter", "dc"]),
    ("i32le_chain_dc_lowpass", "raw i32le, chain dc then lowpass:200:2, N=128 H=125",
     ["inputs/strain_2ch_1k.i32le"], I32 + ["--window", "128", "--hop", "125", "--filter", "dc", "--filter", "lowpass:200:2"]),
    ("wav_pcm16_default", "WAV 16-bit PCM mono 44100 Hz, all defaults",
     ["inputs/motor_1ch_44k1_pcm16.wav"], []),
    ("wav_pcm16_rate_override_lowpass_o16", "WAV 16-bit with --rate 48000 override, lowpass:5000:16 (max order), N=4096 H=2048",
     ["inputs/motor_1ch_44k1_pcm16.wav"], ["--rate", "48000", "--window", "4096", "--hop", "2048", "--filter", "lowpass:5000:16"]),
    ("wav_float_unclipped", "WAV float32 2ch 51200 Hz with values far beyond +-1, N=1024 H=256, bands",
     ["inputs/accel_2ch_51k2_float.wav"], ["--window", "1024", "--hop", "256", "--bands", "0-12.5,355-445,6010-6990"]),
    ("flac_bandpass_o2", "FLAC 24-bit mono 8000 Hz, bandpass:100-1500:2, N=512 H=384",
     ["inputs/hydrophone_1ch_8k.flac"], ["--window", "512", "--hop", "384", "--filter", "bandpass:100-1500:2"]),
    ("flac_n64", "FLAC, N=64 H=48 (hop not a power of two); 312.5 Hz fundamental sits at k1=2.5 (<5: thd = snr = 0) while its harmonics may win argmax",
     ["inputs/hydrophone_1ch_8k.flac"], ["--window", "64", "--hop", "48"]),
    ("aiff_features_subset", "AIFF 24-bit 2ch 44100 Hz, --features subset in non-page order + bands",
     ["inputs/gearbox_2ch_44k1.aiff"], ["--window", "512", "--hop", "512", "--features",
                                        "spectral_centroid,peak,kurtosis,total_power,zero_crossing_rate,snr_db,mean,thd",
                                        "--bands", "700-800,1400-1500"]),
    ("aiff_bandstop_o4", "AIFF, bandstop:600-900 (default order 4), N=1024 H=512",
     ["inputs/gearbox_2ch_44k1.aiff"], ["--window", "1024", "--hop", "512", "--filter", "bandstop:600-900"]),
    ("multi_file_csv", "two CSV files -> one output with a file column first; filter state restarts per file",
     ["inputs/accel_time_1k.csv", "inputs/accel_time_1k_b.csv"],
     ["--window", "512", "--hop", "256", "--filter", "highpass:1:1", "--bands", "0-20,40-60"]),
    ("partial_raw_frame", "raw f32le 2ch whose size is not a multiple of 8 bytes: trailing partial frame dropped",
     ["bad/partial_2ch.f32le"], ["--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--window", "256"]),
    ("truncated_wav", "WAV whose data chunk is cut mid-frame (header claims more): complete frames only",
     ["bad/truncated_mid_frame.wav"], ["--window", "512", "--hop", "512"]),
    ("short_input_no_records", "input shorter than one window: header row only, zero records",
     ["bad/short_input.csv"], ["--window", "256"]),
]

NOTES = {"partial_raw_frame": "partial last frame", "truncated_wav": "complete frames", "short_input_no_records": "fewer than one window"}


# ------------------------------------------------------------------ fragility checks


def fragility(name: str, detail, opts) -> list[str]:
    """Reasons an independent, correct implementation could miss the expected values."""
    issues = []
    N, H = opts["window"], opts["hop"]
    bands = opts["bands"]
    filtered = bool(opts["filters"])
    names = list(ref.PAGE_FEATURES) + [ref.band_name(lo, hi) for lo, hi in bands]
    for (path, samples, fs, offset, chnames, streams, per_channel) in detail:
        for c, (stream, base) in enumerate(zip(streams, per_channel)):
            frames = ref.frame_matrix(stream, N, H)
            if len(frames) == 0:
                continue
            flat = base["_flat"]
            peak = np.max(np.abs(frames), axis=1)
            for seed in (1, 2):
                r = np.random.default_rng(seed)
                td = frames * (1 + 1e-14 * r.standard_normal(frames.shape))
                sp = td + 1e-14 * peak[:, None] * r.standard_normal(frames.shape)
                td[flat] = frames[flat]
                sp[flat] = frames[flat]
                pert = ref.frame_features(td, fs, ref.PAGE_FEATURES, bands, spectral_frames=sp, flat=flat)
                for k in range(len(frames)):
                    row = {"peak": base["peak"][k], "total_power": base["total_power"][k]}
                    for nm in names:
                        want, got = base[nm][k], pert[nm][k]
                        if abs(got - want) > 0.5 * ref.tolerance(nm, want, row, fs):
                            issues.append(f"{path} {chnames[c]} frame {k}: {nm} {want!r} -> {got!r} under 1e-14 perturbation")
            P = base["_P"]
            S = base["_S"]
            half = N // 2
            fk = np.arange(half + 1) * fs / N
            for k in range(len(frames)):
                if flat[k]:
                    if filtered:
                        issues.append(f"{path} {chnames[c]} frame {k}: filtered frame is exactly flat")
                    continue
                q = np.sort(P[k, 2:])[::-1]
                if len(q) > 1 and q[0] > 0 and (q[0] - q[1]) <= 1e-9 * q[0]:
                    issues.append(f"{path} {chnames[c]} frame {k}: argmax near-tie")
                C = np.cumsum(S[k])
                thr = 0.85 * C[-1]
                if thr > 0 and np.any(np.abs(C - thr) <= 1e-9 * thr):
                    issues.append(f"{path} {chnames[c]} frame {k}: rolloff near-tie")
                k1 = base["_k1"][k]
                if abs(k1 - 5) <= 1e-9 * 5:
                    issues.append(f"{path} {chnames[c]} frame {k}: k1 at 5")
                if k1 >= 5:
                    for h in range(1, 6):
                        v = h * k1
                        if abs(v - math.floor(v) - 0.5) <= 1e-9 * max(1.0, v):
                            issues.append(f"{path} {chnames[c]} frame {k}: round({h}*k1) at .5")
                if filtered:
                    # a filtered sample's round-off is relative to the filter state, i.e. the recent past
                    a = np.abs(frames[k])
                    local = np.array([a[max(0, i - 32): i + 1].max() for i in range(len(a))])
                    if np.any((a > 0) & (a <= 1e-11 * local)):
                        issues.append(f"{path} {chnames[c]} frame {k}: sample with uncertain sign for zero_crossing_rate")
                if peak[k] < 1e-70:
                    issues.append(f"{path} {chnames[c]} frame {k}: values near underflow (peak {peak[k]!r})")
            for lo, hi in bands:
                for edge in (lo, hi):
                    if edge == 0:
                        continue
                    if np.any(np.abs(fk - edge) <= 1e-9 * edge):
                        issues.append(f"{path}: band edge {edge} lands on a bin")
    return issues


# ------------------------------------------------------------------ main


def main() -> int:
    for d in (INPUTS, BAD, EXPECTED):
        if os.path.isdir(d):
            shutil.rmtree(d)
    make_inputs()
    bad_cases = make_bad()
    os.makedirs(EXPECTED, exist_ok=True)

    failures = 0
    out_cases = []
    for name, desc, inputs, args in CASES:
        cols, recs, detail, opts = ref.process(inputs, args, base_dir=HERE, _return_detail=True)
        exp = f"expected/{name}.csv"
        with open(os.path.join(HERE, exp), "w", encoding="utf-8", newline="") as fh:
            ref.write_csv(recs, fh, cols)
        entry = {"name": name, "description": desc, "inputs": inputs, "args": args, "expected": exp,
                 "records": len(recs), "fs": max(d[2] for d in detail)}
        if name in NOTES:
            entry["expected_note"] = NOTES[name]
        issues = fragility(name, detail, opts)
        if issues:
            failures += 1
            entry["fragile"] = issues[:20]
            print(f"FRAGILE {name}: {len(issues)} issue(s)")
            for i in issues[:10]:
                print("   ", i)
        size = os.path.getsize(os.path.join(HERE, exp))
        print(f"{name:40s} {len(recs):5d} records {size / 1024:7.1f} KiB")
        out_cases.append(entry)

    # edge-case expectations
    by = {c["name"]: c for c in out_cases}
    assert by["short_input_no_records"]["records"] == 0
    assert by["partial_raw_frame"]["records"] == 2 * ((3000 - 256) // 128 + 1), by["partial_raw_frame"]["records"]
    assert by["truncated_wav"]["records"] == 2 * ((3999 - 512) // 512 + 1), by["truncated_wav"]["records"]

    # every bad case must fail in the reference with exactly the recorded metadata
    for bc in bad_cases:
        try:
            ref.process(bc["inputs"], bc["args"], base_dir=HERE)
        except ref.SondeError as e:
            got = (e.kind, e.line, e.column)
            want = (bc["kind"], bc["line"], bc["column"])
            if got != want:
                failures += 1
                print(f"BAD CASE MISMATCH {bc['name']}: reference says {got}, metadata {want}: {e}")
            if "stage" in bc and bc["stage"] not in str(e):
                failures += 1
                print(f"BAD CASE {bc['name']}: message does not name the stage: {e}")
            if e.kind == "missing_rate" and "--rate" not in str(e):
                failures += 1
                print(f"BAD CASE {bc['name']}: message does not mention --rate")
        else:
            failures += 1
            print(f"BAD CASE {bc['name']} was accepted by the reference")

    with open(os.path.join(HERE, "cases.json"), "w") as fh:
        json.dump(out_cases, fh, indent=2)
        fh.write("\n")
    with open(os.path.join(HERE, "bad_cases.json"), "w") as fh:
        json.dump(bad_cases, fh, indent=2)
        fh.write("\n")
    print(f"{len(out_cases)} cases, {len(bad_cases)} bad cases")
    if failures:
        print(f"{failures} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
