import CMatio

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A MATLAB MAT-file opened through libmatio 1.5.23: its variables listed (struct fields
/// included), their values read on request.
///
/// Supported: v4, v5 (uncompressed), v7 (zlib-compressed v5 elements) and v7.3 (HDF5) files;
/// real numeric arrays of every class (double, single, int8 ... int64, uint8 ... uint64) up to
/// two dimensions, found at the top level or inside structs and struct arrays (`bearing.gs`,
/// `N15_M07.Y(7).Data`). Listed but refused as channels: logical, char, cell, sparse, complex,
/// empty, function and object arrays, and arrays of more than two dimensions.
///
/// Memory: v4, v5 uncompressed and v7.3 variables are read by slab (`Mat_VarReadData` with
/// start and edge), so memory follows the window, not the file. A compressed (v7) variable can
/// only be inflated whole: the first read of one of its arrays reads the whole top-level
/// variable into memory, and is refused when its values would take more than
/// `wholeVariableLimitBytes` (256 MiB).
///
/// Threads: a `MATFile` is one libmatio handle with a file position; use it from one thread at
/// a time. Two `MATFile`s (two readers) may run on two threads: their libmatio calls take
/// `ContainerLibraryLock` in turn (v7.3 goes through libhdf5, which is not thread-safe), and
/// their conversions to Double run in parallel.
final class MATFile {
    enum Version: String, Sendable {
        case v4 = "4"
        case v5 = "5"
        case v73 = "7.3"
    }

    /// The most a compressed variable may hold when inflated whole: 256 MiB.
    static let wholeVariableLimitBytes = 256 << 20

    /// The path the file was opened by, as given.
    let path: String
    let version: Version
    /// The header's text ("MATLAB 5.0 MAT-file, Platform: ..."); empty for v4.
    let header: String
    /// Every variable and struct field, depth first in the file's order.
    let variables: [MATVariable]
    private let handle: OpaquePointer
    /// The top-level variables' descriptions (no values), owned.
    private let infos: [UnsafeMutablePointer<matvar_t>]
    /// Compressed top-level variables read whole, by name, owned.
    private var wholeVariables: [String: UnsafeMutablePointer<matvar_t>] = [:]

    /// Opens the file and lists its variables; no values are read.
    /// - Throws: `ContainerError` when the file cannot be opened, is not a MAT-file, or is cut or damaged.
    init(path: String) throws(ContainerError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ContainerError(.io, path, "cannot open the file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw ContainerError(.io, path, "expected a regular file")
        }
        let layout = MATLayoutCheck(path: path, descriptor: descriptor, size: Int(status.st_size))
        var prefix = [UInt8](repeating: 0, count: 128)
        let prefixCount = prefix.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 128, 0) }

        // libmatio lists a cut or damaged v7.3 file as empty; libhdf5 says what is wrong with it.
        if prefixCount == 128, prefix[124] == 0, prefix[125] == 2 {
            do {
                _ = try HDF5File(path: path)
            } catch {
                throw ContainerError(
                    error.kind == .io ? .io : .corrupt, path, "a v7.3 MAT-file (HDF5): " + error.message)
            }
        }
        let (opened, logged) = MATLibrary.locked { () -> (OpaquePointer?, String) in
            let mat = Mat_Open(path, Int32(MAT_ACC_RDONLY.rawValue))
            return (mat, MATLibrary.loggedClause())
        }
        guard let opened else {
            let head = prefixCount > 0 ? Self.describe(prefix.prefix(min(prefixCount, 20))) : "nothing"
            throw ContainerError(
                .corrupt, path,
                "not a MAT-file libmatio can read (v4, v5, v7 or v7.3): it starts with \(head)\(logged)")
        }
        let version: Version
        let header: String
        switch MATLibrary.locked({ Mat_GetVersion(opened) }) {
        case MAT_FT_MAT4: version = .v4
        case MAT_FT_MAT73: version = .v73
        default: version = .v5
        }
        header =
            version == .v4 ? "" : String(decoding: prefix.prefix(116), as: UTF8.self).trimmingTrailingPadding()
        do {
            switch version {
            case .v4: try layout.checkVersion4()
            case .v5: try layout.checkVersion5(bigEndian: prefix[126] == UInt8(ascii: "M"))
            case .v73: break
            }
        } catch {
            MATLibrary.locked { _ = Mat_Close(opened) }
            throw error
        }
        let (infos, listed) = MATLibrary.locked { () -> ([UnsafeMutablePointer<matvar_t>], String) in
            var infos: [UnsafeMutablePointer<matvar_t>] = []
            while let info = Mat_VarReadNextInfo(opened) { infos.append(info) }
            return (infos, MATLibrary.loggedClause())
        }
        if !listed.isEmpty {
            MATLibrary.locked {
                for info in infos { Mat_VarFree(info) }
                _ = Mat_Close(opened)
            }
            let after = infos.last.map { " after variable '\(Self.name(of: $0))'" } ?? ""
            throw ContainerError(
                .corrupt, path, "libmatio cannot list the variables\(after): the file is damaged\(listed)")
        }
        self.path = path
        self.version = version
        self.header = header
        handle = opened
        self.infos = infos
        variables = MATLibrary.locked { () -> [MATVariable] in
            var variables: [MATVariable] = []
            for info in infos {
                Self.list(
                    info, path: Self.name(of: info), compressed: info.pointee.compression == MAT_COMPRESSION_ZLIB,
                    into: &variables)
            }
            return variables
        }
    }

    deinit {
        let handle = handle
        let owned = infos + Array(wholeVariables.values)
        MATLibrary.locked {
            for variable in owned { Mat_VarFree(variable) }
            _ = Mat_Close(handle)
        }
    }

    /// The catalogue entry at `path` (`x`, `bearing.gs`, `Y(7).Data`).
    /// - Throws: `ContainerError` (`.request`) listing what the file has when there is no such variable.
    func variable(_ path: String) throws(ContainerError) -> MATVariable {
        try resolve(path, in: infos).variable
    }

    /// The real numeric 1x1 arrays, and their values: what a sample rate may be read from.
    func scalars() -> [(path: String, value: Double?)] {
        variables.filter(\.isScalar).map { ($0.path, try? scalar($0.path)) }
    }

    /// The value of a real numeric 1x1 array (converted as numpy's `astype(float64)`).
    /// - Throws: `ContainerError` when there is no such variable, or it is not one real number.
    func scalar(_ path: String) throws(ContainerError) -> Double {
        let variable = try variable(path)
        guard variable.isScalar, let type = variable.matClass.sampleType else {
            throw ContainerError(
                .request, self.path,
                "'\(variable.path)' is \(variable.classDescription) \(variable.dimensionsDescription); expected one "
                    + "real number (1x1)")
        }
        var value = 0.0
        var raw: UInt64 = 0
        try withUnsafeMutableBytes(of: &raw) { bytes throws(ContainerError) in
            guard let base = bytes.baseAddress else { return }
            try readBlock(variable.path, rows: 0..<1, columns: 0..<1, into: base)
            type.convert(from: base, stride: type.width, count: 1, into: &value, step: 1)
        }
        return value
    }

    /// The sample rate in Hz from the real numeric scalar at `path` (`--rate-variable`).
    /// - Throws: `ContainerError` when `path` is nil (the message lists the file's scalars), names no
    ///   scalar, or its value is 0, negative, NaN or infinite.
    func sampleRate(variable path: String?) throws(ContainerError) -> Double {
        guard let path else {
            let found = scalars().map { "\($0.path) = \($0.value.map { "\($0)" } ?? "?")" }
            throw ContainerError(
                .request, self.path,
                "no sample rate: give one with --rate, or name the scalar that holds it with --rate-variable; "
                    + (found.isEmpty
                        ? "the file has no numeric scalars"
                        : "the file's scalars are: " + found.joined(separator: ", ")))
        }
        let rate = try scalar(path)
        guard rate.isFinite, rate > 0 else {
            throw ContainerError(
                .invalidValue, self.path, "'\(path)' is \(rate); expected a positive, finite sample rate in Hz")
        }
        return rate
    }

    /// Reads rows `rows` x columns `columns` of the 2-D real numeric array at `path` into
    /// `scratch`, column by column (MATLAB's order), in the class's own type.
    func readBlock(
        _ path: String, rows: Range<Int>, columns: Range<Int>, into scratch: UnsafeMutableRawPointer
    ) throws(ContainerError) {
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let (variable, info) = try resolve(path, in: infos)
        guard let type = variable.matClass.sampleType else { return }
        if variable.isCompressed {
            let whole = try wholeVariable(path)
            let height = variable.dimensions[0]
            guard let data = whole.pointee.data else {
                throw ContainerError(.corrupt, self.path, "libmatio read no values for '\(variable.path)'")
            }
            for (index, column) in columns.enumerated() {
                memcpy(
                    scratch + index * rows.count * type.width, data + (column * height + rows.lowerBound) * type.width,
                    rows.count * type.width)
            }
            return
        }
        if version == .v73 { return try readSlab(variable, info, rows: rows, columns: columns, into: scratch) }
        let height = variable.dimensions[0]
        guard variable.count <= Int32.max else {
            throw ContainerError(
                .unsupported, self.path,
                "'\(variable.path)' has \(variable.count) values; libmatio reads at most 2^31 - 1 values of a variable")
        }
        // Linear runs down MATLAB's columns (`Mat_VarReadDataLinear`): libmatio 1.5.23's 2-D slab
        // read (`Mat_VarReadData`) ignores the starting column of a 1 x n v5 array.
        let runs: [(start: Int, count: Int)] =
            rows.count == height
            ? [(columns.lowerBound * height, rows.count * columns.count)]
            : columns.map { ($0 * height + rows.lowerBound, rows.count) }
        let handle = handle
        var offset = 0
        for run in runs {
            let destination = scratch + offset
            let (status, logged) = MATLibrary.locked { () -> (Int32, String) in
                (
                    Mat_VarReadDataLinear(handle, info, destination, Int32(run.start), 1, Int32(run.count)),
                    MATLibrary.loggedClause()
                )
            }
            guard status == 0 else {
                throw ContainerError(
                    .corrupt, self.path,
                    "libmatio cannot read values \(run.start + 1)...\(run.start + run.count) of '\(variable.path)': the "
                        + "file is cut or damaged\(logged)")
            }
            offset += run.count * type.width
        }
    }

    /// Reads a v7.3 block with one 2-D slab read (`Mat_VarReadData`, an HDF5 hyperslab), column
    /// by column. Not the linear read: libmatio 1.5.23 makes that an HDF5 point selection, one
    /// coordinate per value, which took a third of a run's time in malloc and libhdf5's
    /// point iteration (perf, `sonde process` of a 2 x 1.6 M v7.3 matrix, `--features rms`).
    private func readSlab(
        _ variable: MATVariable, _ info: UnsafeMutablePointer<matvar_t>, rows: Range<Int>, columns: Range<Int>,
        into scratch: UnsafeMutableRawPointer
    ) throws(ContainerError) {
        guard variable.dimensions.count == 2, rows.upperBound <= Int32.max, columns.upperBound <= Int32.max else {
            throw ContainerError(
                .unsupported, path,
                "'\(variable.path)' is \(variable.dimensionsDescription); libmatio reads at most 2^31 - 1 rows and "
                    + "columns of a 2-D variable")
        }
        var start = [Int32(rows.lowerBound), Int32(columns.lowerBound)]
        var stride: [Int32] = [1, 1]
        var edge = [Int32(rows.count), Int32(columns.count)]
        let handle = handle
        let (status, logged) = MATLibrary.locked { () -> (Int32, String) in
            (Mat_VarReadData(handle, info, scratch, &start, &stride, &edge), MATLibrary.loggedClause())
        }
        guard status == 0 else {
            throw ContainerError(
                .corrupt, path,
                "libmatio cannot read rows \(rows.lowerBound + 1)...\(rows.upperBound), columns "
                    + "\(columns.lowerBound + 1)...\(columns.upperBound) of '\(variable.path)': the file is cut or "
                    + "damaged\(logged)")
        }
    }

    /// The compressed top-level variable that holds `path`, read whole (once) with libmatio, and
    /// `path` inside it.
    private func wholeVariable(_ path: String) throws(ContainerError) -> UnsafeMutablePointer<matvar_t> {
        let top = try MATPath(path, file: self.path).components[0].name
        if let whole = wholeVariables[top] { return try resolve(path, in: [whole]).matvar }
        let bytes = variables.filter { $0.path == top || $0.path.hasPrefix(top + ".") || $0.path.hasPrefix(top + "(") }
            .reduce(0) { $0 + Self.bytes(of: $1) }
        guard bytes <= Self.wholeVariableLimitBytes else {
            throw ContainerError(
                .tooLarge, self.path,
                "'\(top)' is compressed (MAT v7), and libmatio can only inflate a compressed variable whole: its "
                    + "\(bytes >> 20) MiB of values would be held in memory, more than sonde's "
                    + "\(Self.wholeVariableLimitBytes >> 20) MiB limit; save it uncompressed (MATLAB: save -v7.3, "
                    + "or -v6) to read it by slab")
        }
        let handle = handle
        let (read, logged) = MATLibrary.locked { () -> (UnsafeMutablePointer<matvar_t>?, String) in
            (Mat_VarRead(handle, top), MATLibrary.loggedClause())
        }
        guard let read, read.pointee.data != nil || read.pointee.class_type == MAT_C_STRUCT, logged.isEmpty else {
            if let read { MATLibrary.locked { Mat_VarFree(read) } }
            throw ContainerError(
                .corrupt, self.path, "libmatio cannot inflate '\(top)': its compressed data is damaged\(logged)")
        }
        wholeVariables[top] = read
        return try resolve(path, in: [read]).matvar
    }

    /// Bytes a variable's values take in memory (its class's width per element, twice when complex).
    private static func bytes(of variable: MATVariable) -> Int {
        let width: Int
        switch variable.matClass {
        case .struct, .cell, .sparse, .function, .object, .opaque, .empty: return 0
        case .logical: width = 1
        case .char: width = 2
        default: width = variable.matClass.sampleType?.width ?? 8
        }
        return variable.count.multipliedReportingOverflow(by: width * (variable.isComplex ? 2 : 1)).partialValue
    }

    /// Walks `path` from the top-level variables `roots` through struct fields and elements.
    private func resolve(
        _ text: String, in roots: [UnsafeMutablePointer<matvar_t>]
    ) throws(ContainerError) -> (variable: MATVariable, matvar: UnsafeMutablePointer<matvar_t>) {
        let path = try MATPath(text, file: self.path)
        let first = path.components[0]
        guard var current = roots.first(where: { Self.name(of: $0) == first.name }) else {
            throw ContainerError(.request, self.path, "no variable '\(text)'; the file has: \(listing())")
        }
        var canonical = first.name
        var element = first.element
        for component in path.components.dropFirst() {
            let parent = MATVariable(current, path: canonical, compressed: false)
            guard parent.matClass == .struct else {
                throw ContainerError(
                    .request, self.path,
                    "'\(canonical)' is \(parent.classDescription) \(parent.dimensionsDescription), not a struct; it has "
                        + "no field '\(component.name)'")
            }
            let elements = parent.count
            if element == nil, elements != 1 {
                throw ContainerError(
                    .request, self.path,
                    "'\(canonical)' is a \(parent.dimensionsDescription) struct array; name one element, e.g. "
                        + "\(canonical)(1).\(component.name)")
            }
            let index = element ?? 0
            guard index < elements else {
                throw ContainerError(
                    .request, self.path,
                    "'\(canonical)' has \(elements) element\(elements == 1 ? "" : "s"); element \(index + 1) does not "
                        + "exist")
            }
            if elements != 1 { canonical += "(\(index + 1))" }
            let fields = MATLibrary.locked { Self.fieldNames(of: current) }
            guard let fieldIndex = fields.firstIndex(of: component.name) else {
                throw ContainerError(
                    .request, self.path,
                    "struct '\(canonical)' has no field '\(component.name)'; its fields are: "
                        + fields.joined(separator: ", "))
            }
            let parentPointer = current
            guard
                let field = MATLibrary.locked({ Mat_VarGetStructFieldByIndex(parentPointer, fieldIndex, index) })
            else {
                throw ContainerError(
                    .corrupt, self.path, "libmatio lists no value for '\(canonical).\(component.name)'")
            }
            current = field
            canonical += "." + component.name
            element = component.element
        }
        if let element {
            let last = MATVariable(current, path: canonical, compressed: false)
            guard last.matClass == .struct else {
                throw ContainerError(
                    .request, self.path,
                    "'\(canonical)' is \(last.classDescription) \(last.dimensionsDescription); sonde reads whole "
                        + "arrays, not elements of them: drop (\(element + 1))")
            }
            canonical += "(\(element + 1))"
        }
        guard let variable = variables.first(where: { $0.path == canonical }) else {
            throw ContainerError(.request, self.path, "no variable '\(text)'; the file has: \(listing())")
        }
        return (variable, current)
    }

    /// "x (double 48x1), bearing.gs (double 60x1), ..." for messages.
    func listing() -> String {
        variables.isEmpty
            ? "no variables"
            : variables.map { "\($0.path) (\($0.classDescription) \($0.dimensionsDescription))" }.joined(
                separator: ", ")
    }

    private static func name(of variable: UnsafePointer<matvar_t>) -> String {
        variable.pointee.name.map { String(cString: $0) } ?? ""
    }

    private static func fieldNames(of variable: UnsafeMutablePointer<matvar_t>) -> [String] {
        let count = Int(Mat_VarGetNumberOfFields(variable))
        guard let names = Mat_VarGetStructFieldnames(variable) else { return [] }
        return (0..<count).map { names[$0].map { String(cString: $0) } ?? "" }
    }

    /// Appends `variable` and, for a struct, its fields, element by element. Called under the lock.
    private static func list(
        _ variable: UnsafeMutablePointer<matvar_t>, path: String, compressed: Bool, into variables: inout [MATVariable]
    ) {
        let entry = MATVariable(variable, path: path, compressed: compressed)
        variables.append(entry)
        guard entry.matClass == .struct else { return }
        let fields = fieldNames(of: variable)
        for element in 0..<entry.count {
            let prefix = entry.count == 1 ? path : "\(path)(\(element + 1))"
            for (index, field) in fields.enumerated() {
                guard let child = Mat_VarGetStructFieldByIndex(variable, index, element) else { continue }
                list(child, path: prefix + "." + field, compressed: compressed, into: &variables)
            }
        }
    }

    private static func describe(_ bytes: ArraySlice<UInt8>) -> String {
        let text = bytes.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
        return "\"\(text)\""
    }
}

extension MATVariable {
    /// The catalogue entry of a libmatio variable description.
    init(_ variable: UnsafeMutablePointer<matvar_t>, path: String, compressed: Bool) {
        let rank = Int(variable.pointee.rank)
        let dimensions = variable.pointee.dims.map { dims in (0..<rank).map { dims[$0] } } ?? []
        self.init(
            path: path, matClass: MATClass(variable), dimensions: dimensions,
            isComplex: variable.pointee.isComplex != 0,
            isCompressed: compressed)
    }
}

extension String {
    /// The text before the first NUL, without trailing spaces.
    fileprivate func trimmingTrailingPadding() -> String {
        var text = Substring(self.prefix { $0 != "\0" })
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
