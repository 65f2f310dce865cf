"""Writes the kurtogram fixtures: synthetic bearing signals and their reference numbers.

Deterministic (numpy's default_rng with fixed seeds): a rerun writes identical bytes.
Run with the packages of Tests/requirements.txt:  python generate_kurtogram.py
Each signal is raw little-endian float64 (<name>.f64); reference.json holds, per signal,
the kurtogram grid, the best cell, and the squared-envelope spectrum of the best band.
`python generate_kurtogram.py --hit-rate` prints the hit-rate table of the docs instead.
"""

import json
import os
import sys

import numpy as np

import reference_kurtogram as R

FS = 25600.0
DURATION = 1.5
NLEVEL = 6
SHAFT_HZ = 25.0
RESONANCE_HZ = 3000.0
DAMPING = 0.05  # damping ratio of the resonance: about 300 Hz wide
BPFO_HZ = 3.58 * SHAFT_HZ  # 89.5 Hz
BPFI_HZ = 5.42 * SHAFT_HZ  # 135.5 Hz
SLIP = 0.015  # impulse intervals vary uniformly within +-1.5%
# The bearing the defect levels are read for: the signals' BPFO and BPFI, a 6205's BSF and FTF.
MULTIPLES = {"bpfo": 3.58, "bpfi": 5.42, "bsf": 2.357, "ftf": 0.3983}

SIGNALS = [
    # name, kind, snr_db, seed
    ("outer_snr_m5", "outer", -5.0, 11),
    ("outer_snr_m12", "outer", -12.0, 12),
    ("inner_snr_m5", "inner", -5.0, 13),
    ("inner_snr_m12", "inner", -12.0, 14),
    ("healthy", "healthy", None, 15),
]


def bearing_signal(kind, snr_db, seed, fs=FS, duration=DURATION):
    """Shaft harmonics + gear mesh + (for a fault) resonance ringing + white noise.

    The fault: impulses at the defect rate, each interval (1/fd)(1 + u), u uniform in
    [-SLIP, SLIP]; each rings the resonance (damped sine, damping ratio DAMPING, 20 ms).
    Inner race: impulse amplitude 0.6 + 0.4 cos(2 pi fr t_k) (modulated at shaft speed).
    SNR: 10 log10(fault power / noise power); the healthy signal has the noise of SNR -5.
    """
    rng = np.random.default_rng(seed)
    n = int(round(fs * duration))
    t = np.arange(n) / fs
    x = np.zeros(n)
    for harmonic, amplitude in ((1, 1.0), (2, 0.5), (3, 0.3)):
        x += amplitude * np.sin(2 * np.pi * harmonic * SHAFT_HZ * t + 0.7 * harmonic)
    mesh = 32 * SHAFT_HZ
    x += 0.4 * (1 + 0.2 * np.cos(2 * np.pi * SHAFT_HZ * t)) * np.sin(2 * np.pi * mesh * t)
    x += 0.15 * np.sin(2 * np.pi * 2 * mesh * t + 1.1)
    fault = np.zeros(n)
    if kind in ("outer", "inner"):
        fd = BPFO_HZ if kind == "outer" else BPFI_HZ
        alpha = 2 * np.pi * RESONANCE_HZ * DAMPING
        omega = 2 * np.pi * RESONANCE_HZ * np.sqrt(1 - DAMPING**2)
        ring = int(0.02 * fs)
        tk = rng.uniform(0, 1 / fd)
        while tk < duration:
            amplitude = 1.0 if kind == "outer" else 0.6 + 0.4 * np.cos(2 * np.pi * SHAFT_HZ * tk)
            start = int(np.ceil(tk * fs))
            idx = np.arange(start, min(n, start + ring))
            tau = idx / fs - tk
            fault[idx] += amplitude * np.exp(-alpha * tau) * np.sin(omega * tau)
            tk += (1 / fd) * (1 + rng.uniform(-SLIP, SLIP))
        noise_power = np.mean(fault**2) / 10 ** (snr_db / 10)
    else:
        noise_power = 0.0237 / 10 ** (-5 / 10)  # an outer-race fault's power at SNR -5 dB
    x += fault + rng.standard_normal(n) * np.sqrt(noise_power)
    return x


def hit(best, fs=FS):
    """The resonance is found: its frequency lies in the best band, no wider than fs/8."""
    lo = best["centre_hz"] - best["bandwidth_hz"] / 2
    hi = best["centre_hz"] + best["bandwidth_hz"] / 2
    return lo <= RESONANCE_HZ <= hi and best["bandwidth_hz"] <= fs / 8


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = {
        "sample_rate": FS, "nlevel": NLEVEL, "shaft_hz": SHAFT_HZ, "resonance_hz": RESONANCE_HZ,
        "multiples": MULTIPLES,
        "minimum_length": R.minimum_length(NLEVEL),
        "taps": {name: {"re": [float(v) for v in f.real], "im": [float(v) for v in f.imag]}
                 for name, f in zip(("h", "g", "h1", "h2", "h3"), (R.H, R.G, R.H1, R.H2, R.H3))},
        "signals": [],
    }
    for name, kind, snr, seed in SIGNALS:
        x = bearing_signal(kind, snr, seed)
        x.astype("<f8").tofile(os.path.join(here, name + ".f64"))
        rows, best = R.kurtogram(x, FS, NLEVEL)
        c, rate = R.band_signal(x, FS, best["row"], best["band"])
        f, p, nperseg = R.squared_envelope_spectrum(c, rate)
        highest = max(m * SHAFT_HZ for m in MULTIPLES.values())
        drow, dband = R.diagnosis_cell(rows, FS, highest * (1 + R.WINDOW))
        dc, drate = R.band_signal(x, FS, drow, dband)
        dn = R.diagnosis_segment_length(len(dc), drate, SHAFT_HZ)
        _, dp, _ = R.squared_envelope_spectrum(dc, drate, dn)
        levels = R.defect_levels(dp, drate, dn, SHAFT_HZ, MULTIPLES)
        out["signals"].append({
            "name": name, "file": name + ".f64", "kind": kind, "snr_db": snr, "seed": seed, "count": len(x),
            "defect_hz": {"outer": BPFO_HZ, "inner": BPFI_HZ}.get(kind),
            "grid": [{"level": float(level), "bandwidth_hz": float(bw), "values": [float(v) for v in values]}
                     for level, bw, values in rows],
            "best": {key: (float(v) if isinstance(v, (float, np.floating)) else int(v)) for key, v in best.items()},
            "band_signal": {"sample_rate": float(rate), "count": len(c)},
            "envelope": {"segment_length": nperseg, "resolution_hz": float(f[1]),
                         "psd": [float(v) for v in p]},
            "diagnosis": {"row": drow, "band": dband, "sample_rate": float(drate), "segment_length": dn,
                          "levels": {name: [{"peak_hz": hz, "db": db} for hz, db in harmonics]
                                     for name, harmonics in levels.items()}},
        })
    with open(os.path.join(here, "reference.json"), "w") as file:
        json.dump(out, file, indent=1)
        file.write("\n")


def hit_rate(seeds=40):
    print("| SNR (dB) | outer race | inner race |")
    print("|---:|---:|---:|")
    for snr in (0, -5, -10, -15, -20, -25):
        rates = []
        for kind in ("outer", "inner"):
            hits = sum(hit(R.kurtogram(bearing_signal(kind, snr, 1000 + s), FS, NLEVEL)[1]) for s in range(seeds))
            rates.append(f"{hits}/{seeds}")
        print(f"| {snr} | {rates[0]} | {rates[1]} |", flush=True)


if __name__ == "__main__":
    hit_rate() if "--hit-rate" in sys.argv else main()
