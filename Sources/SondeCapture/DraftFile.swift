import Foundation
import SondeAccounts
import SondeCore
import SondeMeasurements

/// A draft on disk: one JSON line (the draft and the batches' shared fields, doubles as
/// their bit patterns so nothing is rounded), then each batch as its first frame, its
/// frame count and its values, little-endian. Written to a temporary name, synced and
/// renamed, so a crash leaves the old file or the whole new one.
enum DraftFile {
    struct Header: Codable {
        var format = 1
        var id: String
        var owner: Int64
        var deviceID: String
        var settings: String
        var channelNames: [String]
        var columns: [String]
        var recordedAtBits: UInt64?
        var frames: Int
        var endedAtBits: UInt64
        var reason: String
        var fileName: String
        var hop: Int
        /// "seconds" or "wallClock", with the clock's rate and offset or epoch.
        var clock: String
        var clockRateBits: UInt64
        var clockOffsetBits: UInt64
        var batches: Int
    }

    static func write(_ draft: CaptureDraft, batches: [RecordBatch], to url: URL) throws {
        let first = batches.first
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
            clockRateBits: clock.1.bitPattern, clockOffsetBits: clock.2.bitPattern, batches: batches.count)
        var bytes = [UInt8](try JSONEncoder().encode(header))
        bytes.append(UInt8(ascii: "\n"))
        for batch in batches {
            append(UInt64(batch.firstFrame), to: &bytes)
            append(UInt64(batch.frameCount), to: &bytes)
            append(UInt64(batch.values.count), to: &bytes)
            bytes.reserveCapacity(bytes.count + batch.values.count * 8)
            for value in batch.values { append(value.bitPattern, to: &bytes) }
        }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(draft.id).partial")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)) else {
            throw SondeError(.io, "cannot write the draft \(temporary.path)")
        }
        let handle = try FileHandle(forUpdating: temporary)
        try handle.synchronize()
        try handle.close()
        if rename(temporary.path, url.path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw SondeError(.io, "cannot keep the draft \(url.path): \(String(cString: strerror(code)))")
        }
    }

    /// The draft a file holds, without its records.
    static func readDraft(_ url: URL) throws -> CaptureDraft {
        let (header, _) = try readHeader(Data(contentsOf: url), url: url)
        return draft(header)
    }

    /// The draft and its records.
    static func read(_ url: URL) throws -> (CaptureDraft, [RecordBatch]) {
        let data = try Data(contentsOf: url)
        let (header, start) = try readHeader(data, url: url)
        let bytes = [UInt8](data)
        var offset = start
        let rate = Double(bitPattern: header.clockRateBits), second = Double(bitPattern: header.clockOffsetBits)
        let clock: RecordClock =
            header.clock == "wallClock"
            ? .wallClock(sampleRate: rate, epochOfFirstSample: second) : .seconds(sampleRate: rate, offset: second)
        var batches: [RecordBatch] = []
        for _ in 0..<header.batches {
            guard let firstFrame = next(bytes, &offset), let frameCount = next(bytes, &offset),
                let count = next(bytes, &offset),
                count == frameCount &* UInt64(header.channelNames.count) &* UInt64(header.columns.count),
                UInt64(bytes.count - offset) >= count &* 8
            else { throw damaged(url, "its records end early") }
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
        guard offset == bytes.count else { throw damaged(url, "bytes follow its last record") }
        return (draft(header), batches)
    }

    private static func readHeader(_ data: Data, url: URL) throws -> (Header, Int) {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { throw damaged(url, "no header line") }
        do {
            let header = try JSONDecoder().decode(Header.self, from: data[data.startIndex..<newline])
            guard header.format == 1, header.id == url.deletingPathExtension().lastPathComponent else {
                throw damaged(url, "an unknown format or another draft's id")
            }
            return (header, newline - data.startIndex + 1)
        } catch let error as SondeError {
            throw error
        } catch {
            throw damaged(url, "its header is not a draft's")
        }
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
