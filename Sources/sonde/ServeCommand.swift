import ArgumentParser
import Foundation
import SondeApp
import SondeKit

/// `sonde serve`: the app in the browser. Only options and wiring here; the screens are
/// SondeApp's.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the app in the browser: log in, pair, measure, save, export.",
        discussion: """
            Any number of users, each with their own session and measurements, share the one \
            device paired to this machine (sonde device pair, or Pair with device in the app). \
            Loopback by default; prints the URL. Behind a TLS reverse proxy, add --secure-cookies \
            so the session cookie is never sent over plain HTTP, and --public-url with the \
            proxy's address for the link in password-reset messages (docs/app.md).

            Examples:
              sonde serve                          # http://127.0.0.1:8080/
              sonde serve --listen 127.0.0.1:8081 --secure-cookies --public-url https://sonde.lab.example \\
                  --trusted-proxy 127.0.0.1                # behind a TLS proxy (docs/deploy.md)
              sonde serve --database postgres://sonde@db.lab/sonde   # the lab's shared store (docs/deploy.md)
            """
    )

    @Option(
        help: ArgumentHelp("Where to listen: [ADDR:]PORT, loopback unless an address is given.", valueName: "ADDR:PORT")
    )
    var listen: ServeAddress = ServeAddress(host: "127.0.0.1", port: 8080)

    @Flag(help: "Mark the session cookie Secure (when a TLS reverse proxy serves the app).")
    var secureCookies = false

    @OptionGroup(title: "Store") var store: StoreOptions

    @Option(
        help: ArgumentHelp(
            "Where people open the app (a reverse proxy's https://HOST), for links in reset messages (default: the listening address).",
            valueName: "URL"))
    var publicURL: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy's address whose X-Forwarded-For names the client (for login locks and rate limits); repeat for several.",
            valueName: "ADDR"))
    var trustedProxies: [String] = []

    func validate() throws {
        for proxy in trustedProxies
        where !proxy.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) || proxy.isEmpty {
            throw ValidationError("--trusted-proxy '\(proxy)': expected an IP address such as 127.0.0.1 or ::1")
        }
        if let publicURL,
            !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) || publicURL.contains("?")
                || publicURL.contains(where: \.isWhitespace)
        {
            throw ValidationError("--public-url '\(publicURL)': expected http://HOST[:PORT][/PATH] or https://...")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let server = try await AppServer.start(
                AppConfiguration(
                    host: listen.host, port: listen.port, secureCookies: secureCookies,
                    environment: ProcessInfo.processInfo.environment,
                    concurrentLogins: max(1, ProcessInfo.processInfo.activeProcessorCount), database: store.database,
                    publicURL: publicURL, trustedProxies: trustedProxies))
            AccountOutput.line("sonde serve: the app is at \(server.url)")
            // SIGINT or SIGTERM (a service manager's stop): every recording capture is kept as
            // an unsaved measurement before the process ends.
            let (stopping, stop) = AsyncStream<Int32>.makeStream()
            let interrupts = Interrupts { stop.yield($0) }
            let serving = Task {
                await server.wait()
                stop.finish()
            }
            for await _ in stopping { break }
            await server.stop()
            serving.cancel()
            if let status = interrupts.exitStatus { throw ExitCode(status) }
        }
    }
}
