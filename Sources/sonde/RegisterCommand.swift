import ArgumentParser
import SondeAccounts

struct RegisterCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create an account (then log in with sonde login).",
        discussion: """
            The password (at least 8 characters) is asked twice on the terminal without \
            echo, or read as one line of standard input with --password-stdin; never give \
            it on the command line. The answer is the same whether or not the address \
            already has an account: a message to the address says which it was.

            Examples:
              sonde register --email ann@example.com
              printf '%s\\n' "$PASSWORD" | sonde register --email ann@example.com --password-stdin
            """
    )

    @Option(help: ArgumentHelp("The account's email address.", valueName: "E"))
    var email: String

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    func run(with services: Services) async throws {
        let email = AccountPolicy.normalize(email: self.email)
        guard !email.isEmpty else { throw AccountError.missingFields }
        // Say what is wrong with the email before asking for a password.
        guard AccountPolicy.isValid(email: email) else { throw AccountError.invalidEmail(email) }
        let password = try PasswordPrompt.read(
            fromStandardInput: passwordStdin, prompt: "Password (8 characters or more): ",
            confirmation: "Repeat password: "
        )
        try await services.authentication.signUp(email: email, password: password)
        AccountOutput.line(
            "Registered \(email), unless it already had an account: a message went to that address. Log in with sonde login --email \(email)"
        )
    }
}
