import Foundation
import SondeCore
import SondeStoreFormat

/// A PostgreSQL database as a `postgres://` URL names it, with the password found for it.
///
/// The password comes from the URL, else `PGPASSWORD`, else the password file (`PGPASSFILE`
/// or `~/.pgpass`), as libpq (psql, pg_dump) finds it, so one set-up serves all of them.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// libpq's `sslmode`, the values it documents; `allow` and `prefer` try TLS and accept
    /// a plain connection, `require` insists on TLS without checking the certificate,
    /// `verify-ca` and `verify-full` check it against the system's trusted roots.
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var sslMode: SSLMode
    /// Seconds to wait for the server to answer a connection before giving up.
    public var connectTimeout: Double

    public init(
        user: String, password: String?, host: String, port: Int = 5432, database: String, sslMode: SSLMode = .prefer,
        connectTimeout: Double = 10
    ) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.sslMode = sslMode
        self.connectTimeout = connectTimeout
    }

    /// Parses `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=...&connect_timeout=S]`
    /// (`postgresql://` too); user, password and database may be percent-encoded.
    public init(parsing text: String, environment: [String: String]) throws {
        func invalid(_ problem: String) -> SondeError { StoreURLSyntax.invalid(text, problem) }
        guard let schemeEnd = text.range(of: "://") else { throw invalid("no scheme") }
        var rest = Substring(text[schemeEnd.upperBound...])
        var query: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        guard let slash = rest.firstIndex(of: "/") else { throw invalid("no database name after the host") }
        let authority = rest[..<slash]
        guard let database = Self.decode(rest[rest.index(after: slash)...]), !database.isEmpty else {
            throw invalid("no database name after the host")
        }
        guard let at = authority.lastIndex(of: "@") else { throw invalid("no user (USER@ before the host)") }
        let userInfo = authority[..<at]
        var hostPort = authority[authority.index(after: at)...]
        let colon = userInfo.firstIndex(of: ":")
        guard let user = Self.decode(userInfo[..<(colon ?? userInfo.endIndex)]), !user.isEmpty else {
            throw invalid("no user (USER@ before the host)")
        }
        let password = colon.flatMap { Self.decode(userInfo[userInfo.index(after: $0)...]) }

        var port = 5432
        var host: Substring
        if hostPort.hasPrefix("[") {
            // An IPv6 address: [::1]:5432.
            guard let close = hostPort.firstIndex(of: "]") else { throw invalid("an IPv6 host without its ']'") }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            hostPort = hostPort[hostPort.index(after: close)...]
            if !hostPort.isEmpty && !hostPort.hasPrefix(":") { throw invalid("text after the IPv6 host") }
        } else if let portColon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<portColon]
            hostPort = hostPort[portColon...]
        } else {
            host = hostPort
            hostPort = ""
        }
        if hostPort.hasPrefix(":") {
            guard let number = Int(hostPort.dropFirst()), (1...65535).contains(number) else {
                throw invalid("port '\(hostPort.dropFirst())' is not a number from 1 to 65535")
            }
            port = number
        }
        guard !host.isEmpty else { throw invalid("no host") }

        var sslMode = SSLMode.prefer
        var connectTimeout = 10.0
        for parameter in query.split(separator: "&") where !parameter.isEmpty {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count == 2 ? String(parts[1]) : ""
            switch parts[0] {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    throw invalid(
                        "sslmode '\(value)' is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "connect_timeout":
                guard let seconds = Double(value), seconds > 0, seconds <= 3600 else {
                    throw invalid("connect_timeout '\(value)' is not a number of seconds from 1 to 3600")
                }
                connectTimeout = seconds
            default:
                throw invalid("unknown parameter '\(parts[0])' (sonde reads sslmode and connect_timeout)")
            }
        }
        self.init(
            user: user, password: password, host: String(host), port: port, database: database, sslMode: sslMode,
            connectTimeout: connectTimeout
        )
        if self.password == nil {
            self.password = environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 } ?? passwordFromFile(environment)
        }
    }

    /// `postgres://user@host:port/database`: what errors and logs show (never the password).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(shownHost):\(port)/\(database)"
    }

    /// The same server and credentials, another database (tests make one each; `store copy`
    /// checks the server with the maintenance database).
    public func with(database: String) -> PostgresLocation {
        var copy = self
        copy.database = database
        return copy
    }

    /// The first matching line of the password file: `host:port:database:user:password`,
    /// `*` matching anything, `\:` and `\\` escaped. Like libpq, a file others may read is
    /// ignored.
    private func passwordFromFile(_ environment: [String: String]) -> String? {
        guard
            let path = environment["PGPASSFILE"].flatMap({ $0.isEmpty ? nil : $0 })
                ?? environment["HOME"].map({ $0 + "/.pgpass" }),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let permissions = attributes[.posixPermissions] as? Int, permissions & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.passFileFields(line)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields, wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    static func passFileFields(_ line: Substring) -> [String] {
        var fields: [String] = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 5 {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }

    private static func decode(_ text: Substring) -> String? {
        String(text).removingPercentEncoding
    }
}
