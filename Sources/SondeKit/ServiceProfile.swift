/// What differs between the two front doors when they open the services: a command does
/// one thing after another for one user, the server serves many at once. Everything else
/// (where the home is, which store, which mailer and device) is the same, so both open
/// through `LocalServices.open(_:environment:database:)`, and a CLI export and a web
/// export are the same bytes by construction.
public enum ServiceProfile: Sendable {
    /// A command: one PostgreSQL connection (its operations come one after another), one
    /// hash at a time, reset messages that name `sonde reset-password`.
    case command
    /// `sonde serve`: a connection pool, bounded concurrent hashing, reset links to the app.
    case server(ServerLimits)

    /// The server's bounds on what many users at once may take.
    public struct ServerLimits: Sendable {
        /// password hashes at once (19 MiB each, Argon2id).
        public var concurrentHashes: Int
        /// How long a login waits for a free hashing slot before it is answered 503.
        public var hashWait: Duration
        /// Logins that may wait for a slot at once; the next is refused at once.
        public var hashQueue: Int
        /// The app's Reset password address, asked for when a message is written (the
        /// server knows its address only once it listens).
        public var resetPage: @Sendable () -> String?

        public init(
            concurrentHashes: Int, hashWait: Duration, hashQueue: Int,
            resetPage: @escaping @Sendable () -> String?
        ) {
            self.concurrentHashes = concurrentHashes
            self.hashWait = hashWait
            self.hashQueue = hashQueue
            self.resetPage = resetPage
        }
    }

    /// PostgreSQL's pool size: 1 keeps a command's first connection; the server's 16 serve
    /// its users at once (`StoreFactory`'s default).
    var postgresConnections: Int {
        switch self {
        case .command: 1
        case .server: 16
        }
    }

    /// Of those, how many are opened at start and kept: all of the server's, so a burst of
    /// users after a quiet minute does not wait for connections to be opened (docs/deploy.md
    /// counts them); none for a command, whose one is opened when it is needed.
    var postgresKeptOpen: Int {
        switch self {
        case .command: 0
        case .server: postgresConnections
        }
    }
}
