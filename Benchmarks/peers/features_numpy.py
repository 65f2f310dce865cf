#!/usr/bin/env python3
"""The feature set of docs/features.md sections 4-5 (every feature, THD/SNR) and band powers in
vectorised numpy/scipy, as a peer for sonde's throughput on the same raw file.

    python3 Benchmarks/peers/features_numpy.py FILE --rate 51200 --channels 2 \\
        --filter highpass:10:4 --bands 0-1000,1000-5000,5000-20000 [--window 1024 --hop 512]
    python3 Benchmarks/peers/features_numpy.py FILE ... --check   # agrees with Tests/Fixtures/reference.py?

With sonde's options of docs/features.md section 7 (`--mel M --mfcc C --features-extra
spectral_flux,... --bands ...,third-octave --velocity-band LO-HI --reference R`) it also
computes those feature families the same vectorised way: librosa's mel filters
as one matrix product per batch, the MFCC's DCT-II as another, scipy.signal.hilbert over
the batch for the envelope, flux against the previous row (carried between batches).

FILE is raw interleaved little-endian float32 (what make_input.py writes). The timed
region is everything from opening the file to the last feature. The file is read in
blocks (128 Ki frames) into one reused buffer; each channel's block is converted to
float64 and run through `scipy.signal.sosfilt` with its state (zi) carried; frames are
strided views (sliding_window_view) over the filtered stream, measured with one batched
rfft per batch of frames and the feature math as array operations over the batch. It
prints samples/s (all channels together) to stdout.

glibc's malloc is told to keep freed memory (see tune_malloc; `--default-malloc` turns
that off): without it half the run is page faults.

Streaming was measured faster here than reading the whole file and filtering each whole
channel (which also needs ~1.7 GB for a 400 MB file, most of its time in page faults),
and it keeps memory small: the peer at its best, not a strawman.

Output: none by default (the records are computed and dropped, so the figure is the
peer's compute speed, not its CSV formatting; formatting would only slow it down).
`--csv PATH` writes the records (inside the timed region) for inspection.

`--block` sets the frames per batched rfft (256: 2 MB temporaries; 128 to 2048 all ran
within 4% of each other here).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import sys
import time

import numpy as np
import scipy.fft
import scipy.signal
from numpy.lib.stride_tricks import sliding_window_view

FEATURES = (
    "mean", "rms", "std", "peak", "peak_to_peak", "crest_factor", "skewness", "kurtosis",
    "zero_crossing_rate", "total_power", "dominant_frequency", "dominant_amplitude",
    "spectral_centroid", "spectral_bandwidth", "spectral_rolloff", "spectral_flatness",
    "spectral_entropy", "thd", "snr_db",
)


def design(spec: str, fs: float) -> np.ndarray:
    """Second-order sections of one `--filter` stage (docs/features.md section 2)."""
    parts = spec.split(":")
    kind = parts[0]
    if kind == "dc":
        return scipy.signal.butter(1, 0.5, "highpass", fs=fs, output="sos")
    if kind == "notch":
        b, a = scipy.signal.iirnotch(float(parts[1]), float(parts[2]) if len(parts) > 2 else 30.0, fs)
        return np.concatenate([b, a]).reshape(1, 6)
    order = int(parts[2]) if len(parts) > 2 else 4
    edges = [float(f) for f in parts[1].split("-")]
    return scipy.signal.butter(order, edges if len(edges) == 2 else edges[0], kind, fs=fs, output="sos")


NAMED = ("spectral_flux", "velocity_rms", "envelope_rms", "envelope_frequency", "level_a", "level_c")
MANTISSAS = (1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8)


def parse_bands(text: str | None) -> list[tuple[float, float]]:
    if not text:
        return []
    items = [item for item in text.split(",") if item not in ("octave", "third-octave")]
    return [(float(lo), float(hi)) for lo, hi in (item.split("-", 1) for item in items)]


def octave_bands(kind: str, fs: float, n: int) -> list[tuple[str, float, float]]:
    """IEC 61260-1 base-10 bands between df and fs/2 (docs/features.md section 7)."""
    step = 3 if kind == "octave" else 1
    out = []
    for x in range(-200, 201):
        fm = 1000 * 10 ** (step * x / 10)
        lo, hi = fm * 10 ** (-step / 20), fm * 10 ** (step / 20)
        if lo >= fs / n and hi <= fs / 2:
            i = step * x
            v = float(f"{MANTISSAS[i % 10] * 10 ** (3 + i // 10):.3g}")
            name = str(int(v)) if v.is_integer() else repr(v)
            out.append((f"{'octave' if kind == 'octave' else 'third_octave'}:{name}", lo, hi))
    return out


class Families:
    """Section 7's options: which family columns, and their constants."""

    def __init__(self, mel=None, mfcc=None, names=(), velocity_band=(10.0, 1000.0), reference=1.0, octave_sets=()):
        self.mel, self.mfcc, self.names = mel, mfcc, tuple(name for name in NAMED if name in names)
        self.velocity_band, self.reference, self.octave_sets = velocity_band, reference, tuple(octave_sets)

    def columns(self, fs: float, n: int) -> tuple[list[str], list[str]]:
        """(columns before band_power, columns after it)."""
        before = [f"mel_{j + 1}" for j in range(self.mel or 0)] + [f"mfcc_{j + 1}" for j in range(self.mfcc or 0)]
        after = [name for kind in self.octave_sets for name, _, _ in octave_bands(kind, fs, n)]
        return before + list(self.names), after


class Extractor:
    """Everything that depends only on N, fs and the bands, computed once."""

    def __init__(self, n: int, fs: float, bands: list[tuple[float, float]], families: Families | None = None):
        self.n, self.fs = n, fs
        self.families = families or Families()
        self.half = n // 2
        self.k = self.half + 1
        self.df = fs / n
        self.w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)  # periodic Hann
        self.sumw = self.w.sum()
        self.scale = 1.0 / (fs * np.sum(self.w * self.w))
        self.f = np.arange(self.k) * self.df
        fk = np.arange(self.k) * fs / n
        self.bands = []
        for lo, hi in bands:
            sel = np.flatnonzero((fk >= lo) & (fk < hi))
            self.bands.append((sel[0], sel[-1] + 1) if len(sel) else (0, 0))
        fam = self.families
        before, after = fam.columns(fs, n)
        self.width = len(FEATURES) + len(before) + len(bands) + len(after)
        self.m = fam.mel or (128 if fam.mfcc else 0)
        if self.m:
            import librosa
            self.mel_basis = librosa.filters.mel(sr=fs, n_fft=n, n_mels=self.m, fmin=0.0, fmax=fs / 2, htk=False,
                                                 norm="slaney", dtype=np.float64).T.copy()  # (K, M)
            self.dct = scipy.fft.dct(np.eye(self.m), type=2, norm="ortho", axis=0)[: fam.mfcc or 0].T.copy()  # (M, C)
        lo, hi = fam.velocity_band
        vsel = np.flatnonzero((fk >= lo) & (fk < hi))
        self.velocity = (vsel, self.df / (2 * np.pi * fk[vsel]) ** 2)
        f2 = fk[1:] ** 2
        ra = 12194.0**2 * f2 * f2 / ((f2 + 20.6**2) * np.sqrt((f2 + 107.7**2) * (f2 + 737.9**2)) * (f2 + 12194.0**2))
        rc = 12194.0**2 * f2 / ((f2 + 20.6**2) * (f2 + 12194.0**2))
        self.weights = np.stack([(ra * 10 ** (2.0 / 20)) ** 2 * self.df, (rc * 10 ** (0.06 / 20)) ** 2 * self.df], axis=1)
        self.octaves = []
        for kind in fam.octave_sets:
            for _, lo, hi in octave_bands(kind, fs, n):
                sel = np.flatnonzero((fk >= lo) & (fk < hi))
                self.octaves.append((sel[0], sel[-1] + 1) if len(sel) else (0, 0))
        self.previous: np.ndarray | None = None  # |X| of the channel's previous frame (flux)

    def features(self, frames: np.ndarray) -> np.ndarray:
        """(B, N) frames -> (B, columns) values, in docs/features.md order."""
        n, half, df = self.n, self.half, self.df
        b = frames.shape[0]
        out = np.empty((b, self.width))
        rows = np.arange(b)

        # ---- time domain (docs/features.md section 4)
        hi = frames.max(axis=1)
        lo = frames.min(axis=1)
        flat = hi == lo
        mean = frames.mean(axis=1)
        dev = frames - mean[:, None]
        d2 = dev * dev
        m2 = d2.mean(axis=1)
        m3 = (d2 * dev).mean(axis=1)
        m4 = (d2 * d2).mean(axis=1)
        rms = np.sqrt(np.einsum("ij,ij->i", frames, frames) / n)
        peak = np.maximum(hi, -lo)
        degenerate = m2 <= (1e-15 * mean) ** 2
        with np.errstate(all="ignore"):
            out[:, 5] = np.where(rms == 0, 0.0, peak / rms)
            out[:, 6] = np.where(degenerate, 0.0, m3 / m2**1.5)
            out[:, 7] = np.where(degenerate, 0.0, m4 / (m2 * m2))
        signs = frames >= 0
        out[:, 0], out[:, 1], out[:, 2], out[:, 3], out[:, 4] = mean, rms, np.sqrt(m2), peak, hi - lo
        out[:, 8] = np.count_nonzero(signs[:, 1:] != signs[:, :-1], axis=1) / (n - 1)

        # ---- spectrum (docs/features.md section 5): one batched rfft
        x = np.fft.rfft(frames * self.w, axis=1)
        if flat.any():  # the exact DFT of a constant
            c = frames[flat, 0]
            x[flat] = 0
            x[flat, 0] = c * n / 2
            x[flat, 1] = -c * n / 4
        s2 = x.real * x.real + x.imag * x.imag
        s = np.sqrt(s2)
        p = s2 * (2 * self.scale)
        p[:, 0] = s2[:, 0] * self.scale
        p[:, half] = s2[:, half] * self.scale
        total = p.sum(axis=1)
        out[:, 9] = total * df

        kstar = 2 + np.argmax(p[:, 2:], axis=1)
        inner = kstar < half
        kc = np.minimum(kstar, half - 1)
        lp = np.log(np.maximum(p[rows[:, None], kc[:, None] + np.array([-1, 0, 1])], 1e-300))
        den = lp[:, 0] - 2 * lp[:, 1] + lp[:, 2]
        with np.errstate(all="ignore"):
            d = np.where(den == 0, 0.0, 0.5 * (lp[:, 0] - lp[:, 2]) / den)
        d = np.where(inner, np.clip(d, -0.5, 0.5), 0.0)
        k1 = kstar + d
        out[:, 10] = np.where(flat, 0.0, k1 * df)
        out[:, 11] = np.where(flat, 0.0, 2 * s[rows, kstar] / self.sumw)

        ssum = s.sum(axis=1)
        safe = np.where(ssum > 0, ssum, 1.0)
        centroid = np.where(ssum > 0, (s @ self.f) / safe, 0.0)
        out[:, 12] = centroid
        spread = np.einsum("ij,ij->i", s, (self.f[None, :] - centroid[:, None]) ** 2)
        out[:, 13] = np.where(ssum > 0, np.sqrt(spread / safe), 0.0)
        cum = np.cumsum(s, axis=1)
        out[:, 14] = self.f[np.argmax(cum >= 0.85 * cum[:, -1:], axis=1)]
        q = np.maximum(s2, 1e-10)
        out[:, 15] = np.exp(np.log(q).mean(axis=1)) / q.mean(axis=1)
        energy = s2.sum(axis=1)
        with np.errstate(all="ignore"):
            pr = s2 / np.where(energy > 0, energy, 1.0)[:, None]
            plogp = np.where(pr > 0, pr * np.log2(np.where(pr > 0, pr, 1.0)), 0.0)
        out[:, 16] = np.where(energy > 0, -plogp.sum(axis=1) / np.log2(self.k), 0.0)

        # THD and SNR over bin groups, from a cumulative sum of P (groups are 5 bins).
        cp = np.zeros((b, self.k + 1))
        np.cumsum(p, axis=1, out=cp[:, 1:])
        valid = ~flat & (k1 >= 5)
        r = np.floor(k1 + 0.5).astype(np.int64)  # round half away from zero (k1 >= 0)
        fa, fb = np.clip(r - 2, 0, half), np.clip(r + 2, 0, half)
        p1 = cp[rows, fb + 1] - cp[rows, fa]
        ph = np.zeros(b)
        fits_any = np.zeros(b, dtype=bool)
        noise_mask = np.ones((b, self.k), dtype=bool)
        noise_mask[:, :3] = False
        offsets = np.arange(-2, 3)
        fund_bins = np.clip(r[:, None] + offsets, 0, half)
        noise_mask[rows[:, None], fund_bins] = False
        for h in range(2, 6):
            rh = np.floor(h * k1 + 0.5).astype(np.int64)
            fits = (rh - 2 >= 0) & (rh + 2 <= half)
            a, z = np.clip(rh - 2, 0, half), np.clip(rh + 2, 0, half)
            ph += np.where(fits, cp[rows, z + 1] - cp[rows, a], 0.0)
            fits_any |= fits
            hb = np.where(fits[:, None], np.clip(rh[:, None] + offsets, 0, half), fund_bins)
            noise_mask[rows[:, None], hb] = False
        pn = np.einsum("ij,ij->i", p, noise_mask)
        with np.errstate(all="ignore"):
            out[:, 17] = np.where(valid & (p1 > 0) & fits_any, np.sqrt(ph / np.where(p1 > 0, p1, 1.0)), 0.0)
            out[:, 18] = np.where(valid & (p1 > 0) & (pn > 0), 10 * np.log10(p1 / np.where(pn > 0, pn, 1.0)), 0.0)

        col = len(FEATURES)
        fam = self.families
        if self.m:
            mel_db = 10 * np.log10(np.maximum(s2 @ self.mel_basis, 1e-10))
            if fam.mel:
                out[:, col:col + fam.mel] = mel_db
                col += fam.mel
            if fam.mfcc:
                out[:, col:col + fam.mfcc] = mel_db @ self.dct
                col += fam.mfcc
        for name in fam.names:
            if name == "spectral_flux":
                prev = np.empty_like(s)
                prev[1:] = s[:-1]
                if self.previous is None:
                    prev[0] = s[0]  # frame 0 of the input: flux 0
                else:
                    prev[0] = self.previous
                d = s - prev
                out[:, col] = np.sqrt(np.einsum("ij,ij->i", d, d))
                self.previous = s[-1].copy()
            elif name == "velocity_rms":
                sel, weight = self.velocity
                out[:, col] = np.sqrt(p[:, sel] @ weight)
            elif name == "envelope_rms":
                env = np.abs(scipy.signal.hilbert(frames, axis=1))
                out[:, col] = np.where(flat, 0.0, np.sqrt(np.einsum("ij,ij->i", env, env) / n))
            elif name == "envelope_frequency":
                if "envelope_rms" not in fam.names:
                    env = np.abs(scipy.signal.hilbert(frames, axis=1))
                e = env - env.mean(axis=1, keepdims=True)
                pe = np.abs(np.fft.rfft(e * self.w, axis=1)) ** 2
                ke = 2 + np.argmax(pe[:, 2:], axis=1)
                kc = np.minimum(ke, half - 1)
                le = np.log(np.maximum(pe[rows[:, None], kc[:, None] + np.array([-1, 0, 1])], 1e-300))
                den = le[:, 0] - 2 * le[:, 1] + le[:, 2]
                with np.errstate(all="ignore"):
                    de = np.where(den == 0, 0.0, 0.5 * (le[:, 0] - le[:, 2]) / den)
                de = np.where(ke < half, np.clip(de, -0.5, 0.5), 0.0)
                constant = ~np.any(e != 0, axis=1)
                out[:, col] = np.where(flat | constant, 0.0, (ke + de) * df)
            elif name in ("level_a", "level_c"):
                total_w = p[:, 1:] @ self.weights[:, 0 if name == "level_a" else 1]
                out[:, col] = 10 * np.log10(np.maximum(total_w, 1e-30) / fam.reference**2)
            col += 1
        for a, z in self.bands:
            out[:, col] = p[:, a:z].sum(axis=1) * df
            col += 1
        for a, z in self.octaves:
            out[:, col] = 10 * np.log10(np.maximum(p[:, a:z].sum(axis=1) * df, 1e-30) / fam.reference**2)
            col += 1
        return out


def process(samples: np.ndarray, fs: float, n: int, hop: int, filters: list[str],
            bands: list[tuple[float, float]], block: int, families: Families | None = None) -> list[np.ndarray]:
    """Per channel, the (frames, columns) feature values of an (samples, channels) array."""
    stream = Stream(samples.shape[1], fs, n, hop, filters, bands, block, families)
    stream.push(samples)
    return stream.results()


class Stream:
    """Filters and measures blocks of interleaved samples as they come.

    Each channel keeps its filter state (`sosfilt`'s zi) and the filtered samples not yet
    framed, so the records are exactly those of the whole stream processed at once.
    """

    def __init__(self, channels: int, fs: float, n: int, hop: int, filters: list[str], bands, block: int,
                 families: Families | None = None):
        self.n, self.hop, self.block = n, hop, block
        # One extractor per channel: flux carries the channel's previous |X|.
        self.extractors = [Extractor(n, fs, bands, families) for _ in range(channels)]
        self.sos = [design(spec, fs) for spec in filters]
        self.zi = [[np.zeros((len(s), 2)) for s in self.sos] for _ in range(channels)]
        self.pending = [np.empty(0) for _ in range(channels)]
        self.out: list[list[np.ndarray]] = [[] for _ in range(channels)]
        self.width = self.extractors[0].width

    def push(self, samples: np.ndarray) -> None:
        """Adds (count, channels) samples and measures every frame they complete."""
        n, hop = self.n, self.hop
        for c in range(samples.shape[1]):
            y = samples[:, c].astype(np.float64)
            for j, stage in enumerate(self.sos):
                y, self.zi[c][j] = scipy.signal.sosfilt(stage, y, zi=self.zi[c][j])
            y = np.concatenate([self.pending[c], y]) if len(self.pending[c]) else y
            if len(y) < n:
                self.pending[c] = y
                continue
            frames = sliding_window_view(y, n)[::hop]
            step = self.block if self.block > 0 else len(frames)
            for i in range(0, len(frames), step):
                self.out[c].append(self.extractors[c].features(frames[i:i + step]))
            self.pending[c] = y[len(frames) * hop:].copy()

    def results(self) -> list[np.ndarray]:
        return [np.concatenate(parts) if parts else np.empty((0, self.width)) for parts in self.out]


def read_blocks(path: str, channels: int, frames_per_read: int):
    """(frames, channels) float32 blocks of a raw f32le file, read into one reused buffer."""
    buffer = np.empty(frames_per_read * channels, dtype="<f4")
    view = memoryview(buffer).cast("B")
    frame_bytes = 4 * channels
    with open(path, "rb", buffering=0) as f:
        carry = 0
        while True:
            got = f.readinto(view[carry:])
            total = carry + (got or 0)
            whole = total // frame_bytes
            if whole:
                yield buffer[: whole * channels].reshape(whole, channels)
            if not got:
                return  # a partial last frame is dropped, as sonde does
            carry = total - whole * frame_bytes
            view[:carry] = view[whole * frame_bytes:total]


def write_csv(path: str, per_channel: list[np.ndarray], fs: float, hop: int, bands, families: Families, n: int) -> None:
    before, after = families.columns(fs, n)
    names = list(FEATURES) + before + [f"band_power:{lo:g}-{hi:g}" for lo, hi in bands] + after
    with open(path, "w") as out:
        out.write(",".join(["time", "channel", "frame", "start"] + names) + "\n")
        for k in range(len(per_channel[0]) if per_channel else 0):
            for c, values in enumerate(per_channel):
                out.write(f"{k * hop / fs!r},ch{c},{k},{k * hop}," + ",".join(map(repr, values[k].tolist())) + "\n")


def check(samples: np.ndarray, fs: float, n: int, hop: int, filters: list[str], bands, families: Families) -> int:
    """Compares the first frames (plus a flat and a zero stretch) with reference.py's features()
    and, for docs/features.md section 7, reference_families.py's family_values()."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "Tests", "Fixtures"))
    import reference  # noqa: E402  (the independent numpy/scipy/librosa reference)
    import reference_families  # noqa: E402

    head = samples[: 40 * hop + n].astype(np.float64)
    flat = np.vstack([head, np.full((2 * n, head.shape[1]), 0.25), np.zeros((2 * n, head.shape[1]))])
    problems = 0
    for label, x, specs in (("first frames, filtered", head, filters), ("with flat and zero frames", flat, [])):
        mine = process(x, fs, n, hop, specs, bands, block=16, families=families)
        records = reference.features(x, fs, n, hop, filters=specs, bands=bands)
        before, after = families.columns(fs, n)
        names = list(FEATURES) + before + [reference.band_name(lo, hi) for lo, hi in bands] + after
        opts = dict(mel=families.mel, mfcc=families.mfcc, names=list(families.names),
                    velocity_band=families.velocity_band, reference=families.reference,
                    octave_sets=list(families.octave_sets))
        section7 = [reference_families.family_values(
            reference.frame_matrix(reference.apply_filters(x[:, c], fs, specs), n, hop), fs, n, opts)
            for c in range(x.shape[1])]
        compared = 0
        for rec in records:
            channel = int(rec["channel"][2:])
            got_row = mine[channel][rec["frame"]]
            for j, name in enumerate(names):
                got = float(got_row[j])
                if name in rec:
                    want, allowed = rec[name], reference.tolerance(name, rec[name], rec, fs)
                else:  # docs/features.md section 7's columns: loosely, 1e-6 relative + 1e-6
                    want = float(section7[channel][name][rec["frame"]])
                    allowed = 1e-6 * abs(want) + 1e-6 * (1 if not name.startswith("envelope_freq") else fs)
                compared += 1
                if abs(got - want) > allowed:
                    problems += 1
                    if problems <= 20:
                        print(f"  {label}: {rec['channel']} frame {rec['frame']} {name}: got {got!r} want {want!r}")
        print(f"check ({label}): {len(records)} records, {compared} values compared with reference.py")
    print("check: all values within docs/features.md tolerances" if problems == 0 else f"check: {problems} values out of tolerance")
    return 1 if problems else 0


def tune_malloc() -> bool:
    """Keeps glibc from returning each batch's temporaries to the kernel.

    By default glibc serves the few-MB temporaries with mmap and trims the heap after
    them, so every batch page-faults its memory in again: measured here, that was half
    the run time (4.8 s of system time out of 9.6 s on the 400 MB workload), and these
    settings took the peer from 10.8 to 24.3 M samples/s. Same as MALLOC_MMAP_THRESHOLD_,
    MALLOC_TRIM_THRESHOLD_ and MALLOC_TOP_PAD_ in the environment.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3
    return all(libc.mallopt(option, value) == 1 for option, value in (
        (m_mmap_threshold, 256 << 20), (m_trim_threshold, 1 << 30), (m_top_pad, 256 << 20)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="raw interleaved f32le samples")
    ap.add_argument("--rate", type=float, required=True, help="sample rate in Hz")
    ap.add_argument("--channels", type=int, default=1)
    ap.add_argument("--window", type=int, default=1024)
    ap.add_argument("--hop", type=int)
    ap.add_argument("--filter", action="append", default=[], help="repeatable, as sonde's --filter")
    ap.add_argument("--bands", help="LO-HI,... in Hz, and octave, third-octave")
    ap.add_argument("--mel", type=int, help="mel band levels, as sonde's --mel")
    ap.add_argument("--mfcc", type=int, help="MFCCs, as sonde's --mfcc")
    ap.add_argument("--features-extra", default="", help="the names of docs/features.md section 7: " + ",".join(NAMED))
    ap.add_argument("--velocity-band", default="10-1000")
    ap.add_argument("--reference", type=float, default=1.0)
    ap.add_argument("--block", type=int, default=256, help="frames per batched rfft; 0 = a whole channel at once")
    ap.add_argument("--read-frames", type=int, default=1 << 17,
                    help="interleaved frames read (and filtered) at a time (131072)")
    ap.add_argument("--csv", help="write the records here (default: no output)")
    ap.add_argument("--default-malloc", action="store_true", help="leave glibc's malloc settings alone")
    ap.add_argument("--check", action="store_true", help="compare the first frames with reference.py and exit")
    args = ap.parse_args()
    hop = args.hop or args.window // 2
    bands = parse_bands(args.bands)
    band_items = (args.bands or "").split(",")
    families = Families(args.mel, args.mfcc, [name for name in args.features_extra.split(",") if name],
                        tuple(float(v) for v in args.velocity_band.split("-")), args.reference,
                        [kind for kind in ("octave", "third-octave") if kind in band_items])

    if args.check:
        samples = np.fromfile(args.path, dtype="<f4", count=(40 * hop + args.window) * args.channels)
        return check(samples.reshape(-1, args.channels), args.rate, args.window, hop, args.filter, bands, families)

    tuned = not args.default_malloc and tune_malloc()
    began = time.perf_counter()
    stream = Stream(args.channels, args.rate, args.window, hop, args.filter, bands, args.block, families)
    total = 0
    for samples in read_blocks(args.path, args.channels, args.read_frames):
        stream.push(samples)
        total += samples.size
    per_channel = stream.results()
    if args.csv:
        write_csv(args.csv, per_channel, args.rate, hop, bands, families, args.window)
    elapsed = time.perf_counter() - began

    frames = sum(len(v) for v in per_channel)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"numpy {np.__version__}, scipy {scipy.__version__}: {total} samples ({samples.shape[1]} ch), "
          f"{frames} frame-channels in {elapsed:.3f} s = {total / elapsed / 1e6:.2f} M samples/s, "
          f"{frames / elapsed:.0f} frames/s, peak RSS {peak_mib:.0f} MiB, malloc {'tuned' if tuned else 'default'}, "
          f"output: {args.csv or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
