package import SondeAccounts
package import SondeMeasurements

/// What `sonde store copy` needs of an engine beyond the store protocols: every user and
/// session (the protocols only look them up), and inserting under a given id, so that a
/// copied measurement keeps its number (`sonde measurements show 12` still finds it) and a
/// copy interrupted halfway resumes by skipping the ids already there.
package protocol CopyableStore: Sendable {
    /// Every user, by id.
    func allUsers() async throws -> [CopiedUser]
    /// Inserts `user` under its id, or finds the account of its email (a resumed copy).
    /// - Returns: the id the user has in this store.
    /// - Throws: `SondeError(.invalidInput)` when the id belongs to another email.
    func insertUser(_ user: CopiedUser) async throws -> UserID
    /// Sessions unexpired at `now`.
    func sessions(validAt now: Double) async throws -> [CopiedSession]
    /// Inserts the session unless its token hash is there already.
    func insertSession(_ session: CopiedSession) async throws
    /// Every measurement's id and owner, by id.
    func measurementKeys() async throws -> [MeasurementKey]
    /// The owner of measurement `id`, if there is one.
    func owner(ofMeasurement id: MeasurementID) async throws -> UserID?
    /// `MeasurementStore.insert` under a given id, in one transaction.
    func insert(_ measurement: NewMeasurement, id: MeasurementID) async throws
}

package struct CopiedUser: Sendable, Equatable {
    package var id: UserID
    package var email: String
    package var passwordHash: String
    package var createdAt: Double

    package init(id: UserID, email: String, passwordHash: String, createdAt: Double) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

package struct CopiedSession: Sendable, Equatable {
    package var tokenHash: [UInt8]
    package var user: UserID
    package var createdAt: Double
    package var expiresAt: Double
    package var emailAsTyped: String?

    package init(tokenHash: [UInt8], user: UserID, createdAt: Double, expiresAt: Double, emailAsTyped: String?) {
        self.tokenHash = tokenHash
        self.user = user
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.emailAsTyped = emailAsTyped
    }
}

package struct MeasurementKey: Sendable, Equatable {
    package var id: MeasurementID
    package var owner: UserID

    package init(id: MeasurementID, owner: UserID) {
        self.id = id
        self.owner = owner
    }
}
