"""HDF5 fixtures for sonde's HDF5 reader (issue 45), and what h5py reads from them, for the
Swift tests to match bit for bit. Deterministic (no object times, fixed data):
    .build/test-venv/bin/python Tests/Fixtures/hdf5/generate_hdf5.py

signals.h5: a root attribute sample_rate, and under /vibration 1-D datasets of every numeric
type (contiguous, chunked, gzip, big-endian), a 2-D samples x channels dataset (chunked,
gzip) and its channels x samples transpose, scalars; under /meta what sonde lists but refuses
(strings, a compound, h5py's complex and bool, a scalar, an empty and a 3-D dataset); groups
with their own sample_rate (25600, 0, NaN) for the rate's errors.
Expected values: expected/<dataset path with / as __>.f64, each column of h5py's 2-D array (in
order) as raw little-endian f64 (numpy.asarray(x, dtype='<f8')); signals.expected.tsv lists
path, type, shape and values file.
Bad files: bad_truncated.h5 (cut inside the data), bad_signature.h5 (the signature overwritten),
bad_superblock.h5 (the superblock's addresses overwritten).
"""
import os
import shutil

import h5py
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
expected_root = os.path.join(here, "expected")
N = 100
rng = np.random.default_rng(4545)


def ints(dtype):
    info = np.iinfo(dtype)
    values = rng.integers(info.min, info.max, size=N, dtype=dtype, endpoint=True)
    values[:4] = [info.min, info.max, 0, 1 if info.min == 0 else -1]
    return values


data = {
    "float64": rng.standard_normal(N),
    "float32": rng.standard_normal(N).astype(np.float32),
    "int8": ints(np.int8),
    "int16": ints(np.int16),
    "int32": ints(np.int32),
    "int64": ints(np.int64),
    "uint8": ints(np.uint8),
    "uint16": ints(np.uint16),
    "uint32": ints(np.uint32),
    "uint64": ints(np.uint64),
}
# 64-bit integers a Double rounds, and the floats' special values.
data["int64"][4:8] = [2**53 + 1, 2**62 + 2**9 + 1, -(2**63) + 1025, 2**63 - 1024]
data["uint64"][4:8] = [2**53 + 3, 2**63 + 1025, 2**64 - 1025, 2**64 - 2048]
data["float64"][4:8] = [np.inf, -np.inf, np.nan, -0.0]
data["float32"][4:8] = [np.inf, -np.inf, np.nan, -0.0]
matrix = rng.standard_normal((N, 3))

path = os.path.join(here, "signals.h5")
with h5py.File(path, "w", libver="earliest", track_order=False) as f:
    f.attrs["sample_rate"] = 12000.0
    f.attrs["title"] = "issue 45 fixture"
    v = f.create_group("vibration")
    v.attrs["sample_rate"] = np.int32(25600)
    for name, values in data.items():
        # Every other type chunked (16 samples), some of those compressed.
        kwargs = {}
        if name in ("float32", "int16", "int64", "uint64"):
            kwargs = {"chunks": (16,), "compression": "gzip", "shuffle": True}
        elif name in ("int8", "uint32"):
            kwargs = {"chunks": (7,)}
        d = v.create_dataset(name, data=values, track_times=False, **kwargs)
        d.attrs["units"] = "g"
    v.create_dataset("float64_be", data=data["float64"].astype(">f8"), track_times=False)
    v.create_dataset("int32_be", data=data["int32"].astype(">i4"), track_times=False)
    v.create_dataset("matrix", data=matrix, chunks=(16, 2), compression="gzip", track_times=False)
    v.create_dataset("matrix_t", data=matrix.T.copy(), track_times=False)
    v.create_dataset("short", data=np.arange(10.0), track_times=False)
    m = f.create_group("meta")
    m.create_dataset("names", data=np.array([b"a", b"b"]), track_times=False)
    m.create_dataset("label", data="bearing", track_times=False)
    m.create_dataset(
        "table", data=np.zeros(4, dtype=[("t", "<f8"), ("v", "<i4")]), track_times=False
    )
    m.create_dataset("complex", data=np.arange(4) * (1 + 1j), track_times=False)
    m.create_dataset("flags", data=np.arange(4) % 2 == 0, track_times=False)
    m.create_dataset("fs", data=48000.0, track_times=False)
    m.create_dataset("empty", shape=(0,), dtype="<f8", track_times=False)
    m.create_dataset("cube", data=np.zeros((2, 3, 4)), track_times=False)
    z = f.create_group("zero_rate")
    z.attrs["sample_rate"] = 0.0
    z.create_dataset("x", data=np.arange(5.0), track_times=False)
    n = f.create_group("nan_rate")
    n.attrs["sample_rate"] = np.nan
    n.create_dataset("x", data=np.arange(5.0), track_times=False)

if os.path.isdir(expected_root):
    shutil.rmtree(expected_root)
os.makedirs(expected_root)
lines = ["# path\ttype\tshape\tvalues file (- when not numeric)"]
with h5py.File(path, "r") as f:
    def visit(name, obj):
        if not isinstance(obj, h5py.Dataset):
            return
        values = "-"
        kind = obj.dtype.kind
        if kind in "iuf" and obj.ndim in (1, 2) and obj.size:
            values = name.replace("/", "__") + ".f64"
            a = np.asarray(obj[()], dtype="<f8")
            with open(os.path.join(expected_root, values), "wb") as out:
                out.write(a.tobytes(order="F"))
        lines.append("\t".join(["/" + name, str(obj.dtype), "x".join(map(str, obj.shape)) or "scalar", values]))
    f.visititems(visit)
with open(os.path.join(here, "signals.expected.tsv"), "w") as out:
    out.write("\n".join(lines) + "\n")

with open(path, "rb") as f:
    whole = f.read()
with open(os.path.join(here, "bad_truncated.h5"), "wb") as f:
    f.write(whole[: len(whole) // 2])
with open(os.path.join(here, "bad_signature.h5"), "wb") as f:
    f.write(b"\x89HDX" + whole[4:4096])
with open(os.path.join(here, "bad_superblock.h5"), "wb") as f:
    f.write(whole[:24] + b"\xff" * 32 + whole[56:])
