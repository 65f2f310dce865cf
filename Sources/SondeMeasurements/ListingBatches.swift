/// How a store hands listings over (`MeasurementStore.listingBatches`): the store reads in
/// a task of its own and adds each listing here; full batches go to the reader of the
/// stream as they fill, the rest when the store finishes.
package final class ListingBatches: @unchecked Sendable {
    // @unchecked: one store task adds to `batch`, never two; the continuation is Sendable.
    private let continuation: AsyncThrowingStream<[MeasurementListing], any Error>.Continuation
    private var batch: [MeasurementListing] = []

    private init(_ continuation: AsyncThrowingStream<[MeasurementListing], any Error>.Continuation) {
        self.continuation = continuation
    }

    /// The stream of what `read` adds, read in a task that ends with the stream: when the
    /// reader stops listening it is cancelled (and `add` answers false).
    package static func stream(
        _ read: @escaping @Sendable (ListingBatches) async throws -> Void
    ) -> AsyncThrowingStream<[MeasurementListing], any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [MeasurementListing].self)
        let batches = ListingBatches(continuation)
        let task = Task {
            do {
                try await read(batches)
                if !batches.batch.isEmpty { continuation.yield(batches.batch) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Adds a listing, handing the batch over when it is full.
    /// - Returns: false when the stream's reader has stopped listening: read no further.
    package func add(_ listing: MeasurementListing) -> Bool {
        batch.append(listing)
        guard batch.count == MeasurementListing.batchSize else { return true }
        defer { batch.removeAll() }
        if case .terminated = continuation.yield(batch) { return false }
        return true
    }
}
