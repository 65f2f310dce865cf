"""Small recordings in containers sonde must never read as raw samples (issue 43): a MATLAB
5.0 MAT-file as the Case Western bearing set ships them (three accelerometer vectors and an
RPM scalar), written by scipy. Deterministic:
    .build/test-venv/bin/python Tests/Fixtures/containers/generate_containers.py
"""
import os

import numpy as np
import scipy.io

here = os.path.dirname(os.path.abspath(__file__))
t = np.arange(1200) / 12000.0
rng = np.random.default_rng(105)
variables = {
    "X105_DE_time": 0.3 * np.sin(2 * np.pi * 162 * t) + 0.05 * rng.standard_normal(t.size),
    "X105_FE_time": 0.1 * np.sin(2 * np.pi * 162 * t) + 0.02 * rng.standard_normal(t.size),
    "X105_BA_time": 0.05 * rng.standard_normal(t.size),
    "X105RPM": np.array([[1797.0]]),
}
# The header's creation date would change each run: a fixed one keeps the bytes the same.
path = os.path.join(here, "bearing.mat")
scipy.io.savemat(path, {k: v.reshape(-1, 1) for k, v in variables.items()}, oned_as="column")
with open(path, "r+b") as f:
    f.write(b"MATLAB 5.0 MAT-file Platform: posix, Created on: Sat Nov 28 00:00:00 2026".ljust(116))
