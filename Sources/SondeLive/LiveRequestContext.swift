import Hummingbird
import NIOCore

/// Hummingbird's request context plus the connection, so the event stream can bound the
/// kernel's send buffer of its client.
struct LiveRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }

    /// Bytes the kernel may hold for a client of the event stream (Linux doubles it). The
    /// default grows to megabytes: a client that stopped reading would take a minute of
    /// updates before its own buffer (`LiveBroadcast`) drops any, and a slow one would
    /// show a backlog instead of the latest values. 32 KiB still carries several updates
    /// a second to a browser across a network.
    static let eventSendBuffer = 32 * 1024

    /// Applies `eventSendBuffer` to this connection.
    func boundSendBuffer() {
        _ = channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(Self.eventSendBuffer))
    }
}
