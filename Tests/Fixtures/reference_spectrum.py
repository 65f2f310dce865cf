#!/usr/bin/env python3
"""Reference averaged spectra for `sonde spectrum` (docs/features.md section 8), from scipy.

    python3 Tests/Fixtures/reference_spectrum.py

Writes, relative to this directory (deterministic; rerunning reproduces identical files):
  inputs/spectrum_flat_then_tone.f64le  a constant stretch (flat frames) then a tone
  expected/spectrum/NAME.csv            what `sonde spectrum INPUTS ARGS` must print
  spectrum_cases.json                   [{name, description, inputs, args, expected}]

Each expected spectrum is `scipy.signal.welch(x, fs, window='hann', nperseg=N,
noverlap=N-H, detrend=False, scaling='density')` of the filtered channel, the filters
designed by reference.py (scipy.signal.butter / iirnotch, run by sosfilt). Inputs are
read by reference.py too. Nothing here comes from sonde.

Tolerance (the page's rule for powers, `total_power` and `band_power`): per channel,
|got - want| <= 1e-4 * |want| + 1e-9 * Σ_k want[k] * df (1e-30 when that sum is 0).
The Swift test `SpectrumCommandTests` applies it.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import scipy.signal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference as ref  # noqa: E402

EXPECTED = os.path.join(HERE, "expected", "spectrum")

CASES = [
    ("wav_defaults", "mono PCM16 WAV, N=1024 H=512", ["inputs/motor_1ch_44k1_pcm16.wav"], []),
    ("raw_2ch_highpass", "2-channel f32le, N=256 H=64, 10 Hz high-pass",
     ["inputs/gearbox_2ch_51k2.f32le"],
     ["--rate", "51200", "--channels", "2", "--sample-type", "f32le", "--window", "256", "--hop", "64",
      "--filter", "highpass:10:4"]),
    ("csv_time_no_overlap", "CSV with a time column, N=128 H=128, band-pass",
     ["inputs/accel_time_1k.csv"], ["--window", "128", "--hop", "128", "--filter", "bandpass:20-300:4"]),
    ("raw_3ch_odd_hop_notch", "3-channel f64le, N=512 H=100 (hop does not divide N), notch then dc",
     ["inputs/plant_3ch_8k.f64le"],
     ["--rate", "8000", "--channels", "3", "--sample-type", "f64le", "--window", "512", "--hop", "100",
      "--filter", "notch:50:20", "--filter", "dc"]),
    ("two_inputs", "two mono inputs in one table (leading file column), N=64",
     ["inputs/hydrophone_1ch_8k.flac", "inputs/motor_1ch_44k1_pcm16.wav"], ["--window", "64"]),
    ("flat_then_tone", "constant frames (exact DFT) then a 1 kHz tone, f64le at 8 kHz, N=256",
     ["inputs/spectrum_flat_then_tone.f64le"], ["--rate", "8000", "--sample-type", "f64le", "--window", "256"]),
]


def write_flat_then_tone(path: str) -> None:
    fs = 8000.0
    n = np.arange(4096)
    x = np.concatenate([np.full(2048, 0.5), 0.5 + 0.25 * np.sin(2 * np.pi * 1000.0 * n[2048:] / fs)])
    x.astype("<f8").tofile(path)


def welch_table(inputs: list[str], args: list[str]) -> tuple[list[str], list[list]]:
    o = ref.parse_args(args)
    multi = len(inputs) > 1
    header: list[str] | None = None
    rows: list[list] = []
    for path in inputs:
        samples, fs, _offset, names = ref.read_input(os.path.join(HERE, path), o["rate"], o["channels"], o["sample_type"])
        n, h = o["window"], o["hop"]
        columns = []
        for c in range(samples.shape[1]):
            y = ref.apply_filters(samples[:, c], fs, o["filters"])
            assert len(y) >= n, f"{path} is shorter than one window"
            f, p = scipy.signal.welch(y, fs, window="hann", nperseg=n, noverlap=n - h, detrend=False,
                                      scaling="density", average="mean")
            columns.append(p)
        names = list(names)
        if header is None:
            header = (["file"] if multi else []) + ["frequency"] + names
        freqs = np.arange(n // 2 + 1) * fs / n  # f[k] = k * fs / N, as the page writes it
        assert np.allclose(freqs, f)
        for k in range(len(freqs)):
            rows.append(([path] if multi else []) + [freqs[k]] + [col[k] for col in columns])
    assert header is not None
    return header, rows


def main() -> int:
    write_flat_then_tone(os.path.join(HERE, "inputs", "spectrum_flat_then_tone.f64le"))
    os.makedirs(EXPECTED, exist_ok=True)
    cases = []
    for name, description, inputs, args in CASES:
        header, rows = welch_table(inputs, args)
        expected = f"expected/spectrum/{name}.csv"
        with open(os.path.join(HERE, expected), "w", encoding="utf-8", newline="") as fh:
            fh.write(",".join(header) + "\n")
            for row in rows:
                fh.write(",".join(v if isinstance(v, str) else repr(float(v)) for v in row) + "\n")
        cases.append({"name": name, "description": description, "inputs": inputs, "args": args, "expected": expected})
    with open(os.path.join(HERE, "spectrum_cases.json"), "w", encoding="utf-8") as fh:
        json.dump(cases, fh, indent=1)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
