import Synchronization

/// The address people open the app at, for links that leave the browser (the reset
/// message's): `--public-url` when given, else the bound listening address, which is only
/// known once the server listens (port 0), after the services that need it are made.
final class PublicAddress: Sendable {
    private let url = Mutex<String?>(nil)

    /// Sets the address once; later calls change nothing.
    func settle(_ address: String) {
        url.withLock { url in
            if url == nil { url = address.hasSuffix("/") ? String(address.dropLast()) : address }
        }
    }

    /// `path` under the address, or nil before the server listens.
    func page(_ path: String) -> String? {
        url.withLock { url in url.map { $0 + path } }
    }
}
