/// Where sonde keeps what outlives a command: the database and outbox (data) and the
/// client's session file (config).
///
/// `SONDE_HOME`, when set, holds everything, so a test or a second identity is one
/// variable away and never touches the real home. Otherwise the XDG base directories
/// apply: data in `$XDG_DATA_HOME/sonde` (else `~/.local/share/sonde`), config in
/// `$XDG_CONFIG_HOME/sonde` (else `~/.config/sonde`). Relative XDG values are ignored,
/// as the XDG specification asks.
public struct SondeHome: Sendable, Equatable {
    /// The database and the outbox.
    public var dataDirectory: String
    /// The session file.
    public var configDirectory: String

    public init(dataDirectory: String, configDirectory: String) {
        self.dataDirectory = dataDirectory
        self.configDirectory = configDirectory
    }

    /// Resolves the directories from environment variables (`SONDE_HOME`, `XDG_DATA_HOME`,
    /// `XDG_CONFIG_HOME`, `HOME`).
    /// - Throws: `SondeError(.invalidArgument)` when none of them gives an absolute path.
    public init(environment: [String: String]) throws {
        if let home = environment["SONDE_HOME"], !home.isEmpty {
            self.init(dataDirectory: home, configDirectory: home)
            return
        }
        func absolute(_ name: String) -> String? {
            guard let value = environment[name], value.hasPrefix("/") else { return nil }
            return value
        }
        let userHome = absolute("HOME")
        guard
            let data = absolute("XDG_DATA_HOME").map({ $0 + "/sonde" }) ?? userHome.map({ $0 + "/.local/share/sonde" }),
            let config = absolute("XDG_CONFIG_HOME").map({ $0 + "/sonde" }) ?? userHome.map({ $0 + "/.config/sonde" })
        else {
            throw SondeError(
                .invalidArgument,
                "no place for sonde's data: expected SONDE_HOME, XDG_DATA_HOME/XDG_CONFIG_HOME or HOME to be an absolute path"
            )
        }
        self.init(dataDirectory: data, configDirectory: config)
    }

    /// The SQLite database (with its `-wal` and `-shm` companions beside it).
    public var databasePath: String { dataDirectory + "/sonde.sqlite" }
    /// Password-reset messages, one text file each, standing in for email.
    public var outboxDirectory: String { dataDirectory + "/outbox" }
    /// The app's unsaved measurements, one file each (`CaptureDrafts`).
    public var draftsDirectory: String { dataDirectory + "/drafts" }
    /// The client's copy of its session token (mode 0600).
    public var sessionFilePath: String { configDirectory + "/session" }
}
