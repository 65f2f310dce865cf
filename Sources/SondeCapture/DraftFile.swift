import Foundation
import SondeAccounts
import SondeCore
import SondeMeasurements

#if canImport(Glibc)
    import Glibc
#endif

/// A draft on disk: one JSON line (the draft and the batches' shared fields, doubles as
/// their bit patterns so nothing is rounded), then each batch as its first frame, its
/// frame count and its values, little-endian. Written to a temporary name, synced and
/// renamed, so a crash leaves the old file or the whole new one.
enum DraftFile {
    // `Header` (DraftFile+Header.swift): the JSON line before the records.

    static func write(_ draft: CaptureDraft, batches: [RecordBatch], to url: URL) throws {
        var bytes = try headerLine(draft, first: batches.first, batches: batches.count)
        bytes += records(batches)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(draft.id).partial")
        // POSIX calls, so a full disk (ENOSPC) or a file-size limit (EFBIG) is named in the
        // message, and the partial file never stays behind.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot write the draft \(temporary.path)") }
        let written = writeAll(descriptor, bytes) && fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard written, rename(temporary.path, url.path) == 0 else {
            let renameCode = written ? errno : code
            unlink(temporary.path)
            throw SondeError(
                .io,
                "cannot write the draft \(url.path): \(String(cString: strerror(renameCode))); its records stay in the server's memory and it tries again"
            )
        }
    }

    /// Writes every byte (a short write continues; a failed one gives false, errno set).
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress.map { $0 + done }, bytes.count - done)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    static func failure(_ what: String) -> SondeError {
        SondeError(.io, "\(what): \(String(cString: strerror(errno)))")
    }

    /// The header line of `draft` (its batches' shared fields taken from `first`).
    static func headerLine(_ draft: CaptureDraft, first: RecordBatch?, batches: Int) throws -> [UInt8] {
        let clock: (String, Double, Double) =
            switch first?.clock {
            case .seconds(let rate, let offset): ("seconds", rate, offset)
            case .wallClock(let rate, let epoch): ("wallClock", rate, epoch)
            case nil: ("seconds", 1, 0)
            }
        let header = Header(
            id: draft.id, owner: draft.owner.rawValue, deviceID: draft.capture.deviceID,
            settings: draft.capture.settings, channelNames: draft.capture.channelNames,
            columns: draft.capture.columns, recordedAtBits: draft.capture.recordedAt?.bitPattern,
            frames: draft.frames, endedAtBits: draft.endedAt.bitPattern, reason: draft.reason,
            fileName: first?.fileName ?? draft.capture.deviceID, hop: first?.hop ?? 1, clock: clock.0,
            clockRateBits: clock.1.bitPattern, clockOffsetBits: clock.2.bitPattern, batches: batches)
        var bytes = Array(header.json.text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Each batch as its first frame, frame count, value count and values.
    static func records(_ batches: [RecordBatch]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(batches.reduce(0) { $0 + 24 + $1.values.count * 8 })
        for batch in batches {
            append(UInt64(batch.firstFrame), to: &bytes)
            append(UInt64(batch.frameCount), to: &bytes)
            append(UInt64(batch.values.count), to: &bytes)
            for value in batch.values { append(value.bitPattern, to: &bytes) }
        }
        return bytes
    }

    /// A journal (`DraftJournal`): a header line, then as many whole batches as were
    /// written before the process ended; a batch cut short at the end is left out.
    static func readJournal(_ url: URL) throws -> (CaptureDraft, [RecordBatch]) {
        try read(url, journal: true)
    }

    /// The draft a file holds, without its records.
    static func readDraft(_ url: URL) throws -> CaptureDraft {
        let (header, _) = try readHeader(Data(contentsOf: url), url: url)
        return draft(header)
    }

    /// The draft and its records.
    static func read(_ url: URL, journal: Bool = false) throws -> (CaptureDraft, [RecordBatch]) {
        let data = try Data(contentsOf: url)
        let (header, start) = try readHeader(data, url: url)
        let bytes = [UInt8](data)
        var offset = start
        let rate = Double(bitPattern: header.clockRateBits), second = Double(bitPattern: header.clockOffsetBits)
        let clock: RecordClock =
            header.clock == "wallClock"
            ? .wallClock(sampleRate: rate, epochOfFirstSample: second) : .seconds(sampleRate: rate, offset: second)
        var batches: [RecordBatch] = []
        while journal ? offset < bytes.count : batches.count < header.batches {
            let batchStart = offset
            guard let firstFrame = next(bytes, &offset), let frameCount = next(bytes, &offset),
                let count = next(bytes, &offset),
                count == frameCount &* UInt64(header.channelNames.count) &* UInt64(header.columns.count),
                UInt64(bytes.count - offset) >= count &* 8
            else {
                // A journal's last batch may be cut short by the crash: it ends before it.
                if journal {
                    offset = batchStart
                    break
                }
                throw damaged(url, "its records end early")
            }
            var values = [Double](repeating: 0, count: Int(count))
            for index in values.indices {
                values[index] = Double(bitPattern: next(bytes, &offset) ?? 0)
            }
            batches.append(
                RecordBatch(
                    fileName: header.fileName, channelNames: header.channelNames, columnCount: header.columns.count,
                    firstFrame: Int(firstFrame), frameCount: Int(frameCount), hop: header.hop, clock: clock,
                    values: values))
        }
        guard journal || offset == bytes.count else { throw damaged(url, "bytes follow its last record") }
        var found = draft(header)
        if journal { found.frames = batches.reduce(0) { $0 + $1.frameCount } }
        return (found, batches)
    }

    private static func readHeader(_ data: Data, url: URL) throws -> (Header, Int) {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { throw damaged(url, "no header line") }
        guard
            let header = try? JSONText.read(
                data[data.startIndex..<newline], what: url.path, { try Header(reading: &$0) })
        else { throw damaged(url, "its header is not a draft's") }
        guard header.format == 1, header.id == url.deletingPathExtension().lastPathComponent else {
            throw damaged(url, "an unknown format or another draft's id")
        }
        return (header, newline - data.startIndex + 1)
    }

    private static func draft(_ header: Header) -> CaptureDraft {
        CaptureDraft(
            id: header.id, owner: UserID(header.owner),
            capture: MeasurementCapture(
                deviceID: header.deviceID, settings: header.settings, comment: "", channelNames: header.channelNames,
                columns: header.columns, recordedAt: header.recordedAtBits.map(Double.init(bitPattern:))),
            frames: header.frames, endedAt: Double(bitPattern: header.endedAtBits), reason: header.reason)
    }

    private static func damaged(_ url: URL, _ what: String) -> SondeError {
        SondeError(.invalidInput, "\(url.path): a damaged draft (\(what)); it is kept as it is")
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func next(_ bytes: [UInt8], _ offset: inout Int) -> UInt64? {
        guard bytes.count - offset >= 8 else { return nil }
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[offset + shift]) << (8 * shift) }
        offset += 8
        return value
    }
}
