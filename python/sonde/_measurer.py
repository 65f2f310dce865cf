"""`sonde.Measurer`: the options of `sonde process` once, then files, folders or arrays."""

from __future__ import annotations

import io
import os
from typing import Iterable, Iterator, Optional, Sequence, Union

import numpy as np
import pyarrow.csv as pacsv

from . import _binary, _frames

Band = Union[str, Sequence[float]]

# Rows of a signal written to sonde's standard input at a time: about 1 MiB for 4 channels.
CHUNK_FRAMES = 32768


def _band_text(band: Band) -> str:
    if isinstance(band, str):
        return band
    low, high = band
    return f"{low:g}-{high:g}"


class Measurer:
    """What `sonde process` measures, with its option names spelled as keywords.

    Every method runs the binary once and returns one DataFrame, indexed by `file` (for
    several inputs), `channel`, `start` and `end`, with one column per feature.
    """

    def __init__(
        self,
        features: Optional[Sequence[str]] = None,
        window: int = 1024,
        hop: Optional[int] = None,
        filters: Sequence[str] = (),
        bands: Sequence[Band] = (),
        mel: Optional[int] = None,
        mfcc: Optional[int] = None,
        backend: str = "pandas",
        sonde_bin: Optional[str] = None,
    ):
        if isinstance(features, str) or isinstance(filters, str):
            raise TypeError("features and filters are lists of names, e.g. features=['rms']")
        if backend not in ("pandas", "polars"):
            raise ValueError(f"backend {backend!r}: expected 'pandas' or 'polars'")
        self.features = list(features) if features is not None else None
        self.window = int(window)
        self.hop = hop
        self.filters = list(filters)
        self.bands = [_band_text(band) for band in bands]
        self.mel = mel
        self.mfcc = mfcc
        self.backend = backend
        self.binary = _binary.find_binary(sonde_bin)

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
        return arguments

    def process_file(
        self,
        path: Union[str, os.PathLike],
        rate: Optional[float] = None,
        channels: Optional[int] = None,
        sample_type: Optional[str] = None,
    ):
        """One sample file (CSV, WAV, FLAC, AIFF, Ogg or raw with `sample_type`)."""
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
        so there is no limit on their number."""
        names = [os.fspath(path) for path in paths]
        if not names:
            raise ValueError("process_files: no paths")
        arguments = self._input_options(rate, channels, sample_type) + self._jobs(num_workers)
        listing = b"".join(os.fsencode(name) + b"\0" for name in names)
        return self._run(
            ["--files-from", "-", "--null"], arguments, rate, names[0] if len(names) == 1 else None, [listing]
        )

    def process_folder(self, folder: Union[str, os.PathLike], num_workers: Optional[int] = None):
        """Every sample file under `folder`, recursively, in sonde's order (bytes of the names)."""
        return self._run([os.fspath(folder)], self._jobs(num_workers), None, None, folder=os.fspath(folder))

    def process_signal(self, signal, sampling_rate: float, num_workers: Optional[int] = None):
        """A numpy array of shape (n,) or (n, channels), streamed through standard input.

        float32 arrays go as f32, everything else as f64, a chunk at a time: memory beyond
        the array and the result stays about one chunk.
        """
        array = np.asarray(signal)
        if array.ndim == 1:
            array = array[:, np.newaxis]
        if array.ndim != 2 or array.shape[1] == 0:
            raise ValueError(f"signal of shape {np.shape(signal)}: expected (n,) or (n, channels)")
        if np.iscomplexobj(array):
            # numpy would drop the imaginary parts with only a warning.
            raise ValueError(f"signal of {array.dtype}: expected real samples (take np.real or np.abs first)")
        sample_type = "f32le" if array.dtype == np.float32 else "f64le"
        dtype = np.dtype("<f4") if sample_type == "f32le" else np.dtype("<f8")

        def chunks() -> Iterator[bytes]:
            for first in range(0, array.shape[0], CHUNK_FRAMES):
                yield np.ascontiguousarray(array[first : first + CHUNK_FRAMES], dtype=dtype).tobytes()

        arguments = ["--rate", repr(float(sampling_rate)), "--channels", str(array.shape[1])]
        arguments += ["--sample-type", sample_type] + self._jobs(num_workers)
        return self._run(["-"], arguments, float(sampling_rate), None, chunks())

    # -- the run

    def _run(self, inputs, arguments, rate, file_name, stdin_chunks=None, folder=None):
        """- Parameter folder: the folder the records' `file` names are relative to."""
        command = ["process", *inputs, *self.options(), *arguments, "--format", "parquet", "--compression", "none", "--quiet", "-o", "-"]
        table = _frames.read_records(_binary.run(self.binary, command, stdin_chunks, to_file=True))

        def rate_of(name):
            # An input too short for two windows: its rate from the spectrum's bin spacing.
            if name is None:
                target = inputs[0]
            else:
                target = os.path.join(folder, name) if folder is not None else name
            return file_rate(self.binary, target, self.window, arguments)

        return _frames.to_frame(table, self.window, rate, rate_of, file_name, self.backend)

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
