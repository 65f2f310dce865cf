import Foundation
import Synchronization
import Testing

@testable import SondePipeline

/// The reusable blocking-call thread: values and errors come back call after call, and a
/// stop returns at once from a call that stays blocked.
@Suite struct BlockingThreadTests {
    struct Failure: Error, Equatable {}

    @Test func runsTheCallOnceEachTimeAndPassesErrorsOn() async throws {
        let calls = Atomic<Int>(0)
        let thread = BlockingThread(name: "test.calls") { () throws -> Int in
            let count = calls.add(1, ordering: .relaxed).newValue
            if count == 3 { throw Failure() }
            return count * 10
        }
        defer { thread.shutdown() }
        #expect(try await thread.run() == 10)
        #expect(try await thread.run() == 20)
        await #expect(throws: Failure.self) { try await thread.run() }
        #expect(try await thread.run() == 40)
        #expect(calls.load(ordering: .relaxed) == 4)
    }

    @Test func stopReturnsNilWhileTheCallIsStillBlocked() async throws {
        let release = DispatchSemaphore(value: 0)
        let thread = BlockingThread(name: "test.blocked") { () -> Int in
            release.wait()
            return 1
        }
        defer {
            release.signal()
            thread.shutdown()
        }
        let stop = StopSignal()
        #expect(stop.register(thread))
        async let value = thread.run()
        try await Task.sleep(for: .milliseconds(50))
        stop.fire()
        #expect(try await value == nil)
        #expect(try await thread.run() == nil, "every later call returns nil too")
    }
}
