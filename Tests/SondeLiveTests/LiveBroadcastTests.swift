import Hummingbird
import Testing

@testable import SondeLive

/// Page updates reach every reader, and a reader that stops reading loses updates (counted)
/// instead of holding anyone back.
struct LiveBroadcastTests {
    private func update(_ number: Int) -> ByteBuffer { ByteBuffer(string: "update \(number)") }

    @Test func stalledClientDropsAndIsCountedWhileOthersGetEverything() async throws {
        let broadcast = LiveBroadcast(clientBuffer: 4)
        let stalled = broadcast.subscribe()
        let reader = broadcast.subscribe()
        let received = Task {
            var seen: [String] = []
            for await bytes in reader { seen.append(String(buffer: bytes)) }
            return seen
        }
        let sends = 1_000
        let clock = ContinuousClock()
        var durations: [Duration] = []
        durations.reserveCapacity(sends)
        for number in 0..<sends {
            let started = clock.now
            broadcast.send(update(number))
            durations.append(clock.now - started)
            // Let the reading client keep up, as a browser does between updates.
            if number % 2 == 1 { await Task.yield() }
        }
        broadcast.finish()
        let seen = await received.value
        // The stalled client holds its buffer's worth; every other update of it was dropped.
        var kept = 0
        for await _ in stalled { kept += 1 }
        #expect(kept == 4)
        // Every update sent to a client was read or dropped, and each drop was counted.
        #expect(broadcast.droppedUpdates == (sends - kept) + (sends - seen.count))
        #expect(broadcast.droppedUpdates >= sends - 4)
        #expect(seen.last == "update \(sends - 1)")
        // A send that waited on the stalled client would wait every time after its buffer
        // filled; the tenth slowest of 1,000 leaves out a loaded machine's preemptions (a
        // single send was seen at 207 ms at a load average of 22).
        let tenthSlowest = durations.sorted(by: >)[9]
        #expect(tenthSlowest < .milliseconds(50), "sends waited: tenth slowest \(tenthSlowest)")
    }

    /// A client that connects gets the last figures and the values sent since, then ends
    /// with the stream.
    @Test(arguments: [
        ([(1, false), (2, false)], ["update 2"]),
        ([(1, true), (2, false), (3, false)], ["update 1", "update 3"]),
        ([(1, true), (2, false), (3, true)], ["update 3"]),
    ])
    func aNewClientStartsWithTheLatestAndEndedClientsLeave(sent: [(Int, Bool)], expected: [String]) async {
        let broadcast = LiveBroadcast(clientBuffer: 2)
        for (number, hasFigures) in sent { broadcast.send(update(number), hasFigures: hasFigures) }
        let late = broadcast.subscribe()
        #expect(broadcast.clientCount == 1)
        broadcast.finish()
        var seen: [String] = []
        for await bytes in late { seen.append(String(buffer: bytes)) }
        #expect(seen == expected)
        #expect(broadcast.clientCount == 0)
        #expect(broadcast.droppedUpdates == 0)
    }
}
