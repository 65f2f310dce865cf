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

    public init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
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
