import Foundation
import SondeAccounts
import SondeCapture
import SondeCore
import SondeMeasurements
import Testing
import _SondeTestSupport

/// Drafts (issue 44): a capture that ended unsaved is kept on disk, found again by a new
/// process, saved with exactly its records once, discarded, refused to another user, and
/// a damaged file is listed, never deleted.
@Suite struct CaptureDraftsTests {
    /// A 1 s capture kept as a draft; reopened from its folder as a restarted server would,
    /// it saves the same records the capture had, bit for bit, and disappears.
    @Test func aDraftSurvivesAReopenAndSavesExactlyItsRecords() async throws {
        let harness = try await CaptureHarness()
        let folder = harness.directory.appendingPathComponent("drafts")
        let drafts = try CaptureDrafts(directory: folder)
        let capture = try harness.instrument.startCapture(
            for: harness.ann, settings: try CaptureHarness.settings(), duration: 1,
            options: CaptureHarness.exact(paced: false))
        let ended = await capture.ended()
        #expect(ended.error == nil)
        #expect(try harness.instrument.status() == .idle(deviceID: capture.device.id), "the end frees the device")
        let kept = try drafts.keep(
            id: capture.id, owner: harness.ann.id, capture: ended.capture, batches: ended.batches,
            endedAt: capture.endedAt ?? 0, reason: "stopped")
        #expect(kept.frames == 49)

        let reopened = try CaptureDrafts(directory: folder)
        #expect(reopened.drafts(for: harness.ann.id) == [kept])
        #expect(reopened.drafts(for: harness.bob.id).isEmpty)
        #expect(reopened.draft(capture.id, for: harness.bob.id) == nil, "another user's draft is not found")
        await #expect(throws: SondeError.self) {
            _ = try await reopened.save(capture.id, comment: "x", for: harness.bob, with: harness.measurements)
        }
        let saved = try await reopened.save(capture.id, comment: "kept", for: harness.ann, with: harness.measurements)
        #expect(saved.comment == "kept" && saved.frameCount == 49)
        #expect(saved.recordedAt == capture.startedAt)
        let (_, batches) = try await harness.measurements.records(id: saved.id, for: harness.ann)
        #expect(batches.flatMap(\.values).map(\.bitPattern) == ended.batches.flatMap(\.values).map(\.bitPattern))
        #expect(reopened.drafts(for: harness.ann.id).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        await #expect(throws: SondeError.self) {
            _ = try await reopened.save(capture.id, comment: "again", for: harness.ann, with: harness.measurements)
        }
        #expect(try await harness.measurements.list(for: harness.ann).count == 1)
    }

    /// Discard removes the file; the per-user limit refuses more; a damaged file is listed
    /// and left where it is; an id that is not 32 hex digits is never a draft.
    @Test func discardLimitAndDamage() async throws {
        let directory = try TestScratch.folder("sonde-drafts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let drafts = try CaptureDrafts(directory: directory, limit: 2)
        let owner = UserID(7)
        let capture = MeasurementCapture(
            deviceID: "d", settings: "{}", comment: "", channelNames: ["a"], columns: ["rms"], recordedAt: 1.5)
        let batch = RecordBatch(
            fileName: "d", channelNames: ["a"], columnCount: 1, firstFrame: 0, frameCount: 3, hop: 512,
            clock: .wallClock(sampleRate: 25600, epochOfFirstSample: 1.5), values: [.nan, -0.0, .leastNonzeroMagnitude])
        for index in 0..<2 {
            try drafts.keep(
                id: String(repeating: "\(index)", count: 32), owner: owner, capture: capture, batches: [batch],
                endedAt: Double(index), reason: "stopped")
        }
        #expect(!drafts.hasRoom(for: owner) && drafts.hasRoom(for: UserID(8)))
        #expect(drafts.drafts(for: owner).map(\.endedAt) == [1, 0], "newest first")
        #expect(drafts.discard(String(repeating: "0", count: 32), for: owner))
        #expect(!drafts.discard(String(repeating: "1", count: 32), for: UserID(8)))
        #expect(drafts.hasRoom(for: owner))
        try Data("{\"format\":1}\n".utf8).write(
            to: directory.appendingPathComponent(String(repeating: "a", count: 32) + ".draft"))
        let reopened = try CaptureDrafts(directory: directory)
        #expect(reopened.damaged.count == 1)
        #expect(reopened.drafts(for: owner).count == 1)
        #expect(FileManager.default.fileExists(atPath: reopened.damaged[0]))
        for id in ["../x", String(repeating: "A", count: 32), String(repeating: "0", count: 31), ""] {
            #expect(!CaptureDraft.isValidID(id))
        }
    }

    /// The header line as sonde wrote it before its own JSON reader (Foundation's
    /// `JSONEncoder`: other key order, `\/` escapes) still reads, with the same bits; and
    /// `JSONDecoder` reads the line sonde writes now, field for field.
    @Test func aHeaderWrittenByJSONEncoderReadsAlike() throws {
        struct OldHeader: Codable, Equatable {
            var format: Int
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
            var clock: String
            var clockRateBits: UInt64
            var clockOffsetBits: UInt64
            var batches: Int
        }
        let directory = try TestScratch.folder("sonde-drafts-old")
        defer { try? FileManager.default.removeItem(at: directory) }
        let drafts = try CaptureDrafts(directory: directory)
        let capture = MeasurementCapture(
            deviceID: "dev/1", settings: #"{"window":1024,"path":"a/b"}"#, comment: "", channelNames: ["x/y", "é"],
            columns: ["rms", "peak"], recordedAt: -0.1)
        let batch = RecordBatch(
            fileName: "dev/1", channelNames: ["x/y", "é"], columnCount: 2, firstFrame: 4, frameCount: 1, hop: 512,
            clock: .seconds(sampleRate: 25600.5, offset: .pi), values: [.nan, -0.0, .infinity, .leastNonzeroMagnitude])
        let id = String(repeating: "c", count: 32)
        let kept = try drafts.keep(
            id: id, owner: UserID(Int64.max), capture: capture, batches: [batch], endedAt: 1.1e9, reason: "the limit")
        let file = directory.appendingPathComponent(id + ".draft")
        let bytes = try Data(contentsOf: file)
        let newline = try #require(bytes.firstIndex(of: 10))
        let header = try JSONDecoder().decode(OldHeader.self, from: bytes[..<newline])
        #expect(header.endedAtBits == (1.1e9).bitPattern && header.clockOffsetBits == Double.pi.bitPattern)
        #expect(header.owner == Int64.max && header.recordedAtBits == (-0.1).bitPattern)
        let old = try JSONEncoder().encode(header)
        #expect(old != bytes[..<newline], "the old writer's bytes differ from the new one's")
        try (old + bytes[newline...]).write(to: file)
        let reopened = try CaptureDrafts(directory: directory)
        #expect(reopened.damaged.isEmpty)
        #expect(reopened.drafts(for: UserID(Int64.max)) == [kept])
    }
}
