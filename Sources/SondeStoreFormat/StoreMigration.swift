/// One step of the schema, numbered: both engines apply the same steps in the same order,
/// each in its own SQL, so a database of either engine at version N holds the same tables.
package struct StoreMigration: Sendable, Equatable {
    package var number: Int
    package var name: String

    /// Every migration, oldest first. Never edit one that has shipped: add the next.
    package static let all: [StoreMigration] = [
        StoreMigration(number: 1, name: "accounts and measurements"),
        StoreMigration(number: 2, name: "failed logins per email and source"),
        StoreMigration(number: 3, name: "sessions keep the email as typed"),
        StoreMigration(number: 4, name: "measurements keep their listed means"),
        StoreMigration(number: 5, name: "listed means as bytes"),
    ]

    /// How SQLite's migrator (GRDB's `grdb_migrations`) has always named the step.
    package var identifier: String { "v\(number): \(name)" }
}
