import ArgumentParser
import SondeAccounts
import SondeKit

struct RegisterCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create an account and log in to it.",
        discussion: """
            The password (at least 8 characters) is asked twice on the terminal without \
            echo, or read as one line of standard input with --password-stdin; never give \
            it on the command line. A new account is logged in at once, as in the app; an \
            address that already has an account is refused and told to log in (one policy \
            for the app and the command line: docs/accounts.md says why).

            Examples:
              sonde register --email ann@example.com
              printf '%s\\n' "$PASSWORD" | sonde register --email ann@example.com --password-stdin
            """
    )

    @OptionGroup(title: "Store") var store: StoreOptions

    @Option(help: ArgumentHelp("The account's email address.", valueName: "E"))
    var email: String

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    func run(with services: LocalServices) async throws {
        let email = AccountPolicy.normalize(email: self.email)
        guard !email.isEmpty else { throw AccountError.missingFields }
        // Say what is wrong with the email before asking for a password.
        guard AccountPolicy.isValid(email: email) else { throw AccountError.invalidEmail(email) }
        let password = try PasswordPrompt.read(
            fromStandardInput: passwordStdin, prompt: "Password (8 characters or more): ",
            confirmation: "Repeat password: "
        )
        try await services.session.register(email: email, password: password)
        AccountOutput.line("Registered \(email); you are logged in.")
    }
}
