"""numpy.percentile's p5 and p95 of columns like those that broke the report's summary
(issue 43: values clustered within 1e-4 of each other, where a 0.5% sketch put p95 below
min), written to cases.json for Tests/SondeReportTests/FeatureSummaryTests.swift.

Deterministic: a rerun writes identical bytes.
    .build/test-venv/bin/python Tests/Fixtures/percentiles/generate_percentiles.py
"""
import json
import os

import numpy as np

rng = np.random.default_rng(43)
cases = {
    # envelope_frequency of a 12 kHz bearing record: the same bin, a few ulps to 1e-3 apart.
    "clustered 161.7": 161.7 + 0.02 * rng.random(137),
    # rms of a band-passed accelerometer: 0.2554-0.2558.
    "clustered 0.2557": 0.2554 + 4e-4 * rng.random(611),
    "one value": np.array([3.25]),
    "two values": np.array([-1.0, 2.0]),
    "ties": np.repeat(np.array([0.5, 0.5000000000000001, 7.0]), [40, 3, 9]),
    "signed, nine decades": rng.choice([-1.0, 1.0], 1500) * 10.0 ** rng.uniform(-6, 3, 1500),
    "dB levels": -20 - 80 * rng.random(3000),
}
out = {
    name: {
        "values": [float(v) for v in values],
        "p5": float(np.percentile(values, 5)),
        "p95": float(np.percentile(values, 95)),
    }
    for name, values in cases.items()
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json")
with open(path, "w") as f:
    json.dump(out, f, indent=0)
    f.write("\n")
