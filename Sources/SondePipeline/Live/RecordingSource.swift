public import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Passes another source's samples through and writes them to a raw file as they go
/// (`--record`), so a live run can be measured again with `sonde process`.
///
/// `f32le` holds the simulated device's samples exactly (they are 32-bit floats); `f64le`
/// holds any source exactly.
public final class RecordingSource: SampleSource {
    public var format: StreamFormat { base.format }
    public var notes: [String] { base.notes }
    public var expectedFrames: Int? { base.expectedFrames }
    private let base: any SampleSource
    private let sampleFormat: SampleFormat
    private let descriptor: Int32
    private let path: String
    private var bytes: [UInt8] = []

    /// - Throws: `SondeError` for a type other than f32le/f64le or a file that cannot be created.
    public init(base: any SampleSource, path: String, sampleFormat: SampleFormat) throws {
        guard sampleFormat == .f32le || sampleFormat == .f64le else {
            throw SondeError(
                .unsupported, "--record \(path): recordings are f32le or f64le (name the file .f32 or .f64)")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw SondeError(.io, "--record \(path): \(String(cString: strerror(errno)))")
        }
        self.base = base
        self.sampleFormat = sampleFormat
        self.path = path
        descriptor = fd
    }

    deinit { close(descriptor) }

    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let frames = try base.read(into: buffer)
        let count = frames * format.channelCount
        bytes.removeAll(keepingCapacity: true)
        for i in 0..<count {
            switch sampleFormat {
            case .f32le: withUnsafeBytes(of: Float(buffer[i]).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            default: withUnsafeBytes(of: buffer[i].bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        do {
            try bytes.withUnsafeBytes { try SystemCall.writeAll(descriptor, $0) }
        } catch {
            throw SondeError(.io, "--record \(path): \(error)")
        }
        return frames
    }
}
