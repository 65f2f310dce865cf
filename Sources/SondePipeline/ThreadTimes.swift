import Synchronization

/// CPU time of a run by the kind of thread that spent it, for the serial share that
/// `sonde bench` and `--cpu-report` print (issue 30). Workers are the `--jobs` threads
/// everything computed runs on (framing, filtering, features, encoding, batches); readers
/// and the writer are the blocking threads that read inputs and write output; the rest of
/// the process (its start, the main thread, Swift's pool) is `other`. Filled at the end
/// of a run from each thread's CPU clock (`ThreadClock`), so nothing is timed per job.
public final class ThreadTimes: Sendable {
    private let workerNanoseconds = Atomic<UInt64>(0)
    private let readerNanoseconds = Atomic<UInt64>(0)
    private let writerNanoseconds = Atomic<UInt64>(0)
    private let processNanoseconds = Atomic<UInt64>(0)

    public init() {}

    enum Kind { case worker, reader, writer, process }

    func add(_ kind: Kind, _ nanoseconds: UInt64) {
        switch kind {
        case .worker: workerNanoseconds.add(nanoseconds, ordering: .relaxed)
        case .reader: readerNanoseconds.add(nanoseconds, ordering: .relaxed)
        case .writer: writerNanoseconds.add(nanoseconds, ordering: .relaxed)
        case .process: processNanoseconds.add(nanoseconds, ordering: .relaxed)
        }
    }

    /// CPU seconds of the workers, the reading threads, the writing thread, and the whole
    /// process during the runs so far.
    public var workers: Double { Double(workerNanoseconds.load(ordering: .relaxed)) / 1e9 }
    public var readers: Double { Double(readerNanoseconds.load(ordering: .relaxed)) / 1e9 }
    public var writer: Double { Double(writerNanoseconds.load(ordering: .relaxed)) / 1e9 }
    public var process: Double { Double(processNanoseconds.load(ordering: .relaxed)) / 1e9 }
    /// The process's CPU on no named thread: the main thread, Swift's pool, progress.
    public var other: Double { Swift.max(0, process - workers - readers - writer) }

    /// The share of the run's CPU that no worker spent (readers, writer, the rest): by
    /// Amdahl's law it bounds the speed-up of more workers at `1 / serialShare`.
    public var serialShare: Double { process > 0 ? Swift.max(0, 1 - workers / process) : 0 }

    /// Amdahl's law: the speed-up of `cores` workers over one, with `share` of the CPU serial.
    public static func amdahl(serialShare share: Double, cores: Int) -> Double {
        1 / (share + (1 - share) / Double(cores))
    }
}
