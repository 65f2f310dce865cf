import Foundation
import SondeMeasurements
import SondeSQLite
import Testing
import _SondeTestSupport

/// The database under several processes: concurrent saves lose nothing, and a process
/// killed with SIGKILL in the middle of a save leaves it consistent.
@Suite struct AccountFlowCrashTests {
    private func loggedInUser() throws -> AccountUser {
        let user = try AccountUser()
        for result in try user.registerAndLogIn("ann@example.com") { #expect(result.status == 0, "\(result.stderr)") }
        return user
    }

    /// The save loop (a test tool beside `sonde`, Tests/SaveLoop), run to its end.
    private func saveLoop(_ user: AccountUser, _ arguments: [String]) throws -> SondeBinary.Result {
        try SondeBinary.run(
            arguments, in: user.home, environment: user.environment, executable: SondeBinary.product("sonde-save-loop"))
    }

    /// The save loop, started in the background.
    private func start(_ user: AccountUser, _ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = SondeBinary.product("sonde-save-loop")
        process.arguments = arguments
        process.currentDirectoryURL = user.home
        process.environment = ProcessInfo.processInfo.environment.merging(user.environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// Reads `pipe` until a line equal to `line` arrives (or the deadline passes).
    private func wait(for line: String, on pipe: Pipe, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        while Date() < deadline {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { return false }
            text += String(decoding: data, as: UTF8.self)
            if text.split(separator: "\n").contains(where: { $0 == line }) { return true }
        }
        return false
    }

    /// Every saved measurement is whole: its batches are all there and give its summary.
    private func checkComplete(
        _ user: AccountUser, batches: Int, framesPerBatch: Int
    ) async throws
        -> [SavedMeasurement]
    {
        let (session, service) = try user.services()
        let saved = try await service.list(for: session.requireAccount())
        let database = try SQLiteDatabase(path: user.home.path + "/sonde.sqlite")
        #expect(try database.isConsistent())
        let store = SQLiteMeasurementStore(database: database)
        for measurement in saved {
            let series = try #require(try await store.batches(of: measurement.id, owner: measurement.owner))
            #expect(series.count == batches && series.allSatisfy { $0.frameCount == framesPerBatch })
            #expect(measurement.frameCount == batches * framesPerBatch)
            let recomputed = try MeasurementSummary.checking(
                series, channelNames: measurement.channelNames, columns: measurement.columns)
            #expect(recomputed.summary == measurement.summary)
        }
        return saved
    }

    @Test func twoProcessesSavingAtOnceLoseNothing() async throws {
        let user = try loggedInUser()
        let arguments = ["--count", "25", "--batches", "6", "--frames-per-batch", "64"]
        let runs = try [
            start(user, arguments + ["--comment", "first"]), start(user, arguments + ["--comment", "second"]),
        ]
        var reported: [String] = []
        for (process, output) in runs {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            reported += text.split(separator: "\n").map(String.init)
        }
        #expect(reported.count == 50)
        let saved = try await checkComplete(user, batches: 6, framesPerBatch: 64)
        #expect(saved.count == 50)
        #expect(Set(saved.map { "saved \($0.id)" }) == Set(reported), "every id a process reported is in the database")
        #expect(saved.filter { $0.comment.hasPrefix("first ") }.count == 25)
    }

    @Test func sigkillInTheMiddleOfASaveLeavesTheDatabaseConsistent() async throws {
        let user = try loggedInUser()
        // One save completes first, so the database has something to lose.
        #expect(try saveLoop(user, ["--count", "1"]).status == 0)
        let (process, output) = try start(user, ["--count", "3", "--pause-at-batch", "2"])
        #expect(wait(for: "mid-save", on: output), "the save never reached its third batch")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let saved = try await checkComplete(user, batches: 4, framesPerBatch: 16)
        #expect(saved.count == 1, "the killed save left nothing behind")
        // The database takes new saves as before.
        #expect(try saveLoop(user, ["--count", "2"]).status == 0)
        #expect(try await checkComplete(user, batches: 4, framesPerBatch: 16).count == 3)
    }

    @Test func sigkillAtRandomMomentsNeverTearsASave() async throws {
        let user = try loggedInUser()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4 {
            let (process, _) = try start(
                user, ["--count", "100000", "--batches", "20", "--frames-per-batch", "128"])
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...900, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let saved = try await checkComplete(user, batches: 20, framesPerBatch: 128)
        #expect(!saved.isEmpty)
    }

    @Test func theShippedBinaryHasNoHiddenSaveLoop() throws {
        let user = try AccountUser()
        let result = try user.run(["_debug-save-loop", "--count", "1"])
        #expect(result.status == 64, "the test tool lives in Tests/SaveLoop, not in sonde: \(result.stderr)")
    }
}
