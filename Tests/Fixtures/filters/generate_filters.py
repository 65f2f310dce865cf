#!/usr/bin/env python3
"""Golden vectors for sonde's filter design and filtering (docs/features.md section 2).

Writes filters.json next to this script: a seeded input signal, and for each stage spec and
sample rate the coefficients of scipy.signal.butter(..., output='sos') / iirnotch and the
sosfilt output of the input; plus chains of stages applied one after the other.

Deterministic: run it again and the file does not change (for the same scipy/numpy build).
    python3 Tests/Fixtures/filters/generate_filters.py

Not included: bands with low + high == fs/2 exactly. Their poles come in pairs of equal
magnitude, so scipy's zpk2sos section order depends on the last bit of numpy's float64 tan,
which differs between machines (SVML on AVX-512, libm elsewhere); the coefficients would not
be a stable reference. One such case is kept in "orderAmbiguous", compared by output only.
"""
import json
import os

import numpy as np
import scipy
import scipy.signal as signal

HERE = os.path.dirname(os.path.abspath(__file__))
LENGTH = 512
RATES = [1000.0, 8000.0, 44100.0, 51200.0]
ORDERS = [1, 2, 3, 4, 5, 8, 16]
BAND_ORDERS = [1, 2, 3, 4, 5, 8]


def make_input():
    """White noise, two tones, a DC offset, a slow drift and an impulse: something for every
    kind of stage to act on (the tones land at different normalised frequencies per rate)."""
    rng = np.random.default_rng(20240611)
    n = np.arange(LENGTH)
    x = (0.5 * rng.standard_normal(LENGTH)
         + 0.8 * np.sin(2 * np.pi * 0.013 * n)
         + 0.3 * np.sin(2 * np.pi * 0.21 * n + 0.4)
         + 0.25
         + 0.4 * n / LENGTH)
    x[100] += 5.0
    return x


def design(spec, fs):
    """scipy's design for one spec string (the same grammar sonde parses)."""
    fields = spec.split(':')
    kind = fields[0]
    if kind == 'dc':
        return signal.butter(1, 0.5, 'highpass', fs=fs, output='sos')
    if kind == 'notch':
        q = float(fields[2]) if len(fields) > 2 else 30.0
        b, a = signal.iirnotch(float(fields[1]), q, fs=fs)
        return np.concatenate([b, a])[np.newaxis, :]
    order = int(fields[2]) if len(fields) > 2 else 4
    if kind in ('bandpass', 'bandstop'):
        low, high = (float(v) for v in fields[1].split('-'))
        assert low + high != fs / 2, f'{spec} at {fs} Hz is centred on fs/4 (see docstring)'
        return signal.butter(order, [low, high], kind, fs=fs, output='sos')
    return signal.butter(order, float(fields[1]), kind, fs=fs, output='sos')


def fmt(value):
    """Frequencies as sonde's specs write them: 100, not 100.0."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def cases():
    out = []
    for r, fs in enumerate(RATES):
        hz = lambda fraction: fmt(round(fs * fraction, 3))
        for i, order in enumerate(ORDERS):
            # Cutoffs spread over the band, different for each order, never at a round fraction.
            out.append((f'lowpass:{hz(0.013 + 0.061 * i)}:{order}', fs))
            out.append((f'highpass:{hz(0.017 + 0.057 * i)}:{order}', fs))
        # Three band orders per rate, so that every order in BAND_ORDERS appears twice.
        for j in range(3):
            i = (3 * r + j) % len(BAND_ORDERS)
            order = BAND_ORDERS[i]
            low = 0.02 + 0.05 * i
            high = low + 0.07 + 0.013 * i
            out.append((f'bandpass:{hz(low)}-{hz(high)}:{order}', fs))
            out.append((f'bandstop:{hz(low)}-{hz(high + 0.011)}:{order}', fs))
        out.append(('dc', fs))
        # Defaults, and the extremes: near 0 Hz and near Nyquist.
        out.append((f'lowpass:{hz(0.1)}', fs))
        out.append((f'lowpass:{hz(0.4999)}:4', fs))
        out.append((f'highpass:{hz(0.0005)}:4', fs))
        out.append((f'highpass:{hz(0.49)}:16', fs))
        out.append((f'bandpass:{hz(0.001)}-{hz(0.4989)}:4', fs))
        out.append((f'bandpass:{hz(0.3)}-{hz(0.4995)}:5', fs))
        out.append((f'bandstop:{hz(0.0005)}-{hz(0.002)}:2', fs))
        out.append((f'bandstop:{hz(0.45)}-{hz(0.499)}:3', fs))
        out.append((f'bandpass:{hz(0.1)}-{hz(0.13)}', fs))
        out.append((f'bandpass:{hz(0.05)}-{hz(0.3)}:16', fs))
        notches = [(0.05, None), (0.0121, 0.5), (0.2, 1), (0.33, 10), (0.011, 100), (0.4987, 30)]
        for frequency, q in notches[r % 2::2]:
            spec = f'notch:{hz(frequency)}'
            out.append((spec if q is None else f'{spec}:{fmt(q)}', fs))
    out.append(('highpass:10:4', 51200.0))
    out.append(('lowpass:10:16', 51200.0))
    out.append(('notch:50', 51200.0))
    out.append(('notch:60:35', 8000.0))
    return out


CHAINS = [
    (['dc', 'lowpass:1000:4', 'notch:50'], 44100.0),
    (['highpass:10:4', 'bandstop:45-55:2', 'notch:100:20', 'lowpass:20000:8'], 51200.0),
    (['bandpass:300-3400:3', 'notch:1000:5'], 8000.0),
]


def main():
    x = make_input()
    records = []
    for spec, fs in cases():
        sos = design(spec, fs)
        records.append({'spec': spec, 'sampleRate': fs, 'sos': sos.tolist(),
                        'output': signal.sosfilt(sos, x).tolist()})
    chains = []
    for specs, fs in CHAINS:
        y = x
        for spec in specs:
            y = signal.sosfilt(design(spec, fs), y)
        chains.append({'specs': specs, 'sampleRate': fs, 'output': y.tolist()})
    ambiguous = []
    for spec, fs in [('bandpass:100-400:8', 1000.0), ('bandstop:1000-3000:6', 8000.0)]:
        kind, band, order = spec.split(':')
        low, high = (float(v) for v in band.split('-'))
        sos = signal.butter(int(order), [low, high], kind, fs=fs, output='sos')
        ambiguous.append({'spec': spec, 'sampleRate': fs, 'sos': sos.tolist(),
                          'output': signal.sosfilt(sos, x).tolist()})
    document = {
        'generator': 'Tests/Fixtures/filters/generate_filters.py',
        'scipy': scipy.__version__,
        'numpy': np.__version__,
        'input': x.tolist(),
        'cases': records,
        'chains': chains,
        'orderAmbiguous': ambiguous,
    }
    with open(os.path.join(HERE, 'filters.json'), 'w') as f:
        json.dump(document, f, indent=None, separators=(',', ':'))
        f.write('\n')
    print(f'{len(records)} cases, {len(chains)} chains, {len(ambiguous)} order-ambiguous -> filters.json')


if __name__ == '__main__':
    main()
