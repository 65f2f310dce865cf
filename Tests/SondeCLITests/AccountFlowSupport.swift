import Foundation
import SondeAccounts
import SondeCore
import SondeMeasurements
import SondeSQLite
import _SondeTestSupport

/// A person at a terminal with a fresh `SONDE_HOME`: runs the built `sonde` there.
struct AccountUser {
    let home: URL
    /// Cheap scrypt (2^10) unless a test asks for the production cost (Argon2id).
    var environment: [String: String]

    init(productionHashing: Bool = false) throws {
        // `.../sonde`, so that a second user can reach the same data through XDG_DATA_HOME.
        home = try TestScratch.folder("sonde-home").appendingPathComponent("sonde")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // SONDE_DATABASE_URL emptied: a developer's own setting must not reach the tests.
        environment = [
            "SONDE_HOME": home.path, "SONDE_SCRYPT_LOG_N": productionHashing ? "" : "10", "SONDE_DATABASE_URL": "",
        ]
    }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil) throws -> SondeBinary.Result {
        try SondeBinary.run(arguments, stdin: stdin.map { Data($0.utf8) }, in: home, environment: environment)
    }

    /// Registers `email` (which logs in) and logs in again, as a returning user would: the
    /// start of every test that needs a user with a session. Returns the two runs' results for the test to check.
    func registerAndLogIn(_ email: String, password: String = "correct horse") throws -> [SondeBinary.Result] {
        try [
            run(["register", "--email", email, "--password-stdin"], stdin: password + "\n"),
            run(["login", "--email", email, "--password-stdin"], stdin: password + "\n"),
        ]
    }

    var sessionFile: String { home.path + "/session" }

    /// The services over the same database and session file, in this process: how tests
    /// put saved measurements in before `sonde measure` exists.
    func services() throws -> (SessionFileClient, any MeasurementService) {
        let homeDirs = try SondeHome(environment: environment)
        let database = try SQLiteDatabase(path: homeDirs.databasePath)
        let authentication = LocalAuthenticationService(
            store: SQLiteUserSessionStore(database: database),
            mailer: OutboxMailer(directory: homeDirs.outboxDirectory),
            hasher: PasswordHasher(parameters: .scrypt(ScryptParameters(logN: 10)))
        )
        let session = SessionFileClient(
            service: authentication, credentials: SessionFile(path: homeDirs.sessionFilePath))
        return (session, LocalMeasurementService(store: SQLiteMeasurementStore(database: database)))
    }

    /// Every byte of the database files.
    func databaseBytes() -> Data {
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: home.path + "/sonde.sqlite" + suffix) {
                bytes.append(data)
            }
        }
        return bytes
    }

    /// The newest reset message's token.
    func outboxToken() throws -> String? {
        let outbox = home.appendingPathComponent("outbox")
        let names = try FileManager.default.contentsOfDirectory(atPath: outbox.path).sorted()
        guard let newest = names.last else { return nil }
        let text = try String(contentsOf: outbox.appendingPathComponent(newest), encoding: .utf8)
        return text.split(separator: "\n").first { $0.hasPrefix("Token: ") }.map { String($0.dropFirst(7)) }
    }

    /// Password-reset messages in the outbox (registration notices are `account-*` files).
    func outboxCount() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: home.path + "/outbox")) ?? []
        return names.filter { $0.hasPrefix("reset-") }.count
    }
}

/// `sonde process` CSV output read back into one batch: exact, since the writer prints the
/// shortest text that reads back to the same Double.
func batch(fromProcessCSV text: String, channels: Int, sampleRate: Double) throws -> (RecordBatch, [String]) {
    var lines = text.split(separator: "\n")
    let header = lines.removeFirst().split(separator: ",").map(String.init)
    let columns = Array(header.dropFirst(4))
    var channelNames: [String] = []
    var values: [Double] = []
    var hop = 0
    for line in lines {
        let cells = line.split(separator: ",")
        if channelNames.count < channels { channelNames.append(String(cells[1])) }
        if cells[2] == "1", hop == 0 { hop = Int(cells[3]) ?? 0 }
        values += cells.dropFirst(4).compactMap { Double($0) }
    }
    let frames = lines.count / channels
    return (
        RecordBatch(
            fileName: "live", channelNames: channelNames, columnCount: columns.count, firstFrame: 0, frameCount: frames,
            hop: hop, clock: .seconds(sampleRate: sampleRate, offset: 0), values: values
        ),
        columns
    )
}
