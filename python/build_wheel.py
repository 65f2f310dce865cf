"""Builds the platform wheel that carries a sonde binary (issue 50): `make wheel` runs it on
the release binary, then `auditwheel repair` bundles the shared libraries and gives the
wheel its manylinux tag; `make test` runs both on the debug binary to check the packaging.

    python build_wheel.py --binary .build/release/sonde --out DIR

writes DIR/sonde-VERSION-py3-none-linux_<machine>.whl: the package's modules, the binary
stripped as `sonde/_bin/sonde`, and the metadata pyproject.toml declares (name, summary,
dependencies, extras) and the `sonde` console script. The wheel is written here, with the
standard library only, rather than by setuptools: setuptools makes a pure-Python wheel of
a package without extension modules, and its build would need PyPI for its own
build-system requirements; the format is five files (PEP 427, PEP 566, PEP 376).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import platform
import re
import subprocess
import sys
import tempfile
import tomllib
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "sonde"
# Where the binary goes in the package; sonde/_binary.py's BUNDLED names the same path.
BINARY_PATH = f"{PACKAGE}/_bin/sonde"


def version() -> str:
    with open(os.path.join(HERE, PACKAGE, "__init__.py"), encoding="utf-8") as file:
        found = re.search(r'^__version__ = "([^"]+)"$', file.read(), re.M)
    if not found:
        sys.exit("sonde/__init__.py has no __version__ line")
    return found.group(1)


def metadata(project: dict, release: str) -> str:
    """PEP 566 METADATA from pyproject.toml's [project] table."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {release}",
        f"Summary: {project['description']}",
        f"License: {project['license']['text']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {requirement}; extra == "{extra}"' for requirement in requirements]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(HERE, project["readme"]), encoding="utf-8") as file:
        readme = file.read()
    return "\n".join(lines) + "\n\n" + readme


# `sonde` on the command line; only the wheel declares it (pyproject.toml does not), since
# `pip install ./python` carries no binary for it to run.
ENTRY_POINTS = "[console_scripts]\nsonde = sonde._cli:main\n"


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def stripped(binary: str) -> bytes:
    """The binary without symbols or debug sections (the debug build's 155 MB are mostly
    DWARF); a copy: the build's own binary keeps them."""
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "sonde")
        subprocess.run(["strip", "--strip-all", "-o", target, binary], check=True)
        with open(target, "rb") as file:
            return file.read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the sonde binary to carry")
    parser.add_argument("--out", required=True, help="the folder to write the wheel in")
    arguments = parser.parse_args()
    if not (os.path.isfile(arguments.binary) and os.access(arguments.binary, os.X_OK)):
        sys.exit(f"{arguments.binary}: not an executable file (make build, or WHEEL_BINARY=...)")

    with open(os.path.join(HERE, "pyproject.toml"), "rb") as file:
        project = tomllib.load(file)["project"]
    release = version()
    name = project["name"]
    # linux_<machine>: auditwheel repair replaces it with the manylinux tag the files earn.
    tag = f"py3-none-linux_{platform.machine()}"
    dist_info = f"{name}-{release}.dist-info"

    files: list[tuple[str, bytes, int]] = []
    for folder, subfolders, names in os.walk(os.path.join(HERE, PACKAGE)):
        subfolders[:] = sorted(entry for entry in subfolders if entry != "__pycache__")
        for entry in sorted(names):
            if entry.endswith(".py"):
                path = os.path.join(folder, entry)
                with open(path, "rb") as file:
                    files.append((os.path.relpath(path, HERE).replace(os.sep, "/"), file.read(), 0o644))
    files.append((BINARY_PATH, stripped(arguments.binary), 0o755))
    files.append((f"{dist_info}/METADATA", metadata(project, release).encode(), 0o644))
    wheel = f"Wheel-Version: 1.0\nGenerator: sonde build_wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n"
    files.append((f"{dist_info}/WHEEL", wheel.encode(), 0o644))
    files.append((f"{dist_info}/entry_points.txt", ENTRY_POINTS.encode(), 0o644))
    files.append((f"{dist_info}/top_level.txt", f"{PACKAGE}\n".encode(), 0o644))
    record = [record_line(path, data) for path, data, _ in files] + [f"{dist_info}/RECORD,,"]
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))

    os.makedirs(arguments.out, exist_ok=True)
    target = os.path.join(arguments.out, f"{name}-{release}-{tag}.whl")
    # Stored, not compressed: `auditwheel repair` writes the wheel again, compressed.
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        for path, data, mode in files:
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            archive.writestr(info, data)
    print(target)


if __name__ == "__main__":
    main()
