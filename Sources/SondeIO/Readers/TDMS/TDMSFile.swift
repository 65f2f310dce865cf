#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A National Instruments TDMS file: its channels listed from the segments' metadata, their
/// values read on request.
///
/// The layout is NI's "TDMS File Format Internal Structure" (ni.com, document 5696), checked
/// against npTDMS 1.13.0's reader (`nptdms/reader.py`, `nptdms/tdms_segment.py`), whose arrays
/// the tests match bit for bit (Tests/Fixtures/tdms/generate_tdms.py).
///
/// Supported:
/// - segments: the 28-byte lead-in ("TDSm", table of contents, version 4712 or 4713, the
///   next-segment and raw-data offsets), little- and big-endian (`kTocBigEndian`) segments;
/// - incremental metadata: `kTocMetaData`, `kTocNewObjList`, raw data index 0x00000000 (as in
///   the last segment that had the object) and 0xFFFFFFFF (no data in this segment), segments
///   without metadata, channels added in later segments, properties updated by later segments;
/// - raw data contiguous (chunks repeating within a segment) or interleaved (`kTocInterleavedData`);
/// - samples of the numeric types I8, I16, I32, I64, U8, U16, U32, U64, SGL, DBL (and SGL/DBL
///   with unit), converted to Double as numpy's `astype(float64)` does (64-bit integers round to
///   nearest);
/// - channels named "group/channel"; `wf_increment` gives the sample rate, `wf_start_time` the start;
/// - a last segment whose next-segment offset is 0xFFFFFFFFFFFFFFFF (its writer stopped): read to
///   the end of the file as npTDMS reads it, whole chunks and the values of a partial last chunk
///   (whole frames when interleaved), said in `notes`.
///
/// Listed but refused when read: String, Boolean, TimeStamp and complex channels, and channels
/// with NI scaling (`NI_Number_Of_Scales`/`NI_Scale[n]_Scale_Type` and `NI_Scaling_Status` not
/// "scaled" on the channel, its group or the file), whose values npTDMS would scale.
///
/// Refused when opened: DAQmx raw data (`kTocDAQmxRawData`, raw data index 0x69120000/0x69130000
/// as bytes), EXT and unknown data types, and corrupt or truncated files: a wrong tag or version,
/// a lead-in cut short, a segment that ends past the end of the file, a raw data offset past the
/// segment's end, raw data that is not a whole number of chunks, metadata that overruns the raw
/// data offset. npTDMS reads the truncated cases as far as it can; sonde, which would measure
/// them, says where the file is broken instead. Index files (`.tdms_index`) are not used.
///
/// Memory grows with the number of segments (a run per channel per segment), not with samples;
/// `TDMSChannelReader` reads values with `pread` in slabs (64 KiB by default).
final class TDMSFile: Sendable {
    /// The path the file was opened by, as given.
    let path: String
    /// The file's size in bytes when it was opened.
    let size: Int
    /// The first segment's version: 4712 (TDMS 1.0) or 4713 (TDMS 2.0).
    let version: Int32
    let segmentCount: Int
    /// Channels, group by group, in the order npTDMS lists them.
    let channels: [TDMSChannel]
    /// Group names in the order they first appear.
    let groups: [String]
    let groupProperties: [String: [String: TDMSPropertyValue]]
    /// The root object's properties.
    let fileProperties: [String: TDMSPropertyValue]
    /// What the reader did that a user should know: a last segment read to the end of the file.
    let notes: [String]
    let descriptor: Int32

    /// Opens the file and parses every segment's metadata; no samples are read.
    /// - Throws: `ContainerError` naming the file, the segment and the byte where it is broken.
    init(path: String) throws(ContainerError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ContainerError(.io, path, "cannot open the file: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw ContainerError(.io, path, "expected a regular file (TDMS is read by offset)")
        }
        var parser = TDMSIndexParser(path: path, descriptor: descriptor, size: Int(status.st_size))
        do {
            try parser.parse()
        } catch {
            close(descriptor)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
        size = Int(status.st_size)
        version = parser.version ?? 4713
        segmentCount = parser.segmentCount
        channels = parser.channels
        groups = parser.groups
        groupProperties = parser.groupProperties
        fileProperties = parser.fileProperties
        notes = parser.notes
    }

    deinit { close(descriptor) }

    /// The index in `channels` of the channel named "group/channel".
    /// - Throws: `ContainerError` listing the channels the file has.
    func channelIndex(named name: String) throws(ContainerError) -> Int {
        if let index = channels.firstIndex(where: { $0.path == name }) { return index }
        let names = channels.isEmpty ? "none" : channels.map(\.path).joined(separator: ", ")
        throw ContainerError(.request, path, "no channel '\(name)'; the file's channels are: \(names)")
    }

    /// The sample rate in Hz, 1 / `wf_increment`, of channels read together; nil when none has
    /// the property.
    /// - Throws: `ContainerError` when an increment is 0, negative, NaN or infinite, or two differ.
    func sampleRate(ofChannels selection: [Int]) throws(ContainerError) -> Double? {
        var found: (increment: Double, channel: TDMSChannel)?
        for index in selection where channels.indices.contains(index) {
            let channel = channels[index]
            guard let increment = channel.waveformIncrement else { continue }
            guard increment.isFinite, increment > 0 else {
                throw ContainerError(
                    .invalidValue, path,
                    "channel '\(channel.path)' has wf_increment \(increment); expected a positive, finite "
                        + "interval in seconds (the sample rate is its inverse)")
            }
            if let found, found.increment != increment {
                throw ContainerError(
                    .request, path,
                    "channels '\(found.channel.path)' (wf_increment \(found.increment) s) and '\(channel.path)' "
                        + "(\(increment) s) have different sample rates; expected one rate for channels read together")
            }
            found = (increment, channel)
        }
        return found.map { 1 / $0.increment }
    }

    /// Reads frames of the selected channels, interleaved in the order given, starting at `frame`.
    /// - Parameters:
    ///   - selection: indexes in `channels`, each numeric, unscaled, non-empty, all of one length.
    ///   - frame: the first frame, 0 ... the channels' length.
    ///   - buffer: room for `buffer.count / selection.count` frames.
    /// - Returns: frames written, 0 at the end.
    func read(
        channels selection: [Int], from frame: Int, into buffer: UnsafeMutableBufferPointer<Double>
    ) throws(ContainerError) -> Int {
        try TDMSChannelReader(file: self, channels: selection).read(from: frame, into: buffer)
    }

    /// `pread`s exactly `buffer.count` bytes at `offset`, retrying interrupted and short reads.
    static func readFully(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String, segment: Int
    ) throws(ContainerError) {
        var done = 0
        while done < buffer.count {
            let result = pread(
                descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(offset + done))
            if result > 0 {
                done += result
            } else if result == 0 {
                throw ContainerError(
                    .io, path, segment: segment, offset: offset + done,
                    "the file ends here; expected \(buffer.count - done) more bytes (was it cut while sonde read it?)")
            } else if errno != EINTR {
                throw ContainerError(
                    .io, path, segment: segment, offset: offset + done,
                    "cannot read: \(String(cString: strerror(errno)))")
            }
        }
    }
}
