public import Foundation
public import SondeAccounts
public import SondeCore
public import SondeMeasurements
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The drafts of one server (`$SONDE_HOME/drafts`): captures that ended unsaved, one file
/// each, kept until their owner saves or discards them; there is no expiry, so nothing is
/// thrown away unseen (issue 44). A user holds at most `limit` drafts: past that a new
/// capture is refused until they save or discard one, which bounds the folder.
public final class CaptureDrafts: Sendable {
    public let directory: URL
    public let limit: Int
    private let drafts: Mutex<[String: CaptureDraft]>
    /// Drafts being saved now: a second Save (another tab) waits its turn by being refused.
    private let saving = Mutex<Set<String>>([])
    /// Files that could not be read as drafts: listed, never deleted.
    public let damaged: [String]
    /// Captures whose journal is closed: their draft is being written or was, and a late
    /// `journal` call must not bring the file back.
    private let closedJournals = Mutex<Set<String>>([])

    /// What a draft recovered from a journal says ended it.
    public static let interruptedReason =
        "the server ended without stopping it (killed or a power cut); kept up to its last write to disk"

    /// Opens the folder (creating it) and reads every draft's header.
    /// - Throws: `SondeError(.io)` when the folder cannot be made or listed.
    public init(directory: URL, limit: Int = 20) throws {
        self.directory = directory
        self.limit = limit
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw SondeError(.io, "cannot create the drafts folder \(directory.path): \(error.localizedDescription)")
        }
        var found: [String: CaptureDraft] = [:]
        var damaged: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where name.hasSuffix(".draft") {
            let url = directory.appendingPathComponent(name)
            guard let draft = try? DraftFile.readDraft(url) else {
                damaged.append(url.path)
                continue
            }
            found[draft.id] = draft
        }
        // A journal with no draft: the server ended while the capture ran (SIGKILL, a
        // crash, a power cut). Its whole batches become the draft; a journal whose draft
        // exists was closed a moment before the end and goes.
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where name.hasSuffix(".journal") {
            let url = directory.appendingPathComponent(name)
            let id = String(name.dropLast(".journal".count))
            // Empty: its first write failed and was cut back off; nothing was recorded in it.
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
            if found[id] != nil || size?.intValue == 0 {
                try? FileManager.default.removeItem(at: url)
                continue
            }
            guard CaptureDraft.isValidID(id), let recovered = try? DraftFile.readJournal(url) else {
                damaged.append(url.path)
                continue
            }
            var draft = recovered.0
            let batches = recovered.1
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            draft.endedAt = modified?.timeIntervalSince1970 ?? draft.endedAt
            draft.reason = Self.interruptedReason
            do {
                try DraftFile.write(draft, batches: batches, to: directory.appendingPathComponent("\(id).draft"))
                try? FileManager.default.removeItem(at: url)
                found[id] = draft
            } catch {
                // Kept as it is: the next start tries again.
                damaged.append(url.path)
            }
        }
        drafts = Mutex(found)
        self.damaged = damaged
    }

    /// Appends a running capture's newest records to its journal (`ID.journal`, created
    /// with the draft's header at the first records) and syncs it to disk, so a server
    /// killed mid-capture comes back with the capture as a draft holding everything
    /// journaled. A failed append (a full disk) is cut back off, so the file stays whole
    /// and the same records can be appended again later.
    /// - Throws: `SondeError(.io)` naming the file and the system's reason.
    public func journal(id: String, owner: UserID, capture: MeasurementCapture, batches: [RecordBatch]) throws {
        precondition(CaptureDraft.isValidID(id), "a capture id is 32 hex digits")
        guard batches.contains(where: { $0.frameCount > 0 }) else { return }
        let path = directory.appendingPathComponent("\(id).journal").path
        try closedJournals.withLock { closed in
            guard !closed.contains(id) else { return }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw DraftFile.failure("cannot write the journal \(path)") }
            defer { close(descriptor) }
            let size = lseek(descriptor, 0, SEEK_END)
            let header = CaptureDraft(
                id: id, owner: owner, capture: capture, frames: 0, endedAt: capture.recordedAt ?? 0,
                reason: Self.interruptedReason)
            var bytes: [UInt8] = []
            if size == 0 { bytes = try DraftFile.headerLine(header, first: batches.first, batches: 0) }
            bytes += DraftFile.records(batches)
            guard DraftFile.writeAll(descriptor, bytes), fdatasync(descriptor) == 0 else {
                let error = DraftFile.failure("cannot write the journal \(path)")
                _ = ftruncate(descriptor, Swift.max(size, 0))
                throw error
            }
        }
    }

    /// `owner`'s drafts, newest first.
    public func drafts(for owner: UserID) -> [CaptureDraft] {
        drafts.withLock { $0.values.filter { $0.owner == owner } }.sorted { $0.endedAt > $1.endedAt }
    }

    /// Draft `id` when `owner` owns it (another user's is as missing as none).
    public func draft(_ id: String, for owner: UserID) -> CaptureDraft? {
        drafts.withLock { $0[id] }.flatMap { $0.owner == owner ? $0 : nil }
    }

    /// Whether `owner` may start another capture (fewer than `limit` drafts).
    public func hasRoom(for owner: UserID) -> Bool {
        drafts.withLock { $0.values.count { $0.owner == owner } } < limit
    }

    /// Keeps an ended capture as a draft, on disk before this returns.
    /// - Throws: `SondeError(.io)` when the file cannot be written (the caller still holds
    ///   the records and says so).
    @discardableResult
    public func keep(
        id: String, owner: UserID, capture: MeasurementCapture, batches: [RecordBatch], endedAt: Double,
        reason: String
    ) throws -> CaptureDraft {
        precondition(CaptureDraft.isValidID(id), "a capture id is 32 hex digits")
        let frames = batches.reduce(0) { $0 + $1.frameCount }
        let draft = CaptureDraft(
            id: id, owner: owner, capture: capture, frames: frames, endedAt: endedAt, reason: reason)
        closedJournals.withLock { _ = $0.insert(id) }
        try DraftFile.write(draft, batches: batches, to: url(of: id))
        // The draft holds every record now; the journal, only some.
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("\(id).journal"))
        drafts.withLock { $0[id] = draft }
        return draft
    }

    /// Saves draft `id` for `owner` with `comment`, then removes it. The draft stays when
    /// saving fails.
    /// - Throws: `SondeError(.notFound)` for a draft `owner` does not have; the service's
    ///   and the file's errors.
    public func save(
        _ id: String, comment: String, for owner: Account, with service: any MeasurementService
    ) async throws -> SavedMeasurement {
        guard draft(id, for: owner.id) != nil else { throw SondeError(.notFound, "no such unsaved measurement") }
        guard saving.withLock({ $0.insert(id).inserted }) else {
            throw SondeError(.busy, "this measurement is being saved")
        }
        defer { saving.withLock { _ = $0.remove(id) } }
        // Saved by the other tab while this one waited.
        guard self.draft(id, for: owner.id) != nil else { throw SondeError(.notFound, "no such unsaved measurement") }
        var (draft, batches) = try DraftFile.read(url(of: id))
        draft.capture.comment = comment
        let saved = try await service.save(draft.capture, records: batches, for: owner)
        remove(id)
        return saved
    }

    /// Forgets draft `id` of `owner`; false when they have no such draft.
    @discardableResult
    public func discard(_ id: String, for owner: UserID) -> Bool {
        guard draft(id, for: owner) != nil else { return false }
        remove(id)
        return true
    }

    private func remove(_ id: String) {
        try? FileManager.default.removeItem(at: url(of: id))
        drafts.withLock { _ = $0.removeValue(forKey: id) }
    }

    private func url(of id: String) -> URL {
        directory.appendingPathComponent("\(id).draft")
    }
}
