/// Reads a MAT-file's chosen variables as channels of interleaved Double frames, from any frame,
/// in slabs.
///
/// Each variable's channels are read together: one `Mat_VarReadData` of the block of rows (or
/// columns) that the slab's frames and the variable's chosen channels span, into one scratch
/// buffer in the class's own type, then converted into the caller's buffer with the frame's
/// stride. Memory is the scratch buffer (`slabBytes`, or one frame of a variable when that is
/// wider), not the file; a compressed (v7) variable is the exception `MATFile` describes.
final class MATChannelReader {
    /// Bytes of scratch per `Mat_VarReadData` by default.
    static let defaultSlabBytes = 1 << 20

    let file: MATFile
    let channels: [MATChannel]
    /// The channels' common length.
    let frameCount: Int
    /// What a user should know about the choice: which variables were taken and which skipped.
    let notes: [String]
    let slabBytes: Int
    /// Runs of consecutive channels of one variable, read in one call.
    private let groups: [(variable: String, first: Int, channels: Range<Int>)]
    private var scratch: UnsafeMutableRawBufferPointer

    /// - Parameters:
    ///   - variables: paths of the variables to read (`x`, `bearing.gs`, `Y(7).Data`), each a
    ///     vector (one channel) or a matrix (a channel per column or row, as `orientation` says);
    ///     nil for the default: every readable array of the file's most common length.
    ///   - slabBytes: scratch bytes per library call; the tests make it small to cross slabs.
    /// - Throws: `ContainerError` when a variable does not exist (the message lists those that do), is
    ///   not a real numeric vector or matrix, is empty, or differs in length from another.
    init(
        file: MATFile, variables: [String]?, orientation: ArrayOrientation = .longerDimension,
        slabBytes: Int = defaultSlabBytes
    ) throws(ContainerError) {
        var notes: [String] = []
        let chosen: [MATVariable]
        if let variables {
            guard !variables.isEmpty else {
                throw ContainerError(.request, file.path, "no variables chosen; expected at least one")
            }
            chosen = try variables.map { name throws(ContainerError) in try file.variable(name) }
        } else {
            (chosen, notes) = try Self.defaultChoice(file, orientation: orientation)
        }
        var channels: [MATChannel] = []
        var groups: [(variable: String, first: Int, channels: Range<Int>)] = []
        for variable in chosen {
            if let refusal = variable.refusal {
                throw ContainerError(
                    variable.count == 0 && variable.matClass.sampleType != nil ? .invalidValue : .unsupported,
                    file.path, "'\(variable.path)' \(refusal)")
            }
            let own = MATChannel.channels(of: variable, orientation: orientation)
            if let first = channels.first, let other = own.first, first.count != other.count {
                throw ContainerError(
                    .request, file.path,
                    "channels '\(first.name)' (\(first.count) samples) and '\(other.name)' (\(other.count) samples) "
                        + "differ in length; expected channels read together to have the same number of samples")
            }
            groups.append((variable.path, channels.count, 0..<own.count))
            channels += own
        }
        self.file = file
        self.channels = channels
        self.groups = groups
        self.notes = notes
        frameCount = channels.first?.count ?? 0
        self.slabBytes = max(slabBytes, 8)
        scratch = .allocate(byteCount: self.slabBytes, alignment: 16)
    }

    deinit { scratch.deallocate() }

    /// Every readable array (real numeric, non-empty, not 1x1) whose sample count is the most
    /// common among them (the longer on a tie), and a note of what was taken and what skipped.
    static func defaultChoice(
        _ file: MATFile, orientation: ArrayOrientation
    ) throws(ContainerError) -> ([MATVariable], [String]) {
        let arrays = file.variables.filter { $0.refusal == nil && $0.count > 1 }
        let length = { (variable: MATVariable) in MATChannel.channels(of: variable, orientation: orientation)[0].count }
        let counts = Dictionary(grouping: arrays, by: length).mapValues(\.count)
        guard let best = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key else {
            throw ContainerError(
                .request, file.path, "no numeric vector or matrix to read; the file has: \(file.listing())")
        }
        let taken = arrays.filter { length($0) == best }
        let skipped = file.variables.filter { variable in
            !taken.contains(variable) && !variable.isScalar && variable.matClass != .struct
        }.map { variable in
            if variable.refusal != nil { return "\(variable.path) (\(variable.classDescription))" }
            return "\(variable.path) (\(length(variable)) samples)"
        }
        var note = "read \(taken.map(\.path).joined(separator: ", ")) (\(best) samples each)"
        if !skipped.isEmpty { note += "; skipped " + skipped.joined(separator: ", ") }
        return (taken, [note + "; choose with --variables"])
    }

    /// Reads frames from `frame` on, as many as fit in `buffer` (`buffer.count / channels.count`).
    /// - Returns: frames written; 0 when `frame == frameCount`.
    func read(from frame: Int, into buffer: UnsafeMutableBufferPointer<Double>) throws(ContainerError) -> Int {
        guard frame >= 0, frame <= frameCount else {
            throw ContainerError(
                .request, file.path, "frame \(frame) is outside the channels' 0...\(frameCount); expected one inside")
        }
        let step = channels.count
        let frames = min(buffer.count / step, frameCount - frame)
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        for group in groups {
            let first = channels[group.first]
            let span = group.channels.count
            // The variable's channels are consecutive rows or columns: read them all at once.
            let perFrame = first.type.width * span
            let slabFrames = max(1, slabBytes / perFrame)
            if slabFrames * perFrame > scratch.count {
                scratch.deallocate()
                scratch = .allocate(byteCount: slabFrames * perFrame, alignment: 16)
            }
            guard let scratchBase = scratch.baseAddress else { continue }
            var done = 0
            while done < frames {
                let count = min(slabFrames, frames - done)
                let samples = (frame + done)..<(frame + done + count)
                let lines = first.index..<(first.index + span)
                if first.samplesAlongRows {
                    try file.readBlock(group.variable, rows: samples, columns: lines, into: scratchBase)
                } else {
                    try file.readBlock(group.variable, rows: lines, columns: samples, into: scratchBase)
                }
                for offset in 0..<span {
                    // Column-major block: down a column is contiguous.
                    let start = first.samplesAlongRows ? offset * count : offset
                    let stride = first.samplesAlongRows ? 1 : span
                    first.type.convert(
                        from: scratchBase + start * first.type.width, stride: stride * first.type.width, count: count,
                        into: base + done * step + group.first + offset, step: step)
                }
                done += count
            }
        }
        return frames
    }
}
