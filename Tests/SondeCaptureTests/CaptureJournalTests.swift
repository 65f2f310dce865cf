import Foundation
import SondeAccounts
import SondeCapture
import SondeCore
import SondeMeasurements
import Testing
import _SondeTestSupport

/// Issue 44, data loss: a running capture's journal is what a killed server comes back
/// with (a write cut short at the end is left out, the rest kept bit for bit), and a full
/// disk is named in the error and loses nothing already written.
@Suite struct CaptureJournalTests {
    /// A 1 s capture's records, journaled in two writes as the app's tick does.
    private static func recorded(_ harness: CaptureHarness) async throws -> (LiveCapture, [RecordBatch]) {
        let capture = try harness.instrument.startCapture(
            for: harness.ann, settings: try CaptureHarness.settings(), duration: 1,
            options: CaptureHarness.exact(paced: false))
        let ended = await capture.ended()
        #expect(ended.error == nil)
        return (capture, ended.batches)
    }

    private static func bits(_ batches: [RecordBatch]) -> [UInt64] { batches.flatMap(\.values).map(\.bitPattern) }

    /// The server was killed after two journal writes and in the middle of a third: the
    /// reopened folder holds a draft of exactly the two writes' records, and no journal.
    @Test func aKilledServersJournalBecomesItsDraft() async throws {
        let harness = try await CaptureHarness()
        let folder = harness.directory.appendingPathComponent("drafts")
        let drafts = try CaptureDrafts(directory: folder)
        let (capture, batches) = try await Self.recorded(harness)
        #expect(batches.count >= 2)
        let half = batches.count / 2
        let (first, next) = capture.batches(from: 0)
        #expect(Self.bits(first) == Self.bits(batches) && next == batches.count)
        try drafts.journal(
            id: capture.id, owner: harness.ann.id, capture: capture.described, batches: Array(batches[..<half]))
        try drafts.journal(
            id: capture.id, owner: harness.ann.id, capture: capture.described, batches: Array(batches[half...]))
        let journal = folder.appendingPathComponent("\(capture.id).journal")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0]))  // a batch cut short
        try handle.close()

        let reopened = try CaptureDrafts(directory: folder)
        let draft = try #require(reopened.draft(capture.id, for: harness.ann.id))
        #expect(draft.reason == CaptureDrafts.interruptedReason)
        #expect(draft.frames == batches.reduce(0) { $0 + $1.frameCount })
        #expect(reopened.damaged.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: journal.path), "the journal stays after recovery")
        let saved = try await reopened.save(
            capture.id, comment: "recovered", for: harness.ann, with: harness.measurements)
        let (_, records) = try await harness.measurements.records(id: saved.id, for: harness.ann)
        #expect(Self.bits(records) == Self.bits(batches), "the recovered records differ from the journaled ones")
    }

    /// A kept draft closes its journal: a late write does not bring it back, and the
    /// reopened folder holds the draft once.
    @Test func aKeptDraftClosesItsJournal() async throws {
        let harness = try await CaptureHarness()
        let folder = harness.directory.appendingPathComponent("drafts")
        let drafts = try CaptureDrafts(directory: folder)
        let (capture, batches) = try await Self.recorded(harness)
        try drafts.journal(id: capture.id, owner: harness.ann.id, capture: capture.described, batches: batches)
        try drafts.keep(
            id: capture.id, owner: harness.ann.id, capture: capture.described, batches: batches, endedAt: 2,
            reason: "stopped")
        try drafts.journal(id: capture.id, owner: harness.ann.id, capture: capture.described, batches: batches)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["\(capture.id).draft"])
        // A journal whose first write failed and was cut back to nothing is no damage.
        let empty = folder.appendingPathComponent(String(repeating: "c", count: 32) + ".journal")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        #expect(try CaptureDrafts(directory: folder).damaged.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: empty.path))
        #expect(try CaptureDrafts(directory: folder).drafts(for: harness.ann.id).map(\.reason) == ["stopped"])
    }

    /// A full disk (writes into /dev/full fail with ENOSPC): the journal's error and the
    /// draft's name the reason; what the journal held is kept and becomes the draft; a
    /// failed draft leaves no partial file.
    @Test func aFullDiskIsNamedAndKeepsWhatWasWritten() async throws {
        let harness = try await CaptureHarness()
        let folder = harness.directory.appendingPathComponent("drafts")
        let drafts = try CaptureDrafts(directory: folder)
        let (capture, batches) = try await Self.recorded(harness)
        let half = batches.count / 2
        let written = Array(batches[..<half])
        try drafts.journal(id: capture.id, owner: harness.ann.id, capture: capture.described, batches: written)

        // The journal of another capture on a full disk: the error says why.
        let other = String(repeating: "e", count: 32)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("\(other).journal").path, withDestinationPath: "/dev/full")
        do {
            try drafts.journal(id: other, owner: harness.ann.id, capture: capture.described, batches: batches)
            Issue.record("a write to a full disk did not fail")
        } catch let error as SondeError {
            #expect(error.message.contains("No space left on device") && error.message.contains(other), "\(error)")
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("\(other).journal"))

        // The draft cannot be written (its temporary file is on the full disk): the error
        // says why and the journal's records stay.
        let partial = folder.appendingPathComponent(".\(capture.id).partial")
        try FileManager.default.createSymbolicLink(atPath: partial.path, withDestinationPath: "/dev/full")
        do {
            try drafts.keep(
                id: capture.id, owner: harness.ann.id, capture: capture.described, batches: batches, endedAt: 2,
                reason: "stopped")
            Issue.record("a draft written to a full disk did not fail")
        } catch let error as SondeError {
            #expect(error.message.contains("No space left on device"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: partial.path), "the failed draft's temporary file stayed")
        let reopened = try CaptureDrafts(directory: folder)
        let draft = try #require(reopened.draft(capture.id, for: harness.ann.id))
        #expect(draft.frames == written.reduce(0) { $0 + $1.frameCount } && draft.frames > 0)
    }
}
