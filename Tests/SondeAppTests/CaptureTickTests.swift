import Foundation
import Logging
import ServiceLifecycle
import SondeAccounts
import SondeCapture
import SondeCore
import SondePipeline
import Synchronization
import Testing
import _SondeTestSupport

@testable import SondeApp

/// The background tick is a service of the server's group: it ticks while the group runs
/// and ends, without an error, when the group shuts down gracefully.
@Suite struct CaptureTickTests {
    @Test func theTickRunsWithTheGroupAndEndsAtItsGracefulShutdown() async throws {
        let captures = try CountingCaptures()
        let group = ServiceGroup(
            configuration: .init(
                services: [CaptureTick(captures: captures, interval: .milliseconds(5))],
                logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        for _ in 0..<400 where captures.ticks.withLock({ $0 }) < 3 {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(captures.ticks.withLock { $0 } >= 3, "the tick did not run")
        await group.triggerGracefulShutdown()
        let started = ContinuousClock.now
        try await running.value
        // Alone this takes milliseconds; in the whole suite on 2 cores the cooperative pool
        // (2 threads) was measured busy for 30.6 s elsewhere first. A tick that ignored the
        // shutdown would never end: the bound tells the two apart without timing the pool.
        #expect(ContinuousClock.now - started < .seconds(120))
        let after = captures.ticks.withLock { $0 }
        try await Task.sleep(for: .milliseconds(30))
        #expect(captures.ticks.withLock { $0 } == after, "the tick went on after the shutdown")
    }
}

/// A capture service without a device that counts its ticks.
private final class CountingCaptures: CaptureService {
    let drafts: CaptureDrafts
    let ticks = Mutex(0)

    init() throws {
        drafts = try CaptureDrafts(directory: try TestScratch.folder("sonde-app-tick"))
    }

    func tick() async { ticks.withLock { $0 += 1 } }

    func pair(profileText: String, profileSource: String, seed: UInt64) async throws -> PairedDevice {
        throw SondeError(.invalidArgument, "no device here")
    }
    func paired() throws -> PairedDevice? { nil }
    func status() throws -> InstrumentStatus { .notConnected }
    func start(for account: Account) throws -> LiveCapture { throw SondeError(.invalidArgument, "no device here") }
    func capture(for account: Account) -> LiveCapture? { nil }
    func isBeingKept(_ id: String, for owner: UserID) -> Bool { false }
    func stop(_ capture: LiveCapture, reason: String) async throws -> CaptureDraft {
        throw SondeError(.notFound, "no capture here")
    }
    func stopAll(reason: String) async {}
    func trendColumns(of capture: LiveCapture) -> [Int] { [] }
    func trendSVG(of capture: LiveCapture, slot: Int, channel: Int) -> String? { nil }
}
