import Foundation
import Hummingbird

/// Behind a trusted reverse proxy every connection comes from the proxy: the client is the
/// address the proxy appended to `X-Forwarded-For`, so a failed-login lock or a rate limit
/// holds one browser, not the whole lab (issue 44, item 7). From any other peer the header
/// is ignored: a client writes what it likes there.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let trustedProxies: Set<String>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard trustedProxies.contains(context.peer), let header = Self.forwardedFor,
            let forwarded = Self.client(forwardedFor: request.headers[values: header], trusted: trustedProxies)
        else { return try await next(request, context) }
        var context = context
        context.client = "web " + forwarded
        return try await next(request, context)
    }

    static let forwardedFor = HTTPFields.Element.Name("X-Forwarded-For")

    /// The rightmost address of the `X-Forwarded-For` chain that is not a trusted proxy
    /// (each proxy appends the address it saw; the leftmost entries are the client's to
    /// invent); nil when there is none or it is not an IP address.
    static func client(forwardedFor lines: [String], trusted: Set<String>) -> String? {
        let chain = lines.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for entry in chain.reversed() where !trusted.contains(entry) {
            return isAddress(entry) ? entry : nil
        }
        return nil
    }

    /// An IPv4 or IPv6 literal: hex digits, dots and colons, at most 45 characters.
    static func isAddress(_ text: String) -> Bool {
        (2...45).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
                    || byte == 0x2E || byte == 0x3A
            }
            && text.contains(where: { $0 == "." || $0 == ":" })
    }
}
