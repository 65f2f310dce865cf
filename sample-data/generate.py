#!/usr/bin/env python3
"""Write sonde's sample recordings (seeded; rerunning reproduces identical files).

    python3 sample-data/generate.py

See README.md in this directory for what each file contains and how to process it.
"""

from __future__ import annotations

import os

import numpy as np
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))


def tone(t, f, a, ph=0.0):
    return a * np.sin(2 * np.pi * f * t + ph)


def impulse_train(n, fs, rate_hz, f_ring, decay_s, amp, rng, jitter=0.005, first=0.0):
    """Repeated impacts (e.g. rollers over a spall) ringing a structural resonance."""
    x = np.zeros(n)
    L = int(min(n, 8 * decay_s * fs))
    tt = np.arange(L) / fs
    kernel = np.exp(-tt / decay_s) * np.sin(2 * np.pi * f_ring * tt)
    t_hit = first
    while t_hit < n / fs:
        i = int(round(t_hit * fs))
        m = min(L, n - i)
        x[i : i + m] += amp * (0.6 + 0.4 * rng.random()) * kernel[:m]
        t_hit += (1.0 / rate_hz) * (1 + jitter * rng.standard_normal())
    return x


def pump_vibration() -> None:
    """Centrifugal pump, 5-vane impeller at 2950 rpm; two horizontal accelerometers (m/s^2)."""
    rng = np.random.default_rng(2024_01)
    fs, n = 51200, 25600  # 0.5 s
    t = np.arange(n) / fs
    f1 = 2950 / 60  # 49.17 Hz shaft speed
    vpf = 5 * f1  # vane-pass frequency 245.8 Hz
    # cavitation: broadband noise, amplitude-modulated at the vane-pass rate
    cav = rng.standard_normal(n) * (1 + 0.8 * np.sin(2 * np.pi * vpf * t)) * 0.15
    x = (tone(t, f1, 0.8) + tone(t, 2 * f1, 0.25, 0.6) + tone(t, vpf, 1.2, 1.1) + tone(t, 2 * vpf, 0.3, 0.2)
         + cav + 0.03 * rng.standard_normal(n))
    y = (tone(t, f1, 0.6, 1.57) + tone(t, 2 * f1, 0.5, 0.9)  # strong 2x: shaft misalignment
         + tone(t, vpf, 0.7, 0.4) + 0.5 * cav + 0.03 * rng.standard_normal(n))
    lines = ["time,accel_x,accel_y"]
    for k in range(n):
        lines.append(f"{k / fs!r},{x[k]:.6f},{y[k]:.6f}")
    with open(os.path.join(HERE, "pump-vibration.csv"), "w", newline="") as fh:
        fh.write("\n".join(lines) + "\n")


def motor() -> None:
    """4-pole induction motor on 50 Hz mains: ch0 microphone, ch1 accelerometer (normalised)."""
    rng = np.random.default_rng(2024_02)
    fs, n = 44100, 66150  # 1.5 s
    t = np.arange(n) / fs
    fr = 1485 / 60  # 24.75 Hz rotor speed (1 % slip)
    rbpf = 28 * fr  # rotor-bar pass, 693 Hz
    mic = (tone(t, 100, 0.12) + tone(t, 200, 0.05, 0.3)  # magnetostriction hum at 2x line
           + tone(t, rbpf, 0.08) + tone(t, rbpf - 100, 0.03) + tone(t, rbpf + 100, 0.03)  # slot harmonics
           + 0.05 * rng.standard_normal(n)  # fan noise
           + impulse_train(n, fs, 88.6, 5200, 0.0004, 0.05, rng))  # light bearing ticking
    acc = (tone(t, fr, 0.3) + tone(t, 2 * fr, 0.08, 0.5) + tone(t, 100, 0.15, 1.0)
           + 0.02 * rng.standard_normal(n))
    sf.write(os.path.join(HERE, "motor.wav"), np.column_stack([mic, acc]), fs, subtype="PCM_16", format="WAV")


def bearing() -> None:
    """Rolling bearing with an outer-race defect; two accelerometers (g), raw f32le interleaved."""
    rng = np.random.default_rng(2024_03)
    fs, n = 25600, 25600  # 1 s
    t = np.arange(n) / fs
    shaft = 1797 / 60  # 29.95 Hz
    bpfo = 3.585 * shaft  # 107.4 Hz ball-pass frequency, outer race
    fault = impulse_train(n, fs, bpfo, 3800, 0.0006, 1.0, rng, first=0.002)
    a0 = tone(t, shaft, 0.15) + tone(t, 2 * shaft, 0.05, 0.7) + fault + 0.05 * rng.standard_normal(n)
    a1 = tone(t, shaft, 0.1, 1.2) + 0.3 * fault + 0.06 * rng.standard_normal(n)
    np.column_stack([a0, a1]).astype("<f4").tofile(os.path.join(HERE, "bearing.f32le"))


if __name__ == "__main__":
    pump_vibration()
    motor()
    bearing()
