import ArgumentParser
import SondeKit

struct WhoamiCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Print the logged-in account's email.",
        discussion: """
            Examples:
              sonde whoami
            """
    )

    @OptionGroup(title: "Store") var store: StoreOptions

    func run(with services: LocalServices) async throws {
        let account = try await services.session.requireAccount()
        AccountOutput.line(account.email)
    }
}
