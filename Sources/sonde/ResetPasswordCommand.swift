import ArgumentParser
import SondeAccounts
import SondeKit

struct ResetPasswordCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Set a new password with a token from sonde forgot-password.",
        discussion: """
            The new password is asked twice on the terminal without echo, or read as one line \
            of standard input with --password-stdin. The token works once; the account's \
            other sessions end.

            Examples:
              sonde reset-password --token 3f9c...e1
              printf '%s\\n' "$NEW_PASSWORD" | sonde reset-password --token 3f9c...e1 --password-stdin
            """
    )

    @OptionGroup(title: "Store") var store: StoreOptions

    @Option(help: ArgumentHelp("The token from the reset message.", valueName: "T"))
    var token: String

    @Flag(help: "Read the new password from the first line of standard input.")
    var passwordStdin = false

    func run(with services: LocalServices) async throws {
        let password = try PasswordPrompt.read(
            fromStandardInput: passwordStdin, prompt: "New password (8 characters or more): ",
            confirmation: "Repeat new password: "
        )
        let account = try await services.session.resetPassword(token: token, newPassword: password)
        AccountOutput.line("Password changed for \(account.email); its other sessions are logged out.")
    }
}
