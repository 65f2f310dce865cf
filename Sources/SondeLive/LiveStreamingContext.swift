public import Hummingbird
public import NIOCore

/// A request context that knows its connection, so the event stream can bound the
/// kernel's send buffer of its client (`LiveRoutes`' `/events`). Optional: under a context
/// without it the events still flow, with the kernel's default buffer.
public protocol LiveStreamingContext: RequestContext {
    var channel: any Channel { get }
}

extension LiveStreamingContext {
    /// Bytes the kernel may hold for a client of the event stream (Linux doubles it). The
    /// default grows to megabytes: a client that stopped reading would take a minute of
    /// updates before its own buffer (`LiveBroadcast`) drops any, and a slow one would
    /// show a backlog instead of the latest values. 32 KiB still carries several updates
    /// a second to a browser across a network.
    public static var eventSendBuffer: Int { 32 * 1024 }

    /// Applies `eventSendBuffer` to this connection.
    public func boundSendBuffer() {
        _ = channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(Self.eventSendBuffer))
    }
}
