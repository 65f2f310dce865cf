import CHDF5

/// One entry of an HDF5 file's catalogue: a group or a dataset, its type, shape and attributes.
struct HDF5Object: Equatable, Sendable {
    enum Kind: String, Sendable {
        case group, dataset
        /// A named datatype, or a link libhdf5 could not follow (soft, external).
        case other
    }

    /// "/", "/vibration", "/vibration/accel_x".
    let path: String
    let kind: Kind
    /// The element type: "float64", "int16", "uint64 big-endian", "string", "compound", "enum"...;
    /// "" for a group.
    let type: String
    /// The numeric element type a dataset's values convert from; nil when not numeric.
    let sampleType: NumericSampleType?
    /// The dataset's shape as h5py gives it (C order); [] for a scalar dataset or a group.
    let shape: [Int]
    /// "contiguous", "chunked 16x3", "compact", with "+ n filters" when compressed; "" for a group.
    let layout: String
    let attributes: [HDF5Attribute]

    /// Elements in the dataset.
    var count: Int { shape.reduce(1, *) }

    /// "100x3".
    var shapeDescription: String { shape.isEmpty ? "scalar" : shape.map(String.init).joined(separator: "x") }

    /// Why sonde will not read it as channels, or nil when it will.
    var refusal: String? {
        guard kind == .dataset else { return "is a \(kind == .group ? "group" : "named type or link"), not a dataset" }
        guard sampleType != nil else {
            return "holds \(type) values; sonde reads numeric datasets (integers and floats)"
        }
        if shape.isEmpty { return "is a scalar; sonde reads 1-D and 2-D datasets" }
        if shape.count > 2 {
            return "has \(shape.count) dimensions (\(shapeDescription)); sonde reads 1-D and 2-D datasets"
        }
        if count == 0 { return "is empty (\(shapeDescription)); expected at least one value" }
        return nil
    }
}

/// An attribute of a group or dataset: its name, type, and value when it is one number.
struct HDF5Attribute: Equatable, Sendable {
    let name: String
    let type: String
    let shape: [Int]
    /// The value of a numeric scalar (or one-element) attribute, converted as numpy's `astype(float64)`.
    let value: Double?
}

extension HDF5Object {
    /// A type's description and numeric element type. Called under the lock.
    static func describe(type: hid_t) -> (String, NumericSampleType?) {
        let size = H5Tget_size(type)
        let bigEndian = H5Tget_order(type) == H5T_ORDER_BE
        let suffix = bigEndian ? " big-endian" : ""
        switch H5Tget_class(type) {
        case H5T_INTEGER:
            let signed = H5Tget_sign(type) == H5T_SGN_2
            let sample: NumericSampleType?
            switch (size, signed) {
            case (1, true): sample = .int8
            case (2, true): sample = .int16
            case (4, true): sample = .int32
            case (8, true): sample = .int64
            case (1, false): sample = .uint8
            case (2, false): sample = .uint16
            case (4, false): sample = .uint32
            case (8, false): sample = .uint64
            default: sample = nil
            }
            return ((signed ? "int" : "uint") + "\(size * 8)" + suffix, sample)
        case H5T_FLOAT:
            let sample: NumericSampleType? = size == 4 ? .float32 : size == 8 ? .float64 : nil
            return ("float\(size * 8)" + suffix, sample)
        case H5T_STRING: return ("string", nil)
        case H5T_COMPOUND: return ("compound", nil)
        case H5T_ENUM: return ("enum", nil)
        case H5T_ARRAY: return ("array", nil)
        case H5T_VLEN: return ("variable-length", nil)
        case H5T_OPAQUE: return ("opaque", nil)
        case H5T_BITFIELD: return ("bitfield", nil)
        case H5T_REFERENCE: return ("reference", nil)
        case H5T_TIME: return ("time", nil)
        default: return ("unknown", nil)
        }
    }

    /// A dataspace's dimensions. Called under the lock.
    static func shape(of space: hid_t) -> [Int] {
        let rank = Int(H5Sget_simple_extent_ndims(space))
        guard rank > 0 else { return [] }
        var dims = [hsize_t](repeating: 0, count: rank)
        _ = H5Sget_simple_extent_dims(space, &dims, nil)
        return dims.map { Int($0) }
    }
}
