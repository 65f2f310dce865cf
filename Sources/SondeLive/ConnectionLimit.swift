import Hummingbird
public import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Caps a server's open connections (the live page's and the app's): past `limit`, a connection's request is
/// answered `503 Service Unavailable` and the connection closed, so idle sockets cannot
/// grow the server's memory without bound (20,000 idle ones took it from 44 to 263 MB).
/// A connection that never sends a whole request is closed by the header timeout, and a
/// refused one that sends nothing within a second is closed then, so refused sockets do
/// not eat the file descriptors the cap protects.
///
/// One client address may also hold at most `perClientLimit` (its exempt addresses, a
/// trusted proxy, excepted): past that its new connections are closed at once, so 20,000
/// half-sent requests from one address leave every other client served.
public final class ConnectionLimit: Sendable {
    public let limit: Int
    public let perClientLimit: Int
    private let exempt: Set<String>
    private let open = Atomic<Int>(0)
    private let perClient = Mutex<[String: Int]>([:])

    public init(limit: Int, perClientLimit: Int = .max, exempt: Set<String> = []) {
        self.limit = limit
        self.perClientLimit = perClientLimit
        self.exempt = exempt
    }

    /// The connections a process may keep open under its file-descriptor limit: `wanted`,
    /// or the soft `RLIMIT_NOFILE` less `reserve` for files, the database and the listener
    /// if that is smaller (never below 16), so the cap is reached before `accept` fails.
    public static func budget(wanted: Int, reserve: Int = 256) -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0, limits.rlim_cur != rlim_t.max else {
            return wanted
        }
        return min(wanted, max(16, Int(clamping: limits.rlim_cur) - reserve))
    }

    /// What Hummingbird adds to each connection, after its HTTP codec.
    public func handlers() -> [any RemovableChannelHandler] { [Installer(limit: self)] }

    /// Connections counted in now.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    /// Whether a connection from `address` is in: counted, over the limit (not counted; 503),
    /// or over its client's limit (not counted; closed at once).
    fileprivate enum Admission { case counted, overLimit, overClientLimit }

    fileprivate func enter(from address: String?) -> Admission {
        let perClientCounted = address.map { isCountedPerClient($0) } ?? false
        if perClientCounted, let address {
            let admitted = perClient.withLock { counts in
                let count = counts[address, default: 0]
                guard count < perClientLimit else { return false }
                counts[address] = count + 1
                return true
            }
            if !admitted { return .overClientLimit }
        }
        if open.add(1, ordering: .relaxed).newValue <= limit { return .counted }
        open.subtract(1, ordering: .relaxed)
        if perClientCounted, let address { leaveClient(address) }
        return .overLimit
    }

    fileprivate func leave(from address: String?) {
        open.subtract(1, ordering: .relaxed)
        if let address, isCountedPerClient(address) { leaveClient(address) }
    }

    private func isCountedPerClient(_ address: String) -> Bool {
        perClientLimit != .max && !exempt.contains(address)
    }

    private func leaveClient(_ address: String) {
        perClient.withLock { counts in
            let count = counts[address, default: 1] - 1
            counts[address] = count > 0 ? count : nil
        }
    }

    /// Puts the gate at the front of the pipeline, before the HTTP decoder, where it sees
    /// the connection's bytes and can answer without the HTTP types; then passes data on.
    private final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = Any
        private let limit: ConnectionLimit

        init(limit: ConnectionLimit) {
            self.limit = limit
        }

        func handlerAdded(context: ChannelHandlerContext) {
            // Failing to add it (a connection closing already) leaves nothing to guard.
            try? context.pipeline.syncOperations.addHandler(Gate(limit: limit), position: .first)
        }
    }

    /// Lets a counted connection's bytes through; answers the others' first bytes with 503.
    private final class Gate: ChannelDuplexHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let limit: ConnectionLimit
        private enum State { case new, counted, refused, answered }
        private var state = State.new
        private var address: String?
        private static let refusal =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 5\r\nConnection: close\r\n\r\n"

        init(limit: ConnectionLimit) {
            self.limit = limit
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { admit(context: context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit(context: context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            if state == .counted { limit.leave(from: address) }
            state = .answered
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch state {
            case .new, .counted:
                context.fireChannelRead(data)
            case .refused:
                state = .answered
                let bytes = ByteBuffer(string: Self.refusal)
                // On the channel's event loop, where the handler and its context live.
                context.writeAndFlush(wrapOutboundOut(bytes)).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            case .answered:
                break
            }
        }

        private func admit(context: ChannelHandlerContext) {
            guard state == .new else { return }
            address = context.channel.remoteAddress?.ipAddress
            switch limit.enter(from: address) {
            case .counted:
                state = .counted
            case .overLimit:
                state = .refused
                // A refused connection that sends nothing is not kept for the header timeout.
                let channel = context.channel
                context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            case .overClientLimit:
                state = .answered
                context.close(promise: nil)
            }
        }
    }
}
