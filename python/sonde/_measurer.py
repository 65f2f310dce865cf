"""`sonde.Measurer`: the options of `sonde process` once, then files, folders or arrays."""

from __future__ import annotations

import io
import json
import os
import tempfile
from typing import Iterable, Iterator, Optional, Sequence, Union

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from . import _binary, _frames, _summary

Band = Union[str, Sequence[float]]

# Raw sample types by file extension (sonde's own list, SampleSources.extensions), and
# their sizes in bytes: for center=True on raw files.
RAW_EXTENSIONS = {
    "f32": "f32le", "f32le": "f32le", "f64": "f64le", "f64le": "f64le",
    "i16": "i16le", "i16le": "i16le", "s16": "i16le", "i32": "i32le", "i32le": "i32le",
}
RAW_SIZES = {"f32le": 4, "f64le": 8, "i16le": 2, "i32le": 4}

# Rows of a signal written to sonde's standard input at a time: about 1 MiB for 4 channels.
CHUNK_FRAMES = 32768


def _names(value, keyword: str) -> Optional[list[str]]:
    """`features`: a list of names, or the CLI's spelling, one string "rms,kurtosis"."""
    if value is None:
        return None
    if isinstance(value, str):
        return [name.strip() for name in value.split(",") if name.strip()]
    names = list(value)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{keyword}: {name!r} is not a name; expected e.g. {keyword}=['rms', 'kurtosis'] or 'rms,kurtosis'")
    return names


def _bands(bands) -> list[str]:
    """`bands`: a list of (low, high) pairs or "LO-HI" strings, or the CLI's spelling, one
    string "0-1000,1000-4000" (also "octave", "third-octave")."""
    if isinstance(bands, str):
        return [band.strip() for band in bands.split(",") if band.strip()]
    items = list(bands)
    if len(items) == 2 and all(isinstance(edge, (int, float, np.number)) for edge in items):
        low, high = items
        raise TypeError(
            f"bands={tuple(bands)!r} is one band, not a list of bands; write bands=[({low!r}, {high!r})] or bands='{low:g}-{high:g}'"
        )
    return [_band_text(band) for band in items]


def _band_text(band: Band) -> str:
    if isinstance(band, str):
        return band
    try:
        low, high = band
    except (TypeError, ValueError):
        raise TypeError(f"bands: {band!r} is not a band; expected a (low, high) pair in Hz or a string 'LO-HI'") from None
    return f"{low:g}-{high:g}"


class Measurer:
    """What `sonde process` measures, with its option names spelled as keywords.

    Every method runs the binary once and returns one DataFrame, indexed by `file` (for
    several inputs), `channel`, `start` and `end`, with one column per feature (the names
    `sonde.feature_names()` lists, in the order asked for).

        m = sonde.Measurer(features="rms,kurtosis", window=2048, bands="0-1000,1000-4000")
        df = m.process_folder("DATA", keep_going=True)

    - The sample rate: pandas' `df.attrs["rate"]` (Hz) when every file has the same; when
      the files' rates differ, a `rate` column gives each row's (and `attrs["rate"]` is
      None), with a `SondeWarning`.
    - What sonde notes on standard error (an input shorter than one window gives no
      records; an input skipped by `keep_going=True`) arrives as a `sonde.SondeWarning`.
    - An error raises `sonde.SondeError` with the binary's one-line message.
    - `summary=["mean", "std", "p95"]`: one row per file and channel instead of the
      windows (`help(sonde.summarize)`); `center=True`: librosa's framing, N/2 zeros at
      both ends (arrays and raw files).
    """

    def __init__(
        self,
        features: Union[None, str, Sequence[str]] = None,
        window: int = 1024,
        hop: Optional[int] = None,
        filters: Union[str, Sequence[str]] = (),
        bands: Union[str, Sequence[Band]] = (),
        mel: Optional[int] = None,
        mfcc: Optional[int] = None,
        backend: str = "pandas",
        sonde_bin: Optional[str] = None,
        variables: Union[None, str, Sequence[str]] = None,
        rate_variable: Optional[str] = None,
        rate_attribute: Optional[str] = None,
        orientation: Optional[str] = None,
        summary: Union[None, str, Sequence[str]] = None,
        center: bool = False,
        shaft_speed: Optional[str] = None,
        bearing: Optional[str] = None,
    ):
        """The settings every method uses (`sonde process --help` says more about each).

        - features: the features to compute, in this order: a list of names
          (`["rms", "kurtosis"]`) or the CLI's comma-separated string (`"rms,kurtosis"`);
          None (the default) computes every default feature. `sonde.feature_names()` lists
          the names.
        - window: samples per window, a power of two (default 1024).
        - hop: samples between window starts (default: the binary's, half the window).
        - filters: filter specs applied before measuring, in order, e.g.
          `["highpass:10", "notch:50"]`; one string is one filter (`"highpass:10"`).
          Specs: lowpass:F[:ORDER], highpass:F[:ORDER], bandpass:F1-F2[:ORDER],
          bandstop:F1-F2[:ORDER], notch:F[:Q], dc.
        - bands: band powers to add, in Hz: a list of (low, high) pairs or "LO-HI" strings
          (`[(0, 1000), "1000-4000"]`), or the CLI's comma-separated string
          (`"0-1000,1000-4000"`); "octave" and "third-octave" add IEC 61260-1 band levels.
        - mel: add this many mel-band energies (columns mel_1 ... mel_M).
        - mfcc: add this many MFCCs (columns mfcc_1 ... mfcc_C).
        - backend: "pandas" (default) or "polars" (a polars DataFrame, the index levels as
          its first columns).
        - sonde_bin: the binary to run; default as `sonde.find_binary()`: $SONDE_BIN, else the one
          the wheel carries, else `sonde` on PATH.
        - variables: for MATLAB, HDF5 and TDMS files, the arrays to read as channels: MAT
          variables (`"X105_DE_time"`, `"bearing.gs"`, `"Y(7).Data"`), HDF5 datasets
          (`"/group/dataset"`) or TDMS channels (`"group/channel"`), a list or the CLI's
          comma-separated string; None: every numeric array of the file's most common length
          (a `SondeWarning` names them). `sonde info FILE` lists a file's arrays.
        - rate_variable: a MAT file's scalar holding the rate in Hz (`"bearing.sr"`).
        - rate_attribute: an HDF5 file's attribute holding the rate in Hz (`"sample_rate"`).
        - orientation: how a MAT or HDF5 matrix holds channels: "auto" (samples along the
          longer dimension), "samples-by-channels" or "channels-by-samples".
        - summary: statistics to return instead of the windows: one row per file and
          channel, columns `<feature>_<statistic>` (`rms_mean`, `rms_p95`), the shape of
          opensmile-python's functionals. A list or a comma-separated string of "mean",
          "std" (population, ddof=0), "min", "max", "median", "range" and "pN" (p5, p95:
          numpy.percentile, method "linear"); `help(sonde.summarize)` defines each.
        - center: frame as librosa does by default (`center=True`): the signal is padded
          with N/2 zeros at both ends, so window t is centred on sample t·H and there are
          1 + n // H windows; `start` is then t·H - N/2 samples (negative for the first
          windows) and `end` start + N. The CLI does not pad (docs/features.md section 3):
          this is the package's option, not sonde's. The zeros go in before the filters,
          so the leading ones change nothing (the filters start at rest) and the trailing
          ones carry the filters' ringing. For `process_signal`, and for `process_file` of
          raw samples (`sample_type`, or a .f32, .f64, .i16, .i32 name), whose bytes are
          streamed through sonde's standard input between the zeros; other files raise
          ValueError (read them, e.g. with soundfile, and pass the array).
        - shaft_speed, bearing: for the bearing columns `bpfo_db`, `bpfi_db`, `bsf_db`,
          `ftf_db` (docs/features.md section 7), both required with any of them: the speed as
          "1797rpm" or "29.95hz", the bearing as `sonde diagnose` takes it ("6205",
          "bpfo=3.5848,bpfi=5.4152,bsf=2.357,ftf=0.3983" or "n=9,d=7.94mm,D=39.04mm,angle=0").

        Raises TypeError for a value of the wrong shape, ValueError for an unknown backend,
        `sonde.SondeNotFound` when there is no binary. The binary checks the values
        themselves when a method runs (`sonde.SondeError`).
        """
        if backend not in ("pandas", "polars"):
            raise ValueError(f"backend {backend!r}: expected 'pandas' or 'polars'")
        self.features = _names(features, "features")
        self.window = int(window)
        self.hop = hop
        self.filters = [filters] if isinstance(filters, str) else list(filters)
        self.bands = _bands(bands)
        self.mel = mel
        self.mfcc = mfcc
        self.backend = backend
        self.variables = _names(variables, "variables")
        self.rate_variable = rate_variable
        self.rate_attribute = rate_attribute
        self.orientation = orientation
        self.summary = None if summary is None else _summary.statistics(summary)
        self.center = bool(center)
        self.shaft_speed = shaft_speed
        self.bearing = bearing
        self.binary = _binary.find_binary(sonde_bin)

    def __repr__(self) -> str:
        """The `sonde process` options these settings spell."""
        extra = ([f"summary={self.summary!r}"] if self.summary else []) + (["center=True"] if self.center else [])
        return f"sonde.Measurer({' '.join(self.options() + extra)})"

    def options(self) -> list[str]:
        """The `sonde process` options these settings spell."""
        arguments = ["--window", str(self.window)]
        if self.hop is not None:
            arguments += ["--hop", str(self.hop)]
        if self.features is not None:
            arguments += ["--features", ",".join(self.features)]
        for spec in self.filters:
            arguments += ["--filter", spec]
        if self.bands:
            arguments += ["--bands", ",".join(self.bands)]
        if self.mel is not None:
            arguments += ["--mel", str(self.mel)]
        if self.mfcc is not None:
            arguments += ["--mfcc", str(self.mfcc)]
        if self.shaft_speed is not None:
            arguments += ["--shaft-speed", self.shaft_speed]
        if self.bearing is not None:
            arguments += ["--bearing", self.bearing]
        if self.variables is not None:
            arguments += ["--variables", ",".join(self.variables)]
        if self.rate_variable is not None:
            arguments += ["--rate-variable", self.rate_variable]
        if self.rate_attribute is not None:
            arguments += ["--rate-attribute", self.rate_attribute]
        if self.orientation is not None:
            arguments += ["--orientation", self.orientation]
        return arguments

    def process_file(
        self,
        path: Union[str, os.PathLike],
        rate: Optional[float] = None,
        channels: Optional[int] = None,
        sample_type: Optional[str] = None,
    ):
        """One sample file (CSV, WAV, FLAC, AIFF, Ogg, MP3, or raw samples).

        - rate: the sample rate in Hz; overrides the file's own (a WAV header, a CSV time
          column). Raw samples (.f32le, .f64, .i16, ..., or `sample_type`) need it.
        - channels: channels interleaved in raw samples (default 1).
        - sample_type: read the file as raw interleaved samples of this type, one of
          "f32le", "f64le", "i16le", "i32le" (needed for a name like .raw or .bin).
        """
        if self.center:
            return self._centred_raw_file(os.fspath(path), rate, channels, sample_type)
        return self._run([os.fspath(path)], self._input_options(rate, channels, sample_type), rate, None)

    def process_files(
        self,
        paths: Iterable[Union[str, os.PathLike]],
        num_workers: Optional[int] = None,
        rate: Optional[float] = None,
        channels: Optional[int] = None,
        sample_type: Optional[str] = None,
    ):
        """Many files in one run, in the order given; the paths go through `--files-from`,
        so there is no limit on their number.

        - num_workers: inputs worked on at once (`--jobs`; default: the binary's).
        - rate, channels, sample_type: as for `process_file`, applied to every file.
        """
        self._refuse_center("process_files")
        names = [os.fspath(path) for path in paths]
        if not names:
            raise ValueError("process_files: no paths")
        arguments = self._input_options(rate, channels, sample_type) + self._jobs(num_workers)
        listing = b"".join(os.fsencode(name) + b"\0" for name in names)
        return self._run(
            ["--files-from", "-", "--null"], arguments, rate, names[0] if len(names) == 1 else None, [listing]
        )

    def process_folder(
        self,
        folder: Union[str, os.PathLike],
        num_workers: Optional[int] = None,
        rate: Optional[float] = None,
        channels: Optional[int] = None,
        sample_type: Optional[str] = None,
        keep_going: bool = False,
    ):
        """Every sample file under `folder`, recursively, in sonde's order (bytes of the
        names); the `file` level holds each file's path relative to `folder`.

        - num_workers: inputs worked on at once (`--jobs`; default: the binary's).
        - rate: the sample rate in Hz of every file: it overrides each file's own (a WAV
          header, a CSV time column), so give it for a folder of raw files (.f32le, ...)
          of one rate, not for a folder that mixes raw files with WAV or CSV files.
        - channels: channels interleaved in the raw files (default 1).
        - sample_type: read every file as raw samples of this type ("f32le", "f64le",
          "i16le", "i32le"); the walk then also takes .raw, .bin and .pcm files.
        - keep_going: measure the other files when one fails (`--keep-going`): each
          failure is a `SondeWarning` naming the file and the binary's message, and pandas'
          `df.attrs["failed"]` maps each failed file to that message. Without it, the first
          failure raises `SondeError`.

        A folder that mixes kinds, like the repository's sample-data/ (a WAV, a CSV and a
        raw `bearing.f32le` at 25 600 Hz, 2 channels), takes two calls: the folder with
        `keep_going=True` (the raw file is reported and skipped), then the raw file with
        `process_file(path, rate=25600, channels=2)`.
        """
        self._refuse_center("process_folder")
        folder = os.fspath(folder)
        arguments = self._input_options(rate, channels, sample_type) + self._jobs(num_workers)
        if keep_going:
            return self._run_keep_going(folder, arguments, rate)
        try:
            return self._run([folder], arguments, rate, None, folder=folder)
        except _binary.SondeError as error:
            if error.message.startswith(os.path.join(folder, "")):
                # One file's failure: say how to measure the others.
                error.args = (f"{error.message} (keep_going=True measures the other files)",)
            raise

    def process_signal(self, signal, sampling_rate: float, num_workers: Optional[int] = None):
        """A numpy array of shape (n,) or (n, channels), streamed through standard input.

        float32 arrays go as f32, everything else as f64, a chunk at a time: memory beyond
        the array and the result stays about one chunk. With `center=True` the N/2 zeros
        at each end are written as chunks of their own (no padded copy of the array).
        """
        array, sample_type = samples(signal)
        padding = self._padding() * array.shape[1]

        arguments = ["--rate", repr(float(sampling_rate)), "--channels", str(array.shape[1])]
        arguments += ["--sample-type", sample_type] + self._jobs(num_workers)
        return self._run(["-"], arguments, float(sampling_rate), None, chunks(array, sample_type, padding))

    # -- center=True

    def _padding(self) -> int:
        """Zero samples (per channel) before and after the signal: N/2 when centred."""
        return self.window // 2 if self.center else 0

    def _refuse_center(self, method: str) -> None:
        if self.center:
            raise ValueError(
                f"{method}: center=True pads each signal, which the package can do for arrays (process_signal) "
                "and raw sample files (process_file); measure each file with process_file, or read it and "
                "pass the array to process_signal"
            )

    def _centred_raw_file(self, path, rate, channels, sample_type):
        """A raw file streamed through sonde's standard input between N/2 zero frames: all
        bytes zero are the sample 0 in every raw type."""
        kind = sample_type or RAW_EXTENSIONS.get(os.path.splitext(path)[1].lstrip(".").lower())
        if kind is None:
            raise ValueError(
                f"{path}: center=True pads the samples, which the package can do for raw sample files "
                "(sample_type=, or a .f32, .f64, .i16, .i32 name) and arrays; read this file (soundfile.read, "
                "scipy.io.wavfile.read, ...) and pass the array to process_signal"
            )
        if rate is None:
            raise ValueError(f"{path}: raw samples carry no sample rate; pass rate=")
        if kind not in RAW_SIZES:
            raise ValueError(f"sample_type {kind!r}: expected one of {', '.join(RAW_SIZES)}")
        width = RAW_SIZES[kind] * (1 if channels is None else int(channels))
        if not os.path.isfile(path):
            raise _binary.SondeError(f"{path}: no such file", 1)
        padding = bytes(self._padding() * width)
        size = os.path.getsize(path)
        whole = size - size % width
        if whole < size:
            # As sonde does with the file itself; the padding must start on a frame.
            _binary.warn(f"{path}: ignored a partial last frame ({size - whole} of {width} bytes)")

        def chunks() -> Iterator[bytes]:
            yield padding
            with open(path, "rb") as file:
                left = whole
                while left > 0:
                    chunk = file.read(min(left, 1 << 20))
                    if not chunk:
                        break
                    left -= len(chunk)
                    yield chunk
            yield padding

        arguments = self._input_options(rate, channels, kind)
        return self._run(["-"], arguments, float(rate), None, chunks())

    # -- the run

    def _run(self, inputs, arguments, rate, file_name, stdin_chunks=None, folder=None):
        """- Parameter folder: the folder the records' `file` names are relative to."""
        command = ["process", *inputs, *self.options(), *arguments, "--format", "parquet", "--compression", "none", "-o", "-"]
        table = _frames.read_records(_binary.run(self.binary, command, stdin_chunks, to_file=True))
        frame = _frames.to_frame(
            table, self.window, rate, self._rate_of(inputs, arguments, folder), file_name, self._frame_backend(), self._padding()
        )
        return self._finish(frame)

    def _frame_backend(self) -> str:
        # A summary is computed on the pandas frame, then converted.
        return "pandas" if self.summary else self.backend

    def _finish(self, frame):
        if not self.summary:
            return frame
        summary = _summary.summarize(frame, self.summary)
        if self.backend == "polars":
            import polars as pl

            return pl.from_pandas(summary.reset_index())
        return summary

    def _rate_of(self, inputs, arguments, folder):
        def rate_of(name):
            # An input too short for two windows: its rate from the spectrum's bin spacing.
            if name is None:
                target = inputs[0]
            else:
                target = os.path.join(folder, name) if folder is not None else name
            return file_rate(self.binary, target, self.window, arguments)

        return rate_of

    def _run_keep_going(self, folder, arguments, rate):
        """`--keep-going` works on a dataset run (`--output-dir`): one Parquet file per
        input in a temporary folder, and a manifest saying how each input ended. They are
        read back in the dataset's order and joined; failures become warnings."""
        with tempfile.TemporaryDirectory(prefix="sonde-keep-going-") as out:
            command = ["process", folder, *self.options(), *arguments, "--format", "parquet", "--compression", "none"]
            command += ["--output-dir", out, "--keep-going"]
            # Exit status 2: some inputs failed, the others' outputs are complete.
            _binary.run(self.binary, command, statuses=(0, 2))
            manifest = _read_manifest(os.path.join(out, "manifest.jsonl"))
            tables, failed = [], {}
            for entry in manifest["inputs"]:
                result = manifest["results"].get(entry["index"], {})
                if result.get("status") == "ok":
                    output = result.get("output") or entry["output"]
                    with open(os.path.join(out, output), "rb") as file:
                        tables.append(_frames.read_records(file.read()))
                else:
                    failed[entry["input"]] = result.get("error", "no result recorded")
        for name, message in failed.items():
            _binary.warn(f"{name}: skipped (keep_going): {message}")
        if tables:
            table = pa.concat_tables(tables)
        else:
            table = _empty_records(manifest["run"]["settings"]["columns"])
        frame = _frames.to_frame(
            table, self.window, rate, self._rate_of([folder], arguments, folder), None, self._frame_backend()
        )
        if self._frame_backend() == "pandas":
            frame.attrs["failed"] = failed
        return self._finish(frame)

    @staticmethod
    def _input_options(rate, channels, sample_type) -> list[str]:
        arguments = []
        if rate is not None:
            arguments += ["--rate", repr(float(rate))]
        if channels is not None:
            arguments += ["--channels", str(int(channels))]
        if sample_type is not None:
            arguments += ["--sample-type", sample_type]
        return arguments

    @staticmethod
    def _jobs(num_workers) -> list[str]:
        return ["--jobs", str(int(num_workers))] if num_workers is not None else []


def samples(signal) -> tuple[np.ndarray, str]:
    """A signal as a 2-D array (n, channels) and the raw type it streams as: float32 as
    "f32le", everything else as "f64le". Raises ValueError for another shape or complex samples."""
    array = np.asarray(signal)
    if array.ndim == 1:
        array = array[:, np.newaxis]
    if array.ndim != 2 or array.shape[1] == 0:
        raise ValueError(f"signal of shape {np.shape(signal)}: expected (n,) or (n, channels)")
    if np.iscomplexobj(array):
        # numpy would drop the imaginary parts with only a warning.
        raise ValueError(f"signal of {array.dtype}: expected real samples (take np.real or np.abs first)")
    return array, "f32le" if array.dtype == np.float32 else "f64le"


def chunks(array: np.ndarray, sample_type: str, padding: int = 0) -> Iterator[bytes]:
    """The array's bytes for sonde's standard input, CHUNK_FRAMES rows at a time (no copy of
    the whole array), between `padding` zero samples (of all channels together) at each end."""
    dtype = np.dtype("<f4") if sample_type == "f32le" else np.dtype("<f8")
    zeros = bytes(padding * dtype.itemsize)
    yield zeros
    for first in range(0, array.shape[0], CHUNK_FRAMES):
        yield np.ascontiguousarray(array[first : first + CHUNK_FRAMES], dtype=dtype).tobytes()
    yield zeros


def file_rate(binary: str, path: str, window: int, arguments: Sequence[str]) -> float:
    """A file's sample rate as sonde reads it: bin 1 of its spectrum is rate / N."""
    keep = [a for a in arguments if a in ("--rate", "--channels", "--sample-type")]
    passed = []
    for flag in keep:
        at = list(arguments).index(flag)
        passed += [flag, arguments[at + 1]]
    output = _binary.run(binary, ["spectrum", path, "--window", "16", "--quiet", *passed])
    table = pacsv.read_csv(io.BytesIO(output))
    return float(table.column("frequency")[1].as_py()) * 16


def _read_manifest(path: str) -> dict:
    """A fresh dataset run's manifest: its run line, its inputs in dataset order, and
    each input's last result by index."""
    run, inputs, results = None, [], {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            if not line.strip():
                continue
            entry = json.loads(line)
            kind = entry.get("type")
            if kind == "run":
                run = entry
            elif kind == "input":
                inputs.append(entry)
            elif kind == "result":
                results[entry["index"]] = entry
    inputs.sort(key=lambda entry: entry["index"])
    return {"run": run, "inputs": inputs, "results": results}


def _empty_records(columns: Sequence[str]) -> pa.Table:
    """No input gave records: a table with the record columns and the settings' values."""
    fields = [("file", pa.string()), ("time", pa.float64()), ("channel", pa.string()), ("start", pa.int64())]
    fields += [(name, pa.float64()) for name in columns]
    return pa.schema(fields).empty_table()
