"""`import sonde` against the CLI it runs: every method's values equal `sonde process`'s CSV.

Run by `make test` against the wheel installed in a new venv (Tests/Wheel/check_wheel.py sets
SONDE_TEST_INSTALLED=1: the package is the installed one, the binary compared with is the
one it carries); from a checkout, `SONDE_BIN=.build/debug/sonde pytest python/tests` tests
python/ with that binary. Values are compared exactly: the
package reads the binary's Parquet, whose doubles are the ones the CSV prints in shortest
round-trip form, so `float(text) == value` bit for bit.
"""

from __future__ import annotations

import contextlib
import csv
import inspect
import io
import os
import pydoc
import re
import resource
import shutil
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.io.wavfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INSTALLED = os.environ.get("SONDE_TEST_INSTALLED") == "1"
# The package's source folder, when the tests run on it rather than on an installed wheel.
SOURCE = "" if INSTALLED else os.path.join(ROOT, "python")
if SOURCE:
    sys.path.insert(0, SOURCE)

import sonde  # noqa: E402
import sonde._cli  # noqa: E402

BINARY = sonde.find_binary() if INSTALLED else os.environ.get("SONDE_BIN", "")
SAMPLE_DATA = os.path.join(ROOT, "sample-data")
MOTOR = os.path.join(SAMPLE_DATA, "motor.wav")
PUMP = os.path.join(SAMPLE_DATA, "pump-vibration.csv")
BEARING = os.path.join(SAMPLE_DATA, "bearing.f32le")
OPTIONS = dict(features=["rms", "kurtosis"], window=1024, hop=512, filters=["highpass:10"], bands=[(0, 1000)])


@pytest.fixture(scope="session", autouse=True)
def binary_named():
    assert BINARY and os.access(BINARY, os.X_OK), "set SONDE_BIN to a built sonde (make test does)"
    if INSTALLED:
        # The wheel's package and binary, not the checkout's or one SONDE_BIN names.
        assert not os.path.abspath(sonde.__file__).startswith(ROOT + os.sep), sonde.__file__
        assert "SONDE_BIN" not in os.environ and BINARY == sonde._binary.BUNDLED, BINARY


def cli_records(*arguments: str) -> list[dict[str, str]]:
    output = subprocess.run([BINARY, "process", *arguments, "--quiet"], check=True, capture_output=True).stdout
    return list(csv.DictReader(io.StringIO(output.decode())))


def cli_options(measurer: sonde.Measurer) -> list[str]:
    return measurer.options()


def assert_same_values(frame: pd.DataFrame, records: list[dict[str, str]]) -> None:
    """Row by row, column by column, bit for bit; and the same file and channel order."""
    assert len(frame) == len(records)
    flat = frame.reset_index()
    # `rate` is the package's (files of different rates), not sonde's.
    value_columns = [name for name in frame.columns if name != "rate"]
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
    with pytest.warns(sonde.SondeWarning, match=r"different sample rates in one frame \(44100 Hz, 51200 Hz\)"):
        frame = measurer.process_files([PUMP, MOTOR], num_workers=2)
    assert frame.index.names == ["file", "channel", "start", "end"]
    assert frame.columns[0] == "rate" and set(frame["rate"].round()) == {44100.0, 51200.0}
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
    with pytest.warns(sonde.SondeWarning, match=r"different sample rates in one frame \(8000 Hz, 16000 Hz\)"):
        frame = sonde.Measurer(features=["rms"], window=1024, hop=512).process_folder(tmp_path)
    short = frame.xs("sub/short.wav", level="file")
    assert list(short["rate"]) == [8000.0]
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
    assert "make build" in str(raised.value) and "pip install dist/sonde-*.whl" in str(raised.value)
    monkeypatch.delenv("SONDE_BIN")
    monkeypatch.setattr(sonde._binary, "BUNDLED", str(tmp_path / "none-carried"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(sonde.SondeNotFound, match="no sonde binary on PATH and none in the package"):
        sonde.Measurer()


def executable_script(path, text: str = "#!/bin/sh\nexit 0\n") -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return str(path)


def test_find_binary_takes_sonde_bin_then_the_carried_one_then_path(monkeypatch, tmp_path):
    """The order `find_binary`'s docstring gives; in the installed run the carried binary
    is the wheel's, from a checkout there is none until one is put there."""
    named = executable_script(tmp_path / "named" / "sonde")
    carried = executable_script(tmp_path / "carried" / "sonde")
    on_path = executable_script(tmp_path / "path" / "sonde")
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    monkeypatch.setattr(sonde._binary, "BUNDLED", carried)
    monkeypatch.setenv("SONDE_BIN", named)
    assert sonde.find_binary() == named
    assert sonde.find_binary(on_path) == on_path  # sonde_bin= before all
    monkeypatch.delenv("SONDE_BIN")
    assert sonde.find_binary() == carried
    monkeypatch.setattr(sonde._binary, "BUNDLED", str(tmp_path / "none-carried"))
    assert sonde.find_binary() == on_path
    # A SONDE_BIN that names nothing raises rather than falls through to the carried one.
    monkeypatch.setattr(sonde._binary, "BUNDLED", carried)
    monkeypatch.setenv("SONDE_BIN", str(tmp_path / "missing"))
    with pytest.raises(sonde.SondeNotFound, match="SONDE_BIN is"):
        sonde.find_binary()


def test_the_console_script_execs_the_binary_with_its_arguments_and_status(monkeypatch, tmp_path):
    """`sonde` after `pip install` of the wheel is sonde._cli:main: the binary replaces the
    Python process, so its output and exit status are the binary's. Installed, the binary
    is the carried one; from a checkout, SONDE_BIN's."""
    code = "import sys; from sonde._cli import main; sys.argv = ['sonde', *sys.argv[1:]]; main()"
    environment = {k: v for k, v in os.environ.items() if k != "SONDE_BIN"}
    if not INSTALLED:
        environment["SONDE_BIN"] = BINARY
        environment["PYTHONPATH"] = SOURCE
    version = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True, env=environment)
    assert version.returncode == 0 and version.stdout.split()[:2] == ["sonde", sonde.__version__], version
    missing = str(tmp_path / "missing.wav")
    through_script = subprocess.run([sys.executable, "-c", code, "process", missing], capture_output=True, text=True, env=environment)
    direct = subprocess.run([BINARY, "process", missing], capture_output=True, text=True)
    assert through_script.returncode == direct.returncode != 0
    assert through_script.stderr == direct.stderr and missing in direct.stderr
    # No binary to run: says so, status 127 (the shell's "command not found").
    monkeypatch.delenv("SONDE_BIN", raising=False)
    monkeypatch.setattr(sonde._cli, "BUNDLED", str(tmp_path / "none-carried"))
    with pytest.raises(SystemExit) as exited:
        sonde._cli.main()
    assert exited.value.code == 127


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
        if {SOURCE!r}:  # the checkout's package; installed, the venv's
            sys.path.insert(0, {SOURCE!r})
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
        import importlib.metadata
        print(importlib.metadata.version("sonde"), sonde.__version__)
        """
    )
    environment = dict(os.environ, SONDE_BIN=BINARY)
    environment.pop("PYTHONPATH", None)
    output = subprocess.run([python, "-c", code], check=True, capture_output=True, cwd=tmp_path, env=environment)
    where, shapes, versions = output.stdout.decode().splitlines()
    installed, declared = versions.split()
    assert installed == declared == sonde.__version__, versions
    assert where.startswith(str(venv)), f"sonde imported from {where}, not the new environment"
    # 2 + 1 band + 40 mel + 13 MFCC columns (and `rate` for motor and pump together, of
    # different rates); motor 128 windows x 2 channels, pump 49 x 2, the folder 2 x 30
    # windows, the signal 49 x 2; 513 bins x 2 channels.
    assert shapes == "(256, 56) (354, 57) (60, 56) (98, 56) (513, 2)", shapes


# -- issue 43: process_folder's input options and keep_going, string bands and features,
# notes as warnings, mixed rates, docstrings, __version__ and feature_names().


@contextlib.contextmanager
def no_sonde_warnings():
    """A context in which any SondeWarning fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", sonde.SondeWarning)
        yield


def test_process_folder_passes_rate_channels_and_sample_type(tmp_path):
    # Raw .bin files are walked only with --sample-type, and need --rate and --channels.
    rng = np.random.default_rng(11)
    os.makedirs(tmp_path / "sub")
    for name in ["sub/b.bin", "a.bin"]:
        rng.standard_normal((6000, 2)).astype("<f4").tofile(str(tmp_path / name))
    measurer = sonde.Measurer(features=["rms", "kurtosis"], window=512)
    frame = measurer.process_folder(tmp_path, rate=25600, channels=2, sample_type="f32le", num_workers=2)
    assert list(frame.index.get_level_values("file").unique()) == ["a.bin", "sub/b.bin"]
    assert set(frame.index.get_level_values("channel")) == {"ch0", "ch1"}
    assert frame.attrs["rate"] == 25600 and "rate" not in frame.columns
    assert abs(frame.index.get_level_values("end")[0].value - 512 / 25600 * 1e9) <= 1
    cli = cli_records(str(tmp_path), "--rate", "25600", "--channels", "2", "--sample-type", "f32le", *cli_options(measurer))
    assert_same_values(frame, cli)
    with pytest.raises(sonde.SondeError, match="folder has no sample files"):
        measurer.process_folder(tmp_path)


def test_the_sample_data_folder_takes_keep_going_and_then_its_raw_file():
    """sample-data/ mixes a WAV, a CSV and a raw file whose rate only the caller knows: the
    folder fails on the raw file, keep_going=True measures the others and warns about it,
    and the raw file is measured on its own with its rate and channels."""
    measurer = sonde.Measurer(features="rms,kurtosis")
    with pytest.raises(sonde.SondeError) as raised:
        measurer.process_folder(SAMPLE_DATA)
    assert "bearing.f32le: raw samples carry no sample rate" in str(raised.value)
    assert "keep_going=True" in str(raised.value)

    with pytest.warns(sonde.SondeWarning) as caught:
        frame = measurer.process_folder(SAMPLE_DATA, keep_going=True)
    messages = [str(warning.message) for warning in caught]
    assert any(re.match(r"bearing\.f32le: skipped \(keep_going\): .*pass --rate", text) for text in messages), messages
    assert list(frame.attrs["failed"]) == ["bearing.f32le"]
    assert list(frame.index.get_level_values("file").unique()) == ["motor.wav", "pump-vibration.csv"]
    # Two rates in one frame: a rate column says which is whose.
    rates = frame["rate"].groupby(level="file").unique()
    assert list(rates["motor.wav"]) == [44100.0]
    assert [round(value) for value in rates["pump-vibration.csv"]] == [51200]
    assert list(frame.columns) == ["rate", "rms", "kurtosis"]
    alone = measurer.process_file(MOTOR)
    np.testing.assert_array_equal(frame.xs("motor.wav", level="file")["rms"].to_numpy(), alone["rms"].to_numpy())

    with no_sonde_warnings():
        bearing = measurer.process_file(BEARING, rate=25600, channels=2)
    assert bearing.attrs["rate"] == 25600
    assert sorted(set(bearing.index.get_level_values("channel"))) == ["ch0", "ch1"]
    assert len(bearing) == 2 * (25600 // 512 - 1)


def test_keep_going_gives_the_same_frame_when_nothing_fails(tmp_path):
    shutil.copy(MOTOR, tmp_path / "motor.wav")
    os.makedirs(tmp_path / "pumps")
    shutil.copy(PUMP, tmp_path / "pumps" / "pump.csv")
    measurer = sonde.Measurer(features=["rms", "peak"], bands="0-1000", window=2048)
    with pytest.warns(sonde.SondeWarning, match="different sample rates"):
        plain = measurer.process_folder(tmp_path)
    with pytest.warns(sonde.SondeWarning, match="different sample rates"):
        kept = measurer.process_folder(tmp_path, keep_going=True, num_workers=2)
    pd.testing.assert_frame_equal(kept, plain, check_exact=True)
    assert kept.attrs["failed"] == {}


def test_keep_going_when_every_file_fails_gives_an_empty_frame(tmp_path):
    (tmp_path / "one.f32").write_bytes(np.zeros(4096, dtype="<f4").tobytes())
    (tmp_path / "two.f32").write_bytes(np.zeros(4096, dtype="<f4").tobytes())
    with pytest.warns(sonde.SondeWarning) as caught:
        frame = sonde.Measurer(features=["rms", "peak"]).process_folder(tmp_path, keep_going=True)
    assert len(frame) == 0 and list(frame.columns) == ["rms", "peak"]
    assert sorted(frame.attrs["failed"]) == ["one.f32", "two.f32"]
    assert len([w for w in caught if "skipped (keep_going)" in str(w.message)]) == 2


def test_bands_and_features_take_the_clis_comma_separated_strings():
    as_strings = sonde.Measurer(features="rms,kurtosis", bands="0-1000,1000-4000")
    as_lists = sonde.Measurer(features=["rms", "kurtosis"], bands=[(0, 1000), "1000-4000"])
    assert as_strings.options() == as_lists.options()
    assert as_strings.options()[-4:] == ["--features", "rms,kurtosis", "--bands", "0-1000,1000-4000"]
    frame = sonde.Measurer(features="rms", bands="0-1000").process_file(MOTOR)
    assert list(frame.columns) == ["rms", "band_power:0-1000"]
    pd.testing.assert_frame_equal(frame, sonde.Measurer(features=["rms"], bands=[(0, 1000)]).process_file(MOTOR))
    # One filter as a string is that filter.
    assert sonde.Measurer(filters="highpass:10").options()[-2:] == ["--filter", "highpass:10"]


def test_bands_and_features_of_the_wrong_shape_raise_type_error():
    with pytest.raises(TypeError, match=r"one band, not a list of bands; write bands=\[\(0, 1000\)\]"):
        sonde.Measurer(bands=(0, 1000))
    with pytest.raises(TypeError, match="5 is not a band"):
        sonde.Measurer(bands=[5])
    with pytest.raises(TypeError, match="features: 1 is not a name"):
        sonde.Measurer(features=["rms", 1])


def test_a_clip_shorter_than_a_window_warns(tmp_path):
    path = tmp_path / "short.wav"
    write_wav(str(path), np.random.default_rng(4).standard_normal(500), 8000)
    with pytest.warns(sonde.SondeWarning, match=r"short\.wav: 500 samples per channel, fewer than one window of 1024"):
        frame = sonde.Measurer(features=["rms"]).process_file(path)
    assert len(frame) == 0
    # In a folder, with a clip that has records: the short one is named, the other measured.
    write_wav(str(tmp_path / "long.wav"), np.random.default_rng(5).standard_normal(4096), 8000)
    for keep_going in (False, True):
        with pytest.warns(sonde.SondeWarning, match=r"short\.wav: 500 samples per channel") as caught:
            frame = sonde.Measurer(features=["rms"]).process_folder(tmp_path, keep_going=keep_going)
        assert list(frame.index.get_level_values("file").unique()) == ["long.wav"]
        # The warning points at this file, not into the package.
        assert all(warning.filename == __file__ for warning in caught if warning.category is sonde.SondeWarning)


def test_files_of_one_rate_have_it_in_attrs_and_no_warning(tmp_path):
    for name in ["a.wav", "b.wav"]:
        write_wav(str(tmp_path / name), np.random.default_rng(6).standard_normal(4096), 8000)
    with no_sonde_warnings():
        frame = sonde.Measurer(features=["rms"]).process_files([tmp_path / "a.wav", tmp_path / "b.wav"])
    assert frame.attrs["rate"] == 8000 and list(frame.columns) == ["rms"]


def test_files_of_different_rates_get_a_rate_column_and_a_warning(tmp_path):
    write_wav(str(tmp_path / "slow.wav"), np.random.default_rng(8).standard_normal(4096), 8000)
    write_wav(str(tmp_path / "fast.wav"), np.random.default_rng(9).standard_normal(8192), 16000)
    paths = [str(tmp_path / "slow.wav"), str(tmp_path / "fast.wav")]
    with pytest.warns(sonde.SondeWarning, match=r"different sample rates in one frame \(8000 Hz, 16000 Hz\)"):
        frame = sonde.Measurer(features=["rms"]).process_files(paths)
    assert frame.attrs["rate"] is None
    assert list(frame.columns) == ["rate", "rms"]
    assert list(frame.xs(paths[0], level="file")["rate"].unique()) == [8000.0]
    assert list(frame.xs(paths[1], level="file")["rate"].unique()) == [16000.0]
    ends = frame.xs(paths[1], level="file").index.get_level_values("end")
    assert abs(ends[0].value - 1024 / 16000 * 1e9) <= 1
    with pytest.warns(sonde.SondeWarning, match="different sample rates"):
        polars_frame = sonde.Measurer(features=["rms"], backend="polars").process_files(paths)
    assert polars_frame.columns == ["file", "channel", "start", "end", "rate", "rms"]


def documented(function) -> list[str]:
    """The parameters of `function` its docstring does not name as `- name:` (or in a
    `- a, b, c:` line)."""
    text = inspect.getdoc(function) or ""
    named = set()
    for match in re.finditer(r"^\s*- ([\w, ]+):", text, flags=re.MULTILINE):
        named.update(name.strip() for name in match.group(1).split(","))
    parameters = [name for name in inspect.signature(function).parameters if name != "self"]
    return [name for name in parameters if name not in named]


def test_help_measurer_documents_every_keyword():
    text = pydoc.render_doc(sonde.Measurer, renderer=pydoc.plaintext)
    assert "Initialize self" not in text
    assert "keep_going" in text and "feature_names()" in text
    assert documented(sonde.Measurer.__init__) == []
    for method in ["process_file", "process_files", "process_folder"]:
        missing = documented(getattr(sonde.Measurer, method))
        assert missing in ([], ["path"], ["paths"], ["folder"]), (method, missing)
    assert documented(sonde.spectrum) == ["path"]


def test_version_is_the_binarys():
    assert re.fullmatch(r"\d+\.\d+\.\d+", sonde.__version__)
    output = subprocess.run([BINARY, "--version"], check=True, capture_output=True, text=True).stdout
    assert output.split()[:2] == ["sonde", sonde.__version__]


def test_feature_names_lists_what_features_takes():
    names = sonde.feature_names()
    assert {"rms", "kurtosis", "spectral_centroid", "thd", "spectral_flux", "level_a"} <= set(names)
    assert "default" not in names  # the CLI's name for the default set, not a feature
    assert len(names) == len(set(names)) > 20
    # The default set is the list's beginning, in its order; the optional ones follow.
    default = list(sonde.Measurer().process_file(MOTOR).columns)
    assert names[: len(default)] == default and len(names) > len(default)
    # Every name is one the binary accepts, and gives the column of that name; the bearing
    # columns need a shaft speed, a bearing and frames long enough for their lines.
    bearing = [name for name in names if name in ("bpfo_db", "bpfi_db", "bsf_db", "ftf_db")]
    assert bearing == ["bpfo_db", "bpfi_db", "bsf_db", "ftf_db"]
    plain = [name for name in names if name not in bearing]
    frame = sonde.Measurer(features=plain).process_file(MOTOR)
    assert list(frame.columns) == plain
    levels = sonde.Measurer(features=bearing, window=16384, shaft_speed="600hz", bearing="6205").process_file(MOTOR)
    assert list(levels.columns) == bearing and len(levels) > 0


def test_the_readme_says_how_to_reach_the_man_page(tmp_path):
    """`man sonde` after `make install PREFIX=...`: the README's two ways, tried with man-db
    on a prefix laid out as the Makefile's install-files target lays it out."""
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as file:
        makefile = file.read()
    assert "$(DESTDIR)$(PREFIX)/share/man/man1/sonde.1" in makefile
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as file:
        readme = " ".join(file.read().split())
    assert "`PREFIX/share/man/man1/sonde.1`" in readme
    assert "Only `make install` installs the man page (not `make build` or `pip install ./python`)" in readme
    assert "when `PREFIX/bin` is on `PATH`" in readme
    recipe = re.search(r"`(MANPATH=PREFIX/share/man: man sonde)`", readme)
    assert recipe, "the README names no MANPATH recipe"

    prefix = tmp_path / "prefix"
    os.makedirs(prefix / "bin")
    os.makedirs(prefix / "share" / "man" / "man1")
    shutil.copy(BINARY, prefix / "bin" / "sonde")
    (prefix / "share" / "man" / "man1" / "sonde.1").write_text(".TH SONDE 1\n.SH NAME\nsonde \\- measure\n")
    environment = {k: v for k, v in os.environ.items() if k not in ("MANPATH", "MANOPT")}
    environment.update(PATH="/usr/bin:/bin", MANPAGER="cat", PAGER="cat", MANWIDTH="80")
    page = str(prefix / "share" / "man" / "man1" / "sonde.1")

    def pages(**extra):
        found = subprocess.run(["man", "-w", "-a", "sonde"], capture_output=True, text=True, env=dict(environment, **extra))
        return found.stdout.split()

    assert page not in pages()
    assert page in pages(PATH=f"{prefix}/bin:/usr/bin:/bin")
    variable, command = recipe.group(1).split(" ", 1)
    name, value = variable.split("=", 1)
    assert name == "MANPATH" and value.endswith(":")
    value = value.replace("PREFIX", str(prefix))
    assert page in pages(MANPATH=value)
    shown = subprocess.run(command.split(), capture_output=True, text=True, env=dict(environment, MANPATH=value), timeout=60)
    assert shown.returncode == 0 and "sonde - measure" in shown.stdout, shown


def test_matlab_variables_read_as_channels_equal_the_arrays_scipy_reads():
    """A MAT file (the bearing benchmarks' format): `variables=` picks the arrays, each a
    channel named by its variable, measured exactly as the same arrays given as samples."""
    import scipy.io

    path = os.path.join(ROOT, "Tests", "Fixtures", "containers", "bearing.mat")
    measurer = sonde.Measurer(features=["rms", "kurtosis"], window=256, variables=["X105_DE_time", "X105_FE_time"])
    got = measurer.process_file(path, rate=12000)
    arrays = scipy.io.loadmat(path)
    signal = np.column_stack([arrays["X105_DE_time"][:, 0], arrays["X105_FE_time"][:, 0]])
    want = sonde.Measurer(features=["rms", "kurtosis"], window=256).process_signal(signal, 12000)
    assert sorted(set(got.index.get_level_values("channel"))) == ["X105_DE_time", "X105_FE_time"]
    np.testing.assert_array_equal(got[["rms", "kurtosis"]].to_numpy(), want[["rms", "kurtosis"]].to_numpy())
    assert "--variables X105_DE_time,X105_FE_time" in repr(measurer)
    with pytest.raises(TypeError, match="variables"):
        sonde.Measurer(variables=[1, 2])


# -- issue 50, item 3: per-file summaries, center=True, sonde.features().

STATISTICS = ["mean", "std", "min", "max", "median", "range", "p5", "p95", "p2.5"]


def numpy_statistic(values: np.ndarray, name: str) -> float:
    """Each statistic as `help(sonde.summarize)` defines it, on one feature's 1-D array."""
    named = {
        "mean": np.mean,
        "std": lambda x: np.std(x, ddof=0),
        "min": np.min,
        "max": np.max,
        "median": np.median,
        "range": lambda x: np.max(x) - np.min(x),
    }
    if name in named:
        return named[name](values)
    return np.percentile(values, float(name[1:]), method="linear")


def test_summary_is_numpys_statistics_of_each_files_and_channels_windows():
    options = dict(features=["rms", "kurtosis", "spectral_centroid"], bands="0-1000", window=512)
    with pytest.warns(sonde.SondeWarning, match="different sample rates"):
        frame = sonde.Measurer(**options).process_files([PUMP, MOTOR])
    with pytest.warns(sonde.SondeWarning, match="different sample rates"):
        summary = sonde.Measurer(**options, summary=STATISTICS).process_files([PUMP, MOTOR])
    # One row per file and channel, in the frame's order; the index keeps its levels.
    assert summary.index.names == ["file", "channel", "start", "end"]
    keys = [(PUMP, "accel_x"), (PUMP, "accel_y"), (MOTOR, "ch0"), (MOTOR, "ch1")]
    assert [key[:2] for key in summary.index] == keys
    features = ["rms", "kurtosis", "spectral_centroid", "band_power:0-1000"]
    assert list(summary.columns) == ["rate"] + [f"{f}_{s}" for f in features for s in STATISTICS]
    assert summary.attrs["rate"] is None and list(summary["rate"]) == list(frame["rate"].groupby(level=["file", "channel"], sort=False).first())
    for (file, channel, start, end), row in summary.iterrows():
        windows = frame.xs((file, channel), level=["file", "channel"])
        assert start == windows.index.get_level_values("start").min() == pd.Timedelta(0)
        assert end == windows.index.get_level_values("end").max()
        for feature in features:
            values = np.ascontiguousarray(windows[feature].to_numpy())
            for name in STATISTICS:
                want = numpy_statistic(values, name)
                assert row[f"{feature}_{name}"] == want, (file, channel, feature, name)
    # The same as summarizing the frame afterwards.
    pd.testing.assert_frame_equal(sonde.summarize(frame, STATISTICS), summary, check_exact=True)
    # p50 is the median; one file has no file level and its rate in attrs.
    with no_sonde_warnings():
        alone = sonde.Measurer(features=["rms"], summary="median,p50").process_file(MOTOR)
    assert alone.index.names == ["channel", "start", "end"] and alone.attrs["rate"] == 44100
    assert list(alone["rms_median"]) == list(alone["rms_p50"]) and list(alone.columns) == ["rms_median", "rms_p50"]


def test_summary_of_a_folder_with_keep_going_and_polars(tmp_path):
    for name, seed in [("b.wav", 1), ("a.wav", 2)]:
        write_wav(str(tmp_path / name), np.random.default_rng(seed).standard_normal(8192), 8000)
    (tmp_path / "bad.f32").write_bytes(bytes(4096))
    with pytest.warns(sonde.SondeWarning, match="bad.f32: skipped"):
        summary = sonde.Measurer(features=["rms", "peak"], summary=["mean", "p95"]).process_folder(tmp_path, keep_going=True)
    assert [key[:2] for key in summary.index] == [("a.wav", "ch0"), ("b.wav", "ch0")]
    assert list(summary.attrs["failed"]) == ["bad.f32"] and summary.attrs["rate"] == 8000
    frame = sonde.Measurer(features=["rms", "peak"]).process_folder(tmp_path / "a.wav")
    assert summary["rms_p95"].iloc[0] == np.percentile(frame["rms"].to_numpy(), 95)
    polars = sonde.Measurer(features=["rms", "peak"], summary=["mean", "p95"], backend="polars").process_files(
        [tmp_path / "a.wav", tmp_path / "b.wav"]
    )
    assert polars.columns == ["file", "channel", "start", "end", "rms_mean", "rms_p95", "peak_mean", "peak_p95"]
    assert polars["rms_p95"].to_list() == list(summary["rms_p95"])
    # Every file failing: an empty summary with the columns.
    for name in ["a.wav", "b.wav"]:
        os.remove(tmp_path / name)
    with pytest.warns(sonde.SondeWarning):
        empty = sonde.Measurer(features=["rms"], summary=["mean", "std"]).process_folder(tmp_path, keep_going=True)
    assert len(empty) == 0 and list(empty.columns) == ["rms_mean", "rms_std"]
    assert empty.index.names == ["file", "channel", "start", "end"]


def test_summary_refuses_unknown_statistics():
    for wrong in (["mean", "avg"], "p101", ["p5", "p5"], []):
        with pytest.raises(ValueError, match="summary"):
            sonde.Measurer(summary=wrong)
    with pytest.raises(TypeError, match="summary"):
        sonde.Measurer(summary=[95])
    assert "summary=['mean', 'p95']" in repr(sonde.Measurer(summary="mean,p95"))


@pytest.mark.parametrize("channels", [1, 2])
def test_center_pads_n_over_2_zeros_as_librosa_does(channels):
    import librosa

    rate, window, hop = 8000, 1024, 256
    signal = np.random.default_rng(12).standard_normal((10_001, channels))
    given = signal if channels > 1 else signal[:, 0]
    centred = sonde.Measurer(features=["rms", "kurtosis", "spectral_centroid"], window=window, hop=hop, center=True)
    plain = sonde.Measurer(features=["rms", "kurtosis", "spectral_centroid"], window=window, hop=hop)
    got = centred.process_signal(given, sampling_rate=rate)
    # The same as the signal padded by hand and measured as the CLI measures.
    padded = plain.process_signal(np.pad(given, [(window // 2, window // 2)] + [(0, 0)] * (given.ndim - 1)), sampling_rate=rate)
    np.testing.assert_array_equal(got.to_numpy(), padded.to_numpy())
    assert "center=True" in repr(centred)
    for channel in range(channels):
        ch = got.xs(f"ch{channel}", level="channel")
        # librosa's frame count, 1 + n // H, and frame t centred on sample t·H.
        assert len(ch) == 1 + len(signal) // hop
        starts, ends = ch.index.get_level_values("start"), ch.index.get_level_values("end")
        for t in range(len(ch)):
            assert abs((starts[t] + ends[t]).value / 2 - t * hop / rate * 1e9) <= 1
            assert abs(starts[t].value - (t * hop - window // 2) / rate * 1e9) <= 1
        want = librosa.feature.rms(y=signal[:, channel], frame_length=window, hop_length=hop, center=True, dtype=np.float64)[0]
        np.testing.assert_allclose(ch["rms"].to_numpy(), want, rtol=1e-12, atol=0)


def test_center_on_a_raw_file_equals_the_array_and_other_files_are_refused(tmp_path):
    rate = 25600
    samples = np.random.default_rng(13).standard_normal((5000, 2)).astype("<f4")
    path = tmp_path / "two.f32"
    samples.tofile(path)
    measurer = sonde.Measurer(features=["rms", "peak"], window=512, center=True)
    from_file = measurer.process_file(path, rate=rate, channels=2)
    pd.testing.assert_frame_equal(from_file, measurer.process_signal(samples, sampling_rate=rate), check_exact=True)
    # A partial last frame is dropped, as sonde drops it from the file itself.
    with open(path, "ab") as file:
        file.write(b"\0\0")
    with pytest.warns(sonde.SondeWarning, match=r"ignored a partial last frame \(2 of 8 bytes\)"):
        again = measurer.process_file(path, rate=rate, channels=2)
    pd.testing.assert_frame_equal(again, from_file, check_exact=True)
    with pytest.raises(ValueError, match="center=True.*process_signal"):
        measurer.process_file(MOTOR)
    with pytest.raises(ValueError, match="rate="):
        measurer.process_file(path)
    for method, argument in [("process_files", [path]), ("process_folder", tmp_path)]:
        with pytest.raises(ValueError, match=f"{method}: center=True"):
            getattr(measurer, method)(argument)


def features_page() -> dict[str, tuple[str, str, str]]:
    """docs/features.md's value columns: name -> (unit, section citation, heading anchor)."""
    columns, section, anchor = {}, None, None
    with open(os.path.join(ROOT, "docs", "features.md"), encoding="utf-8") as file:
        for line in file:
            heading = re.match(r"(#+)\s+(.*)", line)
            if heading:
                text = heading.group(2).strip()
                numbered = re.match(r"(\d+)\.", text)
                if heading.group(1) == "##":
                    section = int(numbered.group(1)) if numbered else None
                text = re.sub(r"[^\w\- ]", "", re.sub(r"[`*_]", "", text.lower()))
                anchor = text.replace(" ", "-")
            cells = re.match(r"\| `([^`]+)` \| ((?:[^|\\]|\\\|)+) \|", line)
            if cells and section in (4, 5, 7) and not cells.group(1).startswith("--"):
                unit = cells.group(2).strip().replace("\\|", "|")
                columns[cells.group(1)] = (unit, f"docs/features.md section {section}", f"docs/features.md#{anchor}")
    return columns


def test_features_lists_every_column_with_the_pages_unit_and_section():
    table = sonde.features()
    assert table.index.name == "name"
    assert list(table.columns) == ["unit", "default", "asked_for_by", "definition", "link"]
    page = features_page()
    assert list(table.index) == list(page), "sonde.features() and docs/features.md list different columns"
    for name, row in table.iterrows():
        assert (row["unit"], row["definition"], row["link"]) == page[name], name


def test_features_names_and_default_set_are_the_binarys():
    """The package's table against the binary it runs: a feature added to (or dropped
    from) `--features` fails here until python/sonde/_catalog.py has it."""
    table = sonde.features()
    named = [name for name, asked in table["asked_for_by"].items() if asked.startswith("features=")]
    assert named == sonde.feature_names()
    for name in named:
        assert table.loc[name, "asked_for_by"] == f"features=[{name!r}]"
    default = list(sonde.Measurer().process_file(MOTOR).columns)
    assert list(table.index[table["default"]]) == default
    # The patterned families: the columns the keyword gives match the pattern.
    frame = sonde.Measurer(features=["rms"], mel=4, mfcc=2, bands="0-1000,octave").process_file(MOTOR)
    patterns = {
        "mel_1 .. mel_M": r"mel_\d+",
        "mfcc_1 .. mfcc_C": r"mfcc_\d+",
        "band_power:LO-HI": r"band_power:[\d.]+-[\d.]+",
        "octave:NOMINAL": r"octave:[\d.]+",
    }
    for name, pattern in patterns.items():
        assert any(re.fullmatch(pattern, column) for column in frame.columns), name
    third = sonde.Measurer(features=["rms"], bands="third-octave").process_file(MOTOR)
    assert any(re.fullmatch(r"third_octave:[\d.]+", column) for column in third.columns)


def test_the_readmes_notebook_examples_run(monkeypatch):
    with open(os.path.join(ROOT, "python", "README.md"), encoding="utf-8") as file:
        readme = file.read()
    block = re.search(r"Notebook features \(run from the repository's root\):\n\n```python\n(.*?)```", readme, re.S)
    assert block, "python/README.md has no notebook block"
    monkeypatch.chdir(ROOT)
    code = block.group(1)
    # Each bare expression line must hold (the ones that compare) or at least run.
    namespace: dict = {}
    for line in code.splitlines():
        statement = line.split("  #")[0].rstrip()
        if not statement:
            continue
        if re.match(r"^(import |\w+ = )", statement):
            exec(statement, namespace)
        else:
            value = eval(statement, namespace)
            if " == " in statement:
                assert value is True, statement
