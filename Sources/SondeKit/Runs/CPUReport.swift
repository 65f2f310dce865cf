import Foundation
public import SondePipeline

/// A run's CPU by kind of thread and its serial share, as `sonde bench` and `--cpu-report`
/// print them: the figure that says how far more `--jobs` can go (issue 30). The framer's
/// share is given beside it: it runs on the workers, but one input's blocks one at a time.
public enum CPUReport {
    /// For `sonde bench`'s report: `serial share: 0.012` and the rest.
    public static func values(_ graph: PipelineGraph) -> [(String, BenchValue)] {
        let times = graph.threadTimes
        return [
            ("cpu_workers_s", .number(times.workers)), ("cpu_readers_s", .number(times.readers)),
            ("cpu_writer_s", .number(times.writer)), ("cpu_other_s", .number(times.other)),
            ("serial_share", .fraction(times.serialShare)),
            ("amdahl_16_cores", .number(ThreadTimes.amdahl(serialShare: times.serialShare, cores: 16))),
            ("framer_share", .fraction(framerShare(graph))),
        ]
    }

    /// `--cpu-report`'s one line on standard error.
    public static func line(_ graph: PipelineGraph) -> String {
        let times = graph.threadTimes
        let seconds = { (value: Double) in String(format: "%.3f s", value) }
        let bound = String(format: "%.1fx", ThreadTimes.amdahl(serialShare: times.serialShare, cores: 16))
        let share = BenchValue.fraction(times.serialShare).text
        return
            "cpu: workers \(seconds(times.workers)), reading \(seconds(times.readers)), writing \(seconds(times.writer)), other \(seconds(times.other)); serial share \(share) (Amdahl: at most \(bound) on 16 cores); framer \(BenchValue.fraction(framerShare(graph)).text)"
    }

    /// The share of the run's CPU spent de-interleaving and filtering: on worker threads,
    /// but one block at a time per input, so for a single input it is serial too.
    public static func framerShare(_ graph: PipelineGraph) -> Double {
        let process = graph.threadTimes.process
        return process > 0 ? graph.stageTimes.seconds(.filter) / process : 0
    }
}
