/// Reads a set of a TDMS file's channels as interleaved Double frames, from any frame, in slabs.
///
/// Each selected channel is read run by run (`TDMSRun`): a `pread` of at most `slabBytes`
/// brings its values (contiguous within a chunk, or a frame apart when interleaved) into one
/// scratch buffer, and a loop per type converts them into the caller's buffer with the frame's
/// stride. Nothing is allocated per sample; memory is the scratch buffer whatever the file's size.
final class TDMSChannelReader {
    /// Bytes per `pread` by default: large enough that the system call costs little per value.
    static let defaultSlabBytes = 1 << 16

    let file: TDMSFile
    let selection: [Int]
    /// The selected channels' common length.
    let frameCount: Int
    /// Bytes per `pread`, at least 16 (the widest value).
    let slabBytes: Int
    private let scratch: UnsafeMutableRawBufferPointer

    /// - Throws: `ContainerError` when a channel does not exist, is not numeric, carries NI scaling,
    ///   has no values, or differs in length from another.
    /// - Parameter slabBytes: bytes per `pread`, >= 16; the tests make it small to cross slabs.
    init(file: TDMSFile, channels selection: [Int], slabBytes: Int = defaultSlabBytes) throws(ContainerError) {
        guard !selection.isEmpty else {
            throw ContainerError(.request, file.path, "no channels selected; expected at least one")
        }
        var length: (count: Int, channel: TDMSChannel)?
        for index in selection {
            guard file.channels.indices.contains(index) else {
                throw ContainerError(
                    .request, file.path,
                    "no channel number \(index); the file has \(file.channels.count): "
                        + file.channels.map(\.path).joined(separator: ", "))
            }
            let channel = file.channels[index]
            guard channel.dataType.isNumeric || channel.dataType == .void else {
                throw ContainerError(
                    .unsupported, file.path,
                    "channel '\(channel.path)' holds \(channel.dataType.name) values; sonde reads numeric channels "
                        + "only (I8..I64, U8..U64, SGL, DBL)")
            }
            if let scaling = Self.scaling(of: channel, in: file) {
                throw ContainerError(
                    .unsupported, file.path,
                    "channel '\(channel.path)' carries NI scaling (\(scaling)) that sonde does not apply; npTDMS "
                        + "would return scaled values: store them scaled (NI_Scaling_Status \"scaled\") instead")
            }
            guard channel.count > 0 else {
                throw ContainerError(
                    .invalidValue, file.path, "channel '\(channel.path)' has no values; expected at least one")
            }
            if let length, length.count != channel.count {
                throw ContainerError(
                    .request, file.path,
                    "channels '\(length.channel.path)' (\(length.count) values) and '\(channel.path)' "
                        + "(\(channel.count) values) differ in length; expected channels read together to have "
                        + "the same number of values")
            }
            length = (channel.count, channel)
        }
        self.file = file
        self.selection = selection
        frameCount = length?.count ?? 0
        self.slabBytes = max(slabBytes, 16)
        scratch = .allocate(byteCount: self.slabBytes, alignment: 16)
    }

    deinit { scratch.deallocate() }

    /// Reads frames from `frame` on, as many as fit in `buffer` (`buffer.count / selection.count`).
    /// - Returns: frames written; 0 when `frame == frameCount`.
    func read(from frame: Int, into buffer: UnsafeMutableBufferPointer<Double>) throws(ContainerError) -> Int {
        guard frame >= 0, frame <= frameCount else {
            throw ContainerError(
                .request, file.path, "frame \(frame) is outside the channels' 0...\(frameCount); expected one inside")
        }
        let step = selection.count
        let frames = min(buffer.count / step, frameCount - frame)
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        for (column, index) in selection.enumerated() {
            try read(file.channels[index], from: frame, count: frames, into: base + column, step: step)
        }
        return frames
    }

    /// Reads `count` values of one channel from `first` on into `destination[0]`, `[step]`, ...
    private func read(
        _ channel: TDMSChannel, from first: Int, count: Int, into destination: UnsafeMutablePointer<Double>, step: Int
    ) throws(ContainerError) {
        guard let width = channel.dataType.width, width > 0 else { return }
        let runs = channel.runs
        // The last run starting at or before `first`.
        var low = 0
        var high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if runs[middle].firstValue <= first { low = middle } else { high = middle - 1 }
        }
        var runIndex = low
        var value = first
        var done = 0
        while done < count {
            let run = runs[runIndex]
            let inRun = value - run.firstValue
            let (chunk, inChunk) = inRun.quotientAndRemainder(dividingBy: run.valuesPerChunk)
            let fitting = (slabBytes - width) / run.valueStride + 1
            let values = min(run.valuesPerChunk - inChunk, run.count - inRun, count - done, fitting)
            let offset = run.offset + chunk * run.chunkBytes + inChunk * run.valueStride
            let bytes = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<((values - 1) * run.valueStride + width)])
            try TDMSFile.readFully(file.descriptor, into: bytes, at: offset, path: file.path, segment: run.segment)
            Self.convert(
                channel.dataType, from: UnsafeRawPointer(scratch.baseAddress.unsafelyUnwrapped),
                stride: run.valueStride,
                count: values, bigEndian: run.bigEndian, into: destination + done * step, step: step)
            done += values
            value += values
            if inRun + values == run.count { runIndex += 1 }
        }
    }

    /// Converts `count` values `stride` bytes apart into every `step`-th Double.
    static func convert(
        _ type: TDMSDataType, from source: UnsafeRawPointer, stride: Int, count: Int, bigEndian: Bool,
        into destination: UnsafeMutablePointer<Double>, step: Int
    ) {
        switch type {
        case .int8: widen(Int8.self, source, stride, count, bigEndian, destination, step)
        case .int16: widen(Int16.self, source, stride, count, bigEndian, destination, step)
        case .int32: widen(Int32.self, source, stride, count, bigEndian, destination, step)
        case .int64: widen(Int64.self, source, stride, count, bigEndian, destination, step)
        case .uint8: widen(UInt8.self, source, stride, count, bigEndian, destination, step)
        case .uint16: widen(UInt16.self, source, stride, count, bigEndian, destination, step)
        case .uint32: widen(UInt32.self, source, stride, count, bigEndian, destination, step)
        case .uint64: widen(UInt64.self, source, stride, count, bigEndian, destination, step)
        case .float32, .float32WithUnit:
            for index in 0..<count {
                let raw = source.loadUnaligned(fromByteOffset: index &* stride, as: UInt32.self)
                let bits = bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
                destination[index &* step] = Double(Float(bitPattern: bits))
            }
        case .float64, .float64WithUnit:
            for index in 0..<count {
                let raw = source.loadUnaligned(fromByteOffset: index &* stride, as: UInt64.self)
                destination[index &* step] = Double(
                    bitPattern: bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw))
            }
        default:
            break
        }
    }

    /// Integers to Double rounding to nearest, as numpy's `astype(float64)` does.
    @inline(__always)
    private static func widen<T: FixedWidthInteger>(
        _: T.Type, _ source: UnsafeRawPointer, _ stride: Int, _ count: Int, _ bigEndian: Bool,
        _ destination: UnsafeMutablePointer<Double>, _ step: Int
    ) {
        if bigEndian {
            for index in 0..<count {
                destination[index &* step] = Double(
                    T(bigEndian: source.loadUnaligned(fromByteOffset: index &* stride, as: T.self)))
            }
        } else {
            for index in 0..<count {
                destination[index &* step] = Double(
                    T(littleEndian: source.loadUnaligned(fromByteOffset: index &* stride, as: T.self)))
            }
        }
    }

    /// npTDMS's `get_scaling`: the first of the channel, its group and the file whose properties
    /// declare scales (`NI_Number_Of_Scales`, else `NI_Scale[n]_Scale_Type`) not marked "scaled".
    static func scaling(of channel: TDMSChannel, in file: TDMSFile) -> String? {
        let levels = [
            ("on the channel", channel.properties), ("on its group", file.groupProperties[channel.group] ?? [:]),
            ("on the file", file.fileProperties),
        ]
        for (place, properties) in levels {
            var scales = properties["NI_Number_Of_Scales"]?.number.map { Int($0) }
            if scales == nil {
                let indexes = properties.keys.compactMap { key -> Int? in
                    guard key.hasPrefix("NI_Scale["), key.hasSuffix("]_Scale_Type") else { return nil }
                    return Int(key.dropFirst(9).dropLast(12))
                }
                scales = indexes.max().map { $0 + 1 }
            }
            guard let count = scales, count > 0, properties["NI_Scaling_Status"] != .string("scaled") else { continue }
            let type = properties["NI_Scale[0]_Scale_Type"].map { value -> String in
                if case .string(let name) = value { name } else { "?" }
            }
            return "\(count) scale\(count == 1 ? "" : "s")" + (type.map { ", the first \($0)" } ?? "") + ", \(place)"
        }
        return nil
    }
}
