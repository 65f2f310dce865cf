#!/usr/bin/env python3
"""Independent numpy/scipy/librosa reference for the feature definitions (docs/features.md).

Every number here follows the contract page literally; where the page names a
reference (librosa, scipy) that reference is called.  Nothing here is derived
from the Swift sources.

Library use:

    import reference as ref
    recs = ref.features(samples_2d, fs, N, H, filters=["highpass:10:4"],
                        bands=[(0, 100), (12.5, 40)])
    ref.write_csv(recs, sys.stdout)

Command line (mirrors `sonde process`, CSV output only):

    python3 reference.py process FILE... [--window N] [--hop H] [--filter SPEC]...
                         [--bands LO-HI,...] [--features a,b,...] [--rate R]
                         [--channels C] [--sample-type f32le|f64le|i16le|i32le]
    python3 reference.py compare GOT.csv EXPECTED.csv [--fs FS]

`compare` applies the tolerance table of the page's "Reference checks" section
(fs, needed for the frequency floors, is inferred from the time/start columns).
It compares numbers, not text: a Swift Double prints 1e+15 where Python prints
1000000000000000.0, and both read back to the same value.
"""

from __future__ import annotations

import io
import math
import os
import re
import sys
import warnings
from typing import Iterable, Sequence

import numpy as np
import scipy.signal
import scipy.stats

# --------------------------------------------------------------------------- constants

PAGE_FEATURES = (
    "mean",
    "rms",
    "std",
    "peak",
    "peak_to_peak",
    "crest_factor",
    "skewness",
    "kurtosis",
    "zero_crossing_rate",
    "total_power",
    "dominant_frequency",
    "dominant_amplitude",
    "spectral_centroid",
    "spectral_bandwidth",
    "spectral_rolloff",
    "spectral_flatness",
    "spectral_entropy",
    "thd",
    "snr_db",
)
TIME_DOMAIN = PAGE_FEATURES[:9]
SAMPLE_TYPES = {"f32le": ("<f4", None), "f64le": ("<f8", None), "i16le": ("<i2", 2.0**15), "i32le": ("<i4", 2.0**31)}
AUDIO_EXTS = (".wav", ".flac", ".aif", ".aiff", ".aifc")
TIME_NAMES = ("time", "t", "timestamp")

# `strtod` decimal or scientific notation, the whole cell.  No hex, nan, inf,
# empty cells, and (a decision, see report) no surrounding whitespace.
_NUMBER_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


class SondeError(Exception):
    """An input/configuration error with the metadata bad_cases.json records."""

    def __init__(self, kind: str, message: str, file: str | None = None, line: int | None = None,
                 column: int | None = None):
        super().__init__(message)
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column


# --------------------------------------------------------------------------- helpers


def round_half_away(v: float) -> int:
    """round() of the page: half away from zero."""
    return int(math.floor(v + 0.5)) if v >= 0 else -int(math.floor(-v + 0.5))


def short_number(v: float) -> str:
    """Shortest form for band column names: 0 -> "0", 12.5 -> "12.5", 1000.0 -> "1000"."""
    v = float(v)
    if v.is_integer() and abs(v) < 1e16:
        return str(int(v))
    return repr(v)


def band_name(lo: float, hi: float) -> str:
    return f"band_power:{short_number(lo)}-{short_number(hi)}"


def is_number(cell: str) -> bool:
    return _NUMBER_RE.match(cell) is not None


def parse_bands(text: str) -> list[tuple[float, float]]:
    bands = []
    for item in text.split(","):
        parts = item.split("-")
        if len(parts) != 2 or not is_number(parts[0]) or not is_number(parts[1]):
            raise SondeError("invalid_band", f"--bands: cannot parse band '{item}' (expected LO-HI)")
        bands.append((float(parts[0]), float(parts[1])))
    return bands


# ------------------------------------------------------------ filters (docs/features.md section 2)


def design_filter(spec: str, fs: float) -> np.ndarray:
    """Second-order sections for one filter stage spec (docs/features.md section 2)."""

    def bad(why: str) -> SondeError:
        return SondeError("invalid_filter", f"filter stage '{spec}': {why}")

    def freq(text: str) -> float:
        if not is_number(text):
            raise bad(f"'{text}' is not a frequency")
        f = float(text)
        if not (f > 0 and f < fs / 2):
            raise bad(f"frequency {text} Hz must satisfy 0 < F < fs/2 = {fs / 2!r}")
        return f

    def order(parts: list[str]) -> int:
        if len(parts) < 3:
            return 4
        if not re.fullmatch(r"[0-9]+", parts[2]):
            raise bad(f"order '{parts[2]}' is not an integer")
        o = int(parts[2])
        if o < 1 or o > 16:
            raise bad(f"order {o} must be 1...16")
        return o

    parts = spec.split(":")
    kind = parts[0]
    if kind == "dc":
        if len(parts) != 1:
            raise bad("dc takes no parameters")
        if not 0.5 < fs / 2:
            raise bad("fs too low for the 0.5 Hz dc high-pass")
        return scipy.signal.butter(1, 0.5, "highpass", fs=fs, output="sos")
    if kind in ("lowpass", "highpass"):
        if len(parts) not in (2, 3):
            raise bad("expected KIND:F[:ORDER]")
        return scipy.signal.butter(order(parts), freq(parts[1]), kind, fs=fs, output="sos")
    if kind in ("bandpass", "bandstop"):
        if len(parts) not in (2, 3):
            raise bad("expected KIND:F1-F2[:ORDER]")
        edges = parts[1].split("-")
        if len(edges) != 2:
            raise bad("expected F1-F2")
        f1, f2 = freq(edges[0]), freq(edges[1])
        if f1 >= f2:
            raise bad(f"F1 {edges[0]} must be below F2 {edges[1]}")
        return scipy.signal.butter(order(parts), [f1, f2], kind, fs=fs, output="sos")
    if kind == "notch":
        if len(parts) not in (2, 3):
            raise bad("expected notch:F[:Q]")
        f0 = freq(parts[1])
        q = 30.0
        if len(parts) == 3:
            if not is_number(parts[2]):
                raise bad(f"Q '{parts[2]}' is not a number")
            q = float(parts[2])
            if not q > 0:
                raise bad(f"Q {parts[2]} must be > 0")
        b, a = scipy.signal.iirnotch(f0, q, fs)
        assert a[0] == 1.0
        return np.concatenate([b, a]).reshape(1, 6)
    raise bad(f"unknown filter kind '{kind}'")


def apply_filters(x: np.ndarray, fs: float, specs: Sequence[str]) -> np.ndarray:
    """Run the stages in order over the whole stream, zero initial state."""
    y = np.asarray(x, dtype=np.float64)
    for spec in specs:
        y = scipy.signal.sosfilt(design_filter(spec, fs), y)
    return y


# ------------------------------------------------------- features (docs/features.md sections 4, 5)


def _spectra(frames: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """X[k] = rfft(w * x), with the exact DFT for flat frames."""
    n = frames.shape[1]
    w = scipy.signal.get_window("hann", n)  # periodic
    X = np.fft.rfft(frames * w, axis=1)
    if np.any(flat):
        c = frames[flat, 0]
        X[flat, :] = 0.0
        X[flat, 0] = c * n / 2
        X[flat, 1] = -c * n / 4
    return X


def frame_features(frames: np.ndarray, fs: float, feature_list: Sequence[str] = PAGE_FEATURES,
                   bands: Sequence[tuple[float, float]] = (), spectral_frames: np.ndarray | None = None,
                   flat: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """All features of a (frames x N) array of frames.  Returns name -> per-frame values.

    spectral_frames / flat exist only so the fixture generator can perturb the
    spectral path independently (robustness checks); normal callers omit them.
    """
    import librosa  # imported lazily: slow import

    frames = np.asarray(frames, dtype=np.float64)
    nf, n = frames.shape
    if flat is None:
        flat = np.all(frames == frames[:, :1], axis=1)
    sf = frames if spectral_frames is None else spectral_frames
    out: dict[str, np.ndarray] = {}

    # ---- time domain (unwindowed)
    mean = frames.mean(axis=1)
    rms = np.sqrt(np.mean(frames * frames, axis=1))
    dev = frames - mean[:, None]
    m2 = np.mean(dev**2, axis=1)
    peak = np.max(np.abs(frames), axis=1)
    degenerate = m2 <= (1e-15 * mean) ** 2  # the page's rule (scipy itself uses eps = 2.2e-16)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy warns on flat frames; the page's rule decides
        skew = scipy.stats.skew(frames, axis=1)
        kurt = scipy.stats.kurtosis(frames, axis=1, fisher=False)
    skew = np.where(degenerate, 0.0, skew)
    kurt = np.where(degenerate, 0.0, kurt)
    signs = frames >= 0
    zc = np.count_nonzero(signs[:, 1:] != signs[:, :-1], axis=1) / (n - 1)
    out["mean"] = mean
    out["rms"] = rms
    out["std"] = np.sqrt(m2)
    out["peak"] = peak
    out["peak_to_peak"] = frames.max(axis=1) - frames.min(axis=1)
    with np.errstate(all="ignore"):
        out["crest_factor"] = np.where(rms == 0, 0.0, peak / np.where(rms == 0, 1.0, rms))
    out["skewness"] = skew
    out["kurtosis"] = kurt
    out["zero_crossing_rate"] = zc

    # ---- spectral
    w = scipy.signal.get_window("hann", n)
    sumw = np.sum(w)
    sumw2 = np.sum(w * w)
    half = n // 2
    K = half + 1
    df = fs / n
    X = _spectra(sf, flat)
    S = np.abs(X)
    P = (X.real**2 + X.imag**2) / (fs * sumw2)
    P[:, 1:half] *= 2.0
    out["total_power"] = P.sum(axis=1) * df

    kstar = 2 + np.argmax(P[:, 2:], axis=1)  # lowest k on ties
    rows = np.arange(nf)
    d = np.zeros(nf)
    inner = kstar < half
    if np.any(inner):
        r = rows[inner]
        k = kstar[inner]
        a = np.log(np.maximum(P[r, k - 1], 1e-300))
        b = np.log(np.maximum(P[r, k], 1e-300))
        c = np.log(np.maximum(P[r, k + 1], 1e-300))
        den = a - 2 * b + c
        with np.errstate(all="ignore"):
            dd = np.where(den == 0, 0.0, 0.5 * (a - c) / np.where(den == 0, 1.0, den))
        d[inner] = np.clip(dd, -0.5, 0.5)
    k1 = kstar + d
    out["dominant_frequency"] = np.where(flat, 0.0, k1 * df)
    out["dominant_amplitude"] = np.where(flat, 0.0, 2.0 * S[rows, kstar] / sumw)

    f = np.arange(K) * df  # f[k] = k * df
    St = S.T  # librosa wants (freq, frames)
    out["spectral_centroid"] = librosa.feature.spectral_centroid(S=St, freq=f)[0]
    out["spectral_bandwidth"] = librosa.feature.spectral_bandwidth(S=St, freq=f)[0]
    out["spectral_rolloff"] = librosa.feature.spectral_rolloff(S=St, freq=f, roll_percent=0.85)[0]
    out["spectral_flatness"] = librosa.feature.spectral_flatness(S=St, power=2.0, amin=1e-10)[0]

    S2 = S * S
    tot = S2.sum(axis=1)
    ent = np.zeros(nf)
    for i in range(nf):
        if tot[i] == 0:
            continue
        p = S2[i] / tot[i]
        p = p[p > 0]
        ent[i] = -np.sum(p * np.log2(p)) / np.log2(K)
    out["spectral_entropy"] = ent

    thd = np.zeros(nf)
    snr = np.zeros(nf)
    for i in range(nf):
        if flat[i] or not k1[i] >= 5:
            continue
        g = thd_groups(k1[i], n)
        fund, harms = g
        p1 = P[i, fund].sum()
        ph = sum(P[i, h].sum() for h in harms)
        if p1 > 0 and harms:
            thd[i] = math.sqrt(ph / p1)
        mask = np.ones(K, dtype=bool)
        mask[0:3] = False
        mask[fund] = False
        for h in harms:
            mask[h] = False
        pn = P[i, mask].sum()
        if pn > 0 and p1 > 0:
            snr[i] = 10.0 * math.log10(p1 / pn)
    out["thd"] = thd
    out["snr_db"] = snr

    fk = np.arange(K) * fs / n  # Double(k) * fs / Double(N)
    for lo, hi in bands:
        sel = (fk >= lo) & (fk < hi)
        out[band_name(lo, hi)] = P[:, sel].sum(axis=1) * df

    # debugging aids for the robustness checks (not output columns)
    out["_kstar"] = kstar
    out["_k1"] = k1
    out["_flat"] = flat
    out["_P"] = P
    out["_S"] = S
    return out


def thd_groups(k1: float, n: int) -> tuple[list[int], list[list[int]]]:
    """Fundamental bins and the harmonic groups that fit (docs/features.md section 5, thd)."""
    half = n // 2
    r = round_half_away(k1)
    fund = [b for b in range(r - 2, r + 3) if 0 <= b <= half]
    harms = []
    for h in range(2, 6):
        rh = round_half_away(h * k1)
        if rh - 2 >= 0 and rh + 2 <= half:
            harms.append(list(range(rh - 2, rh + 3)))
    return fund, harms


def frame_matrix(y: np.ndarray, N: int, H: int) -> np.ndarray:
    L = len(y)
    if L < N:
        return np.zeros((0, N))
    count = (L - N) // H + 1
    idx = np.arange(count)[:, None] * H + np.arange(N)[None, :]
    return y[idx]


def check_window(N: int, H: int) -> None:
    if N < 16 or N > 1048576 or (N & (N - 1)) != 0:
        raise SondeError("invalid_window", f"--window {N}: must be a power of two from 16 to 1048576")
    if H < 1 or H > N:
        raise SondeError("invalid_hop", f"--hop {H}: must satisfy 1 <= H <= N = {N}")


def check_bands(bands: Sequence[tuple[float, float]], fs: float) -> None:
    for lo, hi in bands:
        if not (0 <= lo < hi <= fs / 2):
            raise SondeError("invalid_band",
                             f"band {short_number(lo)}-{short_number(hi)}: need 0 <= LO < HI <= fs/2 = {fs / 2!r}")


def check_features(names: Sequence[str]) -> None:
    for name in names:
        if name not in PAGE_FEATURES:
            raise SondeError("invalid_feature", f"--features: unknown feature '{name}'")


def features(samples_2d, fs: float, N: int, H: int, filters: Sequence[str] = (),
             bands: Sequence[tuple[float, float]] = (), time_offset: float = 0.0,
             channel_names: Sequence[str] | None = None, feature_list: Sequence[str] | None = None,
             _return_streams: bool = False):
    """Records (list of dicts in output order) for one source.

    samples_2d: (frames, channels) array.  Keys: time, channel, frame, start,
    features (page order or feature_list order), then band_power:LO-HI.
    """
    x = np.asarray(samples_2d, dtype=np.float64)
    if x.ndim == 1:
        x = x[:, None]
    C = x.shape[1]
    names = list(channel_names) if channel_names is not None else [f"ch{i}" for i in range(C)]
    flist = list(feature_list) if feature_list is not None else list(PAGE_FEATURES)
    check_window(N, H)
    check_features(flist)
    check_bands(bands, fs)
    for spec in filters:  # every stage validated before any output
        design_filter(spec, fs)
    streams = [apply_filters(x[:, c], fs, filters) for c in range(C)]
    per_channel = [frame_features(frame_matrix(s, N, H), fs, PAGE_FEATURES, bands) for s in streams]
    nframes = (x.shape[0] - N) // H + 1 if x.shape[0] >= N else 0
    cols = flist + [band_name(lo, hi) for lo, hi in bands]
    records = []
    for k in range(nframes):
        start = k * H
        for c in range(C):
            rec = {"time": start / fs + time_offset, "channel": names[c], "frame": k, "start": start}
            for name in cols:
                v = float(per_channel[c][name][k])
                if not math.isfinite(v):
                    raise AssertionError(f"non-finite {name} at frame {k} channel {names[c]}")
                rec[name] = v
            records.append(rec)
    if _return_streams:
        return records, streams, per_channel
    return records


def columns_for(feature_list: Sequence[str] | None, bands: Sequence[tuple[float, float]], multi_file: bool) -> list[str]:
    flist = list(feature_list) if feature_list is not None else list(PAGE_FEATURES)
    cols = ["time", "channel", "frame", "start"] + flist + [band_name(lo, hi) for lo, hi in bands]
    return (["file"] if multi_file else []) + cols


# --------------------------------------------------------- CSV output (docs/features.md section 6)


def csv_field(v) -> str:
    if isinstance(v, str):
        if any(ch in v for ch in ',"\r\n'):
            return '"' + v.replace('"', '""') + '"'
        return v
    if isinstance(v, (bool, np.bool_)):
        raise TypeError("bool in record")
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return repr(float(v))


def write_csv(records: Sequence[dict], out, columns: Sequence[str] | None = None) -> None:
    """Header row, then one record per line ('\\n' line ends)."""
    if columns is None:
        if not records:
            raise ValueError("columns needed when there are no records")
        columns = list(records[0].keys())
    out.write(",".join(csv_field(c) for c in columns) + "\n")
    for rec in records:
        out.write(",".join(csv_field(rec[c]) for c in columns) + "\n")


# -------------------------------------------------------------- input (docs/features.md section 1)


def _csv_rows(text: str, path: str):
    """RFC 4180 records as (line_number, [cells]); line = physical line where the record starts.

    Empty lines are skipped.  Line ends: CRLF or LF.
    """
    i, n = 0, len(text)
    line = 1
    while i < n:
        start_line = line
        cells: list[str] = []
        cur: list[str] = []
        quoted_any = False
        while True:
            if i >= n:
                cells.append("".join(cur))
                break
            ch = text[i]
            if ch == '"' and not cur and not quoted_any:
                # quoted field
                quoted_any = True
                i += 1
                while True:
                    if i >= n:
                        raise SondeError("bad_csv", f"{path}:{start_line}: unterminated quoted field", path,
                                         start_line, len(cells) + 1)
                    ch = text[i]
                    if ch == '"':
                        if i + 1 < n and text[i + 1] == '"':
                            cur.append('"')
                            i += 2
                            continue
                        i += 1
                        break
                    if ch == "\n":
                        line += 1
                    cur.append(ch)
                    i += 1
                if i < n and text[i] not in ",\r\n":
                    raise SondeError("bad_csv", f"{path}:{line}: text after closing quote", path, line,
                                     len(cells) + 1)
                continue
            if ch == ",":
                cells.append("".join(cur))
                cur = []
                quoted_any = False
                i += 1
                continue
            if ch == "\n" or (ch == "\r" and i + 1 < n and text[i + 1] == "\n"):
                i += 2 if ch == "\r" else 1
                line += 1
                cells.append("".join(cur))
                break
            cur.append(ch)
            i += 1
        if len(cells) == 1 and cells[0] == "" and not quoted_any:
            continue  # empty line
        yield start_line, cells


def read_csv(path: str, rate: float | None = None, display_path: str | None = None):
    """(samples_2d, fs, time_offset, channel_names) per docs/features.md section 1."""
    name = display_path or path
    with open(path, "r", encoding="utf-8", newline="") as fh:
        text = fh.read()
    rows = _csv_rows(text, name)
    first = next(rows, None)
    if first is None:
        raise SondeError("empty_csv", f"{name}: no rows", name)
    line0, cells0 = first
    ncols = len(cells0)
    header = not all(is_number(c) for c in cells0)
    time_col = None
    if header:
        for j, c in enumerate(cells0):
            if c.lower() in TIME_NAMES:
                time_col = j
                break
        names = [c for j, c in enumerate(cells0) if j != time_col]
        data_rows = []
    else:
        names = [f"ch{j}" for j in range(ncols)]
        data_rows = [cells0_as_float(cells0)]
    if time_col is None and rate is None:
        raise SondeError("missing_rate", f"{name}: no time column; pass --rate", name)
    for line, cells in rows:
        if len(cells) != ncols:
            col = min(len(cells), ncols) + 1
            raise SondeError("wrong_cell_count", f"{name}:{line}: {len(cells)} cells, expected {ncols}", name,
                             line, col)
        vals = []
        for j, c in enumerate(cells):
            if not is_number(c):
                raise SondeError("bad_cell", f"{name}:{line}:{j + 1}: '{c}' is not a number", name, line, j + 1)
            vals.append(float(c))
        data_rows.append(vals)
    arr = np.array(data_rows, dtype=np.float64).reshape(len(data_rows), ncols)
    if time_col is not None:
        t = arr[:, time_col]
        samples = np.delete(arr, time_col, axis=1)
        offset = float(t[0]) if len(t) else 0.0
        if rate is None:
            if len(t) < 2:
                raise SondeError("missing_rate", f"{name}: need two time values to infer the rate; pass --rate", name)
            fs = 1.0 / float(np.median(np.diff(t)))
        else:
            fs = float(rate)
    else:
        samples = arr
        offset = 0.0
        fs = float(rate)
    return samples, fs, offset, names


def cells0_as_float(cells):
    return [float(c) for c in cells]


def read_raw(path: str, sample_type: str, channels: int, rate: float):
    dtype, scale = SAMPLE_TYPES[sample_type]
    width = np.dtype(dtype).itemsize
    data = np.fromfile(path, dtype=np.uint8)
    frames = len(data) // (width * channels)  # a partial trailing frame is dropped
    vals = data[: frames * width * channels].view(dtype).astype(np.float64)
    if scale is not None:
        vals = vals / scale
    return vals.reshape(frames, channels), float(rate), 0.0, [f"ch{i}" for i in range(channels)]


def read_audio(path: str, rate: float | None = None):
    import soundfile as sf

    data, sr = sf.read(path, dtype="float64", always_2d=True)
    fs = float(rate) if rate is not None else float(sr)
    return data, fs, 0.0, [f"ch{i}" for i in range(data.shape[1])]


def read_input(path: str, rate=None, channels=None, sample_type=None, display_path=None):
    ext = os.path.splitext(path)[1].lower()
    if ext == ".csv":
        return read_csv(path, rate, display_path)
    if ext in AUDIO_EXTS:
        return read_audio(path, rate)
    st = sample_type or ext.lstrip(".")
    if st not in SAMPLE_TYPES:
        raise SondeError("missing_sample_type", f"{path}: pass --sample-type")
    if rate is None:
        raise SondeError("missing_rate", f"{path}: raw input needs --rate")
    return read_raw(path, st, channels or 1, rate)


# --------------------------------------------------------------------------- `sonde process` emulation


def parse_args(args: Sequence[str]) -> dict:
    opts = {"window": 1024, "hop": None, "filters": [], "bands": [], "features": None, "rate": None,
            "channels": None, "sample_type": None}
    it = iter(args)
    for a in it:
        if a == "--window":
            opts["window"] = int(next(it))
        elif a == "--hop":
            opts["hop"] = int(next(it))
        elif a == "--filter":
            opts["filters"].append(next(it))
        elif a == "--bands":
            opts["bands"] = parse_bands(next(it))
        elif a == "--features":
            opts["features"] = next(it).split(",")
        elif a == "--rate":
            opts["rate"] = float(next(it))
        elif a == "--channels":
            opts["channels"] = int(next(it))
        elif a == "--sample-type":
            opts["sample_type"] = next(it)
        else:
            raise SondeError("bad_option", f"unknown option {a}")
    if opts["hop"] is None:
        opts["hop"] = opts["window"] // 2
    return opts


def process(inputs: Sequence[str], args: Sequence[str], base_dir: str = ".", _return_detail: bool = False):
    """(columns, records) exactly as `sonde process INPUTS ARGS` would emit them (CSV)."""
    o = parse_args(args)
    check_window(o["window"], o["hop"])
    if o["features"] is not None:
        check_features(o["features"])
    multi = len(inputs) > 1
    sources = []
    for p in inputs:  # read + validate everything before any output
        src = read_input(os.path.join(base_dir, p), o["rate"], o["channels"], o["sample_type"], display_path=p)
        check_bands(o["bands"], src[1])
        for spec in o["filters"]:
            design_filter(spec, src[1])
        sources.append(src)
    records = []
    detail = []
    for p, (samples, fs, offset, names) in zip(inputs, sources):
        recs, streams, per_channel = features(samples, fs, o["window"], o["hop"], o["filters"], o["bands"],
                                              offset, names, o["features"], _return_streams=True)
        detail.append((p, samples, fs, offset, names, streams, per_channel))
        for r in recs:
            records.append(({"file": p} | r) if multi else r)
    cols = columns_for(o["features"], o["bands"], multi)
    if _return_detail:
        return cols, records, detail, o
    return cols, records


# --------------------------------------------------------------------------- tolerance comparison


def tolerance(name: str, want: float, row: dict, fs: float) -> float:
    """|got - want| allowed by the page's Reference checks table."""
    A = abs(float(row["peak"])) if "peak" in row else 1.0
    if A == 0:
        A = 1.0
    tp = float(row["total_power"]) if "total_power" in row else 0.0
    rel = 1e-4 * abs(want)
    if name in ("mean", "rms", "std", "peak", "peak_to_peak", "dominant_amplitude"):
        return rel + 1e-9 * A
    if name == "total_power" or name.startswith("band_power:"):
        return rel + (1e-9 * tp if tp != 0 else 1e-30)
    if name in ("dominant_frequency", "spectral_centroid", "spectral_bandwidth", "spectral_rolloff"):
        return rel + 1e-6 * fs
    if name == "snr_db":
        return rel + 1e-3
    return rel + 1e-9


def read_records_csv(path: str) -> tuple[list[str], list[dict]]:
    with open(path, newline="") as fh:
        rows = list(_csv_rows(fh.read(), path))
    if not rows:
        return [], []
    head = rows[0][1]
    return head, [dict(zip(head, cells)) for _, cells in rows[1:]]


def compare(got_path: str, want_path: str, fs: float | None = None) -> list[str]:
    """Differences beyond tolerance; fs defaults to one inferred from the time column."""
    gh, got = read_records_csv(got_path)
    wh, want = read_records_csv(want_path)
    problems = []
    if gh != wh:
        problems.append(f"header differs: {gh} vs {wh}")
        return problems
    if len(got) != len(want):
        problems.append(f"record count {len(got)} vs {len(want)}")
        return problems
    rates: dict[str, float] = {}
    if fs is None:  # infer each file's rate from two records with different starts
        first: dict[str, tuple[float, float]] = {}
        for w in want:
            key = w.get("file", "")
            st, tm = float(w["start"]), float(w["time"])
            if key not in first:
                first[key] = (st, tm)
            elif key not in rates and st != first[key][0]:
                rates[key] = (st - first[key][0]) / (tm - first[key][1])
    for i, (g, w) in enumerate(zip(got, want)):
        rate = fs if fs is not None else rates.get(w.get("file", ""), 1.0)
        for col in wh:
            if col in ("channel", "file"):
                if g[col] != w[col]:
                    problems.append(f"record {i} {col}: {g[col]!r} vs {w[col]!r}")
                continue
            gv, wv = float(g[col]), float(w[col])
            if col in ("frame", "start"):
                ok = gv == wv
            elif col == "time":
                ok = abs(gv - wv) <= 1e-9 * max(abs(wv), 1e-300)
            else:
                ok = abs(gv - wv) <= tolerance(col, wv, w, rate)
            if not ok:
                problems.append(f"record {i} ({w.get('channel')}, frame {w.get('frame')}) {col}: got {gv!r} want {wv!r}")
    return problems


def _main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("process", "compare"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "compare":
        fs = None
        if "--fs" in argv:
            fs = float(argv[argv.index("--fs") + 1])
        probs = compare(argv[1], argv[2], fs)
        for p in probs[:50]:
            print(p)
        return 1 if probs else 0
    inputs = []
    rest = argv[1:]
    while rest and not rest[0].startswith("--"):
        inputs.append(rest.pop(0))
    try:
        cols, recs = process(inputs, rest)
    except SondeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    try:
        write_csv(recs, sys.stdout, cols)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
