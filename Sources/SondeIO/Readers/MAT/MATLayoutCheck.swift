#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Walks the top-level elements of a v4 or v5 MAT-file by their lengths, to say where a cut
/// file ends: libmatio seeks past a variable's data without checking that the file holds it.
///
/// v5 (MathWorks' "MAT-File Format", 2019): a 128-byte header, then elements, each an 8-byte
/// tag (type, byte count) and its bytes; miMATRIX elements are padded to 8 bytes, miCOMPRESSED
/// ones are not. v4: matrices, each a 20-byte header (type MOPT, rows, columns, imaginary flag,
/// name length), the name, and rows x columns values (twice when complex).
struct MATLayoutCheck {
    let path: String
    let descriptor: Int32
    let size: Int

    /// - Throws: `ContainerError` (`.corrupt`) naming the element that runs past the end.
    func checkVersion5(bigEndian: Bool) throws(ContainerError) {
        var offset = 128
        var element = 0
        while offset < size {
            guard size - offset >= 8 else {
                throw ContainerError(
                    .corrupt, path,
                    "the file is cut short: element \(element) at byte \(offset) has \(size - offset) bytes of its "
                        + "8-byte tag")
            }
            let type = try word(at: offset, bigEndian: bigEndian)
            let count = Int(try word(at: offset + 4, bigEndian: bigEndian))
            let end = offset + 8 + count
            guard end <= size else {
                throw ContainerError(
                    .corrupt, path,
                    "the file is cut short: element \(element) at byte \(offset) needs \(count) bytes after its "
                        + "tag, but only \(size - offset - 8) remain")
            }
            offset = type == 15 ? end : min((end + 7) & ~7, size)
            element += 1
        }
    }

    /// - Throws: `ContainerError` (`.corrupt`) naming the matrix that runs past the end.
    func checkVersion4() throws(ContainerError) {
        var offset = 0
        var matrix = 0
        while offset < size {
            guard size - offset >= 20 else {
                throw ContainerError(
                    .corrupt, path,
                    "the file is cut short: matrix \(matrix) at byte \(offset) has \(size - offset) bytes of its "
                        + "20-byte header")
            }
            var type = try word(at: offset, bigEndian: false)
            let bigEndian = type > 9999
            if bigEndian { type = try word(at: offset, bigEndian: true) }
            let rows = Int(try word(at: offset + 4, bigEndian: bigEndian))
            let columns = Int(try word(at: offset + 8, bigEndian: bigEndian))
            let imaginary = try word(at: offset + 12, bigEndian: bigEndian) != 0
            let nameLength = Int(try word(at: offset + 16, bigEndian: bigEndian))
            let width = [8, 4, 4, 2, 2, 1][min(Int(type / 10 % 10), 5)]
            let (values, overflow) = rows.multipliedReportingOverflow(by: columns * width * (imaginary ? 2 : 1))
            let end = offset + 20 + nameLength + values
            guard !overflow, end <= size else {
                throw ContainerError(
                    .corrupt, path,
                    "the file is cut short: matrix \(matrix) at byte \(offset) (\(rows)x\(columns)) needs "
                        + "\(20 + nameLength + values) bytes, but only \(size - offset) remain")
            }
            offset = end
            matrix += 1
        }
    }

    private func word(at offset: Int, bigEndian: Bool) throws(ContainerError) -> UInt32 {
        var value: UInt32 = 0
        let read = withUnsafeMutableBytes(of: &value) { pread(descriptor, $0.baseAddress, 4, off_t(offset)) }
        guard read == 4 else {
            throw ContainerError(.io, path, "cannot read byte \(offset): \(String(cString: strerror(errno)))")
        }
        return bigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value)
    }
}
