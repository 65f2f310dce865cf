"""Writes envelope_spectrum.json: `sonde spectrum --envelope` reference spectra of outer_snr_m5.f64.

Run with the packages of Tests/requirements.txt after generate_kurtogram.py (it reads the
signal that script wrote): python generate_envelope_spectrum.py
Each case: the band (the kurtogram's best cell, or a band given), the Welch segment length of
docs/features.md section 8 (the smallest power of two whose resolution is at most fs/N) and
the squared-envelope spectrum's density per bin.
"""

import json
import os

import numpy as np

import reference_kurtogram as R

HERE = os.path.dirname(os.path.abspath(__file__))
FS = 25600.0
NLEVEL = 6
SIGNAL = "outer_snr_m5.f64"
CASES = [
    # band ("auto" or (lo, hi)), window N
    ("auto", 16384),
    ("auto", 1024),
    ((2000.0, 4000.0), 1024),
]


def main():
    x = np.fromfile(os.path.join(HERE, SIGNAL), dtype="<f8")
    cases = []
    for band, window in CASES:
        if band == "auto":
            _, best = R.kurtogram(x, FS, NLEVEL)
            c, rate = R.band_signal(x, FS, best["row"], best["band"])
            lo = best["centre_hz"] - best["bandwidth_hz"] / 2
            hi = best["centre_hz"] + best["bandwidth_hz"] / 2
        else:
            lo, hi = band
            c, rate = R.brick_wall_band(x, FS, lo, hi), FS
        nperseg = R.envelope_segment_length(rate, FS, window)
        f, p, _ = R.squared_envelope_spectrum(c, rate, nperseg)
        cases.append(
            dict(band="auto" if band == "auto" else f"{lo:g}-{hi:g}", window=window, low_hz=lo, high_hz=hi,
                 band_rate_hz=rate, segment_length=nperseg, frequency_hz=f.tolist(), psd=p.tolist())
        )
    with open(os.path.join(HERE, "envelope_spectrum.json"), "w") as out:
        json.dump(dict(signal=SIGNAL, sample_rate=FS, nlevel=NLEVEL, cases=cases), out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
