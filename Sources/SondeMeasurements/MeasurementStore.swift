public import SondeAccounts
public import SondeCore

/// Where saved measurements live. Every read and delete names the owner, and an
/// implementation must treat another owner's measurement exactly like a missing one.
/// SQLite (`SondeStore.SQLiteMeasurementStore`) is the embedded default.
public protocol MeasurementStore: Sendable {
    /// Stores the metadata and the whole series in one transaction: after a crash either
    /// all of it is there or none.
    func insert(_ measurement: NewMeasurement) async throws -> SavedMeasurement
    /// The owner's measurements, newest first (`recordedAt`, then id).
    func measurements(owner: UserID) async throws -> [SavedMeasurement]
    /// Lines of the owner's list, newest first, from the `offset`-th on (at most `limit`,
    /// nil for all): only what a line shows is read (`MeasurementListing`). They come in
    /// batches of at most `MeasurementListing.batchSize` as they are read, so a long list is
    /// written while the rest is read, and never held whole.
    func listingBatches(owner: UserID, offset: Int, limit: Int?) -> AsyncThrowingStream<[MeasurementListing], any Error>
    /// How many measurements the owner has.
    func measurementCount(owner: UserID) async throws -> Int
    func measurement(id: MeasurementID, owner: UserID) async throws -> SavedMeasurement?
    /// The series as it was saved (batch boundaries included), or nil if not the owner's.
    func batches(of id: MeasurementID, owner: UserID) async throws -> [RecordBatch]?
    /// Whether a measurement of the owner's was deleted.
    func delete(id: MeasurementID, owner: UserID) async throws -> Bool
}

extension MeasurementStore {
    /// `listingBatches` as one array (a page of a list).
    public func listings(owner: UserID, offset: Int, limit: Int?) async throws -> [MeasurementListing] {
        var listings: [MeasurementListing] = []
        for try await batch in listingBatches(owner: owner, offset: offset, limit: limit) {
            listings.append(contentsOf: batch)
        }
        return listings
    }
}

/// A checked measurement ready to be stored: `LocalMeasurementService.save` builds it.
public struct NewMeasurement: Sendable {
    public var owner: UserID
    public var recordedAt: Double
    public var capture: MeasurementCapture
    public var hop: Int?
    public var clock: RecordClock?
    public var summary: MeasurementSummary
    public var batches: [RecordBatch]

    public init(
        owner: UserID, recordedAt: Double, capture: MeasurementCapture, hop: Int?, clock: RecordClock?,
        summary: MeasurementSummary, batches: [RecordBatch]
    ) {
        self.owner = owner
        self.recordedAt = recordedAt
        self.capture = capture
        self.hop = hop
        self.clock = clock
        self.summary = summary
        self.batches = batches
    }
}
