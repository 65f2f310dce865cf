import Foundation
public import SondeAccounts
import SondeCore
import SondeMeasurements
import SondeStoreFormat

/// `sonde store copy`: a lab's data from one database to another (SQLite to PostgreSQL when
/// a lab outgrows the file, and back): users with their password hashes, sessions still
/// valid, and every measurement with its series, each in one transaction.
///
/// Ids are kept, so `sonde measurements show 12` finds the same measurement after the move,
/// and they are the copy's stable key: a copy that was interrupted runs again and skips
/// what is there. Copy while nobody writes to the target.
public enum StoreCopier {
    public struct Report: Sendable, Equatable {
        public var users = 0
        public var sessions = 0
        public var measurementsCopied = 0
        /// Already in the target (a resumed copy).
        public var measurementsSkipped = 0
        public var measurementsTotal = 0
    }

    /// - Parameters:
    ///   - now: sessions expiring before it are left behind.
    ///   - progress: called after each measurement, copied or skipped.
    /// - Throws: `SondeError` naming the database and the failure; `.invalidInput` when the
    ///   target holds other data under the same ids.
    public static func copy(
        from source: StoreURL, to target: StoreURL, now: Double = WallClock.now(),
        progress: (@Sendable (Report) -> Void)? = nil
    ) async throws -> Report {
        if case .sqlite(let path) = source, !FileManager.default.fileExists(atPath: path) {
            throw SondeError(.invalidArgument, "database '\(path)': no such file to copy from")
        }
        guard source != target else {
            throw SondeError(.invalidArgument, "store copy: --from and --to name the same database (\(source))")
        }
        return try await copy(
            from: try await StoreFactory.openForCopy(source), to: try await StoreFactory.openForCopy(target), now: now,
            stopAfter: nil, progress: progress)
    }

    /// - Parameter stopAfter: copy at most this many measurements (tests interrupt a copy so).
    package static func copy(
        from source: StoreFactory.CopyEnd, to target: StoreFactory.CopyEnd, now: Double, stopAfter: Int?,
        progress: (@Sendable (Report) -> Void)?
    ) async throws -> Report {
        var report = Report()
        var users: [UserID: UserID] = [:]
        for user in try await source.copyable.allUsers() {
            users[user.id] = try await target.copyable.insertUser(user)
            report.users += 1
        }
        for session in try await source.copyable.sessions(validAt: now) {
            guard let user = users[session.user] else { continue }
            var copied = session
            copied.user = user
            try await target.copyable.insertSession(copied)
            report.sessions += 1
        }
        let keys = try await source.copyable.measurementKeys()
        report.measurementsTotal = keys.count
        for key in keys {
            if let stopAfter, report.measurementsCopied >= stopAfter { break }
            guard let owner = users[key.owner] else { continue }
            if let existing = try await target.copyable.owner(ofMeasurement: key.id) {
                guard existing == owner else {
                    throw SondeError(
                        .invalidInput,
                        "store copy: measurement \(key.id) in \(target.url) belongs to another account than in \(source.url); copy into an empty database"
                    )
                }
                report.measurementsSkipped += 1
            } else {
                guard let measurement = try await source.measurements.measurement(id: key.id, owner: key.owner),
                    let batches = try await source.measurements.batches(of: key.id, owner: key.owner)
                else { continue }  // deleted meanwhile
                let new = NewMeasurement(
                    owner: owner, recordedAt: measurement.recordedAt,
                    capture: MeasurementCapture(
                        deviceID: measurement.deviceID, settings: measurement.settings, comment: measurement.comment,
                        channelNames: measurement.channelNames, columns: measurement.columns,
                        recordedAt: measurement.recordedAt),
                    hop: measurement.hop, clock: measurement.clock, summary: measurement.summary, batches: batches)
                try await target.copyable.insert(new, id: key.id)
                report.measurementsCopied += 1
            }
            progress?(report)
        }
        return report
    }
}
