#!/usr/bin/env python3
"""Writes the TDMS fixtures of Tests/SondeIOTests/TDMSReaderTests.swift and what npTDMS reads from them.

Good files (each followed by `<name>.expected.tsv` and `expected/<name>/<n>.f64`):
  types.tdms          npTDMS's writer: every numeric type (I8..U64, SGL, DBL) with extremes, two
                      segments, wf_increment/wf_start_time; a string, a bool and a timestamp channel.
  incremental.tdms    by hand: contiguous chunks repeating within a segment, a segment without
                      metadata, incremental metadata (raw data index 0 = as before, 0xFFFFFFFF = no
                      data in this segment), a channel added in a later segment, a property changed.
  interleaved.tdms    by hand: kTocInterleavedData with mixed widths (I16, SGL, U8, DBL), two segments.
  bigendian.tdms      by hand: kTocBigEndian, a contiguous segment then an interleaved one.
  unterminated.tdms   by hand: the last segment's next-segment offset is 0xFFFFFFFFFFFFFFFF (a file cut
                      while writing) with a partial last chunk, contiguous.
  unterminated_interleaved.tdms   the same, interleaved, with a partial last frame.
  properties.tdms     npTDMS's writer: wf_increment 0 and NaN, an empty channel, NI linear scaling.
Bad files (bad_*.tdms): see BAD below; the Swift test checks each one's error text.

Every hand-written file is read back with npTDMS and compared with the arrays meant, so the
fixtures say what npTDMS reads; the .f64 files are `numpy.asarray(channel[:], dtype='<f8')`.
Deterministic: rerunning writes identical bytes (`md5sum *.tdms expected/*/*`).

Run with the packages of Tests/requirements.txt: python3 Tests/Fixtures/tdms/generate_tdms.py
"""

import os
import shutil
import struct

import numpy as np
from nptdms import ChannelObject, GroupObject, RootObject, TdmsFile, TdmsWriter

HERE = os.path.dirname(os.path.abspath(__file__))

# Table-of-contents flags (NI, "TDMS File Format Internal Structure", lead-in).
META, RAW, NEW_LIST, INTERLEAVED, BIG_ENDIAN, DAQMX = 1 << 1, 1 << 3, 1 << 2, 1 << 5, 1 << 6, 1 << 7
# tdsDataType codes and numpy types.
TYPE_CODES = {
    "int8": 1, "int16": 2, "int32": 3, "int64": 4, "uint8": 5, "uint16": 6, "uint32": 7, "uint64": 8,
    "float32": 9, "float64": 10,
}
# npTDMS type class -> the name sonde's TDMSDataType gives it.
TYPE_NAMES = {
    "Int8": "I8", "Int16": "I16", "Int32": "I32", "Int64": "I64", "Uint8": "U8", "Uint16": "U16",
    "Uint32": "U32", "Uint64": "U64", "SingleFloat": "SGL", "DoubleFloat": "DBL", "String": "String",
    "Boolean": "Boolean", "TimeStamp": "TimeStamp",
}


def values(dtype, count, salt=0):
    """Deterministic values of a numpy type, with the type's extremes first."""
    dtype = np.dtype(dtype)
    index = np.arange(count, dtype=np.int64) + salt
    if dtype.kind == "f":
        finite = (index - 17) / 7.0 + index * index * 1e-3
        array = finite.astype(dtype)
        info = np.finfo(dtype)
        special = [info.max, -info.max, info.tiny, -0.0, float(info.smallest_subnormal), np.nan, np.inf, -np.inf]
        array[: min(count, len(special))] = np.array(special[:count], dtype=dtype)
        return array
    info = np.iinfo(dtype)
    span = int(info.max) - int(info.min) + 1
    mixed = [(int(i) * 2654435761 + 12345) % span + int(info.min) for i in index]
    array = np.array(mixed, dtype=dtype)
    special = [info.min, info.max, 0, 1]
    if dtype.itemsize == 8:
        # Past 2^53: the conversion to f64 rounds (to nearest, ties to even).
        special += [(1 << 53) + 1, (1 << 62) + 511, info.max - 1023, info.max - 1024]
        if dtype.kind == "i":
            special += [-(1 << 53) - 1, info.min + 1]
    array[: min(count, len(special))] = np.array(special[:count], dtype=dtype)
    return array


# ----------------------------------------------------------------------------------------------
# Writing TDMS by hand (NI's layout), for what npTDMS's writer does not write.


def tdms_string(text, e):
    raw = text.encode("utf-8")
    return struct.pack(e + "I", len(raw)) + raw


def channel_path(group, channel=None):
    def quote(name):
        return "'" + name.replace("'", "''") + "'"

    return "/" + quote(group) + ("" if channel is None else "/" + quote(channel))


def raw_index(kind, e, type_code=0, count=0):
    if kind == "none":
        return struct.pack(e + "I", 0xFFFFFFFF)
    if kind == "same":
        return struct.pack(e + "I", 0)
    return struct.pack(e + "IIIQ", 20, type_code, 1, count)


def prop(name, value, e):
    if isinstance(value, str):
        return tdms_string(name, e) + struct.pack(e + "I", 0x20) + tdms_string(value, e)
    if isinstance(value, float):
        return tdms_string(name, e) + struct.pack(e + "Id", 10, value)
    return tdms_string(name, e) + struct.pack(e + "Ii", 3, value)


def metadata(objects, e):
    """objects: (path, index bytes, {property: value})."""
    out = struct.pack(e + "I", len(objects))
    for path, index, props in objects:
        out += tdms_string(path, e) + index + struct.pack(e + "I", len(props))
        for name, value in props.items():
            out += prop(name, value, e)
    return out


def segment(toc, meta, data, version=4713, next_offset=None, raw_offset=None):
    e = ">" if toc & BIG_ENDIAN else "<"
    next_offset = len(meta) + len(data) if next_offset is None else next_offset
    raw_offset = len(meta) if raw_offset is None else raw_offset
    return b"TDSm" + struct.pack("<i", toc) + struct.pack(e + "iQQ", version, next_offset, raw_offset) + meta + data


def contiguous(arrays, e):
    return b"".join(np.asarray(a).astype(np.dtype(a.dtype).newbyteorder(e)).tobytes() for a in arrays)


def interleaved(arrays, e):
    columns = [np.asarray(a).astype(np.dtype(a.dtype).newbyteorder(e)) for a in arrays]
    frame = np.dtype([("c%d" % i, c.dtype) for i, c in enumerate(columns)])
    rows = np.empty(len(columns[0]), dtype=frame)
    for i, column in enumerate(columns):
        rows["c%d" % i] = column
    return rows.tobytes()


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


# ----------------------------------------------------------------------------------------------
# The good files.


def make_types():
    start = np.datetime64("2024-03-01T12:00:00.250000", "us")
    names = list(TYPE_CODES)
    with TdmsWriter(os.path.join(HERE, "types.tdms"), version=4712) as writer:
        for part, count in enumerate((23, 17)):
            objects = [RootObject({"title": "every numeric type"}), GroupObject("types", {"part": part})]
            for i, kind in enumerate(names):
                props = {"wf_increment": 0.001, "wf_start_time": start} if part == 0 else {}
                objects.append(ChannelObject("types", kind, values(kind, count, salt=part * 100 + i), props))
            objects.append(ChannelObject("other", "labels", ["a", "bb", "", "d'e"][: 2 + part]))
            objects.append(ChannelObject("other", "flags", np.array([True, False, True][: 2 + part])))
            stamps = np.array(["2024-01-01T00:00:00", "2024-01-01T00:00:01", "2024-01-01T00:00:02"][: 2 + part],
                              dtype="datetime64[us]")
            objects.append(ChannelObject("other", "stamps", stamps))
            writer.write_segment(objects)
    return {}


def make_incremental():
    e = "<"
    a = values("int32", 4 * 2 + 4 * 3 + 5 * 2 + 6, salt=1)  # 36 values
    b = values("float64", 4 * 2 + 4 * 3 + 2 * 2, salt=2)  # 24: segments 3 and 4 have none
    c = values("uint16", 3 * 2 + 3 + 3 * 2, salt=3)  # 15: from segment 2 on
    out = b""
    # Segment 0: new list, two chunks of (a: 4, b: 4).
    meta = metadata([
        ("/", raw_index("none", e), {"title": "incremental"}),
        (channel_path("g"), raw_index("none", e), {}),
        (channel_path("g", "a"), raw_index("new", e, 3, 4), {"wf_increment": 0.5, "unit": "V"}),
        (channel_path("g", "b"), raw_index("new", e, 10, 4), {}),
    ], e)
    out += segment(META | RAW | NEW_LIST, meta, contiguous([a[0:4], b[0:4]], e) + contiguous([a[4:8], b[4:8]], e))
    # Segment 1: no metadata at all: the same objects, three chunks.
    data = b"".join(contiguous([a[8 + 4 * k:12 + 4 * k], b[8 + 4 * k:12 + 4 * k]], e) for k in range(3))
    out += segment(RAW, b"", data)
    # Segment 2: metadata without a new list: a (5 values a chunk) and b (2) get new indexes, c is
    # added (3), a's unit changes; two chunks.
    meta = metadata([
        (channel_path("g", "a"), raw_index("new", e, 3, 5), {"unit": "mV"}),
        (channel_path("g", "b"), raw_index("new", e, 10, 2), {}),
        (channel_path("g", "c"), raw_index("new", e, 6, 3), {"wf_increment": 0.5}),
    ], e)
    data = b"".join(contiguous([a[20 + 5 * k:25 + 5 * k], b[20 + 2 * k:22 + 2 * k], c[3 * k:3 + 3 * k]], e)
                    for k in range(2))
    out += segment(META | RAW, meta, data)
    # Segment 3: b has no data here (0xFFFFFFFF), a has 6 a chunk, c as before (index 0).
    meta = metadata([
        (channel_path("g", "a"), raw_index("new", e, 3, 6), {}),
        (channel_path("g", "b"), raw_index("none", e), {}),
        (channel_path("g", "c"), raw_index("same", e), {}),
    ], e)
    out += segment(META | RAW, meta, contiguous([a[30:36], c[6:9]], e))
    # Segment 4: a new object list naming only c (index 0: as in its last segment), two chunks.
    meta = metadata([(channel_path("g", "c"), raw_index("same", e), {})], e)
    out += segment(META | RAW | NEW_LIST, meta, contiguous([c[9:12]], e) + contiguous([c[12:15]], e))
    write("incremental.tdms", out)
    return {"g/a": a, "g/b": b, "g/c": c}


def make_interleaved():
    e = "<"
    kinds = ["int16", "float32", "uint8", "float64"]
    arrays = [values(k, 7 + 9, salt=10 + i) for i, k in enumerate(kinds)]
    meta = metadata([
        ("/", raw_index("none", e), {}),
        (channel_path("mix"), raw_index("none", e), {}),
    ] + [
        (channel_path("mix", k), raw_index("new", e, TYPE_CODES[k], 7), {"wf_increment": 1.0 / 48000})
        for k in kinds
    ], e)
    out = segment(META | RAW | NEW_LIST | INTERLEAVED, meta, interleaved([x[:7] for x in arrays], e))
    # Segment 1: metadata without a new list, 3 values a chunk, 9 frames (three chunks, one run of
    # frames).
    meta = metadata([(channel_path("mix", k), raw_index("new", e, TYPE_CODES[k], 3), {}) for k in kinds], e)
    out += segment(META | RAW | INTERLEAVED, meta, interleaved([x[7:16] for x in arrays], e))
    write("interleaved.tdms", out)
    return {"mix/" + k: arrays[i] for i, k in enumerate(kinds)}


def make_bigendian():
    e = ">"
    kinds = ["int32", "float64", "uint64", "int16"]
    arrays = [values(k, 2 * 5 + 10, salt=20 + i) for i, k in enumerate(kinds)]
    meta = metadata([
        ("/", raw_index("none", e), {"title": "big"}),
        (channel_path("be"), raw_index("none", e), {}),
    ] + [
        (channel_path("be", k), raw_index("new", e, TYPE_CODES[k], 5), {"wf_increment": 0.25}) for k in kinds
    ], e)
    data = b"".join(contiguous([x[5 * k:5 * k + 5] for x in arrays], e) for k in range(2))
    out = segment(META | RAW | NEW_LIST | BIG_ENDIAN, meta, data)
    # Segment 1: interleaved, the objects' indexes as before (0): 10 frames, two chunks of 5.
    meta = metadata([(channel_path("be", k), raw_index("same", e), {}) for k in kinds], e)
    out += segment(META | RAW | INTERLEAVED | BIG_ENDIAN, meta, interleaved([x[10:20] for x in arrays], e))
    write("bigendian.tdms", out)
    return {"be/" + k: arrays[i] for i, k in enumerate(kinds)}


def make_unterminated():
    e = "<"
    a = values("float64", 4 * 3, salt=30)
    b = values("int16", 4 * 3, salt=31)
    meta = metadata([
        ("/", raw_index("none", e), {}),
        (channel_path("cut"), raw_index("none", e), {}),
        (channel_path("cut", "a"), raw_index("new", e, 10, 4), {}),
        (channel_path("cut", "b"), raw_index("new", e, 2, 4), {}),
    ], e)
    out = segment(META | RAW | NEW_LIST, meta, contiguous([a[0:4], b[0:4]], e))
    # Segment 1: next-segment offset 0xFF..FF; two whole chunks, then a chunk cut in b's values:
    # a's 4 values (32 bytes) and 1.5 of b's (3 bytes).
    data = contiguous([a[4:8], b[4:8]], e) + contiguous([a[8:12], b[8:12]], e)
    data += contiguous([values("float64", 4, salt=32), values("int16", 4, salt=33)], e)[: 32 + 3]
    out += segment(RAW, b"", data, next_offset=0xFFFFFFFFFFFFFFFF, raw_offset=0)
    write("unterminated.tdms", out)

    kinds = ["int32", "uint8"]
    arrays = [values(k, 10, salt=40 + i) for i, k in enumerate(kinds)]
    meta = metadata([
        ("/", raw_index("none", e), {}),
        (channel_path("cut"), raw_index("none", e), {}),
    ] + [(channel_path("cut", k), raw_index("new", e, TYPE_CODES[k], 4), {}) for k in kinds], e)
    data = interleaved([x[:10] for x in arrays], e)
    # 10 frames of 5 bytes, cut 2 bytes into the 11th; the lead-in's offset is unknown (0xFF..FF).
    data += interleaved([values(k, 1, salt=50) for k in kinds], e)[:2]
    out = segment(META | RAW | NEW_LIST | INTERLEAVED, meta, data, next_offset=0xFFFFFFFFFFFFFFFF)
    write("unterminated_interleaved.tdms", out)
    return {}


def make_properties():
    with TdmsWriter(os.path.join(HERE, "properties.tdms"), version=4712) as writer:
        writer.write_segment([
            RootObject({}),
            GroupObject("rates", {}),
            ChannelObject("rates", "ok", np.arange(5, dtype=np.float64), {"wf_increment": 0.001}),
            ChannelObject("rates", "zero", np.arange(5, dtype=np.float64), {"wf_increment": 0.0}),
            ChannelObject("rates", "nan", np.arange(5, dtype=np.float64), {"wf_increment": float("nan")}),
            ChannelObject("rates", "slow", np.arange(5, dtype=np.float64), {"wf_increment": 0.002}),
            ChannelObject("rates", "empty", np.zeros(0, dtype=np.float64), {}),
            ChannelObject("rates", "short", np.arange(3, dtype=np.float64), {"wf_increment": 0.001}),
            ChannelObject("rates", "scaled", np.arange(5, dtype=np.int16), {
                "NI_Number_Of_Scales": 1, "NI_Scale[0]_Scale_Type": "Linear",
                "NI_Scale[0]_Linear_Slope": 2.0, "NI_Scale[0]_Linear_Y_Intercept": 1.0,
                "NI_Scale[0]_Linear_Input_Source": 0xFFFFFFFF,
            }),
        ])
    return {}


# ----------------------------------------------------------------------------------------------
# The bad files.


def one_segment(e="<", toc=META | RAW | NEW_LIST, **overrides):
    a = values("float64", 6, salt=60)
    meta = metadata([
        ("/", raw_index("none", e), {}),
        (channel_path("g"), raw_index("none", e), {}),
        (channel_path("g", "a"), raw_index("new", e, 10, 6), {}),
    ], e)
    return segment(toc, meta, contiguous([a], e), **overrides), len(meta)


def make_bad():
    with open(os.path.join(HERE, "types.tdms"), "rb") as f:
        types = f.read()
    # Cut in the middle of the first segment's raw data.
    write("bad_truncated.tdms", types[: len(types) // 4])
    good, meta_length = one_segment()
    # A second lead-in cut after 10 bytes.
    write("bad_truncated_leadin.tdms", good + good[:10])
    # The lead-in claims 1000 bytes more than the file has.
    write("bad_next_offset.tdms", one_segment(next_offset=meta_length + 48 + 1000)[0])
    # The raw data offset lies past the segment's end.
    write("bad_raw_offset.tdms", one_segment(raw_offset=meta_length + 48 + 8)[0])
    # The lead-in's segment length is 5 bytes short of whole chunks (the data is 48 bytes).
    write("bad_partial_chunk.tdms", one_segment(next_offset=meta_length + 43)[0][: 28 + meta_length + 43])
    # Not a TDMS file (the tag).
    write("bad_tag.tdms", b"TDSx" + good[4:])
    # DAQmx raw data: the format-changing scaler's raw data index (69 12 00 00) and kTocDAQmxRawData.
    e = "<"
    daqmx_index = struct.pack(e + "IIIQ", 0x00001269, 0xFFFFFFFF, 1, 4)
    daqmx_index += struct.pack(e + "I", 1) + struct.pack(e + "IIIII", 3, 0, 0, 0, 0)
    daqmx_index += struct.pack(e + "II", 1, 2)
    meta = metadata([(channel_path("dev", "ai0"), daqmx_index, {})], e)
    write("bad_daqmx.tdms", segment(META | RAW | NEW_LIST | DAQMX, meta, b"\0" * 8))
    # Metadata that says a channel's path is 4000 bytes long, past the raw data offset.
    meta = bytearray(one_segment()[0])
    struct.pack_into("<I", meta, 28 + 4, 4000)
    write("bad_metadata.tdms", bytes(meta))


# ----------------------------------------------------------------------------------------------
# Expected values: what npTDMS reads, as raw little-endian f64.


def record(name, meant):
    base = name[: -len(".tdms")]
    folder = os.path.join(HERE, "expected", base)
    os.makedirs(folder)
    tdms = TdmsFile.read(os.path.join(HERE, name))
    lines = ["# path\ttype\tcount\tvalues (raw little-endian f64 of npTDMS's array; - when not numeric)"]
    number = 0
    for group in tdms.groups():
        for channel in group.channels():
            path = group.name + "/" + channel.name
            type_name = TYPE_NAMES[channel.data_type.__name__] if channel.data_type is not None else "Void"
            data = channel[:]
            if path in meant and meant[path] is not None:
                want = meant[path]
                assert len(data) == len(want) and np.array_equal(
                    np.asarray(data).view(np.uint8), np.asarray(want).view(np.uint8)), (name, path)
            file_name = "-"
            if type_name not in ("String", "Boolean", "TimeStamp", "Void"):
                file_name = "%d.f64" % number
                np.asarray(data, dtype="<f8").tofile(os.path.join(folder, file_name))
                number += 1
            lines.append("%s\t%s\t%d\t%s" % (path, type_name, len(data), file_name))
    with open(os.path.join(HERE, base + ".expected.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    for entry in os.listdir(HERE):
        if entry.endswith(".tdms") or entry.endswith(".expected.tsv"):
            os.remove(os.path.join(HERE, entry))
    shutil.rmtree(os.path.join(HERE, "expected"), ignore_errors=True)
    meant = {}
    for make in (make_types, make_incremental, make_interleaved, make_bigendian, make_unterminated,
                 make_properties):
        meant.update(make())
    make_bad()
    for name in ("types.tdms", "incremental.tdms", "interleaved.tdms", "bigendian.tdms", "unterminated.tdms",
                 "unterminated_interleaved.tdms", "properties.tdms"):
        record(name, meant)


if __name__ == "__main__":
    main()
