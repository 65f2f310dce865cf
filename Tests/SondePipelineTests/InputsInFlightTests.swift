import Testing

@testable import SondePipeline

/// Inputs read at once: one a job, at most what fits the budget, at least two a core.
@Suite struct InputsInFlightTests {
    @Test func manyJobsReadFewerInputsAtOnceThanJobs() {
        let sizes = StageSizes(options: .init(jobs: 64), frameLength: 1024, hop: 512)
        // A two-channel stage: a 2 MiB ring, two 0.66 MB blocks, 2 MiB more: 12 fit 64 MiB.
        #expect(sizes.inputsInFlight(jobs: 64, cores: 2) == 12)
        #expect(sizes.inputsInFlight(jobs: 64, cores: 8) == 16)
        #expect(sizes.inputsInFlight(jobs: 64, cores: 64) == 64)
        #expect(sizes.inputsInFlight(jobs: 2, cores: 2) == 2)
    }
}
