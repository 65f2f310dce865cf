"""Writes frame_defect_levels.json: the per-frame bearing columns (`bpfo_db`, `bpfi_db`,
`bsf_db`, `ftf_db`; docs/features.md section 7) of two fixture signals, with numpy/scipy.

Run with the packages of Tests/requirements.txt after generate_kurtogram.py (it reads the
signals that script wrote): python generate_frame_defect_levels.py
Per frame of N samples every H: c = scipy.signal.hilbert(frame), e = |c|² - mean |c|², its
Welch density with one segment of N (`reference_kurtogram.squared_envelope_spectrum`), and
each defect's fundamental level by `reference_kurtogram.harmonic_level` (null: not measurable).
"""

import json
import os

import numpy as np
from scipy.signal import hilbert

import reference_kurtogram as R

HERE = os.path.dirname(os.path.abspath(__file__))
FS = 25600.0
SHAFT_HZ = 25.0
MULTIPLES = {"bpfo": 3.58, "bpfi": 5.42, "bsf": 2.357, "ftf": 0.3983}
SIGNALS = ("outer_snr_m5.f64", "inner_snr_m5.f64", "healthy.f64")
# (window N, hop H)
FRAMINGS = ((32768, 2048), (16384, 4096))


def frame_levels(frame):
    c = hilbert(frame)
    _, p, n = R.squared_envelope_spectrum(c, FS, nperseg=len(frame))
    return {name: R.harmonic_level(p, FS, n, m * SHAFT_HZ)[1] for name, m in MULTIPLES.items()}


def main():
    cases = []
    for signal in SIGNALS:
        x = np.fromfile(os.path.join(HERE, signal), dtype="<f8")
        for n, h in FRAMINGS:
            frames = [frame_levels(x[k * h : k * h + n]) for k in range((len(x) - n) // h + 1)]
            cases.append(dict(signal=signal, window=n, hop=h, frames=frames))
    with open(os.path.join(HERE, "frame_defect_levels.json"), "w") as out:
        json.dump(dict(sample_rate=FS, shaft_hz=SHAFT_HZ, multiples=MULTIPLES, cases=cases), out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
