#!/usr/bin/env python3
"""The FEATURES.md feature set (sections 4-5: every feature, THD/SNR, band powers) in
vectorised numpy/scipy, as a peer for sonde's throughput on the same raw file.

    python3 Benchmarks/peers/features_numpy.py FILE --rate 51200 --channels 2 \\
        --filter highpass:10:4 --bands 0-1000,1000-5000,5000-20000 [--window 1024 --hop 512]
    python3 Benchmarks/peers/features_numpy.py FILE ... --check   # agrees with Tests/Fixtures/reference.py?

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
import scipy.signal
from numpy.lib.stride_tricks import sliding_window_view

FEATURES = (
    "mean", "rms", "std", "peak", "peak_to_peak", "crest_factor", "skewness", "kurtosis",
    "zero_crossing_rate", "total_power", "dominant_frequency", "dominant_amplitude",
    "spectral_centroid", "spectral_bandwidth", "spectral_rolloff", "spectral_flatness",
    "spectral_entropy", "thd", "snr_db",
)


def design(spec: str, fs: float) -> np.ndarray:
    """Second-order sections of one `--filter` stage (FEATURES.md section 2)."""
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


def parse_bands(text: str | None) -> list[tuple[float, float]]:
    if not text:
        return []
    return [(float(lo), float(hi)) for lo, hi in (item.split("-", 1) for item in text.split(","))]


class Extractor:
    """Everything that depends only on N, fs and the bands, computed once."""

    def __init__(self, n: int, fs: float, bands: list[tuple[float, float]]):
        self.n, self.fs = n, fs
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

    def features(self, frames: np.ndarray) -> np.ndarray:
        """(B, N) frames -> (B, 19 + bands) values, in FEATURES.md order."""
        n, half, df = self.n, self.half, self.df
        b = frames.shape[0]
        out = np.empty((b, len(FEATURES) + len(self.bands)))
        rows = np.arange(b)

        # ---- time domain (section 4)
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

        # ---- spectrum (section 5): one batched rfft
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

        for j, (a, z) in enumerate(self.bands):
            out[:, len(FEATURES) + j] = p[:, a:z].sum(axis=1) * df
        return out


def process(samples: np.ndarray, fs: float, n: int, hop: int, filters: list[str],
            bands: list[tuple[float, float]], block: int) -> list[np.ndarray]:
    """Per channel, the (frames, columns) feature values of an (samples, channels) array."""
    stream = Stream(samples.shape[1], fs, n, hop, filters, bands, block)
    stream.push(samples)
    return stream.results()


class Stream:
    """Filters and measures blocks of interleaved samples as they come.

    Each channel keeps its filter state (`sosfilt`'s zi) and the filtered samples not yet
    framed, so the records are exactly those of the whole stream processed at once.
    """

    def __init__(self, channels: int, fs: float, n: int, hop: int, filters: list[str], bands, block: int):
        self.n, self.hop, self.block = n, hop, block
        self.extractor = Extractor(n, fs, bands)
        self.sos = [design(spec, fs) for spec in filters]
        self.zi = [[np.zeros((len(s), 2)) for s in self.sos] for _ in range(channels)]
        self.pending = [np.empty(0) for _ in range(channels)]
        self.out: list[list[np.ndarray]] = [[] for _ in range(channels)]
        self.width = len(FEATURES) + len(bands)

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
                self.out[c].append(self.extractor.features(frames[i:i + step]))
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


def write_csv(path: str, per_channel: list[np.ndarray], fs: float, hop: int, bands) -> None:
    names = list(FEATURES) + [f"band_power:{lo:g}-{hi:g}" for lo, hi in bands]
    with open(path, "w") as out:
        out.write(",".join(["time", "channel", "frame", "start"] + names) + "\n")
        for k in range(len(per_channel[0]) if per_channel else 0):
            for c, values in enumerate(per_channel):
                out.write(f"{k * hop / fs!r},ch{c},{k},{k * hop}," + ",".join(map(repr, values[k].tolist())) + "\n")


def check(samples: np.ndarray, fs: float, n: int, hop: int, filters: list[str], bands) -> int:
    """Compares the first frames (plus a flat and a zero stretch) with reference.py's features()."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "Tests", "Fixtures"))
    import reference  # noqa: E402  (the independent numpy/scipy/librosa reference)

    head = samples[: 40 * hop + n].astype(np.float64)
    flat = np.vstack([head, np.full((2 * n, head.shape[1]), 0.25), np.zeros((2 * n, head.shape[1]))])
    problems = 0
    for label, x, specs in (("first frames, filtered", head, filters), ("with flat and zero frames", flat, [])):
        mine = process(x, fs, n, hop, specs, bands, block=16)
        records = reference.features(x, fs, n, hop, filters=specs, bands=bands)
        names = list(FEATURES) + [reference.band_name(lo, hi) for lo, hi in bands]
        compared = 0
        for rec in records:
            got_row = mine[int(rec["channel"][2:])][rec["frame"]]
            for j, name in enumerate(names):
                want, got = rec[name], float(got_row[j])
                compared += 1
                if abs(got - want) > reference.tolerance(name, want, rec, fs):
                    problems += 1
                    if problems <= 20:
                        print(f"  {label}: {rec['channel']} frame {rec['frame']} {name}: got {got!r} want {want!r}")
        print(f"check ({label}): {len(records)} records, {compared} values compared with reference.py")
    print("check: all values within FEATURES.md tolerances" if problems == 0 else f"check: {problems} values out of tolerance")
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
    ap.add_argument("--bands", help="LO-HI,... in Hz")
    ap.add_argument("--block", type=int, default=256, help="frames per batched rfft; 0 = a whole channel at once")
    ap.add_argument("--read-frames", type=int, default=1 << 17,
                    help="interleaved frames read (and filtered) at a time (131072)")
    ap.add_argument("--csv", help="write the records here (default: no output)")
    ap.add_argument("--default-malloc", action="store_true", help="leave glibc's malloc settings alone")
    ap.add_argument("--check", action="store_true", help="compare the first frames with reference.py and exit")
    args = ap.parse_args()
    hop = args.hop or args.window // 2
    bands = parse_bands(args.bands)

    if args.check:
        samples = np.fromfile(args.path, dtype="<f4", count=(40 * hop + args.window) * args.channels)
        return check(samples.reshape(-1, args.channels), args.rate, args.window, hop, args.filter, bands)

    tuned = not args.default_malloc and tune_malloc()
    began = time.perf_counter()
    stream = Stream(args.channels, args.rate, args.window, hop, args.filter, bands, args.block)
    total = 0
    for samples in read_blocks(args.path, args.channels, args.read_frames):
        stream.push(samples)
        total += samples.size
    per_channel = stream.results()
    if args.csv:
        write_csv(args.csv, per_channel, args.rate, hop, bands)
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
