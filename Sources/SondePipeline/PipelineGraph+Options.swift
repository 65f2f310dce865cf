public import SondeCore

extension PipelineGraph {
    /// Sizes that bound concurrency and memory.
    public struct Options: Sendable {
        /// Feature workers, and inputs worked on at once.
        public var jobs: Int
        /// Samples (all channels together) each input's ring holds.
        public var ringCapacity: Int
        /// Frames measured per job (fewer for long windows, so a job stays under 2 MiB); 1
        /// for the lowest latency (live), more for throughput.
        public var framesPerJob: Int
        /// Interleaved frames a reader asks its source for at a time.
        public var readFrames: Int
        /// An input that cannot be opened or read ends as `.failed` at the sink, and the run
        /// goes on with the next; otherwise its error ends the run.
        public var keepGoing: Bool
        /// Records gathered before a trip to the writing thread (or a megabyte of them,
        /// `PendingWrite`): 1 for live output (each batch as soon as it is complete), more
        /// for files, where one trip per short clip was most of the exporter's cost.
        public var recordsPerWrite: Int

        /// Samples (all channels) each segment of a long input reads, about: a regular file
        /// that can be opened again at any frame (raw samples) is cut into segments that are
        /// read and framed side by side when `jobs > 1` and no filter is set
        /// (`InputSegments`). 2^21 (16 MiB of Doubles) amortises opening the file again
        /// and a stage, yet gives 16 workers several segments each of a few minutes' file;
        /// tests pass small values to cut small inputs.
        public var segmentSamples: Int

        /// When set, workers also encode their records in the output format, in parallel,
        /// and batches carry the bytes (`RecordBatch.encoded`).
        public var encoder: (any RecordEncoder)?

        /// When set, workers also keep each frame's `P[k]` and the exporter hands them to
        /// the tap in output order (`SpectrumTap`); nil costs nothing.
        public var spectrumTap: (any SpectrumTap)?

        public init(
            jobs: Int, ringCapacity: Int = 1 << 18, framesPerJob: Int = 128, readFrames: Int = 65_536,
            keepGoing: Bool = false, recordsPerWrite: Int = 8192, encoder: (any RecordEncoder)? = nil,
            spectrumTap: (any SpectrumTap)? = nil, segmentSamples: Int = 1 << 21
        ) {
            self.segmentSamples = Swift.max(1, segmentSamples)
            self.spectrumTap = spectrumTap
            self.recordsPerWrite = Swift.max(1, recordsPerWrite)
            self.encoder = encoder
            self.jobs = Swift.max(1, jobs)
            self.ringCapacity = ringCapacity
            self.framesPerJob = Swift.max(1, framesPerJob)
            self.readFrames = Swift.max(1, readFrames)
            self.keepGoing = keepGoing
        }

        /// For a source paced by its sample clock (a live device, `--realtime`): every
        /// frame its own job, small reads (2 ms of samples) and a small ring, and each
        /// record written when it is complete, so latency stays at a frame's computation.
        public static func live(jobs: Int, sampleRate: Double) -> Options {
            Options(
                jobs: jobs, ringCapacity: 1 << 16, framesPerJob: 1, readFrames: Swift.max(16, Int(sampleRate / 500)),
                recordsPerWrite: 1)
        }
    }
}
