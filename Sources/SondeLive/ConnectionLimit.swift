import Hummingbird
public import NIOCore
import Synchronization

/// Caps a server's open connections (the live page's and the app's): past `limit`, a connection's request is
/// answered `503 Service Unavailable` and the connection closed, so idle sockets cannot
/// grow the server's memory without bound (20,000 idle ones took it from 44 to 263 MB).
/// A connection that never sends a whole request is closed by the header timeout,
/// counted or not.
public final class ConnectionLimit: Sendable {
    public let limit: Int
    private let open = Atomic<Int>(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// What Hummingbird adds to each connection, after its HTTP codec.
    public func handlers() -> [any RemovableChannelHandler] { [Installer(limit: self)] }

    /// Connections counted in now.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    /// Counts a connection in; false when it is over the limit (and not counted).
    fileprivate func enter() -> Bool {
        if open.add(1, ordering: .relaxed).newValue <= limit { return true }
        open.subtract(1, ordering: .relaxed)
        return false
    }

    fileprivate func leave() {
        open.subtract(1, ordering: .relaxed)
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
        private static let refusal =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 5\r\nConnection: close\r\n\r\n"

        init(limit: ConnectionLimit) {
            self.limit = limit
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { admit() }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit()
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            if state == .counted { limit.leave() }
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

        private func admit() {
            guard state == .new else { return }
            state = limit.enter() ? .counted : .refused
        }
    }
}
