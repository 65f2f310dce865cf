"""`import sonde` against the CLI it runs: every method's values equal `sonde process`'s CSV.

Run by `make test` (SONDE_BIN names the debug binary). Values are compared exactly: the
package reads the binary's Parquet, whose doubles are the ones the CSV prints in shortest
round-trip form, so `float(text) == value` bit for bit.
"""

from __future__ import annotations

import csv
import io
import os
import resource
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
import scipy.io.wavfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import sonde  # noqa: E402

BINARY = os.environ.get("SONDE_BIN", "")
MOTOR = os.path.join(ROOT, "sample-data", "motor.wav")
PUMP = os.path.join(ROOT, "sample-data", "pump-vibration.csv")
OPTIONS = dict(features=["rms", "kurtosis"], window=1024, hop=512, filters=["highpass:10"], bands=[(0, 1000)])


@pytest.fixture(scope="session", autouse=True)
def binary_named():
    assert BINARY and os.access(BINARY, os.X_OK), "set SONDE_BIN to a built sonde (make test does)"


def cli_records(*arguments: str) -> list[dict[str, str]]:
    output = subprocess.run([BINARY, "process", *arguments, "--quiet"], check=True, capture_output=True).stdout
    return list(csv.DictReader(io.StringIO(output.decode())))


def cli_options(measurer: sonde.Measurer) -> list[str]:
    return measurer.options()


def assert_same_values(frame: pd.DataFrame, records: list[dict[str, str]]) -> None:
    """Row by row, column by column, bit for bit; and the same file and channel order."""
    assert len(frame) == len(records)
    flat = frame.reset_index()
    value_columns = [name for name in frame.columns]
    expected_values = [name for name in records[0] if name not in ("file", "time", "channel", "frame", "start")]
    assert value_columns == expected_values
    for row, record in zip(flat.to_dict("records"), records):
        assert row["channel"] == record["channel"]
        if "file" in record:
            assert row["file"] == record["file"]
        for name in value_columns:
            got, want = row[name], float(record[name])
            assert (got == want) or (np.isnan(got) and np.isnan(want)), f"{name}: {got!r} != {want!r}"


def test_process_file_equals_the_cli():
    measurer = sonde.Measurer(**OPTIONS, mel=40, mfcc=13)
    frame = measurer.process_file(MOTOR)
    assert frame.index.names == ["channel", "start", "end"]
    assert "mel_40" in frame.columns and "mfcc_13" in frame.columns
    assert_same_values(frame, cli_records(MOTOR, *cli_options(measurer)))


def test_process_files_has_a_file_index_in_argument_order():
    measurer = sonde.Measurer(**OPTIONS)
    frame = measurer.process_files([PUMP, MOTOR], num_workers=2)
    assert frame.index.names == ["file", "channel", "start", "end"]
    assert list(frame.index.get_level_values("file").unique()) == [PUMP, MOTOR]
    assert_same_values(frame, cli_records(PUMP, MOTOR, *cli_options(measurer)))


def test_process_files_with_one_path_still_names_it():
    frame = sonde.Measurer(features=["rms"]).process_files([MOTOR])
    assert set(frame.index.get_level_values("file")) == {MOTOR}


def write_wav(path: str, samples: np.ndarray, rate: int) -> None:
    scipy.io.wavfile.write(path, rate, samples)


def test_process_folder_walks_in_sondes_order(tmp_path):
    rng = np.random.default_rng(7)
    for name in ["b/two.wav", "a.wav", "b/one.wav"]:
        os.makedirs(os.path.dirname(tmp_path / name), exist_ok=True)
        write_wav(str(tmp_path / name), rng.standard_normal(5000), 8000)
    measurer = sonde.Measurer(features=["rms", "peak"], window=256)
    frame = measurer.process_folder(tmp_path)
    files = list(frame.index.get_level_values("file").unique())
    assert files == ["a.wav", "b/one.wav", "b/two.wav"]
    assert_same_values(frame, cli_records(str(tmp_path), *cli_options(measurer)))


@pytest.mark.parametrize("channels", [1, 3])
def test_process_signal_equals_process_file_of_the_same_samples(tmp_path, channels):
    rate = 25600
    rng = np.random.default_rng(channels)
    samples = rng.standard_normal((rate * 2, channels))
    path = str(tmp_path / "signal.wav")
    write_wav(path, samples if channels > 1 else samples[:, 0], rate)
    measurer = sonde.Measurer(**OPTIONS)
    from_signal = measurer.process_signal(samples if channels > 1 else samples[:, 0], sampling_rate=rate)
    from_file = measurer.process_file(path)
    assert from_signal.shape[0] == from_file.shape[0] > 0
    # WAV channels are ch0..; raw standard input's are ch0.. too.
    pd.testing.assert_frame_equal(from_signal, from_file, check_exact=True)


def test_a_folders_input_of_one_window_gets_its_rate_from_sonde(tmp_path):
    # The records name it relative to the folder; sonde is asked about the file itself.
    os.makedirs(tmp_path / "sub")
    write_wav(str(tmp_path / "sub" / "short.wav"), np.random.default_rng(2).standard_normal(1100), 8000)
    write_wav(str(tmp_path / "long.wav"), np.random.default_rng(3).standard_normal(9000), 16000)
    frame = sonde.Measurer(features=["rms"], window=1024, hop=512).process_folder(tmp_path)
    short = frame.xs("sub/short.wav", level="file")
    assert len(short) == 1
    assert abs(short.index.get_level_values("end")[0].value - 1024 / 8000 * 1e9) <= 1
    long = frame.xs("long.wav", level="file")
    starts, ends = long.index.get_level_values("start"), long.index.get_level_values("end")
    for k in range(len(long)):
        assert abs(starts[k].value - k * 512 / 16000 * 1e9) <= 1
        assert abs(ends[k].value - (k * 512 + 1024) / 16000 * 1e9) <= 1


def test_process_signal_refuses_complex_samples():
    with pytest.raises(ValueError, match="expected real samples"):
        sonde.Measurer(features=["rms"]).process_signal(np.zeros(5000, dtype=complex), sampling_rate=1000)


def test_process_signal_float32_streams_as_f32():
    samples = np.random.default_rng(3).standard_normal(20000).astype(np.float32)
    frame = sonde.Measurer(features=["rms"], window=1024).process_signal(samples, sampling_rate=1000)
    first = samples[:1024].astype(np.float64)
    assert frame["rms"].iloc[0] == pytest.approx(np.sqrt(np.mean(first**2)), rel=1e-12)


def test_start_and_end_are_the_windows_times():
    rate, window, hop = 44100, 1024, 512
    frame = sonde.Measurer(features=["rms"], window=window, hop=hop).process_file(MOTOR)
    ch0 = frame.xs("ch0", level="channel")
    starts = ch0.index.get_level_values("start")
    ends = ch0.index.get_level_values("end")
    for k in [0, 1, len(ch0) - 1]:
        assert abs(starts[k].value - k * hop / rate * 1e9) <= 1
        assert abs((ends[k] - starts[k]).value - window / rate * 1e9) <= 1


def test_an_input_of_one_window_gets_its_rate_from_sonde(tmp_path):
    path = str(tmp_path / "short.wav")
    write_wav(path, np.random.default_rng(1).standard_normal(1100), 8000)
    frame = sonde.Measurer(features=["rms"], window=1024).process_file(path)
    assert len(frame) == 1
    end = frame.index.get_level_values("end")[0]
    assert abs(end.value - 1024 / 8000 * 1e9) <= 1


def test_polars_backend_has_the_same_values():
    import polars

    measurer = sonde.Measurer(features=["rms", "kurtosis"], backend="polars")
    frame = measurer.process_file(MOTOR)
    assert isinstance(frame, polars.DataFrame)
    assert frame.columns == ["channel", "start", "end", "rms", "kurtosis"]
    pandas_frame = sonde.Measurer(features=["rms", "kurtosis"]).process_file(MOTOR)
    assert frame["rms"].to_list() == pandas_frame["rms"].to_list()


def test_spectrum_equals_the_cli():
    spectrum = sonde.spectrum(MOTOR, window=2048)
    output = subprocess.run([BINARY, "spectrum", MOTOR, "--window", "2048"], check=True, capture_output=True).stdout
    rows = list(csv.DictReader(io.StringIO(output.decode())))
    assert list(spectrum.columns) == ["ch0", "ch1"] and spectrum.index.name == "frequency"
    assert len(spectrum) == len(rows) == 1025
    for (frequency, values), row in zip(spectrum.iterrows(), rows):
        assert frequency == float(row["frequency"])
        assert values["ch0"] == float(row["ch0"]) and values["ch1"] == float(row["ch1"])


def test_a_missing_file_raises_the_binarys_message():
    with pytest.raises(sonde.SondeError) as raised:
        sonde.Measurer().process_file("no-such-recording.wav")
    assert raised.value.returncode == 1
    assert str(raised.value).startswith("no-such-recording.wav: no such file")


def test_a_bad_cell_names_its_line_and_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("time,x\n0,1\n0.001,2\n0.002,abc\n")
    with pytest.raises(sonde.SondeError) as raised:
        sonde.Measurer(window=16).process_file(path)
    assert "line 4" in str(raised.value) and "column 2" in str(raised.value)


def test_a_bad_option_names_it():
    with pytest.raises(sonde.SondeError) as raised:
        sonde.Measurer(window=1000).process_file(MOTOR)
    assert raised.value.returncode != 0
    assert str(raised.value).startswith("--window 1000: expected a power of two")


def test_no_binary_says_how_to_get_one(monkeypatch, tmp_path):
    monkeypatch.setenv("SONDE_BIN", str(tmp_path / "missing"))
    with pytest.raises(sonde.SondeNotFound) as raised:
        sonde.Measurer()
    assert "make build" in str(raised.value)
    monkeypatch.delenv("SONDE_BIN")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(sonde.SondeNotFound, match="no sonde binary on PATH"):
        sonde.Measurer()


def test_a_killed_binary_says_so(tmp_path):
    script = tmp_path / "sonde"
    script.write_text("#!/bin/sh\nkill -9 $$\n")
    script.chmod(0o755)
    with pytest.raises(sonde.SondeError, match="killed by SIGKILL"):
        sonde.Measurer(sonde_bin=str(script)).process_file(MOTOR)


def test_process_signal_memory_stays_bounded():
    """A minute of 51.2 kHz x 4 channels (49 MB of float32) costs far less than a copy of it."""
    code = textwrap.dedent(
        f"""
        import resource, sys, numpy as np
        sys.path.insert(0, {os.path.join(ROOT, "python")!r})
        import sonde
        x = np.random.default_rng(0).standard_normal((51200 * 60, 4)).astype(np.float32)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        frame = sonde.Measurer(features=["rms"], window=4096).process_signal(x, sampling_rate=51200)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(len(frame), (after - before) * 1024, x.nbytes)
        """
    )
    output = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, env=os.environ).stdout
    records, growth, array_bytes = map(int, output.split())
    assert records == 4 * (51200 * 60 // 2048 - 1)
    # The result is about 3,000 rows; a copy of the array would add 49 MB.
    assert growth < array_bytes / 4, f"peak memory grew {growth} bytes for a {array_bytes}-byte array"


def test_pip_install_in_a_new_environment_then_the_five_calls(tmp_path):
    """Exactly what the README says: `pip install ./python` into a new venv, then the five calls."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", os.path.join(ROOT, "python")],
        check=True,
    )
    rng = np.random.default_rng(5)
    folder = tmp_path / "DATA"
    folder.mkdir()
    for name in ["one.wav", "two.wav"]:
        write_wav(str(folder / name), rng.standard_normal(16000), 16000)
    code = textwrap.dedent(
        f"""
        import numpy as np, sonde
        m = sonde.Measurer(features=["rms", "kurtosis"], window=1024, hop=512,
                           filters=["highpass:10"], bands=[(0, 1000)], mel=40, mfcc=13)
        a = m.process_file({MOTOR!r})
        b = m.process_files([{MOTOR!r}, {PUMP!r}], num_workers=2)
        c = m.process_folder({str(folder)!r})
        d = m.process_signal(np.random.default_rng(1).standard_normal((25600, 2)), sampling_rate=25600)
        spec = sonde.spectrum({MOTOR!r})
        print(sonde.__file__)
        print(a.shape, b.shape, c.shape, d.shape, spec.shape)
        """
    )
    environment = dict(os.environ, SONDE_BIN=BINARY)
    environment.pop("PYTHONPATH", None)
    output = subprocess.run([python, "-c", code], check=True, capture_output=True, cwd=tmp_path, env=environment)
    where, shapes = output.stdout.decode().splitlines()
    assert where.startswith(str(venv)), f"sonde imported from {where}, not the new environment"
    # 2 + 1 band + 40 mel + 13 MFCC columns; motor 128 windows x 2 channels, pump 49 x 2,
    # the folder 2 x 30 windows, the signal 49 x 2; 513 bins x 2 channels.
    assert shapes == "(256, 56) (354, 56) (60, 56) (98, 56) (513, 2)", shapes
