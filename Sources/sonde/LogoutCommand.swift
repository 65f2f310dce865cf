import ArgumentParser
import SondeKit

struct LogoutCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "End the session: revoked in the database, deleted on this machine.",
        discussion: """
            Examples:
              sonde logout
            """
    )

    @OptionGroup(title: "Store") var store: StoreOptions

    func run(with services: LocalServices) async throws {
        try await services.session.logout()
        AccountOutput.line("Logged out.")
    }
}
