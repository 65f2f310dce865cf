import ArgumentParser
import SondeAccounts
import SondeKit

struct ForgotPasswordCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "forgot-password",
        abstract: "Send a password-reset token to the account's outbox.",
        discussion: """
            For an existing account, a message with a single-use token valid for 15 minutes \
            is written to $SONDE_HOME/outbox/ (standing in for email). The answer is the same \
            whether or not the account exists.

            Examples:
              sonde forgot-password --email ann@example.com
              cat "$SONDE_HOME"/outbox/reset-*.txt
              sonde reset-password --token TOKEN
            """
    )

    @OptionGroup(title: "Store") var store: StoreOptions

    @Option(help: ArgumentHelp("The account's email address.", valueName: "E"))
    var email: String

    func run(with services: LocalServices) async throws {
        try await services.authentication.requestPasswordReset(email: email)
        AccountOutput.line(
            "If \(AccountPolicy.normalize(email: email)) has an account, a reset token valid for 15 minutes is now in \(services.home.outboxDirectory)/."
        )
    }
}
