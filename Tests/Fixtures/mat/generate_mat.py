"""MAT-file fixtures for sonde's MAT reader (issue 45), and what scipy.io.loadmat (v4, v5, v7)
and h5py (v7.3) read from them, for the Swift tests to match bit for bit. Deterministic:
    .build/test-venv/bin/python Tests/Fixtures/mat/generate_mat.py

Good files (each variable's values as loadmat returns them, numpy.asarray(x, dtype='<f8'),
written column by column (each column of loadmat's 2-D array, in order) to
expected/<file>/<variable path>.f64; <file>.expected.tsv lists path, class, dimensions):
  types_v4.mat   v4 (format='4'): the types v4 holds (double, single, int32, int16, uint16, uint8)
  types_v5.mat   v5 uncompressed: every numeric type, a samples x channels matrix and its
                 transpose, scalars, and variables sonde lists but refuses (char, logical,
                 complex, sparse, cell, empty)
  types_v7.mat   the same, v7 compressed (do_compression=True)
  structs_v5.mat / structs_v7.mat  MFPT's layout (bearing.gs, bearing.sr) and Paderborn's
                 (N15_M07.Y(k).Data, a 1x7 struct array inside a struct)
  types_v73.mat  v7.3: HDF5 with MATLAB's 512-byte userblock and MATLAB_class attributes,
                 written with h5py (MATLAB stores an m x n array as an n x m dataset)
  structs_v73.mat  structs_v5.mat's structs in v7.3's layout: groups, and the struct array's
                 fields as datasets of object references into /#refs# (values as h5py reads them)
Bad files: bad_truncated_v5.mat (cut inside a variable's data), bad_header.mat (a header
whose version and endian bytes are garbage), bad_truncated_v7.mat (cut inside the zlib
stream), bad_corrupt_v7.mat (zlib bytes overwritten), bad_truncated_v73.mat (cut HDF5),
bad_truncated_v4.mat.
"""
import os
import shutil

import h5py
import numpy as np
import scipy.io

here = os.path.dirname(os.path.abspath(__file__))
expected_root = os.path.join(here, "expected")
N = 48

rng = np.random.default_rng(45)


def ramp(dtype):
    info = np.iinfo(dtype)
    values = rng.integers(info.min, info.max, size=N, dtype=dtype, endpoint=True)
    values[:4] = [info.min, info.max, 0, 1 if info.min == 0 else -1]
    return values


def numeric_types():
    v = {
        "x_double": rng.standard_normal(N),
        "x_single": rng.standard_normal(N).astype(np.float32),
        "x_int8": ramp(np.int8),
        "x_int16": ramp(np.int16),
        "x_int32": ramp(np.int32),
        "x_int64": ramp(np.int64),
        "x_uint8": ramp(np.uint8),
        "x_uint16": ramp(np.uint16),
        "x_uint32": ramp(np.uint32),
        "x_uint64": ramp(np.uint64),
    }
    # 64-bit integers that a Double rounds: ties, and just above 2^53 and 2^63.
    v["x_int64"][4:8] = [2**53 + 1, 2**62 + 2**9 + 1, -(2**63) + 1025, 2**63 - 1024]
    v["x_uint64"][4:8] = [2**53 + 3, 2**63 + 1025, 2**64 - 1025, 2**64 - 2048]
    v["x_double"][4:8] = [np.inf, -np.inf, np.nan, -0.0]
    v["x_single"][4:8] = [np.inf, -np.inf, np.nan, -0.0]
    return v


def fix_header(path, text):
    # The header's creation date would change each run: a fixed one keeps the bytes the same.
    with open(path, "r+b") as f:
        f.write(text.ljust(116))


def header5(path):
    fix_header(path, b"MATLAB 5.0 MAT-file Platform: posix, Created on: Sat Nov 28 00:00:00 2026")


matrix = rng.standard_normal((N, 3))  # samples x channels
types = numeric_types()
types.update(
    {
        "m_samples_by_channels": matrix,
        "m_channels_by_samples": matrix.T.copy(),
        "m_int16": (rng.integers(-3000, 3000, size=(N, 2))).astype(np.int16),
        "fs": np.array([[12000.0]]),
        "rpm": np.array([[1797]], dtype=np.int32),
        "short": np.arange(10, dtype=np.float64),
        "zero_rate": np.array([[0.0]]),
        "nan_rate": np.array([[np.nan]]),
    }
)
refused = {
    "label": "bearing 105",
    "flags": (np.arange(N) % 2 == 0),
    "z": rng.standard_normal(N) + 1j * rng.standard_normal(N),
    "sp": scipy.sparse.csc_matrix(np.eye(N, 4)),
    "c": np.array([np.arange(3.0), "text"], dtype=object),
    "e": np.zeros((0, 0)),
}

# v4 holds double, single, int32, int16, uint16 and uint8 full matrices, and char and sparse.
types_v4 = {
    k: v
    for k, v in types.items()
    if np.asarray(v).dtype in (np.float64, np.float32, np.int32, np.int16, np.uint16, np.uint8)
}

MFPT = {
    "bearing": {
        "gs": rng.standard_normal((60, 1)),
        "sr": np.array([[48828.0]]),
        "load": np.array([[270.0]]),
        "rate": np.array([[25.0]]),
    }
}
y = np.zeros((1, 7), dtype=[("Name", object), ("Data", object), ("Raster", object)])
for k in range(7):
    y[0, k]["Name"] = ["force", "phase_current_1", "phase_current_2", "speed", "temp", "torque", "vibration_1"][k]
    length = 64 if k in (1, 2, 6) else 16
    y[0, k]["Data"] = rng.standard_normal((1, length)).astype(np.float64)
    y[0, k]["Raster"] = "Mech_4kHz" if length == 16 else "HostService"
PADERBORN = {"N15_M07": {"Info": "N15_M07_F10_K001_1", "Y": y}}

files = {}


def save(name, variables, **kwargs):
    path = os.path.join(here, name)
    scipy.io.savemat(path, variables, oned_as="column", **kwargs)
    if kwargs.get("format", "5") == "5":
        header5(path)
    files[name] = path


save("types_v4.mat", types_v4, format="4")
save("types_v5.mat", {**types, **refused})
save("types_v7.mat", {**types, **refused}, do_compression=True)
save("structs_v5.mat", {**MFPT, **PADERBORN})
save("structs_v7.mat", {**MFPT, **PADERBORN}, do_compression=True)

# v7.3: MATLAB's userblock header, then HDF5. Each m x n MATLAB array is an n x m dataset.
MATLAB_CLASS = {
    np.float64: b"double", np.float32: b"single", np.int8: b"int8", np.int16: b"int16", np.int32: b"int32",
    np.int64: b"int64", np.uint8: b"uint8", np.uint16: b"uint16", np.uint32: b"uint32", np.uint64: b"uint64",
}
v73_path = os.path.join(here, "types_v73.mat")


def matlab_class(obj, name):
    # As MATLAB writes it: a NUL-terminated ASCII string of exactly the name's length (libmatio
    # reads it as such; h5py's default, NUL-padded, would lose the last letter).
    tid = h5py.h5t.C_S1.copy()
    tid.set_size(len(name))
    tid.set_strpad(h5py.h5t.STR_NULLTERM)
    space = h5py.h5s.create(h5py.h5s.SCALAR)
    attr = h5py.h5a.create(obj.id, b"MATLAB_class", tid, space)
    # Written with the attribute's own type: no conversion to cut the last letter.
    attr.write(np.array(name, dtype="S%d" % len(name)), mtype=tid)


v73 = {k: np.atleast_2d(np.asarray(v)) for k, v in types.items()}
v73 = {k: (v.reshape(-1, 1) if v.shape[0] == 1 and k.startswith("x_") or k == "short" else v) for k, v in v73.items()}
with h5py.File(v73_path, "w", userblock_size=512, libver="earliest") as f:
    for k, v in v73.items():
        d = f.create_dataset(k, data=v.T, track_times=False)
        matlab_class(d, MATLAB_CLASS[v.dtype.type])
    g = f.create_group("bearing", track_order=False)
    matlab_class(g, b"struct")
    for k, v in MFPT["bearing"].items():
        d = g.create_dataset(k, data=v.T, track_times=False)
        matlab_class(d, b"double")
    # A chunked, compressed field: matio reads it by hyperslab like any other.
    d = g.create_dataset(
        "chunked", data=rng.standard_normal((1, 100)), chunks=(1, 16), compression="gzip", track_times=False
    )
    matlab_class(d, b"double")
    # MATLAB lists a struct's fields in MATLAB_fields, variable-length arrays of characters
    # (libmatio 1.5.23 finds only the first field of a struct without it).
    names = np.empty(len(g), dtype=object)
    for i, name in enumerate(g):
        names[i] = np.frombuffer(name.encode(), dtype="S1")
    g.attrs.create("MATLAB_fields", names, dtype=h5py.vlen_dtype(np.dtype("S1")))
with open(v73_path, "r+b") as f:
    text = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Sat Nov 28 00:00:00 2026 HDF5 schema 1.00 ."
    f.write(text.ljust(116) + b"\0" * 8 + b"\x00\x02IM")
files["types_v73.mat"] = v73_path

# v7.3 structs as MATLAB writes them: the MFPT and Paderborn values of structs_v5.mat (no new
# random draws). A 1x1 struct is a group whose fields are datasets or groups; a struct array
# (N15_M07.Y, 1x7) is a group whose every field is a 7x1 dataset of object references into
# /#refs#, one per element, the fields themselves without MATLAB_class (libmatio 1.5.23 takes
# such a field's dimensions as the struct array's).
structs_v73_path = os.path.join(here, "structs_v73.mat")


def matlab_fields(group, names):
    values = np.empty(len(names), dtype=object)
    for i, name in enumerate(names):
        values[i] = np.frombuffer(name.encode(), dtype="S1")
    group.attrs.create("MATLAB_fields", values, dtype=h5py.vlen_dtype(np.dtype("S1")))


def matlab_char(parent, name, text):
    d = parent.create_dataset(name, data=np.frombuffer(text.encode("utf-16-le"), dtype="<u2").reshape(-1, 1),
                              track_times=False)
    matlab_class(d, b"char")
    d.attrs.create("MATLAB_int_decode", np.int32(2))
    return d


with h5py.File(structs_v73_path, "w", userblock_size=512, libver="earliest") as f:
    refs = f.create_group("#refs#")
    # MATLAB's first reference target: an empty placeholder.
    placeholder = refs.create_dataset("a", data=np.zeros(2, dtype=np.uint64), track_times=False)
    matlab_class(placeholder, b"canonical empty")
    placeholder.attrs.create("MATLAB_empty", np.uint8(1))
    g = f.create_group("bearing")
    matlab_class(g, b"struct")
    for k, v in MFPT["bearing"].items():
        d = g.create_dataset(k, data=v.T, track_times=False)
        matlab_class(d, b"double")
    matlab_fields(g, list(MFPT["bearing"]))
    n = f.create_group("N15_M07")
    matlab_class(n, b"struct")
    matlab_char(n, "Info", PADERBORN["N15_M07"]["Info"])
    ys = n.create_group("Y")
    matlab_class(ys, b"struct")
    fields = list(y.dtype.names)
    matlab_fields(ys, fields)
    targets = iter("bcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for field in fields:
        column = ys.create_dataset(field, shape=(y.shape[1], 1), dtype=h5py.ref_dtype)
        for k in range(y.shape[1]):
            value = y[0, k][field]
            name = next(targets)
            if isinstance(value, str):
                target = matlab_char(refs, name, value)
            else:
                target = refs.create_dataset(name, data=value.T, track_times=False)
                matlab_class(target, b"double")
            column[k, 0] = target.ref
    matlab_fields(n, ["Info", "Y"])
with open(structs_v73_path, "r+b") as f:
    text = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Sat Nov 28 00:00:00 2026 HDF5 schema 1.00 ."
    f.write(text.ljust(116) + b"\0" * 8 + b"\x00\x02IM")
files["structs_v73.mat"] = structs_v73_path

# What scipy (or h5py for v7.3) reads.
if os.path.isdir(expected_root):
    shutil.rmtree(expected_root)


def class_of(x):
    if isinstance(x, str) or (isinstance(x, np.ndarray) and x.dtype.kind == "U"):
        return "char"
    if scipy.sparse.issparse(x):
        return "sparse"
    x = np.asarray(x)
    if x.dtype.kind == "c":
        return "complex " + {np.complex128: "double", np.complex64: "single"}[x.dtype.type]
    if x.dtype.kind == "b":
        return "logical"
    if x.dtype.names is not None:
        return "struct"
    if x.dtype == object:
        return "cell"
    return MATLAB_CLASS[x.dtype.type].decode()


def write_expected(name, rows):
    stem = name[:-4]
    os.makedirs(os.path.join(expected_root, stem), exist_ok=True)
    lines = ["# path\tclass\tdimensions (rows x columns as loadmat/MATLAB give them)\tvalues file (- when not read)"]
    for path, x, cls in rows:
        values = "-"
        if cls not in ("char", "sparse", "cell", "struct", "logical") and not cls.startswith("complex"):
            a = np.asarray(x, dtype="<f8")
            if a.size:
                values = path + ".f64"
                with open(os.path.join(expected_root, stem, values), "wb") as f:
                    f.write(np.asfortranarray(a).tobytes(order="F"))
        shape = "x".join(str(s) for s in np.shape(x)) if not isinstance(x, str) else "1x%d" % len(x)
        lines.append("\t".join([path, cls, shape, values]))
    with open(os.path.join(here, stem + ".expected.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")


for name in ["types_v4.mat", "types_v5.mat", "types_v7.mat"]:
    loaded = scipy.io.loadmat(files[name], mat_dtype=False)
    rows = []
    for k, x in loaded.items():
        if k.startswith("__"):
            continue
        if k == "label":
            x = str(x[0])
        # loadmat returns a logical array as uint8; MATLAB's class is logical.
        rows.append((k, x, "logical" if k == "flags" else class_of(x)))
    write_expected(name, rows)

for name in ["structs_v5.mat", "structs_v7.mat"]:
    loaded = scipy.io.loadmat(files[name], mat_dtype=False)
    b = loaded["bearing"][0, 0]
    rows = [("bearing." + f, b[f], "double") for f in ["gs", "sr", "load", "rate"]]
    n = loaded["N15_M07"][0, 0]
    ys = n["Y"]
    for k in range(ys.shape[1]):
        rows.append(("N15_M07.Y(%d).Data" % (k + 1), ys[0, k]["Data"], "double"))
    write_expected(name, rows)

with h5py.File(v73_path, "r") as f:
    # In libmatio's order: links by name, a struct's fields likewise.
    rows = []
    for k in f:
        if k == "bearing":
            rows.append(("bearing", np.zeros((1, 1)), "struct"))
            for field in f[k]:
                rows.append(("bearing." + field, f[k][field][()].T, "double"))
        else:
            rows.append((k, f[k][()].T, f[k].attrs["MATLAB_class"].decode()))
    write_expected("types_v73.mat", rows)

with h5py.File(structs_v73_path, "r") as f:
    # Each value as h5py reads it, following the struct array's references.
    rows = [("bearing." + k, f["bearing"][k][()].T, "double") for k in MFPT["bearing"]]
    data = f["N15_M07/Y/Data"]
    for k in range(data.shape[0]):
        rows.append(("N15_M07.Y(%d).Data" % (k + 1), f[data[k, 0]][()].T, "double"))
    write_expected("structs_v73.mat", rows)


# Bad files.
def cut(source, name, size):
    with open(files[source], "rb") as f:
        data = f.read()
    with open(os.path.join(here, name), "wb") as f:
        f.write(data[:size] if size >= 0 else data[:len(data) + size])


cut("types_v5.mat", "bad_truncated_v5.mat", 700)
cut("types_v7.mat", "bad_truncated_v7.mat", 300)
cut("types_v73.mat", "bad_truncated_v73.mat", 3000)
cut("types_v4.mat", "bad_truncated_v4.mat", 500)
with open(files["types_v5.mat"], "rb") as f:
    data = bytearray(f.read())
data[124:128] = b"\x07\x07XY"
with open(os.path.join(here, "bad_header.mat"), "wb") as f:
    f.write(bytes(data[:2000]))
with open(files["types_v7.mat"], "rb") as f:
    data = bytearray(f.read())
data[150:190] = bytes(range(40))
with open(os.path.join(here, "bad_corrupt_v7.mat"), "wb") as f:
    f.write(bytes(data))
