"""sonde's measurements as DataFrames.

    import sonde
    m = sonde.Measurer(features=["rms", "kurtosis"], window=1024, hop=512)
    df = m.process_file("motor.wav")
    spec = sonde.spectrum("motor.wav")

The `sonde` binary (on PATH, or named by SONDE_BIN) does the work and writes Parquet;
this package reads it with pyarrow, so every value is the binary's, bit for bit.
"""

from __future__ import annotations

import io
import os
from typing import Optional, Sequence, Union

import pyarrow.csv as pacsv

from ._binary import SondeError, SondeNotFound, find_binary, run
from ._measurer import Measurer

__all__ = ["Measurer", "SondeError", "SondeNotFound", "find_binary", "spectrum"]


def spectrum(
    path: Union[str, os.PathLike],
    window: int = 1024,
    hop: Optional[int] = None,
    filters: Sequence[str] = (),
    rate: Optional[float] = None,
    channels: Optional[int] = None,
    sample_type: Optional[str] = None,
    sonde_bin: Optional[str] = None,
):
    """The Welch power spectrum of a file (`sonde spectrum`): indexed by `frequency` in Hz,
    one column per channel in units²/Hz."""
    arguments = ["spectrum", os.fspath(path), "--window", str(window), "--quiet"]
    if hop is not None:
        arguments += ["--hop", str(hop)]
    for spec in filters:
        arguments += ["--filter", spec]
    if rate is not None:
        arguments += ["--rate", repr(float(rate))]
    if channels is not None:
        arguments += ["--channels", str(channels)]
    if sample_type is not None:
        arguments += ["--sample-type", sample_type]
    output = run(find_binary(sonde_bin), arguments)
    frame = pacsv.read_csv(io.BytesIO(output)).to_pandas()
    return frame.set_index("frequency")
