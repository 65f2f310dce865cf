public import SondeCore
import Synchronization

/// Ends the stream where another source fails, and keeps its error for after the graph:
/// the graph then measures every frame read before the failure, as at the end of a file,
/// instead of abandoning the frames still in flight when the error reached it. A device
/// that fails mid-capture so keeps exactly what came before (`make test` beside the whole
/// suite once saved 13 of the 14 windows a command device's last second gave).
public final class DeferredFailureSource: SampleSource {
    /// The failure, read once the graph has ended.
    public final class Failure: Sendable {
        private let error = Mutex<(any Error)?>(nil)

        public init() {}

        public var value: (any Error)? { error.withLock { $0 } }

        func keep(_ failure: any Error) {
            error.withLock { if $0 == nil { $0 = failure } }
        }
    }

    public var format: StreamFormat { base.format }
    public var notes: [String] { base.notes }
    public var expectedFrames: Int? { base.expectedFrames }
    private let base: any SampleSource
    private let failure: Failure

    public init(base: any SampleSource, keepingFailureIn failure: Failure) {
        self.base = base
        self.failure = failure
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        if failure.value != nil { return 0 }
        do {
            return try base.read(into: buffer)
        } catch {
            failure.keep(error)
            return 0
        }
    }
}
