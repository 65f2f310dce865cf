import ArgumentParser

/// `--serve [ADDR:]PORT`: where the live page listens; loopback unless an address is given,
/// so a measurement is not published on the network by accident.
struct ServeAddress: ExpressibleByArgument, CustomStringConvertible {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init?(argument: String) {
        var host = "127.0.0.1"
        var portText = Substring(argument)
        if let colon = argument.lastIndex(of: ":") {
            var address = argument[..<colon]
            if address.hasPrefix("["), address.hasSuffix("]") { address = address.dropFirst().dropLast() }
            guard !address.isEmpty else { return nil }
            host = String(address)
            portText = argument[argument.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65_535).contains(port) else { return nil }
        self.host = host
        self.port = port
    }

    /// `127.0.0.1:8080`: how `--help` shows a default.
    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    static var defaultCompletionKind: CompletionKind { .default }
}
