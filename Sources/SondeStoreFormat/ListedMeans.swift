package import Foundation
import SondeCore
package import SondeMeasurements

/// A summary's listed part (`MeasurementListing.listedPart`) as bytes, the `listed_means`
/// column of both engines: a list of 10,000 measurements spent a sixth of its time reading
/// the same part as JSON (17-digit numbers scanned back to the doubles they came from).
///
/// Layout, little-endian: a format byte (1, never JSON's `{`), the window count (Int64),
/// the column count (UInt32) and each column's name, the channel count (UInt32) and per
/// channel its name and mean count (UInt32) and means (binary64 bits, exact, NaN kept). A
/// name is its UTF-8 byte count (UInt32) and bytes.
package enum ListedMeans {
    static let format: UInt8 = 1

    /// The listed part of `summary` (its shown columns only), as bytes.
    package static func encode(listedPartOf summary: MeasurementSummary) -> Data {
        let listed = MeasurementListing.listedPart(of: summary)
        var bytes: [UInt8] = [format]
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func append(name: String) {
            append(UInt32(name.utf8.count))
            bytes.append(contentsOf: name.utf8)
        }
        append(Int64(listed.frameCount))
        append(UInt32(listed.columns.count))
        for column in listed.columns { append(name: column) }
        append(UInt32(listed.channels.count))
        for channel in listed.channels {
            append(name: channel.name)
            append(UInt32(channel.means.count))
            for mean in channel.means { append(mean.bitPattern) }
        }
        return Data(bytes)
    }

    /// Whether `bytes` are in this layout rather than JSON (a summary read in their place).
    package static func holds(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.first == format
    }

    /// The window count and each channel's means paired with their columns, as
    /// `MeasurementListing` shows them (a channel with more means than columns shows the
    /// first ones).
    /// - Parameter columns: the previous row's columns, kept as they are when this row has
    ///   the same (rows share them: no name made again).
    /// - Throws: `SondeError(.invalidInput)` when the bytes end early or spell something else.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, columns: inout [String]
    ) throws -> (frames: Int, channels: [MeasurementListing.Channel]) {
        var reader = Reader(bytes: bytes)
        guard try reader.integer(UInt8.self) == format else { throw reader.failure("an unknown format") }
        let frames = try reader.integer(Int64.self)
        let columnCount = try reader.count()
        if columns.count != columnCount { columns = Array(repeating: "", count: columnCount) }
        for index in 0..<columnCount {
            let name = try reader.name()
            // Compared with memcmp: `utf8.elementsEqual` took two fifths of reading the means (perf).
            let same = columns[index].withUTF8 { kept in
                guard kept.count == name.count else { return false }
                guard let keptStart = kept.baseAddress, let nameStart = name.baseAddress else { return true }
                return memcmp(keptStart, nameStart, name.count) == 0
            }
            if !same { columns[index] = String(decoding: name, as: UTF8.self) }
        }
        let channelCount = try reader.count()
        var channels: [MeasurementListing.Channel] = []
        channels.reserveCapacity(channelCount)
        for _ in 0..<channelCount {
            let name = String(decoding: try reader.name(), as: UTF8.self)
            let meanCount = try reader.count()
            var values: [MeasurementListing.MainValue] = []
            values.reserveCapacity(min(meanCount, columnCount))
            for index in 0..<meanCount {
                let mean = Double(bitPattern: try reader.integer(UInt64.self))
                if index < columnCount { values.append(.init(column: columns[index], mean: mean)) }
            }
            channels.append(.init(name: name, values: values))
        }
        guard reader.offset == bytes.count else { throw reader.failure("bytes after the last channel") }
        return (Int(frames), channels)
    }

    /// Reads the layout front to back, every read bounded by the bytes.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
            guard bytes.count - offset >= MemoryLayout<T>.size else { throw failure("bytes that end early") }
            defer { offset += MemoryLayout<T>.size }
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }

        /// A count of names or means, each at least a byte: more than the bytes left is damage.
        mutating func count() throws -> Int {
            let count = Int(try integer(UInt32.self))
            guard count <= bytes.count - offset else { throw failure("a count of \(count)") }
            return count
        }

        /// A name's UTF-8 bytes, where they lie.
        mutating func name() throws -> UnsafeRawBufferPointer {
            let count = Int(try integer(UInt32.self))
            guard bytes.count - offset >= count else { throw failure("a name that ends early") }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        func failure(_ what: String) -> SondeError {
            SondeError(.invalidInput, "a listed part with \(what) at byte \(offset)")
        }
    }
}
