"""Reference fast kurtogram and squared-envelope spectrum (docs/kurtogram-definition.md).

Written from the definition with whole-array numpy/scipy operations (firwin, lfilter,
welch), independently of sonde's Swift loops: every node of the filter-bank tree is the
full-rate lfilter output of its parent, then decimated by slicing.
"""

import numpy as np
from scipy.signal import firwin, lfilter, welch

#: Samples at the start of every filtered node left out of its kurtosis (the binary
#: prototype's order: the first outputs that touch the zero padding before the signal).
WARM_UP = 16
#: Band power at or below this fraction of the input's mean square counts as no band (K = 0).
SILENT = 1e-20


def prototypes():
    """The five analysis filters: h (low half), g (high half), h1, h2, h3 (thirds)."""
    n = np.arange(17)
    h = firwin(17, 0.4) * np.exp(2j * np.pi * n * 0.125)
    k = np.arange(16)
    g = (-1.0) ** (k + 1) * h[15 - k]
    m = np.arange(25)
    h1 = firwin(25, 2 / 3 * 0.4) * np.exp(2j * np.pi * m * 0.25 / 3)
    h2 = h1 * np.exp(2j * np.pi * m / 6)
    h3 = h1 * np.exp(2j * np.pi * m / 3)
    return h, g, h1, h2, h3


H, G, H1, H2, H3 = prototypes()


def minimum_length(nlevel):
    return 2 ** (nlevel + 7)


def split2(z):
    """A node's two children: filter, keep odd-indexed outputs, demodulate the high one."""
    a = lfilter(H, 1.0, z)[1::2]
    d = lfilter(G, 1.0, z)[1::2]
    d = d * (-1.0) ** np.arange(1, len(d) + 1)
    return a, d


def split3(z):
    """A node's three children: filter, keep outputs 2, 5, 8, ..."""
    return [lfilter(f, 1.0, z)[2::3] for f in (H1, H2, H3)]


def kurtosis(c, floor, real=False):
    c = np.asarray(c)
    c = c - np.mean(c)
    e = np.mean(np.abs(c) ** 2)
    if e <= floor:
        return 0.0
    return float(np.mean(np.abs(c) ** 4) / e**2 - (3.0 if real else 2.0))


def kurtogram(x, fs, nlevel):
    """Rows [(level, bandwidth_hz, [K per band])], coarsest first, and the best cell."""
    x = np.asarray(x, dtype=np.float64)
    if nlevel < 1 or len(x) < minimum_length(nlevel):
        raise ValueError("too short")
    floor = SILENT * np.mean(x * x)
    rows = [(0.0, fs / 2, [kurtosis(x, floor, real=True)])]
    nodes = [x]
    for k in range(1, nlevel + 1):
        children = [c for node in nodes for c in split2(node)]
        rows.append((float(k), fs / 2 ** (k + 1), [kurtosis(c[WARM_UP:], floor) for c in children]))
        if k <= nlevel - 1:
            thirds = [t for node in nodes for t in split3(node)]
            rows.append(
                (k - 1 + np.log2(3), fs / (3 * 2**k), [kurtosis(t[WARM_UP:], floor) for t in thirds])
            )
        nodes = children
    best = None
    for r, (level, bw, values) in enumerate(rows):
        j = int(np.argmax(values))  # first maximum in the row
        if best is None or values[j] > best["kurtosis"]:
            best = dict(row=r, level=level, band=j, centre_hz=(j + 0.5) * bw, bandwidth_hz=bw, kurtosis=values[j])
    return rows, best


def band_signal(x, fs, row, band):
    """The complex node sequence of a cell (warm-up dropped) and its sample rate."""
    z = np.asarray(x, dtype=np.float64)
    if row == 0:
        return z.astype(np.complex128), fs
    k = (row + 1) // 2  # binary depth of the row (odd rows) or of the split's parent + 1
    ternary = row % 2 == 0
    depth = k - 1 if ternary else k
    node = band // 3 if ternary else band
    rate = fs
    for bit in range(depth - 1, -1, -1):
        a, d = split2(z)
        z = d if (node >> bit) & 1 else a
        rate /= 2
    if ternary:
        z = split3(z)[band % 3]
        rate /= 3
    return z[WARM_UP:], rate


def default_segment_length(n):
    p = 1
    while 2 * p <= n // 2:
        p *= 2
    return p


def squared_envelope_spectrum(c, rate, nperseg=None):
    env = np.abs(c) ** 2
    env = env - np.mean(env)
    if nperseg is None:
        nperseg = default_segment_length(len(env))
    f, p = welch(env, fs=rate, window="hann", nperseg=nperseg, noverlap=nperseg // 2, nfft=nperseg,
                 detrend="constant", return_onesided=True, scaling="density", average="mean")
    return f, p, nperseg


# --- Bearing defect levels (docs/features.md section 9) ---------------------------------

#: Relative half-width of the search band around each harmonic (rolling-element slip).
SLIP = 0.02
#: Relative half-width of the background window (the search band left out of it).
WINDOW = 0.10
#: Harmonics read per defect.
HARMONICS = 3
#: Fewest background bins for a level.
MINIMUM_BACKGROUND = 8
DEFECTS = ("bpfo", "bpfi", "bsf", "ftf")


def band_rate(fs, row):
    """Sample rate of a row's band signals: fs/2^k (level k), fs/(3*2^(k-1)) (level k-1+log2 3)."""
    if row == 0:
        return fs
    if row % 2 == 0:
        return fs / (3 * 2 ** (row // 2 - 1))
    return fs / 2 ** ((row + 1) // 2)


def diagnosis_cell(rows, fs, nyquist):
    """The first largest cell (coarsest row first, lowest band first) whose band rate / 2 >= nyquist; row 0 if none."""
    best = None
    for r, (level, bw, values) in enumerate(rows):
        if band_rate(fs, r) / 2 < nyquist:
            continue
        j = int(np.argmax(values))
        if best is None or values[j] > best[2]:
            best = (r, j, values[j])
    return (0, 0) if best is None else (best[0], best[1])


def diagnosis_segment_length(n, rate, shaft_hz):
    """Smallest power of two >= 8 with rate/P <= shaft/250, but at most default_segment_length(n) and 2^17."""
    longest = min(2**17, max(8, default_segment_length(n)))
    p = 8
    while p < longest and rate / p > shaft_hz / 250:
        p *= 2
    return p


def harmonic_level(p, rate, nperseg, frequency):
    """(peak frequency, level dB) of the line near `frequency`, or (None, None) when not measurable."""
    if frequency * (1 + WINDOW) > rate / 2:
        return None, None
    resolution = rate / nperseg
    f = np.arange(len(p)) * resolution  # the same products as the Swift side, not rfftfreq's quotients
    edges = np.array([frequency * (1 - WINDOW), frequency * (1 - SLIP), frequency * (1 + SLIP), frequency * (1 + WINDOW)])
    if np.min(np.abs(f[:, None] - edges[None, :])) <= 1e-9 * frequency:
        raise ValueError(f"a bin sits on an edge of the windows around {frequency} Hz: a knife-edge case")
    window = (f >= frequency * (1 - WINDOW)) & (f <= frequency * (1 + WINDOW))
    search = (f >= frequency * (1 - SLIP)) & (f <= frequency * (1 + SLIP))
    background = p[window & ~search]
    if len(background) < MINIMUM_BACKGROUND or not np.any(search):
        return None, None
    median = float(np.median(background))
    peak_bin = int(np.flatnonzero(search)[np.argmax(p[search])])
    if median <= 0 or p[peak_bin] <= 0:
        return None, None
    return float(f[peak_bin]), float(10 * np.log10(p[peak_bin] / median))


def defect_levels(p, rate, nperseg, shaft_hz, multiples):
    """{defect: [(peak Hz, dB) per harmonic]} for multiples {bpfo: .., bpfi: .., bsf: .., ftf: ..}."""
    out = {}
    for name in DEFECTS:
        fd = multiples[name] * shaft_hz
        out[name] = [harmonic_level(p, rate, nperseg, h * fd) for h in range(1, HARMONICS + 1)]
    return out


# --- sonde spectrum --envelope (docs/features.md section 8) ------------------------------


def brick_wall_band(x, fs, lo, hi):
    """The analytic signal of an ideal band-pass lo..hi Hz at the input's rate (zero-padded to 2^k)."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    m = 2
    while m < n:
        m *= 2
    f = np.arange(m) * fs / m
    inside = (f >= lo) & (f <= hi)
    h = np.zeros(m)
    h[1 : m // 2][inside[1 : m // 2]] = 2.0
    if inside[0]:
        h[0] = 1.0
    if inside[m // 2]:
        h[m // 2] = 1.0
    return np.fft.ifft(np.fft.fft(x, m) * h)[:n]


def envelope_segment_length(band_rate_hz, fs, window):
    """The smallest power of two P >= 8 with band_rate / P <= fs / window."""
    p = 8
    while band_rate_hz / p > fs / window:
        p *= 2
    return p
