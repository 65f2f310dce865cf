"""Finding and running the sonde binary: the one place that starts a process."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
from typing import Iterable, Optional, Sequence


class SondeError(RuntimeError):
    """The binary refused the work: `message` is its one-line error (file, line, column)."""

    def __init__(self, message: str, returncode: int, stderr: str = ""):
        super().__init__(message)
        self.message = message
        self.returncode = returncode
        self.stderr = stderr


class SondeNotFound(FileNotFoundError):
    """No sonde binary on PATH and none named by SONDE_BIN."""


HOW_TO_GET_ONE = (
    "build it in the sonde repository with `make build` and put .build/release/sonde on PATH, "
    "or set SONDE_BIN to its path"
)


def find_binary(explicit: Optional[str] = None) -> str:
    """The binary to run: `explicit`, else $SONDE_BIN, else `sonde` on PATH."""
    named = explicit or os.environ.get("SONDE_BIN")
    if named:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return named
        source = "sonde_bin" if explicit else "SONDE_BIN"
        raise SondeNotFound(f"{source} is {named!r}, which is not an executable file; {HOW_TO_GET_ONE}")
    found = shutil.which("sonde")
    if found is None:
        raise SondeNotFound(f"no sonde binary on PATH; {HOW_TO_GET_ONE}")
    return found


def error_line(stderr: str) -> str:
    """The line that says what went wrong: sonde's `error: ...`, argument-parser's `Error: ...`."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.lower().startswith("error:"):
            return line.split(":", 1)[1].strip()
    return lines[-1] if lines else "no message"


def run(binary: str, arguments: Sequence[str], stdin_chunks: Optional[Iterable[bytes]] = None) -> bytes:
    """Runs sonde and returns its standard output.

    Standard input, when given, is written chunk by chunk from a thread while standard
    output is read, so neither side waits on a full pipe and the input is never copied whole.
    """
    process = subprocess.Popen(
        [binary, *arguments],
        stdin=subprocess.PIPE if stdin_chunks is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
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
    output = process.stdout.read()
    process.wait()
    reader.join()
    if writer is not None:
        writer.join()
    stderr = b"".join(errors).decode("utf-8", "replace")
    if process.returncode < 0:
        name = signal.Signals(-process.returncode).name
        raise SondeError(f"sonde was killed by {name}", process.returncode, stderr)
    if process.returncode != 0:
        raise SondeError(error_line(stderr), process.returncode, stderr)
    return output
