public import SondeCore

extension PipelineGraph {
    /// One input of a run, opened.
    public struct Input: @unchecked Sendable {
        // @unchecked: the source is used by its reader stage only, one call at a time.
        public var name: String
        public var source: any SampleSource
        /// How records get their `time`; seconds from the start (plus the source's time
        /// offset) unless a live source gives a wall clock.
        public var clock: RecordClock?

        public init(name: String, source: any SampleSource, clock: RecordClock? = nil) {
            self.name = name
            self.source = source
            self.clock = clock
        }
    }

    /// The inputs of a run, opened one at a time as the graph reaches them: a dataset of
    /// 100,000 files holds a few open at once, not all of them.
    public struct Inputs: Sendable {
        public var count: Int
        /// The name of input `index` (its `file` column), known without opening it.
        public var name: @Sendable (Int) -> String
        /// Opens input `index`; called once per input, on a thread that may block.
        public var open: @Sendable (Int) throws -> Input
        /// Whether opening input `index` and its first read are short and never wait on
        /// another process (a small regular file, read whole; a raw or sound file): the
        /// graph then does them on its workers' threads instead of a reading thread's,
        /// which saved a tenth of the CPU of a dataset of short clips (the hand-off to that
        /// thread and back), and leaves a long file cut into segments no serial reading.
        public var opensQuickly: @Sendable (Int) -> Bool

        public init(
            count: Int, name: @escaping @Sendable (Int) -> String,
            opensQuickly: @escaping @Sendable (Int) -> Bool = { _ in false },
            open: @escaping @Sendable (Int) throws -> Input
        ) {
            self.count = count
            self.name = name
            self.opensQuickly = opensQuickly
            self.open = open
        }

        /// Inputs opened already (live sources, tests).
        public init(opened inputs: [Input]) {
            let box = OpenedInputs(inputs)
            self.init(count: inputs.count, name: { box.inputs[$0].name }, open: { box.inputs[$0] })
        }
    }

    /// What one input gave, handed to the sink when its last record is written.
    public struct InputSummary: Sendable {
        public var samplesPerChannel: Int
        public var frames: Int
        public var records: Int
        /// Notes from the source (a partial last frame that was dropped, ...).
        public var notes: [String]
        /// `stop()` ended the input before its end: its records are a prefix of what the
        /// whole input gives, fine for a stream but never a dataset's finished output.
        public var interrupted = false

        static let empty = InputSummary(samplesPerChannel: 0, frames: 0, records: 0, notes: [])
    }

    /// How one input ended: measured to its end (or to `stop()`: `interrupted`), or failed; an input fails
    /// without ending the run only with `Options.keepGoing`.
    public enum InputOutcome: Sendable {
        case finished(InputSummary)
        case failed(any Error)
    }
}

/// Inputs opened before the run, shared with the graph's opening threads.
private final class OpenedInputs: @unchecked Sendable {
    // @unchecked: read-only after init; each input is handed to its one reader stage.
    let inputs: [PipelineGraph.Input]
    init(_ inputs: [PipelineGraph.Input]) { self.inputs = inputs }
}
