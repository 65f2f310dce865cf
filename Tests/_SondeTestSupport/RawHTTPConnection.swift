import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP connection to a server on loopback, for tests that send what a browser
/// would not (half a header, a huge body); closed in deinit.
///
/// `answer()` waits off Swift's cooperative threads: a test blocked in `recv` there starves
/// the very server (whose handlers run on them) it waits for, and on two cores two such
/// tests at once stalled each other until every read timed out.
public final class RawHTTPConnection: @unchecked Sendable {
    public let descriptor: Int32

    /// - Parameter source: the loopback address to connect from (any of 127.0.0.0/8 on
    /// Linux), for tests of per-client limits; nil: the kernel's choice.
    public init(port: Int, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    public func send(_ text: String) {
        send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// One whole request (closing the connection after it) and its answer: the status, the
    /// headers (names lowercased; `set-cookie` lines joined by newlines) and the body.
    public static func exchange(
        port: Int, from source: String? = nil, _ method: String, _ path: String, headers: [String: String] = [:],
        form: [String: String]? = nil
    ) async throws -> (status: Int, headers: [String: String], body: String) {
        let connection = try RawHTTPConnection(port: port, from: source)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        var body = ""
        if let form {
            body = form.map { "\($0.key)=\(Self.percentEncoded($0.value))" }.sorted().joined(separator: "&")
            head += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
        }
        connection.send(head + "\r\n" + body)
        let text = await connection.answer().text
        let parts = text.components(separatedBy: "\r\n\r\n")
        let lines = (parts.first ?? "").components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { $0 + "\n" + value } ?? value
        }
        return (status, fields, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    private static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// `readUntilClosed()` on a thread of its own.
    public func answer() async -> (text: String, closed: Bool) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.readUntilClosed()) }
        }
    }

    /// Everything until the server closes, or what came before the 30 s receive timeout (a
    /// loaded machine).
    public func readUntilClosed() -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count == 0 { return (String(decoding: bytes, as: UTF8.self), true) }
            if count < 0 { return (String(decoding: bytes, as: UTF8.self), false) }
            bytes += chunk[..<count]
        }
    }
}
