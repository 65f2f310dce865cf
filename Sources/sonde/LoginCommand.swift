import ArgumentParser
import SondeAccounts
import SondeKit

struct LoginCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in; the session lasts 30 days or until sonde logout.",
        discussion: """
            The password is asked on the terminal without echo, or read as one line of \
            standard input with --password-stdin. Five failed logins lock the account for \
            30 s, then twice as long at each further failure (at most an hour).

            Examples:
              sonde login --email ann@example.com
              printf '%s\\n' "$PASSWORD" | sonde login --email ann@example.com --password-stdin
            """
    )

    @OptionGroup(title: "Store") var store: StoreOptions

    // Optional so that a missing email gets the product's one answer, not a usage error.
    @Option(help: ArgumentHelp("The account's email address.", valueName: "E"))
    var email: String?

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    func run(with services: LocalServices) async throws {
        // `Welcome, E!` greets with the address as typed (trimmed); lookups normalise it.
        let email = String(
            (self.email ?? "").drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !email.isEmpty else { throw AccountError.missingFields }
        let password = try PasswordPrompt.read(fromStandardInput: passwordStdin)
        guard !password.isEmpty else { throw AccountError.missingFields }
        _ = try await services.session.login(email: email, password: password)
        AccountOutput.line("Welcome, \(email)!")
    }
}
