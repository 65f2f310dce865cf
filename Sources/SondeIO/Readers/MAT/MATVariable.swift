/// One entry of a MAT-file's catalogue: a variable, or a field of a struct, and what it holds.
struct MATVariable: Equatable, Sendable {
    /// How sonde names it: `x`, `bearing.gs`, `N15_M07.Y(7).Data` (struct array elements from 1,
    /// as MATLAB counts them).
    let path: String
    let matClass: MATClass
    /// MATLAB's dimensions, `[rows, columns, ...]`, as loadmat gives the array's shape.
    let dimensions: [Int]
    let isComplex: Bool
    /// Stored in a zlib-compressed v7 element: read whole, not by slab.
    let isCompressed: Bool

    /// Elements in the array.
    var count: Int { dimensions.reduce(1, *) }

    /// "complex double", "int16", "struct", as `sonde info` and messages show the class.
    var classDescription: String { (isComplex ? "complex " : "") + matClass.rawValue }

    /// "48x3".
    var dimensionsDescription: String { dimensions.map(String.init).joined(separator: "x") }

    /// A real numeric array (double, single, int8 ... uint64), whatever its shape.
    var isRealNumeric: Bool { matClass.sampleType != nil && !isComplex }

    /// A real numeric 1x1 array: what a sample rate may be read from.
    var isScalar: Bool { isRealNumeric && count == 1 }

    /// Why sonde will not read it as channels, or nil when it will.
    var refusal: String? {
        if isComplex { return "is complex; sonde reads real arrays" }
        switch matClass {
        case .sparse: return "is sparse; sonde reads full arrays (store it with full())"
        case .cell: return "is a cell array; name a numeric array inside a struct instead"
        case .struct: return "is a struct; name one of its fields (e.g. \(path).field)"
        case .logical: return "is logical; sonde reads numeric arrays (store it as double or uint8)"
        case .char: return "is char (text); sonde reads numeric arrays"
        case .function, .object, .opaque, .empty: return "is a MATLAB \(matClass.rawValue); sonde reads numeric arrays"
        default: break
        }
        if count == 0 { return "is empty (\(dimensionsDescription)); expected at least one value" }
        if dimensions.count > 2 {
            return "has \(dimensions.count) dimensions (\(dimensionsDescription)); sonde reads vectors and matrices"
        }
        return nil
    }
}
