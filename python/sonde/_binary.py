"""Finding and running the sonde binary: the one place that starts a process."""

from __future__ import annotations

import mmap
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import warnings
from typing import Iterable, Optional, Sequence, Union


class SondeError(RuntimeError):
    """The binary refused the work: `message` is its one-line error (file, line, column)."""

    def __init__(self, message: str, returncode: int, stderr: str = ""):
        super().__init__(message)
        self.message = message
        self.returncode = returncode
        self.stderr = stderr


class SondeNotFound(FileNotFoundError):
    """No sonde binary: none named by SONDE_BIN, none in the package, none on PATH."""


class SondeWarning(UserWarning):
    """What the binary notes on standard error (`note: ...`) while the work goes on: an input
    shorter than one window (no records), an input skipped by `keep_going=True`, files of
    different sample rates in one frame. Filter it like any warning:
    `warnings.simplefilter("error", sonde.SondeWarning)` makes each one an exception."""


PACKAGE_FOLDER = os.path.dirname(os.path.abspath(__file__))


def warn(message: str) -> None:
    """Warns with `SondeWarning`, attributed to the first caller outside this package."""
    frame, level = sys._getframe(0), 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == PACKAGE_FOLDER:
        frame, level = frame.f_back, level + 1
    warnings.warn(message, SondeWarning, stacklevel=level)


def notes(stderr: str) -> list[str]:
    """The binary's `note: ...` lines, without the prefix."""
    return [line[len("note:") :].strip() for line in stderr.splitlines() if line.startswith("note:")]


HOW_TO_GET_ONE = (
    "install the wheel, which carries one (`make wheel` in the sonde repository, then "
    "`pip install dist/sonde-*.whl`), or build it there with `make build` and put "
    ".build/release/sonde on PATH or set SONDE_BIN to its path"
)

# The binary a wheel carries (python/build_wheel.py puts it there; `pip install ./python`
# installs none). Its shared libraries are in sonde.libs beside the package, found through
# the binary's RUNPATH, which auditwheel set.
BUNDLED = os.path.join(PACKAGE_FOLDER, "_bin", "sonde")


def executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_binary(explicit: Optional[str] = None) -> str:
    """The binary to run, the first of:

    1. `explicit` (a call's `sonde_bin=`);
    2. $SONDE_BIN: set on purpose (a build being tried, a test), so it wins over what the
       package carries; a SONDE_BIN that names no executable file raises rather than falls
       through, as `explicit` does;
    3. the binary the wheel carries (`sonde/_bin/sonde`): the release this package was
       built with, its values the ones the package's version promises;
    4. `sonde` on PATH, for `pip install ./python` from the repository, which carries none.

    Issue 50 put PATH and SONDE_BIN after the carried binary; with that order SONDE_BIN
    could never choose another build once the wheel is installed, so the variable comes
    first and PATH, which nobody sets for sonde's sake, last.
    """
    named = explicit or os.environ.get("SONDE_BIN")
    if named:
        if executable(named):
            return named
        source = "sonde_bin" if explicit else "SONDE_BIN"
        raise SondeNotFound(f"{source} is {named!r}, which is not an executable file; {HOW_TO_GET_ONE}")
    if executable(BUNDLED):
        return BUNDLED
    found = shutil.which("sonde")
    if found is None:
        raise SondeNotFound(f"no sonde binary on PATH and none in the package; {HOW_TO_GET_ONE}")
    return found


def error_line(stderr: str) -> str:
    """The line that says what went wrong: sonde's `error: ...`, argument-parser's `Error: ...`."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.lower().startswith("error:"):
            return line.split(":", 1)[1].strip()
    return lines[-1] if lines else "no message"


def run(
    binary: str,
    arguments: Sequence[str],
    stdin_chunks: Optional[Iterable[bytes]] = None,
    to_file: bool = False,
    statuses: Sequence[int] = (0,),
) -> Union[bytes, mmap.mmap]:
    """Runs sonde and returns its standard output; each `note:` line it writes on standard
    error becomes a `SondeWarning` (run it without --quiet for them). An exit status
    outside `statuses` raises `SondeError`.

    Standard input, when given, is written chunk by chunk from a thread while standard
    output is read, so neither side waits on a full pipe and the input is never copied whole.
    With `to_file`, standard output is an unnamed temporary file (in TMPDIR, gone when
    the result is), returned memory-mapped: no pipe and no copies on the way (60 MB of
    Parquet over 2,000 clips took 0.06-0.07 s more through a pipe, a sixth of the run).
    """
    output_file = tempfile.TemporaryFile() if to_file else None
    process = subprocess.Popen(
        [binary, *arguments],
        stdin=subprocess.PIPE if stdin_chunks is not None else subprocess.DEVNULL,
        stdout=output_file if output_file is not None else subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    errors: list[bytes] = []
    reader = threading.Thread(target=lambda: errors.append(process.stderr.read()), daemon=True)
    reader.start()
    writer = None
    if stdin_chunks is not None:

        def feed() -> None:
            try:
                for chunk in stdin_chunks:
                    process.stdin.write(chunk)
                process.stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass  # sonde stopped reading: its exit status says why

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
    output = process.stdout.read() if output_file is None else b""
    process.wait()
    reader.join()
    if writer is not None:
        writer.join()
    # Closed here, not when collected (a ResourceWarning each).
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()
    stderr = b"".join(errors).decode("utf-8", "replace")
    if process.returncode not in statuses and output_file is not None:
        output_file.close()
    if process.returncode < 0:
        name = signal.Signals(-process.returncode).name
        raise SondeError(f"sonde was killed by {name}", process.returncode, stderr)
    if process.returncode not in statuses:
        message = error_line(stderr)
        if output_file is not None and "standard output" in message:
            message += f" (the temporary file for sonde's output, in {tempfile.gettempdir()}; set TMPDIR to a folder with room)"
        raise SondeError(message, process.returncode, stderr)
    for note in notes(stderr):
        warn(note)
    if output_file is not None:
        with output_file:
            size = os.fstat(output_file.fileno()).st_size
            # The mapping outlives the file's descriptor; an empty file cannot be mapped.
            return mmap.mmap(output_file.fileno(), size, access=mmap.ACCESS_READ) if size > 0 else b""
    return output
