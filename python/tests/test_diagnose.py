"""`sonde.diagnose` against `sonde diagnose --format json` on the same input (issue 47).

Run by `make test` against the installed wheel and its binary (test_sonde.py says how). The inputs are the kurtogram
fixtures' synthetic bearings (Tests/Fixtures/kurtogram: 1.5 s at 25.6 kHz, a resonance at
3 kHz rung at BPFO = 3.58 or BPFI = 5.42 x a 25 Hz shaft) and arrays made by their
generator. Values are compared exactly: the JSON's doubles are printed in shortest
round-trip form, so json.loads gives the binary's doubles bit for bit.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INSTALLED = os.environ.get("SONDE_TEST_INSTALLED") == "1"
if not INSTALLED:
    sys.path.insert(0, os.path.join(ROOT, "python"))
KURTOGRAM = os.path.join(ROOT, "Tests", "Fixtures", "kurtogram")
sys.path.insert(0, KURTOGRAM)

import generate_kurtogram  # noqa: E402  (the fixtures' synthetic bearing signals)
import sonde  # noqa: E402

BINARY = sonde.find_binary() if INSTALLED else os.environ.get("SONDE_BIN", "")
RATE = 25600
# The fixtures' bearing: the seeded BPFO and BPFI, a 6205's BSF and FTF; a 25 Hz shaft.
MULTIPLES = generate_kurtogram.MULTIPLES
BEARING = ",".join(f"{name}={value!r}" for name, value in MULTIPLES.items())


@pytest.fixture(scope="session", autouse=True)
def binary_named():
    assert BINARY and os.access(BINARY, os.X_OK), "set SONDE_BIN to a built sonde (make test does)"


def cli_json(*arguments: str) -> list:
    output = subprocess.run([BINARY, "diagnose", *arguments, "--format", "json"], check=True, capture_output=True)
    return json.loads(output.stdout)


def same(got, want) -> bool:
    if want is None:
        return got is None or (isinstance(got, float) and math.isnan(got))
    return got == want


def assert_same_as_json(frame, diagnosis: list) -> None:
    """Every row and column equals the binary's JSON, bit for bit; None is NaN in a number column."""
    assert frame.index.names == ["channel", "defect"]
    expected_index = [(c["channel"], d["defect"]) for c in diagnosis for d in c["defects"]]
    assert list(frame.index) == expected_index
    assert [d for _, d in expected_index[:4]] == ["bpfo", "bpfi", "bsf", "ftf"]
    for channel in diagnosis:
        for defect in channel["defects"]:
            row = frame.loc[(channel["channel"], defect["defect"])]
            for name in ("frequency_hz", "multiple", "level_db", "harmonics_found"):
                assert same(row[name], defect[name]), (channel["channel"], defect["defect"], name)
            for harmonic in defect["harmonics"]:
                order = harmonic["order"]
                assert same(row[f"h{order}_peak_hz"], harmonic["peak_hz"])
                assert same(row[f"h{order}_db"], harmonic["level_db"])
            assert same(row["not_measurable"], defect["harmonics"][0]["not_measurable"])
            assert row["named"] == (channel["verdict"] == defect["defect"])
            for name in ("verdict", "verdict_text", "threshold_db", "shaft_hz", "velocity_rms_mm_s",
                         "iso20816_zone", "machine_group", "foundation"):
                assert same(row[name], channel[name]), name
            for name, key in (("band_low_hz", "low_hz"), ("band_high_hz", "high_hz"), ("band_level", "level"),
                              ("band_kurtosis", "kurtosis"), ("band_row", "row"), ("band_index", "band")):
                assert same(row[name], channel["band"][key]), name
            for name, key in (("envelope_rate", "sample_rate"), ("envelope_resolution_hz", "resolution_hz"),
                              ("envelope_segments", "segments")):
                assert same(row[name], channel["envelope"][key]), name
    assert frame.attrs["diagnosis"] == diagnosis


@pytest.mark.parametrize(
    "name, verdict",
    [("inner_snr_m5.f64", "bpfi"), ("outer_snr_m5.f64", "bpfo"), ("healthy.f64", "none")],
)
def test_diagnose_a_file_equals_the_clis_json(name, verdict):
    path = os.path.join(KURTOGRAM, name)
    frame = sonde.diagnose(path, rate=RATE, sample_type="f64le", shaft_speed="25hz", bearing=BEARING)
    diagnosis = cli_json(path, "--rate", str(RATE), "--sample-type", "f64le", "--shaft-speed", "25hz", "--bearing", BEARING)
    assert_same_as_json(frame, diagnosis)
    assert frame.shape == (4, 29)
    assert set(frame.verdict) == {verdict}
    named = frame.index[frame.named].tolist()
    assert named == ([] if verdict == "none" else [("ch0", verdict)])
    # The fundamental's level is the one the verdict reads.
    if verdict != "none":
        assert frame.loc[("ch0", verdict), "level_db"] >= frame.loc[("ch0", verdict), "threshold_db"]


def test_diagnose_an_array_equals_the_cli_on_the_same_samples(tmp_path):
    # Two channels: an outer-race fault and a healthy bearing, 1.5 s each, from the
    # fixtures' generator; written interleaved as f64 for the CLI.
    x = np.stack(
        [generate_kurtogram.bearing_signal("outer", -5.0, 101), generate_kurtogram.bearing_signal("healthy", None, 102)],
        axis=1,
    )
    path = tmp_path / "two.f64"
    x.astype("<f8").tofile(path)
    frame = sonde.diagnose(x, rate=RATE, shaft_speed="1500rpm", bearing=MULTIPLES)
    assert_same_as_json(
        frame,
        cli_json(str(path), "--rate", str(RATE), "--channels", "2", "--sample-type", "f64le",
                 "--shaft-speed", "1500rpm", "--bearing", BEARING),
    )
    assert frame.xs("bpfo", level="defect").verdict.tolist() == ["bpfo", "none"]
    assert frame.index.get_level_values("channel").unique().tolist() == ["ch0", "ch1"]


def test_a_float32_array_streams_as_f32(tmp_path):
    x = generate_kurtogram.bearing_signal("inner", -5.0, 103).astype(np.float32)
    path = tmp_path / "one.f32"
    x.tofile(path)
    frame = sonde.diagnose(x, rate=RATE, shaft_speed="25hz", bearing="6205-2RS")
    assert_same_as_json(
        frame,
        cli_json(str(path), "--rate", str(RATE), "--sample-type", "f32le", "--shaft-speed", "25hz", "--bearing", "6205-2RS"),
    )
    assert frame.index[frame.named].tolist() == [("ch0", "bpfi")]


def test_options_reach_the_binary():
    path = os.path.join(KURTOGRAM, "inner_snr_m5.f64")
    options = dict(machine_group=1, foundation="flexible", input_unit="g", threshold=22.5, levels=5)
    frame = sonde.diagnose(path, rate=RATE, sample_type="f64le", shaft_speed="25hz", bearing="6205", **options)
    diagnosis = cli_json(
        path, "--rate", str(RATE), "--sample-type", "f64le", "--shaft-speed", "25hz", "--bearing", "6205",
        "--machine-group", "1", "--foundation", "flexible", "--input-unit", "g", "--threshold", "22.5", "--levels", "5",
    )
    assert_same_as_json(frame, diagnosis)
    assert set(frame.machine_group) == {1} and set(frame.foundation) == {"flexible"}
    assert set(frame.threshold_db) == {22.5}


def test_a_bearing_as_a_dict_equals_its_spelling():
    path = os.path.join(KURTOGRAM, "outer_snr_m5.f64")
    common = dict(rate=RATE, sample_type="f64le", shaft_speed="25hz")
    geometry = sonde.diagnose(path, bearing={"n": 9, "d": "7.94mm", "D": "39.04mm", "angle": 0}, **common)
    spelled = sonde.diagnose(path, bearing="n=9,d=7.94mm,D=39.04mm,angle=0", **common)
    assert geometry.equals(spelled)
    assert geometry.index[geometry.named].tolist() == [("ch0", "bpfo")]


def test_bad_input_raises_clear_errors(tmp_path):
    path = os.path.join(KURTOGRAM, "healthy.f64")
    common = dict(rate=RATE, sample_type="f64le")
    with pytest.raises(TypeError, match=r"shaft_speed=1797: give its unit, as shaft_speed='1797rpm'"):
        sonde.diagnose(path, shaft_speed=1797, bearing="6205", **common)
    with pytest.raises(TypeError, match="bearing"):
        sonde.diagnose(path, shaft_speed="25hz", bearing=["6205"], **common)
    with pytest.raises(TypeError, match="bearing: n=True"):
        sonde.diagnose(path, shaft_speed="25hz", bearing={"n": True}, **common)
    with pytest.raises(sonde.SondeError, match="bearing 'nope': not in the table"):
        sonde.diagnose(path, shaft_speed="25hz", bearing="nope", **common)
    with pytest.raises(sonde.SondeError, match="shaft speed '25': expected a positive number followed by rpm or hz"):
        sonde.diagnose(path, shaft_speed="25", bearing="6205", **common)
    with pytest.raises(sonde.SondeError, match=r"too short for 12 levels: it needs at least 524288"):
        sonde.diagnose(path, shaft_speed="25hz", bearing="6205", levels=12, **common)
    with pytest.raises(sonde.SondeError, match="no-such-file.f64"):
        sonde.diagnose(str(tmp_path / "no-such-file.f64"), shaft_speed="25hz", bearing="6205", rate=RATE)
    x = np.zeros(20000)
    with pytest.raises(ValueError, match="pass rate="):
        sonde.diagnose(x, shaft_speed="25hz", bearing="6205")
    with pytest.raises(ValueError, match="channels and sample_type describe a raw file"):
        sonde.diagnose(x, rate=RATE, channels=1, shaft_speed="25hz", bearing="6205")
    with pytest.raises(ValueError, match="expected real samples"):
        sonde.diagnose(x.astype(complex), rate=RATE, shaft_speed="25hz", bearing="6205")
    with pytest.raises(ValueError, match=r"expected \(n,\) or \(n, channels\)"):
        sonde.diagnose(np.zeros((2, 3, 4)), rate=RATE, shaft_speed="25hz", bearing="6205")
    # An array shorter than the kurtogram's deepest level: the binary's message.
    with pytest.raises(sonde.SondeError, match=r"2000 samples is too short for 6 levels: it needs at least 8192"):
        sonde.diagnose(np.random.default_rng(1).standard_normal(2000), rate=RATE, shaft_speed="25hz", bearing="6205")


def test_help_documents_every_keyword():
    import inspect

    doc = sonde.diagnose.__doc__
    for name in inspect.signature(sonde.diagnose).parameters:
        if name != "source":
            assert name in doc, name
