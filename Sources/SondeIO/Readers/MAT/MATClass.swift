import CMatio

/// A MATLAB array's class, as libmatio reports it (`matio_classes`), with logical told apart
/// from uint8.
enum MATClass: String, Sendable {
    case double, single, int8, int16, int32, int64, uint8, uint16, uint32, uint64
    case logical, char, cell, `struct`, sparse, function, object, opaque, empty

    init(_ variable: UnsafePointer<matvar_t>) {
        let raw = variable.pointee.class_type
        if variable.pointee.isLogical != 0 {
            self = .logical
            return
        }
        switch raw {
        case MAT_C_DOUBLE: self = .double
        case MAT_C_SINGLE: self = .single
        case MAT_C_INT8: self = .int8
        case MAT_C_INT16: self = .int16
        case MAT_C_INT32: self = .int32
        case MAT_C_INT64: self = .int64
        case MAT_C_UINT8: self = .uint8
        case MAT_C_UINT16: self = .uint16
        case MAT_C_UINT32: self = .uint32
        case MAT_C_UINT64: self = .uint64
        case MAT_C_CHAR: self = .char
        case MAT_C_CELL: self = .cell
        case MAT_C_STRUCT: self = .struct
        case MAT_C_SPARSE: self = .sparse
        case MAT_C_FUNCTION: self = .function
        case MAT_C_OBJECT: self = .object
        case MAT_C_OPAQUE: self = .opaque
        default: self = .empty
        }
    }

    /// The element type of a numeric class; nil for the others (logical included).
    var sampleType: NumericSampleType? {
        switch self {
        case .double: .float64
        case .single: .float32
        case .int8: .int8
        case .int16: .int16
        case .int32: .int32
        case .int64: .int64
        case .uint8: .uint8
        case .uint16: .uint16
        case .uint32: .uint32
        case .uint64: .uint64
        default: nil
        }
    }
}
