#!/usr/bin/env python3
"""Independent numpy/scipy/librosa reference for docs/features.md section 7 (feature families),
and the generator of its fixtures.

    python3 Tests/Fixtures/reference_families.py

Writes, relative to this directory (deterministic; a rerun reproduces identical files):
  families/inputs/NAME.f32le   interleaved float32 samples
  families/expected/NAME.csv   the records docs/features.md sections 5 and 7 define for them
  families_cases.json          [{name, description, inputs, args, expected, fs, window, velocity_low}]

Every number of docs/features.md section 7 is computed here from the page alone, with the
named references (librosa.filters.mel, librosa.power_to_db, librosa.feature.mfcc,
scipy.signal.hilbert), never from sonde.  Filters, framing and flat frames come from
reference.py (docs/features.md sections 2-5).
The generator refuses cases where a checked value sits on a knife-edge: an envelope
argmax within 1e-9 of a tie, or envelope_frequency asked for on a frame the page exempts
(sum Pe below 1e-12 of N * sum env^2).
"""

from __future__ import annotations

import json
import math
import os
import sys

import numpy as np
import scipy.signal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference as ref  # noqa: E402

OUT = os.path.join(HERE, "families")

NAMED = ["spectral_flux", "velocity_rms", "envelope_rms", "envelope_frequency", "level_a", "level_c"]
MANTISSAS = [1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8]


# ---------------------------------------------------- docs/features.md section 7 definitions


def weight_a(f: np.ndarray) -> np.ndarray:
    f2 = f * f
    ra = 12194.0**2 * f2 * f2 / ((f2 + 20.6**2) * np.sqrt((f2 + 107.7**2) * (f2 + 737.9**2)) * (f2 + 12194.0**2))
    return (ra * 10 ** (2.0 / 20)) ** 2


def weight_c(f: np.ndarray) -> np.ndarray:
    f2 = f * f
    rc = 12194.0**2 * f2 / ((f2 + 20.6**2) * (f2 + 12194.0**2))
    return (rc * 10 ** (0.06 / 20)) ** 2


def nominal(i: int) -> float:
    v = MANTISSAS[i % 10] * 10 ** (3 + i // 10)
    return float(f"{v:.3g}")


def octave_bands(kind: str, fs: float, n: int) -> list[tuple[str, float, float]]:
    """(column, lo, hi) of every IEC 61260-1 base-10 band with lo >= df and hi <= fs/2."""
    df = fs / n
    step = 3 if kind == "octave" else 1
    prefix = "octave" if kind == "octave" else "third_octave"
    out = []
    for x in range(-200, 201):
        fm = 1000 * 10 ** (step * x / 10)
        lo, hi = fm * 10 ** (-step / 20), fm * 10 ** (step / 20)
        if lo >= df and hi <= fs / 2:
            out.append((f"{prefix}:{ref.short_number(nominal(step * x))}", lo, hi))
    return out


def dominant_bin(p: np.ndarray) -> tuple[float, bool]:
    """dominant_frequency's rule on a power spectrum, in bins; and whether the argmax is a near-tie."""
    half = len(p) - 1
    sub = p[2:]
    k = 2 + int(np.argmax(sub))
    ordered = np.sort(sub)
    near_tie = len(ordered) > 1 and ordered[-2] >= ordered[-1] * (1 - 1e-9)
    if k < half:
        a, b, c = (math.log(max(v, 1e-300)) for v in (p[k - 1], p[k], p[k + 1]))
        den = a - 2 * b + c
        d = 0.0 if den == 0 else min(max(0.5 * (a - c) / den, -0.5), 0.5)
    else:
        d = 0.0
    return k + d, near_tie


def family_values(frames: np.ndarray, fs: float, n: int, opts: dict) -> dict[str, np.ndarray]:
    """Section-7 columns (asked for in `opts`) of one channel's (frames x N) array."""
    import librosa

    nf = frames.shape[0]
    flat = np.all(frames == frames[:, :1], axis=1)
    X = ref._spectra(frames, flat)
    S = np.abs(X)
    w = scipy.signal.get_window("hann", n)
    P = S**2 / (fs * np.sum(w**2))
    P[:, 1:n // 2] *= 2
    df = fs / n
    f = np.arange(n // 2 + 1) * fs / n
    R = opts.get("reference", 1.0)
    out: dict[str, np.ndarray] = {}

    m = opts.get("mel") or (128 if opts.get("mfcc") else None)
    if m:
        B = librosa.filters.mel(sr=fs, n_fft=n, n_mels=m, fmin=0.0, fmax=fs / 2, htk=False, norm="slaney", dtype=np.float64)
        E = (B @ (S**2).T)  # (M, frames), the power spectrum |X|^2
        mel_db = librosa.power_to_db(E, ref=1.0, amin=1e-10, top_db=None)
        if opts.get("mel"):
            for j in range(m):
                out[f"mel_{j + 1}"] = mel_db[j]
        if opts.get("mfcc"):
            c = librosa.feature.mfcc(S=mel_db, n_mfcc=opts["mfcc"])
            for j in range(opts["mfcc"]):
                out[f"mfcc_{j + 1}"] = c[j]
    names = opts.get("names", [])
    if "spectral_flux" in names:
        flux = np.zeros(nf)
        flux[1:] = np.sqrt(np.sum((S[1:] - S[:-1]) ** 2, axis=1))
        out["spectral_flux"] = flux
    if "velocity_rms" in names:
        lo, hi = opts.get("velocity_band", (10.0, 1000.0))
        mask = (lo <= f) & (f < hi)
        out["velocity_rms"] = np.sqrt(np.sum(P[:, mask] / (2 * np.pi * f[mask]) ** 2 * df, axis=1))
    if "envelope_rms" in names or "envelope_frequency" in names:
        env_rms = np.zeros(nf)
        env_freq = np.zeros(nf)
        for i in range(nf):
            if flat[i]:
                continue
            env = np.abs(scipy.signal.hilbert(frames[i]))
            env_rms[i] = math.sqrt(np.mean(env**2))
            e = env - np.mean(env)
            if np.all(e == 0):
                continue
            pe = np.abs(np.fft.rfft(w * e)) ** 2
            if "envelope_frequency" in names:
                if np.sum(pe) < 1e-12 * n * np.sum(env**2):
                    raise AssertionError(f"frame {i}: envelope_frequency asked for where the page does not check it")
                k1, near_tie = dominant_bin(pe)
                if near_tie:
                    raise AssertionError(f"frame {i}: envelope argmax on a near-tie")
                env_freq[i] = k1 * df
        if "envelope_rms" in names:
            out["envelope_rms"] = env_rms
        if "envelope_frequency" in names:
            out["envelope_frequency"] = env_freq
    for name, weight in (("level_a", weight_a), ("level_c", weight_c)):
        if name in names:
            total = np.sum(P[:, 1:] * weight(f[1:]) * df, axis=1)
            out[name] = 10 * np.log10(np.maximum(total, 1e-30) / R**2)
    for kind in opts.get("octave_sets", []):
        for col, lo, hi in octave_bands(kind, fs, n):
            mask = (lo <= f) & (f < hi)
            out[col] = 10 * np.log10(np.maximum(np.sum(P[:, mask], axis=1) * df, 1e-30) / R**2)
    return out


def family_columns(opts: dict, fs: float, n: int) -> list[str]:
    cols = []
    m = opts.get("mel")
    if m:
        cols += [f"mel_{j + 1}" for j in range(m)]
    if opts.get("mfcc"):
        cols += [f"mfcc_{j + 1}" for j in range(opts["mfcc"])]
    cols += [name for name in NAMED if name in opts.get("names", [])]
    return cols


def records(x: np.ndarray, fs: float, n: int, h: int, args: list[str]) -> tuple[list[dict], list[str]]:
    """sonde process's records for `args` (a subset of its options), from the page."""
    opts: dict = {"names": []}
    filters, features, bands = [], None, []
    i = 0
    while i < len(args):
        a, v = args[i], args[i + 1] if i + 1 < len(args) else None
        if a == "--filter":
            filters.append(v)
        elif a == "--features":
            features = v.split(",")
        elif a == "--bands":
            for item in v.split(","):
                if item in ("octave", "third-octave"):
                    opts.setdefault("octave_sets", []).append(item)
                else:
                    lo, hi = item.split("-")
                    bands.append((float(lo), float(hi)))
        elif a == "--mel":
            opts["mel"] = int(v)
        elif a == "--mfcc":
            opts["mfcc"] = int(v)
        elif a == "--velocity-band":
            lo, hi = v.split("-")
            opts["velocity_band"] = (float(lo), float(hi))
        elif a == "--reference":
            opts["reference"] = float(v)
        i += 2
    opts["octave_sets"] = [k for k in ("octave", "third-octave") if k in opts.get("octave_sets", [])]
    page = [name for name in (features or []) if name in ref.PAGE_FEATURES]
    opts["names"] = [name for name in (features or []) if name in NAMED]
    if not page:
        page = list(ref.PAGE_FEATURES)
    columns = page + family_columns(opts, fs, n) + [ref.band_name(lo, hi) for lo, hi in bands]
    after = [col for kind in opts["octave_sets"] for col, _, _ in octave_bands(kind, fs, n)]
    columns += after
    per_channel = []
    for c in range(x.shape[1]):
        stream = ref.apply_filters(x[:, c], fs, filters)
        frames = ref.frame_matrix(stream, n, h)
        values = ref.frame_features(frames, fs, ref.PAGE_FEATURES, bands)
        values.update(family_values(frames, fs, n, opts))
        per_channel.append(values)
    nframes = (x.shape[0] - n) // h + 1
    recs = []
    for k in range(nframes):
        for c in range(x.shape[1]):
            rec = {"time": k * h / fs, "channel": f"ch{c}", "frame": k, "start": k * h}
            for col in columns:
                v = float(per_channel[c][col][k])
                assert math.isfinite(v), (col, k, c)
                rec[col] = v
            recs.append(rec)
    return recs, columns


# ------------------------------------------------------------------ signals


def chirp(t, f0, f1):
    return scipy.signal.chirp(t, f0, t[-1], f1)


def am(t, fc, fm, depth):
    return (1 + depth * np.sin(2 * np.pi * fm * t)) * np.sin(2 * np.pi * fc * t)


def impulses(fs, count, rate, resonance, decay, rng):
    """A bearing's outer-race fault: a decaying resonance struck `rate` times a second."""
    x = np.zeros(count)
    t = np.arange(int(0.02 * fs)) / fs
    ring = np.exp(-decay * t) * np.sin(2 * np.pi * resonance * t)
    period = fs / rate
    k = 0.0
    while k < count:
        start = int(k)
        end = min(count, start + len(ring))
        x[start:end] += ring[: end - start]
        k += period
    return x + 0.05 * rng.standard_normal(count)


def cases() -> list[dict]:
    rng = np.random.default_rng(20261124)
    out = []

    def case(name, description, fs, n, h, channels, args, velocity_low=10.0):
        out.append(dict(name=name, description=description, fs=fs, window=n, hop=h,
                        data=np.stack(channels, axis=1), args=args, velocity_low=velocity_low))

    fs = 1000.0
    t = np.arange(2048) / fs
    ch0 = chirp(t, 10, 450)
    ch0[700:764] = 0.0          # flat frames: zeros and a constant
    ch0[1000:1128] = 0.25
    case("audio_1k_n64", "chirp + flat stretches and noise, N=64 (M=40: some mel filters empty)", fs, 64, 32,
         [ch0, 0.3 * rng.standard_normal(len(t))],
         ["--window", "64", "--hop", "32", "--mel", "40", "--mfcc", "13", "--velocity-band", "2-400",
          "--features", "peak,peak_to_peak,total_power,spectral_flux,velocity_rms,level_a,level_c"], velocity_low=2.0)

    fs = 16000.0
    t = np.arange(4096) / fs
    tone = sum(a * np.sin(2 * np.pi * 440 * h * t) for h, a in ((1, 1.0), (2, 0.3), (3, 0.1)))
    case("audio_16k_mel256", "harmonic tone + noise, N=256 with M=256 (many empty filters), C=40", fs, 256, 128,
         [tone + 0.01 * rng.standard_normal(len(t))],
         ["--window", "256", "--hop", "128", "--mel", "256", "--mfcc", "40",
          "--features", "peak,peak_to_peak,total_power,spectral_flux"])

    fs = 22050.0
    t = np.arange(4096) / fs
    case("audio_22k_mel1", "tone + noise, M=1, C=1", fs, 512, 256,
         [0.5 * np.sin(2 * np.pi * 1234.5 * t) + 0.05 * rng.standard_normal(len(t))],
         ["--window", "512", "--hop", "256", "--mel", "1", "--mfcc", "1",
          "--features", "peak,peak_to_peak,total_power,spectral_flux,level_a"])

    fs = 44100.0
    t = np.arange(16384) / fs
    case("audio_44k1_mfcc_third_octave", "chirp 50 Hz-15 kHz in Pa, MFCC alone (M=128), A/C levels and third-octave bands re 20 uPa",
         fs, 2048, 1024, [0.2 * chirp(t, 50, 15000) + 0.002 * rng.standard_normal(len(t))],
         ["--window", "2048", "--hop", "1024", "--mfcc", "20", "--bands", "third-octave", "--reference", "2e-5",
          "--features", "peak,peak_to_peak,total_power,spectral_flux,level_a,level_c"])

    fs = 51200.0
    n_samples = 30000
    case("bearing_51k2_bandpass", "outer-race impulses 87.3/s exciting 6.2 kHz, band-passed 4-9 kHz: envelope line, octave bands",
         fs, 4096, 2048, [impulses(fs, n_samples, 87.3, 6200, 900, rng)],
         ["--window", "4096", "--hop", "2048", "--filter", "bandpass:4000-9000", "--bands", "0-1000,octave",
          "--features", "peak,peak_to_peak,total_power,spectral_flux,velocity_rms,envelope_rms,envelope_frequency"])

    fs = 8000.0
    t = np.arange(12000) / fs
    ch1 = 0.7 * am(t, 500, 11, 0.8) + 0.01 * rng.standard_normal(len(t))
    case("am_8k_highpass", "AM carriers (1.2 kHz at 37 Hz, 500 Hz at 11 Hz), high-passed, 2 channels, 172 frames (flux across jobs)", fs, 1024, 64,
         [am(t, 1200, 37, 0.6), ch1],
         ["--window", "1024", "--hop", "64", "--filter", "highpass:20:2",
          "--features", "peak,peak_to_peak,total_power,spectral_flux,envelope_rms,envelope_frequency,velocity_rms"])

    t = np.arange(6144) / fs
    flat = np.zeros(len(t))
    flat[2048:4096] = 0.5
    case("am_8k_flat", "AM carrier with flat frames (zeros, a constant): envelope 0 there", fs, 512, 512,
         [np.concatenate([am(t[:2048], 900, 23, 0.5), flat[2048:]])],
         ["--window", "512", "--hop", "512",
          "--features", "peak,peak_to_peak,total_power,spectral_flux,envelope_rms,envelope_frequency,level_a"])

    fs = 25600.0
    t = np.arange(98304) / fs
    vib = 0.8 * np.sin(2 * np.pi * 29.5 * t) + 0.3 * np.sin(2 * np.pi * 147 * t) + 0.1 * np.sin(2 * np.pi * 2300 * t)
    case("vibration_25k6_n65536", "machine vibration, N=65536: velocity (ISO band), mel 64, octave and third-octave bands",
         fs, 65536, 32768, [vib + 0.02 * rng.standard_normal(len(t))],
         ["--window", "65536", "--hop", "32768", "--mel", "64", "--mfcc", "13", "--bands", "octave,third-octave",
          "--features", "peak,peak_to_peak,total_power,spectral_flux,velocity_rms,level_a,level_c"])

    # 16 kHz octave and 20 kHz third octave share the upper edge 1000*10^1.35 = 22387.2 Hz.
    top = 1000 * 10 ** (12 / 10) * 10 ** (3 / 20)
    for name, fs, note in (("octave_top_fits", 2 * top + 2, "just fits"), ("octave_top_misses", 2 * top - 2, "just misses")):
        t = np.arange(4096) / fs
        case(name, f"noise at fs/2 = top edge {note}", fs, 1024, 1024, [0.1 * rng.standard_normal(len(t))],
             ["--window", "1024", "--hop", "1024", "--bands", "octave,third-octave",
              "--features", "peak,peak_to_peak,total_power,level_a"])

    fs = 2048.0
    t = np.arange(8192) / fs
    case("velocity_slow_2k", "slow machine: 12.5 Hz and 50 Hz, dc removed, velocity over 2-1000 Hz", fs, 2048, 512,
         [0.5 + 2.0 * np.sin(2 * np.pi * 12.5 * t) + 0.4 * np.sin(2 * np.pi * 50 * t)],
         ["--window", "2048", "--hop", "512", "--filter", "dc", "--velocity-band", "2-1000",
          "--features", "peak,peak_to_peak,total_power,velocity_rms,spectral_flux"], velocity_low=2.0)
    return out


def main() -> int:
    os.makedirs(os.path.join(OUT, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
    index = []
    for c in cases():
        data32 = c["data"].astype("<f4")
        rel_in = f"families/inputs/{c['name']}.f32le"
        data32.tofile(os.path.join(HERE, rel_in))
        x = data32.astype(np.float64)
        args = ["--rate", ref.short_number(c["fs"]) if float(c["fs"]).is_integer() else repr(c["fs"]),
                "--channels", str(x.shape[1]), "--sample-type", "f32le"] + c["args"]
        recs, columns = records(x, c["fs"], c["window"], c["hop"], c["args"])
        rel_out = f"families/expected/{c['name']}.csv"
        with open(os.path.join(HERE, rel_out), "w", newline="") as fh:
            ref.write_csv(recs, fh, ["time", "channel", "frame", "start"] + columns)
        index.append(dict(name=c["name"], description=c["description"], inputs=[rel_in], args=args,
                          expected=rel_out, fs=c["fs"], window=c["window"], velocity_low=c["velocity_low"]))
        print(f"{c['name']}: {len(recs)} records, {len(columns)} columns")
    with open(os.path.join(HERE, "families_cases.json"), "w") as fh:
        json.dump(index, fh, indent=2)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
