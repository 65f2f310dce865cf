import Dispatch

#if canImport(Glibc)
    public import Glibc
#endif

/// Turns SIGINT/SIGTERM into a call instead of an abrupt exit, so a run can flush the
/// records it has and leave with status 130 (or 143).
public final class Interrupts: @unchecked Sendable {
    // @unchecked: `sources` and `received` are touched only on `queue`.
    private let queue = DispatchQueue(label: "sonde.signals")
    private var sources: [any DispatchSourceSignal] = []
    private var received: Int32?

    /// - Parameter handler: called once, on a private queue, at the first signal.
    public init(_ signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in
                guard let self, self.received == nil else { return }
                self.received = number
                handler(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal that arrived, if any.
    public var signal: Int32? { queue.sync { received } }

    /// The conventional exit status for a run ended by `signal`: 128 + its number.
    public var exitStatus: Int32? { signal.map { 128 + $0 } }
}
